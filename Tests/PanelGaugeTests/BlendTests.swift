import Testing

@testable import PanelGauge

/// The blenders process four pixels per step with SIMD; these tests hold every
/// path to the scalar definition (`blendXRGB`, `div255`) bit for bit, X byte
/// included, over random spans of every length a short edge or a long run has.
@Suite struct BlendTests {
    /// A small deterministic generator (SplitMix64), so a failing case can be replayed.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func word() -> UInt32 { UInt32(truncatingIfNeeded: next()) }
        /// 0 and 255 often (runs outside and inside a shape), anything else otherwise.
        mutating func alpha() -> UInt8 {
            switch below(4) {
            case 0: 0
            case 1: 255
            default: UInt8(truncatingIfNeeded: next())
            }
        }
    }

    /// One random case: a row with arbitrary contents (X bytes too), a span in it.
    struct Case {
        static let width = 48
        var row: [UInt32]
        let x: Int, count: Int
        var color: UInt32
        var coverage: [UInt8]
        var colors: [UInt32]

        init(_ r: inout Random) {
            row = (0..<Self.width).map { _ in r.word() }
            count = r.below(38)
            x = r.below(Self.width - count + 1)
            color = r.word() & 0xFF_FFFF
            // Runs of one value as well as noise, so whole quads of 0 or 255 occur.
            coverage = []
            while coverage.count < count {
                let a = r.alpha()
                let n = r.below(2) == 0 ? 1 : 1 + r.below(9)
                coverage += [UInt8](repeating: a, count: n)
            }
            coverage.removeLast(coverage.count - count)
            colors = (0..<count).map { _ in r.word() & 0xFF_FFFF | UInt32(r.alpha()) << 24 }
        }

        /// The row after `blend` (one pixel at a time, scalar) gives pixel `x + i`
        /// alpha `alpha(i)` and colour `source(i)`.
        func expected(alpha: (Int) -> UInt32, source: (Int) -> UInt32) -> [UInt32] {
            var out = row
            for i in 0..<count {
                let a = alpha(i)
                if a == 255 {
                    out[x + i] = 0xFF00_0000 | source(i)
                } else if a != 0 {
                    out[x + i] = blendXRGB(row[x + i], source(i), a)
                }
            }
            return out
        }

        /// The row after `draw` on it.
        func actual(_ draw: (UnsafeMutableRawPointer) -> Void) -> [UInt32] {
            var out = row
            out.withUnsafeMutableBytes { draw($0.baseAddress!) }
            return out
        }
    }

    /// The lanes' `div255` (a high-half multiply) against the scalar one, for
    /// every product of two 8-bit values and past them, to the top of a lane.
    @Test func laneDivisionMatchesScalarForEveryValue() {
        var wrong = 0
        for base in stride(from: 0, to: 65536 - 128, by: 8) {
            var x = SIMD8<UInt16>()
            for i in 0..<8 { x[i] = UInt16(min(base + i, 65535 - 128)) }
            let lanes = div255(x)
            for i in 0..<8 where UInt32(lanes[i]) != div255(UInt32(x[i])) { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    /// The four-pixel `blendXRGB` against the scalar one for every alpha, over
    /// a grid of source and destination values in each channel (red and blue
    /// share a pair of lanes, green has the other).
    @Test func quadBlendMatchesScalarForEveryAlpha() {
        var wrong = 0
        for a in 0...255 {
            let alphas = spreadByte(UInt32(a), lanes: 0xFFFF_FFFF)
            for s in stride(from: 0, through: 255, by: 3) {
                let src = UInt32(s) << 16 | UInt32(255 - s) << 8 | UInt32(s / 2)
                for d in stride(from: 0, through: 252, by: 12) {
                    let dst = SIMD4<UInt32>(
                        UInt32(d) << 16 | UInt32(d + 1) << 8 | UInt32(d + 2),
                        UInt32(d + 3) << 8 | UInt32(255 - d), 0xFF_FFFF, 0xFF00_0000 | UInt32(d) << 8)
                    let got = blendXRGB(dst, SIMD4<UInt32>(repeating: src), alphas)
                    for i in 0..<4 {
                        let want = a == 0 ? dst[i] : blendXRGB(dst[i], src, UInt32(a))
                        if got[i] != want { wrong += 1 }
                    }
                }
            }
        }
        #expect(wrong == 0)
    }

    @Test func constantAlphaMatchesScalar() {
        var r = Random(state: 1)
        for _ in 0..<4000 {
            let c = Case(&r)
            let alpha = UInt32(r.alpha())
            let got = c.actual {
                XRGB8888Blender.blend(row: $0, x: c.x, count: c.count, color: c.color, alpha: alpha)
            }
            #expect(got == c.expected(alpha: { _ in alpha }, source: { _ in c.color }), "alpha \(alpha)")
        }
    }

    /// Long translucent runs over one colour take a shortcut (one result for
    /// every quad of that colour); rows that are mostly one colour, with other
    /// pixels sprinkled in, hold it to the scalar formula.
    @Test func constantAlphaOverOneColourMatchesScalar() {
        var r = Random(state: 5)
        for _ in 0..<4000 {
            var c = Case(&r)
            let under = r.word()
            // Sparse or no other pixels too, so sixteen in a row lie over one colour.
            let odds = [5, 40, 1000][r.below(3)]
            c.row = c.row.map { r.below(odds) == 0 ? $0 : under }
            let alpha = UInt32(r.alpha())
            let got = c.actual {
                XRGB8888Blender.blend(row: $0, x: c.x, count: c.count, color: c.color, alpha: alpha)
            }
            #expect(got == c.expected(alpha: { _ in alpha }, source: { _ in c.color }), "alpha \(alpha)")
        }
    }

    /// Runs one after another with one memo (a shape's rows): runs over the
    /// colour the memo holds, over another one, with another alpha, all match
    /// the scalar formula.
    @Test func runsWithOneMemoMatchScalar() {
        var r = Random(state: 7)
        var memo = RunMemo()
        let color = r.word() & 0xFF_FFFF
        let unders = [r.word(), r.word(), r.word()]
        for _ in 0..<4000 {
            var c = Case(&r)
            c.color = color
            let under = unders[r.below(3)]
            let odds = [5, 40, 1000][r.below(3)]
            c.row = c.row.map { r.below(odds) == 0 ? $0 : under }
            let alpha = [51, 51, 77, UInt32(r.alpha())][r.below(4)]
            let got = c.actual {
                XRGB8888Blender.blend(row: $0, x: c.x, count: c.count, color: c.color, alpha: alpha, memo: &memo)
            }
            #expect(got == c.expected(alpha: { _ in alpha }, source: { _ in c.color }), "alpha \(alpha)")
        }
    }

    @Test func singlePixelsMatchScalar() {
        var r = Random(state: 6)
        for _ in 0..<4000 {
            let c = Case(&r)
            let alpha = UInt32(max(1, r.alpha()))
            let x = min(c.x, Case.width - 1)
            let got = c.actual { XRGB8888Blender.blendPixel(row: $0, x: x, color: c.color, alpha: alpha) }
            var want = c.row
            want[x] = alpha == 255 ? 0xFF00_0000 | c.color : blendXRGB(c.row[x], c.color, alpha)
            #expect(got == want)
        }
    }

    /// `blend(alphas:)` over case `c` gives the scalar blend of each pixel.
    func expectPerPixelAlphaMatchesScalar(_ c: Case) {
        let got = c.actual { row in
            c.coverage.withUnsafeBufferPointer {
                XRGB8888Blender.blend(row: row, x: c.x, count: c.count, color: c.color, alphas: $0.baseAddress!)
            }
        }
        #expect(got == c.expected(alpha: { UInt32(c.coverage[$0]) }, source: { _ in c.color }))
    }

    @Test func perPixelAlphaMatchesScalar() {
        var r = Random(state: 2)
        for _ in 0..<4000 {
            let c = Case(&r)
            expectPerPixelAlphaMatchesScalar(c)
        }
    }

    /// Coverage like a glyph's box: zero around a stretch of ink, so that whole
    /// groups of sixteen are empty (skipped) next to groups that are not.
    @Test func perPixelAlphaOverMostlyEmptyBoxesMatchesScalar() {
        var r = Random(state: 13)
        for _ in 0..<4000 {
            var c = Case(&r)
            let inkStart = r.below(c.count + 1), inkEnd = inkStart + r.below(c.count - inkStart + 1)
            for i in 0..<c.count where i < inkStart || i >= inkEnd { c.coverage[i] = 0 }
            expectPerPixelAlphaMatchesScalar(c)
        }
    }

    @Test func coverageTimesAlphaMatchesScalar() {
        var r = Random(state: 3)
        for _ in 0..<4000 {
            let c = Case(&r)
            let alpha = UInt32(r.alpha())
            let got = c.actual { row in
                c.coverage.withUnsafeBufferPointer {
                    XRGB8888Blender.blend(
                        row: row, x: c.x, count: c.count, color: c.color, alpha: alpha, coverage: $0.baseAddress!)
                }
            }
            let want = c.expected(alpha: { div255(UInt32(c.coverage[$0]) &* alpha) }, source: { _ in c.color })
            #expect(got == want, "alpha \(alpha)")
        }
    }

    @Test func perPixelColorsMatchScalar() {
        var r = Random(state: 4)
        for trial in 0..<6000 {
            var c = Case(&r)
            // Every third case opaque colours, for the plain copy of a full-coverage run,
            // half of those blended as known to be opaque (the coverage is the alpha).
            if trial % 3 == 0 { c.colors = c.colors.map { $0 | 0xFF00_0000 } }
            let opaque = trial % 6 == 0
            let constant = trial % 2 == 0 ? 255 : UInt32(r.alpha())
            let perPixel = c.actual { row in
                c.colors.withUnsafeBufferPointer { colors in
                    c.coverage.withUnsafeBufferPointer {
                        XRGB8888Blender.blend(
                            row: row, y: 0, x: c.x, count: c.count, colors: colors.baseAddress!,
                            coverage: $0.baseAddress!, constantCoverage: 0, opaque: opaque)
                    }
                }
            }
            let run = c.actual { row in
                c.colors.withUnsafeBufferPointer {
                    XRGB8888Blender.blend(
                        row: row, y: 0, x: c.x, count: c.count, colors: $0.baseAddress!, coverage: nil,
                        constantCoverage: constant, opaque: opaque)
                }
            }
            let source = { (i: Int) in c.colors[i] & 0xFF_FFFF }
            #expect(
                perPixel
                    == c.expected(alpha: { div255((c.colors[$0] >> 24) &* UInt32(c.coverage[$0])) }, source: source))
            #expect(run == c.expected(alpha: { div255((c.colors[$0] >> 24) &* constant) }, source: source))
        }
    }

    /// The RGB565 words of a case's row, and that row after `draw` on it.
    static func rgb565(_ c: Case, _ draw: (UnsafeMutableRawPointer) -> Void = { _ in }) -> [UInt16] {
        var out = c.row.map { UInt16(truncatingIfNeeded: $0) }
        out.withUnsafeMutableBytes { draw($0.baseAddress!) }
        return out
    }

    /// The RGB565 row after pixel `x + i` got alpha `alpha(i)` and colour
    /// `source(i)`, one pixel at a time (scalar).
    static func rgb565Expected(_ c: Case, alpha: (Int) -> UInt32, source: (Int) -> UInt32) -> [UInt16] {
        var out = rgb565(c)
        for i in 0..<c.count {
            let a = alpha(i)
            if a != 0 {
                out[c.x + i] = RGB565Blender.narrow(blendXRGB(RGB565Blender.widen(out[c.x + i]), source(i), a))
            }
        }
        return out
    }

    /// `blendQuad`, the banded sweep's four edge pixels, in both formats: each
    /// pixel as `blendPixel` gives it, alpha 0 leaving it as it was.
    @Test func quadsMatchSinglePixels() {
        var r = Random(state: 9)
        for _ in 0..<4000 {
            var c = Case(&r)
            while c.count < 4 { c = Case(&r) }
            let x = c.x + r.below(c.count - 3)
            let a = (0..<4).map { _ in UInt32(r.alpha()) }
            let spread = unsafeBitCast(SIMD4(a[0], a[1], a[2], a[3]) &* 0x1_0001, to: SIMD8<UInt16>.self)
            let quad = c.actual {
                XRGB8888Blender.blendQuad(
                    row: $0, x: x, source: XRGB8888Blender.quadSource(c.color), alphas: spread)
            }
            let single = c.actual { row in
                for i in 0..<4 where a[i] != 0 {
                    XRGB8888Blender.blendPixel(row: row, x: x + i, color: c.color, alpha: a[i])
                }
            }
            #expect(quad == single, "alphas \(a)")
            let quad565 = Self.rgb565(c) {
                RGB565Blender.blendQuad(row: $0, x: x, source: RGB565Blender.quadSource(c.color), alphas: spread)
            }
            let single565 = Self.rgb565(c) { row in
                for i in 0..<4 where a[i] != 0 {
                    RGB565Blender.blendPixel(row: row, x: x + i, color: c.color, alpha: a[i])
                }
            }
            #expect(quad565 == single565, "alphas \(a)")
        }
    }

    /// `blendEvenQuad` along rows of runs of one colour and of mixed pixels,
    /// its memo carried from quad to quad as a sector's inside carries it:
    /// every quad as `blendPixel` gives it (the memo's shortcut and its
    /// misses alike).
    @Test func evenQuadsMatchSinglePixels() {
        var r = Random(state: 11)
        for _ in 0..<300 {
            // Runs of one of three colours, some pixels random.
            let palette = [r.word(), r.word(), r.word()]
            var row: [UInt32] = []
            while row.count < 64 {
                let c = palette[r.below(3)]
                row += Array(repeating: c, count: 1 + r.below(12))
                if r.below(3) == 0 { row.append(r.word()) }
            }
            let color = r.word() & 0xFF_FFFF, alpha = UInt32(1 + r.below(255))
            let spread = SIMD8<UInt16>(repeating: UInt16(alpha))
            var memo = EvenQuadMemo()
            var even = row, single = row
            even.withUnsafeMutableBytes { p in
                for x in stride(from: 0, to: 60, by: 4) {
                    XRGB8888Blender.blendEvenQuad(
                        row: p.baseAddress!, x: x, source: XRGB8888Blender.quadSource(color), alphas: spread,
                        memo: &memo)
                }
            }
            single.withUnsafeMutableBytes { p in
                for x in 0..<60 { XRGB8888Blender.blendPixel(row: p.baseAddress!, x: x, color: color, alpha: alpha) }
            }
            #expect(even == single, "alpha \(alpha)")
        }
    }

    @Test func rgb565SolidPathsMatchScalar() {
        var r = Random(state: 5)
        for _ in 0..<3000 {
            let c = Case(&r)
            let alpha = UInt32(r.alpha())
            let constant = Self.rgb565(c) {
                RGB565Blender.blend(row: $0, x: c.x, count: c.count, color: c.color, alpha: alpha)
            }
            #expect(constant == Self.rgb565Expected(c, alpha: { _ in alpha }, source: { _ in c.color }))
            let perPixel = Self.rgb565(c) { row in
                c.coverage.withUnsafeBufferPointer {
                    RGB565Blender.blend(row: row, x: c.x, count: c.count, color: c.color, alphas: $0.baseAddress!)
                }
            }
            #expect(perPixel == Self.rgb565Expected(c, alpha: { UInt32(c.coverage[$0]) }, source: { _ in c.color }))
            let scaled = Self.rgb565(c) { row in
                c.coverage.withUnsafeBufferPointer {
                    RGB565Blender.blend(
                        row: row, x: c.x, count: c.count, color: c.color, alpha: alpha, coverage: $0.baseAddress!)
                }
            }
            let want = Self.rgb565Expected(
                c, alpha: { div255(UInt32(c.coverage[$0]) &* alpha) }, source: { _ in c.color })
            #expect(scaled == want, "alpha \(alpha)")
        }
    }

    @Test func rgb565DitheredColorsMatchScalar() {
        var r = Random(state: 6)
        for trial in 0..<3000 {
            var c = Case(&r)
            if trial % 3 == 0 { c.colors = c.colors.map { $0 | 0xFF00_0000 } }
            let opaque = trial % 6 == 0
            let y = r.below(4)
            let constant = trial % 2 == 0 ? 255 : UInt32(r.alpha())
            // Dithering: pixel x + i of row y narrows with its own threshold; alpha 0 leaves it.
            func expected(_ alpha: (Int) -> UInt32) -> [UInt16] {
                var out = Self.rgb565(c)
                for i in 0..<c.count {
                    let a = alpha(i), s = c.colors[i] & 0xFF_FFFF
                    if a == 0 { continue }
                    let mixed = a == 255 ? s : blendXRGB(RGB565Blender.widen(out[c.x + i]), s, a)
                    out[c.x + i] = RGB565Blender.narrowDithered(mixed, RGB565Blender.threshold(c.x + i, y))
                }
                return out
            }
            let perPixel = Self.rgb565(c) { row in
                c.colors.withUnsafeBufferPointer { colors in
                    c.coverage.withUnsafeBufferPointer {
                        RGB565Blender.blend(
                            row: row, y: y, x: c.x, count: c.count, colors: colors.baseAddress!,
                            coverage: $0.baseAddress!, constantCoverage: 0, opaque: opaque)
                    }
                }
            }
            let run = Self.rgb565(c) { row in
                c.colors.withUnsafeBufferPointer {
                    RGB565Blender.blend(
                        row: row, y: y, x: c.x, count: c.count, colors: $0.baseAddress!, coverage: nil,
                        constantCoverage: constant, opaque: opaque)
                }
            }
            #expect(perPixel == expected { div255((c.colors[$0] >> 24) &* UInt32(c.coverage[$0])) })
            #expect(run == expected { div255((c.colors[$0] >> 24) &* constant) })
        }
    }
}
