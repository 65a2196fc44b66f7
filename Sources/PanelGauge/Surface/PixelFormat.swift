/// The memory layout of one pixel in a framebuffer.
///
/// Both formats are little-endian words, as DRM's `DRM_FORMAT_*` codes define them.
public enum PixelFormat: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 32-bit word `0xXXRRGGBB` (bytes in memory B, G, R, X); the X byte is ignored
    /// on read and written as 0xFF.
    case xrgb8888
    /// 16-bit word `RRRRRGGG GGGBBBBB`.
    case rgb565

    /// Bytes per pixel.
    public var bytesPerPixel: Int {
        switch self {
        case .xrgb8888: 4
        case .rgb565: 2
        }
    }

    /// The format's DRM-style name: `XRGB8888` or `RGB565`.
    public var description: String {
        switch self {
        case .xrgb8888: "XRGB8888"
        case .rgb565: "RGB565"
        }
    }
}
