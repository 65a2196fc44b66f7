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

    /// The image's width, in pixels.
    public var width: Int { image.width }
    /// The image's height, in pixels.
    public var height: Int { image.height }
    /// The image's pixel format.
    public var format: PixelFormat { image.format }
    /// Always nil: a PNG output has no events to poll.
    public var pollDescriptor: Int32? { nil }
    /// Writing the file is synchronous, so a frame is never pending.
    public var isBusy: Bool { false }
    /// True until the first frame is written.
    public var needsFullRedraw: Bool { firstFrame }

    /// Draws a frame into the in-memory image and replaces the PNG file with it.
    ///
    /// The first frame is drawn whole; later ones only their damage, since the image keeps
    /// the previous frame. The file is written even when the damage is empty.
    ///
    /// - Parameters:
    ///   - damage: What changed since the previous frame, in pixels.
    ///   - draw: Paints the given rectangles (and nothing else differently) on the surface.
    /// - Throws: `PNG.Error` when the file cannot be written, or whatever `draw` throws.
    public func present(damage: [IntRect], draw: (Surface, [IntRect]) throws -> Void) throws {
        let rects = firstFrame ? [image.surface.bounds] : damage
        try draw(image.surface, rects)
        try PNG.write(image.surface, to: path, durable: false)
        firstFrame = false
    }

    /// Does nothing: a PNG output has no events.
    public func handleEvents() throws {}
    /// Does nothing: the file is complete after each frame and nothing is held open.
    public func close() {}
}
