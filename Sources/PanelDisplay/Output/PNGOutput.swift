import PanelGauge

/// The headless backend: keeps the frame in memory and replaces a PNG file
/// with it after every `present` (atomically: readers see the old or the new
/// image, never half of one). The file is not fsynced: a frame is made again
/// from the values, so flash storage is spared a flush per frame; the daemon
/// also writes at most one frame per `--png-interval` (default 1 s).
public final class PNGOutput: FrameOutput {
    /// The file each frame replaces.
    public let path: String
    private let image: Image
    private var firstFrame = true

    /// A `width` x `height` frame in `format`, written to `path` at each `present`.
    public init(path: String, width: Int, height: Int, format: PixelFormat = .xrgb8888) {
        self.path = path
        self.image = Image(width: width, height: height, format: format)
    }

    public var width: Int { image.width }
    public var height: Int { image.height }
    public var format: PixelFormat { image.format }
    public var pollDescriptor: Int32? { nil }
    /// Writing the file is synchronous, so a frame is never pending.
    public var isBusy: Bool { false }
    public var needsFullRedraw: Bool { firstFrame }

    public func present(damage: [IntRect], draw: (Surface, [IntRect]) throws -> Void) throws {
        let rects = firstFrame ? [image.surface.bounds] : damage
        try draw(image.surface, rects)
        try PNG.write(image.surface, to: path, durable: false)
        firstFrame = false
    }

    public func handleEvents() throws {}
    public func close() {}
}
