#if canImport(Glibc)
    import Glibc
#endif

/// glibc's `wmemset` (wchar_t is 32 bits on Linux): a 32-bit fill that glibc
/// vectorises for the CPU at hand (AVX2 where present). The Glibc module does
/// not export it, so it is looked up once at run time; nil where absent.
/// `XRGB8888Blender.fill` calls it on x86_64 only.
enum WideFill {
    typealias Function = @convention(c) (UnsafeMutableRawPointer?, UInt32, Int) -> UnsafeMutableRawPointer?
    static let wmemset: Function? = {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wmemset") else { return nil }
        return unsafeBitCast(sym, to: Function.self)
    }()
}

/// XRGB8888: one little-endian word `0xXXRRGGBB` per pixel; X is written 0xFF.
enum XRGB8888Blender: PixelBlender {
    @inline(__always)
    static func fill(row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32) {
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        let word = 0xFF00_0000 | color
        // x86_64's glibc vectorises wmemset; aarch64's (glibc 2.36 and 2.41) stores 8 bytes
        // per loop turn, so there the loop below fills runs of every length
        // (docs/performance.md, "aarch64").
        #if arch(x86_64)
            if count >= 64, let wmemset = WideFill.wmemset {
                _ = wmemset(UnsafeMutableRawPointer(p), word, count)
                return
            }
        #endif
        // Eight pixels per (unaligned) vector store; the last store ends the run
        // and may overlap the one before it. Shorter runs: two stores of four,
        // overlapping, or one by one.
        let raw = UnsafeMutableRawPointer(p)
        if count >= 8 {
            let v = SIMD8<UInt32>(repeating: word)
            var i = 0
            while i &+ 8 < count {
                raw.storeBytes(of: v, toByteOffset: i &* 4, as: SIMD8<UInt32>.self)
                i &+= 8
            }
            raw.storeBytes(of: v, toByteOffset: (count &- 8) &* 4, as: SIMD8<UInt32>.self)
        } else if count >= 4 {
            let v = SIMD4<UInt32>(repeating: word)
            raw.storeBytes(of: v, as: SIMD4<UInt32>.self)
            raw.storeBytes(of: v, toByteOffset: (count &- 4) &* 4, as: SIMD4<UInt32>.self)
        } else {
            for i in 0..<count { p[i] = word }
        }
    }

    // Runs of four or more pixels are composited four per step (`forEachQuad`) by
    // `blendXRGB` on SIMD4, bit for bit the scalar formula; alpha 0 leaves a
    // pixel unchanged. Shorter runs (most edge spans are one to three pixels)
    // stay scalar.

