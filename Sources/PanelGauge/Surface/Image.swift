/// An owning pixel buffer for tests, previews and headless output.
///
/// Its memory lives as long as the image; ``surface`` is the view to draw into.
public final class Image {
    /// The view of the image's pixels to draw into; valid as long as the image lives.
    public let surface: Surface
    private let storage: UnsafeMutableRawPointer

    /// Allocates a `width` x `height` image, rows padded to `stride` bytes (at
    /// least a row; by default exactly a row), filled with opaque black.
    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888, stride: Int? = nil) {
        let s = stride ?? width * format.bytesPerPixel
        let bytes = max(1, s * height)
        storage = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        surface = Surface(base: storage, width: width, height: height, stride: s, format: format)
        if format == .xrgb8888 {
            for y in 0..<height {
                let row = surface.row(y).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width { row[x] = 0xFF00_0000 }
            }
        }
    }

    deinit { storage.deallocate() }

    /// The width in pixels.
    public var width: Int { surface.width }
    /// The height in pixels.
    public var height: Int { surface.height }
    /// The memory layout of a pixel.
    public var format: PixelFormat { surface.format }
}
