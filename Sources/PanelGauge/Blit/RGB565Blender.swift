/// RGB565: one little-endian 16-bit word `RRRRRGGG GGGBBBBB` per pixel.
///
/// Compositing widens the destination to 8 bits per channel (bit replication),
/// blends exactly as for XRGB8888 and narrows again. Solid colours narrow with
/// rounding to the nearest level. Gradients narrow with a 4x4 ordered (Bayer)
/// dither: a smooth ramp has only 32 levels of red and blue in this format, and
/// plain rounding turns it into visible bands; the dither spreads the rounding
/// error over a fixed pattern whose average is the exact 8-bit colour.
enum RGB565Blender: PixelBlender {
    /// Bayer thresholds, scaled to 8 ... 248 (mean 128: unbiased).
    private static let bayer:
        (
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
        ) =
            (8, 136, 40, 168, 200, 72, 232, 104, 56, 184, 24, 152, 248, 120, 216, 88)

    @inline(__always)
    private static func threshold(_ x: Int, _ y: Int) -> UInt32 {
        withUnsafeBytes(of: bayer) { $0.load(fromByteOffset: ((y & 3) * 4 + (x & 3)) * 4, as: UInt32.self) }
    }

    @inline(__always)
    static func widen(_ w: UInt16) -> UInt32 {
        let (r, g, b) = RGB565.expand(w)
        return UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }

    @inline(__always)
    static func narrow(_ c: UInt32) -> UInt16 {
        RGB565.pack(UInt8(truncatingIfNeeded: c >> 16), UInt8(truncatingIfNeeded: c >> 8), UInt8(truncatingIfNeeded: c))
    }

    /// Narrows with the dither threshold `d` (0 ... 255): floor((c * levels + d) / 255).
    @inline(__always)
    static func narrowDithered(_ c: UInt32, _ d: UInt32) -> UInt16 {
        let r = (((c >> 16) & 0xFF) &* 31 &+ d) / 255
        let g = (((c >> 8) & 0xFF) &* 63 &+ d) / 255
        let b = ((c & 0xFF) &* 31 &+ d) / 255
        return UInt16(truncatingIfNeeded: r << 11 | g << 5 | b)
    }

    @inline(__always)
    static func fill(row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32) {
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        p.update(repeating: narrow(color), count: count)
    }

    @inline(__always)
    static func blend(row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32) {
        if alpha >= 255 { return fill(row: row, x: x, count: count, color: color) }
        if alpha == 0 { return }
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        for i in 0..<count { p[i] = narrow(blendXRGB(widen(p[i]), color, alpha)) }
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alphas: UnsafePointer<UInt8>
    ) {
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        let packed = narrow(color)
        for i in 0..<count {
            let a = UInt32(alphas[i])
            if a == 255 {
                p[i] = packed
            } else if a != 0 {
                p[i] = narrow(blendXRGB(widen(p[i]), color, a))
            }
        }
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32,
        coverage: UnsafePointer<UInt8>
    ) {
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        for i in 0..<count {
            let a = div255(UInt32(coverage[i]) &* alpha)
            if a != 0 { p[i] = narrow(blendXRGB(widen(p[i]), color, a)) }
        }
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, y: Int, x: Int, count: Int, colors: UnsafePointer<UInt32>,
        coverage: UnsafePointer<UInt8>?, constantCoverage: UInt32
    ) {
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        for i in 0..<count {
            let c = colors[i]
            let cov = coverage.map { UInt32($0[i]) } ?? constantCoverage
            let a = div255((c >> 24) &* cov)
            if a == 0 { continue }
            let mixed = a == 255 ? c & 0xFF_FFFF : blendXRGB(widen(p[i]), c & 0xFF_FFFF, a)
            p[i] = narrowDithered(mixed, threshold(x + i, y))
        }
    }
}
