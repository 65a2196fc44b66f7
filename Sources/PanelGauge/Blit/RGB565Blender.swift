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
    static func threshold(_ x: Int, _ y: Int) -> UInt32 {
        withUnsafeBytes(of: bayer) { $0.load(fromByteOffset: ((y & 3) &* 4 &+ (x & 3)) &* 4, as: UInt32.self) }
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

    // Runs of four or more pixels go four per step (`forEachQuad`): widened to
    // XRGB8888 in SIMD4 lanes, composited by `blendXRGB` and narrowed in 16-bit
    // lanes, bit for bit the scalar path; shorter runs stay scalar. Widening and
    // rounding back give the same word, so a lane with alpha 0 is stored
    // unchanged; dithering does not, so the gradient path keeps such lanes.

    /// Pixels `i ..< i + 4` of `p`, one word per lane.
    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt16>, _ i: Int) -> SIMD4<UInt32> {
        SIMD4(UInt32(p[i]), UInt32(p[i &+ 1]), UInt32(p[i &+ 2]), UInt32(p[i &+ 3]))
    }

    @inline(__always)
    private static func store(_ v: SIMD4<UInt32>, _ p: UnsafeMutablePointer<UInt16>, _ i: Int) {
        for k in 0..<4 { p[i &+ k] = UInt16(truncatingIfNeeded: v[k]) }
    }

    /// `widen` on four words.
    @inline(__always)
    private static func widen(_ w: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let r = (w & 0xF800) &<< 8 | (w & 0xE000) &<< 3
        let g = (w & 0x07E0) &<< 5 | (w & 0x0600) &>> 1
        return r | g | (w & 0x1F) &<< 3 | (w & 0x1C) &>> 2
    }

    /// Four colours (0xXXRRGGBB) narrowed, each channel to floor((c * levels + d) /
    /// 255) with `d` in both 16-bit halves of the pixel's lane: 127 rounds as
    /// `narrow` does, a dither threshold dithers as `narrowDithered` does.
    @inline(__always)
    private static func narrow(_ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>) -> SIMD4<UInt32> {
        // floor(x / 255) for x < 65535; here x <= 255 * 63 + 255.
        @inline(__always)
        func floorDiv255(_ x: SIMD4<UInt32>) -> SIMD4<UInt32> {
            let t = unsafeBitCast(x, to: SIMD8<UInt16>.self) &+ 1
            return unsafeBitCast((t &+ (t &>> 8)) &>> 8, to: SIMD4<UInt32>.self)
        }
        @inline(__always)
        func times(_ x: SIMD4<UInt32>, _ n: UInt16) -> SIMD4<UInt32> {
            unsafeBitCast(unsafeBitCast(x, to: SIMD8<UInt16>.self) &* n, to: SIMD4<UInt32>.self)
        }
        // Blue and red in the 16-bit halves of each lane, green alone.
        let br = floorDiv255(times(c & 0x00FF_00FF, 31) &+ d)
        let g = floorDiv255(times((c &>> 8) & 0xFF, 63) &+ (d & 0xFFFF))
        return (br &>> 5) & 0xF800 | g &<< 5 | br & 0x1F
    }

    /// The rounding term of `narrow` in both halves of every lane (computed: a
    /// stored vector constant would be initialised lazily, checked on every use).
    @inline(__always)
    private static var rounding: SIMD4<UInt32> { SIMD4(repeating: 127 &* 0x1_0001) }

    @inline(__always)
    static func fill(row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32) {
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        p.update(repeating: narrow(color), count: count)
    }

    @inline(__always)
    static func blendPixel(row: UnsafeMutableRawPointer, x: Int, color: UInt32, alpha: UInt32) {
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        p.pointee = alpha >= 255 ? narrow(color) : narrow(blendXRGB(widen(p.pointee), color, alpha))
    }

    @inline(__always)
    static func quadSource(_ color: UInt32) -> UInt32 { color }

    @inline(__always)
    static func blendQuad(row: UnsafeMutableRawPointer, x: Int, source: UInt32, alphas: SIMD8<UInt16>) {
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        store(narrow(blendXRGB(widen(load(p, 0)), SIMD4(repeating: source), alphas), rounding), p, 0)
    }

    /// (No memo here yet: a plain blend.)
    @inline(__always)
    static func blendEvenQuad(
        row: UnsafeMutableRawPointer, x: Int, source: UInt32, alphas: SIMD8<UInt16>, memo: inout EvenQuadMemo
    ) {
        blendQuad(row: row, x: x, source: source, alphas: alphas)
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32, memo: inout RunMemo
    ) {
        blend(row: row, x: x, count: count, color: color, alpha: alpha)
    }

    @inline(__always)
    static func blend(row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32) {
        if alpha >= 255 { return fill(row: row, x: x, count: count, color: color) }
        if alpha == 0 { return }
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        guard count >= 4 else {
            for i in 0..<count { p[i] = narrow(blendXRGB(widen(p[i]), color, alpha)) }
            return
        }
        let src = SIMD4<UInt32>(repeating: color)
        forEachQuad(count) { i, lanes in
            store(narrow(blendXRGB(widen(load(p, i)), src, spreadByte(alpha, lanes: lanes)), rounding), p, i)
        }
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alphas: UnsafePointer<UInt8>
    ) {
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        let packed = narrow(color)
        guard count >= 4 else {
            for i in 0..<count {
                let a = UInt32(alphas[i])
                if a == 255 {
                    p[i] = packed
                } else if a != 0 {
                    p[i] = narrow(blendXRGB(widen(p[i]), color, a))
                }
            }
            return
        }
        let src = SIMD4<UInt32>(repeating: color)
        let opaque = SIMD4<UInt32>(repeating: UInt32(packed))
        forEachQuad(count) { i, lanes in
            let w = fourBytes(alphas, i) & lanes
            if w == 0xFFFF_FFFF {
                store(opaque, p, i)
            } else if w != 0 {
                store(narrow(blendXRGB(widen(load(p, i)), src, spreadBytes(w)), rounding), p, i)
            }
        }
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32,
        coverage: UnsafePointer<UInt8>
    ) {
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        guard count >= 4 else {
            for i in 0..<count {
                let a = div255(UInt32(coverage[i]) &* alpha)
                if a != 0 { p[i] = narrow(blendXRGB(widen(p[i]), color, a)) }
            }
            return
        }
        let src = SIMD4<UInt32>(repeating: color)
        let scale = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: alpha))
        forEachQuad(count) { i, lanes in
            let w = fourBytes(coverage, i) & lanes
            if w != 0 {
                let a = div255(spreadBytes(w) &* scale)
                store(narrow(blendXRGB(widen(load(p, i)), src, a), rounding), p, i)
            }
        }
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, y: Int, x: Int, count: Int, colors: UnsafePointer<UInt32>,
        coverage: UnsafePointer<UInt8>?, constantCoverage: UInt32, opaque: Bool
    ) {
        let p = row.assumingMemoryBound(to: UInt16.self) + x
        guard count >= 4 else {
            for i in 0..<count {
                let c = colors[i]
                let cov = coverage.map { UInt32($0[i]) } ?? constantCoverage
                let a = div255((c >> 24) &* cov)
                if a == 0 { continue }
                let mixed = a == 255 ? c & 0xFF_FFFF : blendXRGB(widen(p[i]), c & 0xFF_FFFF, a)
                p[i] = narrowDithered(mixed, threshold(x &+ i, y))
            }
            return
        }
        /// The thresholds of pixels `i ..< i + 4`, in both halves of each lane.
        @inline(__always)
        func thresholds(_ i: Int) -> SIMD4<UInt32> {
            let t = SIMD4(
                threshold(x &+ i, y), threshold(x &+ i &+ 1, y), threshold(x &+ i &+ 2, y), threshold(x &+ i &+ 3, y))
            return t | t &<< 16
        }
        // Every full quad starts 4n pixels after x: the same thresholds as at x.
        let aligned = thresholds(0)
        forEachQuad(count) { i, lanes in
            let cov =
                coverage.map { spreadBytes(fourBytes($0, i) & lanes) } ?? spreadByte(constantCoverage, lanes: lanes)
            let c = UnsafeRawPointer(colors + i).loadUnaligned(as: SIMD4<UInt32>.self)
            let ca = c &>> 24
            let a = div255(unsafeBitCast(ca | ca &<< 16, to: SIMD8<UInt16>.self) &* cov)
            let words = load(p, i)
            let mixed = narrow(blendXRGB(widen(words), c, a), lanes == 0xFFFF_FFFF ? aligned : thresholds(i))
            // All ones where alpha > 0: those lanes take the new word, the others keep theirs.
            let changed = unsafeBitCast((0 &- unsafeBitCast(a, to: SIMD4<Int32>.self)) &>> 31, to: SIMD4<UInt32>.self)
            store(mixed & changed | words & ~changed, p, i)
        }
    }
}
