/// A non-owning view of pixel memory: base address, size, stride and format.
///
/// This is what a DRM dumb buffer, an fbdev mapping, an ``Image`` and a test all
/// draw into. Rows are `stride` bytes apart (`stride >= width * bytesPerPixel`;
/// never assume equality). The view does not keep the memory alive: its owner
/// must outlive every use.
public struct Surface {
    /// The address of the first pixel of the top row.
    public let base: UnsafeMutableRawPointer
    /// The width in pixels; not negative.
    public let width: Int
    /// The height in pixels (the number of rows); not negative.
    public let height: Int
    /// Distance in bytes between the starts of two consecutive rows.
    public let stride: Int
    /// The memory layout of a pixel.
    public let format: PixelFormat

    /// Wraps memory. Traps if the geometry is impossible (negative sizes, a
    /// stride shorter than a row, or a misaligned base or stride).
    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat) {
        precondition(width >= 0 && height >= 0, "surface size must not be negative")
        precondition(stride >= width * format.bytesPerPixel, "stride \(stride) is shorter than a row")
        precondition(
            stride % format.bytesPerPixel == 0 && Int(bitPattern: base) % format.bytesPerPixel == 0,
            "pixel rows must be aligned to the pixel size")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
    }

    /// `0 ..< width` x `0 ..< height`.
    public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// The first byte of row `y`.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutableRawPointer { base + y &* stride }

    /// A view of `rect` (clipped to the bounds) whose own origin is the rectangle's
    /// top-left corner: drawing at (0, 0) in it lands at `rect.origin` here.
    public func subsurface(_ rect: IntRect) -> Surface {
        let r = rect.intersection(bounds)
        return Surface(
            base: base + r.y * stride + r.x * format.bytesPerPixel, width: r.width, height: r.height,
            stride: stride, format: format)
    }

    /// The colour of pixel `(x, y)` as 8-bit sRGB. RGB565 channels are widened by
    /// bit replication (`r8 = r5 << 3 | r5 >> 2`), as pixman and QEMU do.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        precondition(bounds.contains(IntRect(x: x, y: y, width: 1, height: 1)), "pixel out of bounds")
        switch format {
        case .xrgb8888:
            let w = row(y).load(fromByteOffset: x * 4, as: UInt32.self).littleEndian
            return (UInt8(truncatingIfNeeded: w >> 16), UInt8(truncatingIfNeeded: w >> 8), UInt8(truncatingIfNeeded: w))
        case .rgb565:
            let w = row(y).load(fromByteOffset: x * 2, as: UInt16.self).littleEndian
            return RGB565.expand(w)
        }
    }

    /// Packs the pixels as tightly packed 8-bit RGB triples, row after row.
    public func rgbBytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        var i = 0
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x: x, y: y)
                out[i] = p.red
                out[i + 1] = p.green
                out[i + 2] = p.blue
                i += 3
            }
        }
        return out
    }
}

/// Helpers for the 5-6-5 packing.
public enum RGB565 {
    /// Widens a 5-6-5 word to 8-bit channels by bit replication.
    @inline(__always)
    public static func expand(_ w: UInt16) -> (UInt8, UInt8, UInt8) {
        let r5 = UInt8(truncatingIfNeeded: w >> 11), g6 = UInt8(truncatingIfNeeded: (w >> 5) & 0x3F)
        let b5 = UInt8(truncatingIfNeeded: w & 0x1F)
        return (r5 << 3 | r5 >> 2, g6 << 2 | g6 >> 4, b5 << 3 | b5 >> 2)
    }

    /// Packs 8-bit channels, each rounded to the nearest representable level.
    @inline(__always)
    public static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt16 {
        let r5 = (UInt16(r) &* 31 &+ 127) / 255, g6 = (UInt16(g) &* 63 &+ 127) / 255
        let b5 = (UInt16(b) &* 31 &+ 127) / 255
        return r5 << 11 | g6 << 5 | b5
    }
}