    /// Pixels `i ..< i + 4` of `p`.
    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt32>, _ i: Int) -> SIMD4<UInt32> {
        UnsafeRawPointer(p + i).loadUnaligned(as: SIMD4<UInt32>.self)
    }

    @inline(__always)
    private static func store(_ v: SIMD4<UInt32>, _ p: UnsafeMutablePointer<UInt32>, _ i: Int) {
        UnsafeMutableRawPointer(p + i).storeBytes(of: v, as: SIMD4<UInt32>.self)
    }

    @inline(__always)
    static func blendPixel(row: UnsafeMutableRawPointer, x: Int, color: UInt32, alpha: UInt32) {
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        p.pointee = alpha >= 255 ? 0xFF00_0000 | color : blendXRGB(p.pointee, color, alpha)
    }

    @inline(__always)
    static func quadSource(_ color: UInt32) -> SplitXRGB { SplitXRGB(SIMD4(repeating: color)) }

    @inline(__always)
    static func blendQuad(row: UnsafeMutableRawPointer, x: Int, source: SplitXRGB, alphas: SIMD8<UInt16>) {
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        store(blendXRGB(load(p, 0), source, alphas), p, 0)
    }

    @inline(__always)
    static func blendEvenQuad(
        row: UnsafeMutableRawPointer, x: Int, source: SplitXRGB, alphas: SIMD8<UInt16>, memo: inout EvenQuadMemo
    ) {
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        let d = load(p, 0)
        let diff = unsafeBitCast(d ^ SIMD4(repeating: memo.under), to: SIMD2<UInt64>.self)
        if memo.valid && diff[0] | diff[1] == 0 { return store(SIMD4(repeating: memo.over), p, 0) }
        let r = blendXRGB(d, source, alphas)
        store(r, p, 0)
        memo = EvenQuadMemo(under: d[0], over: r[0], valid: true)
    }

    @inline(__always)
    static func blend(row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32) {
        var memo = RunMemo()
        blend(row: row, x: x, count: count, color: color, alpha: alpha, memo: &memo)
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32, memo: inout RunMemo
    ) {
        if alpha >= 255 { return fill(row: row, x: x, count: count, color: color) }
        if alpha == 0 { return }
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        guard count >= 4 else {
            for i in 0..<count { p[i] = blendXRGB(p[i], color, alpha) }
            return
        }
        let src = SIMD4<UInt32>(repeating: color)
        guard count >= 16 else {
            forEachQuad(count) { i, lanes in store(blendXRGB(load(p, i), src, spreadByte(alpha, lanes: lanes)), p, i) }
            return
        }
        // A long translucent run mostly lies over one colour (the background
        // under a track): four such pixels take the one result, computed once
        // (or kept from the run before, for the runs of one shape's rows: 16 K
        // instructions a frame fewer on the gauge-panel scene at 1920x1080,
        // its accessory track's and bar track's runs).
        let first = p[0]
        if memo.under != first || memo.alpha != alpha {
            memo = RunMemo(under: first, over: blendXRGB(first, color, alpha), alpha: alpha)
        }
        let under = SIMD4<UInt32>(repeating: first)
        let over = SIMD4<UInt32>(repeating: memo.over)
        // Thirty-two pixels a step while they all lie over that colour, then
        // sixteen (fewer instructions on large frames than sixteen alone).
        var i = 0
        while i &+ 32 <= count {
            let d0 = load(p, i), d1 = load(p, i &+ 4), d2 = load(p, i &+ 8), d3 = load(p, i &+ 12)
            let d4 = load(p, i &+ 16), d5 = load(p, i &+ 20), d6 = load(p, i &+ 24), d7 = load(p, i &+ 28)
            // Two halves: Swift 6.0's type checker gives up on the eight-way expression.
            let low = ((d0 ^ under) | (d1 ^ under)) | ((d2 ^ under) | (d3 ^ under))
            let high = ((d4 ^ under) | (d5 ^ under)) | ((d6 ^ under) | (d7 ^ under))
            let any = low | high
            let diff = unsafeBitCast(any, to: SIMD2<UInt64>.self)
            if diff[0] | diff[1] != 0 { break }
            for k in stride(from: 0, to: 32, by: 4) { store(over, p, i &+ k) }
            i &+= 32
        }
        while i &+ 16 <= count {
            let d0 = load(p, i), d1 = load(p, i &+ 4), d2 = load(p, i &+ 8), d3 = load(p, i &+ 12)
            let any = ((d0 ^ under) | (d1 ^ under)) | ((d2 ^ under) | (d3 ^ under))
            let diff = unsafeBitCast(any, to: SIMD2<UInt64>.self)
            if diff[0] | diff[1] != 0 { break }
            store(over, p, i)
            store(over, p, i &+ 4)
            store(over, p, i &+ 8)
            store(over, p, i &+ 12)
            i &+= 16
        }
        // The rest four at a time, then one by one, each over that colour or
        // blended. (Not the last pixels as a quad reaching back into pixels
        // done, with alpha 0 there: that takes a whole blend where they lie
        // over that colour.)
        while i &+ 4 <= count {
            let d = load(p, i)
            let diff = unsafeBitCast(d ^ under, to: SIMD2<UInt64>.self)
            store(diff[0] | diff[1] == 0 ? over : blendXRGB(d, src, spreadByte(alpha, lanes: 0xFFFF_FFFF)), p, i)
            i &+= 4
        }
        while i < count {
            let d = p[i]
            p[i] = d == under[0] ? over[0] : blendXRGB(d, color, alpha)
            i &+= 1
        }
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alphas: UnsafePointer<UInt8>
    ) {
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        guard count >= 4 else {
            for i in 0..<count {
                let a = UInt32(alphas[i])
                if a == 255 {
                    p[i] = 0xFF00_0000 | color
                } else if a != 0 {
                    p[i] = blendXRGB(p[i], color, a)
                }
            }
            return
        }
        let src = SIMD4<UInt32>(repeating: color)
        let opaque = SIMD4<UInt32>(repeating: 0xFF00_0000 | color)
        @inline(__always) func step(_ i: Int, _ lanes: UInt32) {
            let w = fourBytes(alphas, i) & lanes
            if w == 0xFFFF_FFFF {
                store(opaque, p, i)
            } else if w != 0 {
                store(blendXRGB(load(p, i), src, spreadBytes(w)), p, i)
            }
        }
        // Sixteen pixels a step past coverage that is all zero (the box of a
        // glyph is mostly empty).
        var i = 0
        while i &+ 16 <= count {
            let c = UnsafeRawPointer(alphas + i)
            if c.loadUnaligned(as: UInt64.self) | c.loadUnaligned(fromByteOffset: 8, as: UInt64.self) != 0 {
                step(i, 0xFFFF_FFFF)
                step(i &+ 4, 0xFFFF_FFFF)
                step(i &+ 8, 0xFFFF_FFFF)
                step(i &+ 12, 0xFFFF_FFFF)
            }
            i &+= 16
        }
        // The rest (count >= 4, so the last quad may reach back into pixels done).
        if i < count {
            let base = i
            forEachQuad(count &- base) { j, lanes in step(base &+ j, lanes) }
        }
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32,
        coverage: UnsafePointer<UInt8>
    ) {
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        guard count >= 4 else {
            for i in 0..<count {
                let a = div255(UInt32(coverage[i]) &* alpha)
                if a != 0 { p[i] = blendXRGB(p[i], color, a) }
            }
            return
        }
        let src = SIMD4<UInt32>(repeating: color)
        let scale = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: alpha))
        forEachQuad(count) { i, lanes in
            let w = fourBytes(coverage, i) & lanes
            if w != 0 { store(blendXRGB(load(p, i), src, div255(spreadBytes(w) &* scale)), p, i) }
        }
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, y: Int, x: Int, count: Int, colors: UnsafePointer<UInt32>,
        coverage: UnsafePointer<UInt8>?, constantCoverage: UInt32, opaque: Bool
    ) {
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        guard count >= 4 else {
            for i in 0..<count {
                let c = colors[i]
                let a = div255((c >> 24) &* (coverage.map { UInt32($0[i]) } ?? constantCoverage))
                if a == 255 {
                    p[i] = 0xFF00_0000 | c
                } else if a != 0 {
                    p[i] = blendXRGB(p[i], c & 0xFF_FFFF, a)
                }
            }
            return
        }
        guard let coverage else {
            if constantCoverage == 255 && (opaque || allOpaque(colors, count)) {
                // Alpha 255 everywhere: a source copy (the colours' top bytes are already 0xFF).
                p.update(from: colors, count: count)
                return
            }
            return blend(p, count: count, colors: colors) { _, lanes in spreadByte(constantCoverage, lanes: lanes) }
        }
        guard opaque else {
            return blend(p, count: count, colors: colors) { i, lanes in spreadBytes(fourBytes(coverage, i) & lanes) }
        }
        // Opaque colours: the coverage is the alpha; a covered quad is a copy.
        forEachQuad(count) { i, lanes in
            let w = fourBytes(coverage, i) & lanes
            if w == 0xFFFF_FFFF {
                store(load(colors, i), p, i)
            } else if w != 0 {
                store(blendXRGB(load(p, i), load(colors, i), spreadBytes(w)), p, i)
            }
        }
    }

    /// Whether every colour in `colors[0 ..< count]` has alpha 255.
    @inline(__always)
    private static func allOpaque(_ colors: UnsafePointer<UInt32>, _ count: Int) -> Bool {
        var all: UInt32 = 0xFFFF_FFFF
        for i in 0..<count { all &= colors[i] }
        return all >= 0xFF00_0000
    }

    /// Per-pixel colours over `p[0 ..< count]` (count >= 4), each colour's alpha
    /// times the coverage `coverage(i, lanes)` gives for pixels `i ..< i + 4`, spread
    /// as by `spreadBytes` and 0 outside the byte mask `lanes`.
    @inline(__always)
    private static func blend(
        _ p: UnsafeMutablePointer<UInt32>, count: Int, colors: UnsafePointer<UInt32>,
        coverage: (Int, UInt32) -> SIMD8<UInt16>
    ) {
        forEachQuad(count) { i, lanes in
            let c = load(colors, i)
            let a = c &>> 24
            let alpha = div255(unsafeBitCast(a | a &<< 16, to: SIMD8<UInt16>.self) &* coverage(i, lanes))
            store(blendXRGB(load(p, i), c, alpha), p, i)
        }
    }
}
