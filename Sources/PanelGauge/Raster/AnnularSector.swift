/// One butt-capped dash of a ring (the points between two radii and between
/// two rays from the centre) composited without cells: each pixel's coverage
/// comes from its distances to the four edges, four pixels at a time.
///
/// Each edge is taken as the straight line it is across the pixel (a circle
/// as its tangent): the pixel's area beyond a line at distance d is a closed
/// form of d and the line's direction (`halfPlane`), exact for a straight
/// edge. The two circles are parallel at any pixel, so the band between them
/// covers cOuter + cInner - 1 of it, exactly; the rays cut that band at right
/// angles and their coverages multiply it. The product is not the exact area
/// where a ray and a circle cross the same pixel (the dash's corners): it
/// errs by at most 0.025 of a pixel there. With the circles' curvature across
/// a pixel (at most 0.007 from `minimumInnerRadius` on) no pixel is off by
/// more than 0.032 of its coverage; a narrow sector that takes the circles'
/// normal at its middle angle for every pixel (`RowQuads.radial`) adds at
/// most 0.0042 to that (the tests' sectors stay within 0.032 all the same).
/// ``Canvas`` keeps that within 3 8-bit levels by drawing only translucent
/// paints this way (`maximumAlpha`); anything else goes to the cell
/// rasterizer, which is exact.
///
/// Sectors drawn one after another are composited one after another, so they
/// must not share a pixel: only dashes at least `minimumSpacing` from every
/// other dash of their stroke come here.
struct AnnularSector {
    typealias F4 = SIMD4<Float>
    typealias I4 = SIMD4<Int32>

    /// The smallest inner radius drawn this way (the tangent across a pixel
    /// is then within 0.007 of a pixel's area of the circle).
    static let minimumInnerRadius = 32.0
    /// The largest outer radius: single-precision distances from the centre
    /// stay within 0.001 px up to here.
    static let maximumOuterRadius = 16384.0
    /// Whether a band between these radii is drawn this way: `inner` from
    /// `minimumInnerRadius`, `outer` up to `maximumOuterRadius`. (A pixel's
    /// distance to each circle comes from its own square root, so the band
    /// may be as wide as its dashes' area allows: one Newton step from the
    /// mean radius, before, limited it to a tenth of the radius.)
    static func fits(inner: Double, outer: Double) -> Bool {
        inner >= minimumInnerRadius && outer <= maximumOuterRadius
    }

    /// Pixels between a dash and its neighbours, and the dash's own length,
    /// both at the inner radius: more than a pixel's diagonal, so that no
    /// pixel meets two dashes, nor both rays of one.
    static let minimumSpacing = 1.5
    /// The widest angle of one dash (radians).
    static let maximumSweep = 0.5
    /// The largest dash drawn this way (its length along the centre line
    /// times its width, in square pixels): under paneld's default ring's
    /// dashes, whose damage-only update would otherwise go over the share of
    /// a full frame the project holds updates to (measured: docs/performance.md,
    /// "Tuned constants").
    static let maximumArea = 384.0
    /// From this width on (outer minus inner radius), a sector is drawn row
    /// by row within `RowQuads`' bounds: quads outside them are not looked
    /// at, quads within its inner ones go straight to
    /// `PixelBlender.blendEvenQuad` (a translucent track over one colour is
    /// then mostly stores), the others to the kernel. Thinner ones go quad by
    /// quad through their box, each quad tested, which is cheaper for thin
    /// ones (measured: docs/performance.md, "Tuned constants").
    static let rowsWidth = 4.0
    /// The largest paint alpha (of 255) drawn this way: 0.0362 * 77 = 2.8
    /// levels at most.
    static let maximumAlpha: UInt8 = 77

    /// Half a pixel's diagonal, rounded up: a pixel centre further than this
    /// from a straight edge lies with its whole pixel on one side.
    static let reach: Float = 0.7072

    let cx: Double, cy: Double
    let inner: Double, outer: Double
    /// The rays' inward normals: inside the sector, `n . (p - centre) >= 0`
    /// for both.
    let n0x: Double, n0y: Double, n1x: Double, n1y: Double
    /// The box the sector lies in.
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// Half the sector's sweep (radians).
    let halfSweep: Double

    /// The sector between radii `inner` and `outer` about (cx, cy), clockwise
    /// from angle `start` to `end` (radians, `start < end <= start + maximumSweep`,
    /// |start| < 2^20).
    @inline(__always)
    init(cx: Double, cy: Double, inner: Double, outer: Double, start: Double, end: Double) {
        self.cx = cx
        self.cy = cy
        self.inner = inner
        self.outer = outer
        let c0 = FastMath.cosSin(start), c1 = FastMath.cosSin(end)
        n0x = -c0.sin
        n0y = c0.cos
        n1x = c1.sin
        n1y = -c1.cos
        halfSweep = (end - start) / 2
        var lx = min(min(c0.cos * inner, c0.cos * outer), min(c1.cos * inner, c1.cos * outer))
        var hx = max(max(c0.cos * inner, c0.cos * outer), max(c1.cos * inner, c1.cos * outer))
        var ly = min(min(c0.sin * inner, c0.sin * outer), min(c1.sin * inner, c1.sin * outer))
        var hy = max(max(c0.sin * inner, c0.sin * outer), max(c1.sin * inner, c1.sin * outer))
        // The outer arc's extremes at the quarter turns it passes.
        let quarter = Double.pi / 2
        var k = Self.ceil(start / quarter)
        while Double(k) * quarter <= end {
            switch k & 3 {  // k mod 4, for negative k too
            case 0: hx = outer
            case 1: hy = outer
            case 2: lx = -outer
            default: ly = -outer
            }
            k &+= 1
        }
        minX = cx + lx
        maxX = cx + hx
        minY = cy + ly
        maxY = cy + hy
    }

    /// floor(x) for |x| < 2^30, without a call (no SSE4.1 `roundsd` on the
    /// baseline target) and without a checked conversion.
    @inline(__always)
    static func floor(_ x: Double) -> Int {
        let n = nearest(x)
        return Double(n) > x ? n &- 1 : n
    }

    /// ceil(x) for |x| < 2^30.
    @inline(__always)
    static func ceil(_ x: Double) -> Int {
        let n = nearest(x)
        return Double(n) < x ? n &+ 1 : n
    }

    /// x rounded to the nearest integer (ties to even), for |x| < 2^51: adding
    /// 1.5 * 2^52 leaves the rounded value in the sum's low mantissa bits.
    @inline(__always)
    static func nearest(_ x: Double) -> Int {
        let magic = 6_755_399_441_055_744.0
        return Int(truncatingIfNeeded: (x + magic).bitPattern &- magic.bitPattern)
    }

    /// The edge constants of one straight line whose unit normal has
    /// components `nx`, `ny` (see `halfPlane`).
    struct Line {
        var flat: F4, b: F4, invA: F4, k: F4
    }

    /// What the sectors of one stroke (one annulus, one paint) share, in
    /// single-precision lanes: computed once per stroke, not per dash.
    struct Band {
        var ro: F4, ri: F4
        /// Squared radii beyond which a pixel is wholly out of the band, and
        /// within which it is wholly inside each circle.
        var emptyOut: F4, emptyIn: F4, fullOut: F4, fullIn: F4
        var reach: F4
        /// The paint's alpha (0...255).
        var alpha: F4
        /// The angle the reach adds to a ray at the inner radius, beta (sin
        /// beta = reach / (inner - reach)), for `RowQuads`.
        var sinBeta: Double, cosBeta: Double

        init(inner: Double, outer: Double, alpha: UInt32) {
            let h = AnnularSector.reach
            let fo = Float(outer), fi = Float(inner)
            ro = F4(repeating: fo)
            ri = F4(repeating: fi)
            emptyOut = F4(repeating: (fo + h) * (fo + h))
            emptyIn = F4(repeating: max(0, fi - h) * max(0, fi - h))
            fullOut = F4(repeating: max(0, fo - h) * max(0, fo - h))
            fullIn = F4(repeating: (fi + h) * (fi + h))
            reach = F4(repeating: h)
            sinBeta = Double(h) / (inner - Double(h))
            cosBeta = max(0, 1 - sinBeta * sinBeta).squareRoot()
            self.alpha = F4(repeating: Float(alpha))
        }
    }

    /// Composites the sector in `sink`'s colour within `clip`. The paint's
    /// alpha scales the coverage before it is rounded to 8 bits (one rounding,
    /// not the two of coverage then alpha). `band`: this sector's radii and
    /// the sink's alpha.
    @inline(__always)
    func render<B: PixelBlender>(clip: IntRect, band: Band, into sink: SolidSink<B>) {
        // (Limited to the clip in floating point first: floor and ceil take |x| < 2^30.)
        let rowLo = Self.floor(max(minY, Double(clip.minY))), rowHi = Self.ceil(min(maxY, Double(clip.maxY)))
        let colLo = Self.floor(max(minX, Double(clip.minX))), colHi = Self.ceil(min(maxX, Double(clip.maxX)))
        if rowLo >= rowHi || colLo >= colHi { return }
        if outer - inner >= Self.rowsWidth {
            renderRows(clip: clip, band: band, into: sink, rowLo: rowLo, rowHi: rowHi, colLo: colLo, colHi: colHi)
        } else {
            renderQuads(clip: clip, band: band, into: sink, rowLo: rowLo, rowHi: rowHi, colLo: colLo, colHi: colHi)
        }
    }

    /// The thin sectors' loop: every quad of the box, each tested.
    private func renderQuads<B: PixelBlender>(
        clip: IntRect, band: Band, into sink: SolidSink<B>, rowLo: Int, rowHi: Int, colLo: Int, colHi: Int
    ) {
        let lane = F4(0, 1, 2, 3)
        let px0 = Double(colLo) + 0.5 - cx
        let step0 = F4(repeating: Float(4 * n0x)), step1 = F4(repeating: Float(4 * n1x))
        let lanes0 = lane * Float(n0x), lanes1 = lane * Float(n1x)
        let emptyOut = band.emptyOut, emptyIn = band.emptyIn, hv = band.reach
        let kernel = Kernel(
            ro: band.ro, ri: band.ri,
            line0: Line(n0x, n0y), line1: Line(n1x, n1y), fullOut: band.fullOut, fullIn: band.fullIn,
            reach: band.reach, alpha: band.alpha)
        for y in rowLo..<rowHi {
            let py = Double(y) + 0.5 - cy
            let fpy = Float(py)
            let py2 = F4(repeating: fpy * fpy), apy = F4(repeating: abs(fpy))
            var px = Float(px0) + lane
            var d0 = Float(n0x * px0 + n0y * py) + lanes0
            var d1 = Float(n1x * px0 + n1y * py) + lanes1
            let row = sink.rowAddress(y)
            var x = colLo
            while x < colHi {
                defer {
                    x &+= 4
                    px += 4
                    d0 += step0
                    d1 += step1
                }
                let r2 = px * px + py2
                // A lane may be covered only where all four of these are positive.
                let maybe = Self.bits(emptyOut - r2) | Self.bits(r2 - emptyIn) | Self.bits(d0 + hv) | Self.bits(d1 + hv)
                if Self.allNegative(maybe) { continue }
                let alphas = kernel.alphas(px: px, r2: r2, apy: apy, d0: d0, d1: d1)
                if x &+ 4 <= clip.maxX {
                    let spread = unsafeBitCast(alphas | alphas &<< 16, to: SIMD8<UInt16>.self)
                    B.blendQuad(row: row, x: x, source: sink.quadSource, alphas: spread)
                } else {
                    Self.blendPixels(B.self, row: row, x: x, count: clip.maxX &- x, color: sink.color, alphas: alphas)
                }
            }
        }
    }

    /// The wide sectors' loop: in each row, only the quads between
    /// `RowQuads`' outer bounds are looked at, and the ones within its inner
    /// bounds go straight to the even-quad blend. One copy of the loop per
    /// source of the circles' normal (`Normals`).
    private func renderRows<B: PixelBlender>(
        clip: IntRect, band: Band, into sink: SolidSink<B>, rowLo: Int, rowHi: Int, colLo: Int, colHi: Int
    ) {
        let bounds = RowQuads(self, band: band, rowLo: rowLo, colLo: colLo)
        if let radial = bounds.radial {
            renderRows(
                clip: clip, band: band, into: sink, rowLo: rowLo, rowHi: rowHi, colLo: colLo, colHi: colHi,
                bounds: bounds, DashNormal(line: radial))
        } else {
            renderRows(
                clip: clip, band: band, into: sink, rowLo: rowLo, rowHi: rowHi, colLo: colLo, colHi: colHi,
                bounds: bounds, PixelNormal())
        }
    }

    private func renderRows<B: PixelBlender, N: Normals>(
        clip: IntRect, band: Band, into sink: SolidSink<B>, rowLo: Int, rowHi: Int, colLo: Int, colHi: Int,
        bounds: RowQuads, _ normals: N
    ) {
        let lane = F4(0, 1, 2, 3)
        let px0 = Double(colLo) + 0.5 - cx
        let step0 = F4(repeating: Float(4 * n0x)), step1 = F4(repeating: Float(4 * n1x))
        let lanes0 = lane * Float(n0x), lanes1 = lane * Float(n1x)
        var memo = EvenQuadMemo()
        let whole = SIMD4<UInt32>(repeating: sink.alpha)
        let wholeSpread = unsafeBitCast(whole | whole &<< 16, to: SIMD8<UInt16>.self)
        let kernel = Kernel(
            ro: band.ro, ri: band.ri,
            line0: Line(n0x, n0y), line1: Line(n1x, n1y), fullOut: band.fullOut, fullIn: band.fullIn,
            reach: band.reach, alpha: band.alpha)
        // The last quad, and the last one wholly within the clip.
        let lastQuad = (colHi &- colLo &- 1) >> 2, lastWhole = (clip.maxX &- colLo &- 4) >> 2
        let pxStart = Float(px0) + lane
        // Row by row in single precision from the first (within 1e-5 px).
        let py0 = Double(rowLo) + 0.5 - cy, fpy0 = Float(py0)
        let d0Start = Float(n0x * px0 + n0y * py0) + lanes0, d1Start = Float(n1x * px0 + n1y * py0) + lanes1
        let d0Row = F4(repeating: Float(n0y)), d1Row = F4(repeating: Float(n1y))
        for y in rowLo..<rowHi {
            let t = Float(y &- rowLo)
            let k = bounds.quads(row: t)
            let first = max(Int(k[0]), 0), last = min(-Int(k[1]), lastQuad)
            if first > last { continue }
            // Whole quads: wholeFirst ..< wholeFirst + wholeCount.
            let wholeFirst = max(Int(k[2]), first)
            let wholeCount = max(min(min(-Int(k[3]), last), lastWhole) &+ 1 &- wholeFirst, 0)
            let fpy = fpy0 + t
            let py2 = F4(repeating: fpy * fpy), apy = F4(repeating: abs(fpy))
            let row = sink.rowAddress(y)
            let kf = F4(repeating: Float(first)), tv = F4(repeating: t)
            var px = pxStart + 4 * kf
            var d0 = d0Start + tv * d0Row + kf * step0
            var d1 = d1Start + tv * d1Row + kf * step1
            var q = first
            while q <= last {
                defer {
                    q &+= 1
                    px += 4
                    d0 += step0
                    d1 += step1
                }
                let x = colLo &+ q &<< 2
                if UInt(bitPattern: q &- wholeFirst) < UInt(bitPattern: wholeCount) {
                    B.blendEvenQuad(row: row, x: x, source: sink.quadSource, alphas: wholeSpread, memo: &memo)
                    continue
                }
                let r2 = px * px + py2
                // (No test for empty quads: between the outer bounds there are
                // few, and the kernel gives them zeros.)
                let alphas = normals.alphas(kernel, px: px, r2: r2, apy: apy, d0: d0, d1: d1)
                if x &+ 4 <= clip.maxX {
                    let spread = unsafeBitCast(alphas | alphas &<< 16, to: SIMD8<UInt16>.self)
                    let even = unsafeBitCast(alphas ^ whole, to: SIMD2<UInt64>.self)
                    if even[0] | even[1] == 0 {
                        B.blendEvenQuad(row: row, x: x, source: sink.quadSource, alphas: spread, memo: &memo)
                    } else {
                        B.blendQuad(row: row, x: x, source: sink.quadSource, alphas: spread)
                    }
                } else {
                    Self.blendPixels(B.self, row: row, x: x, count: clip.maxX &- x, color: sink.color, alphas: alphas)
                }
            }
        }
    }

    /// The first `count` (under 4) pixels of a quad at the clip's right edge.
    /// (Out of line: inlined, the count's `min` was computed for every quad.)
    @inline(never)
    private static func blendPixels<B: PixelBlender>(
        _: B.Type, row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alphas: SIMD4<UInt32>
    ) {
        for i in 0..<count where alphas[i] != 0 {
            B.blendPixel(row: row, x: x &+ i, color: color, alpha: alphas[i])
        }
    }
}

extension AnnularSector {
    /// What the coverage of a quad of pixels needs. (Written inline in the
    /// row loop, with its edge tests after it, the compiler takes most of it
    /// lane by lane.) The band's values are fields of their own: holding the
    /// `Band` itself costs more (measured: docs/performance.md, "Tuned
    /// constants").
    fileprivate struct Kernel {
        var ro: F4, ri: F4
        var line0: Line, line1: Line
        var fullOut: F4, fullIn: F4
        var reach: F4
        var alpha: F4

        /// The paint's alpha times the coverage (0...alpha) of the four pixels
        /// whose centres are `px` (x relative to the centre), with squared
        /// distances `r2` to it, `apy` = |y|, and distances `d0`, `d1` inside
        /// the rays.
        @inline(__always)
        func alphas(px: F4, r2: F4, apy: F4, d0: F4, d1: F4) -> SIMD4<UInt32> {
            // The circles' normal at the pixel: (|px|, |py|) / rho.
            alphas(r2: r2, d0: d0, d1: d1) { rho in Line(AnnularSector.magnitude(px), apy, length: rho) }
        }

        /// `alphas` with the circles' normal at the sector's middle angle for
        /// every pixel (`radial`): see `RowQuads.radial`.
        @inline(__always)
        func alphas(r2: F4, d0: F4, d1: F4, radial: Line) -> SIMD4<UInt32> {
            alphas(r2: r2, d0: d0, d1: d1) { _ in radial }
        }

        /// `alphas`, with the circles' normal from `normal` (given rho).
        @inline(__always)
        private func alphas(r2: F4, d0: F4, d1: F4, normal: (F4) -> Line) -> SIMD4<UInt32> {
            typealias A = AnnularSector
            // Edges a whole quad lies inside of (by the reach) need no work.
            var c = F4(repeating: 1)
            let insideOut = A.bits(fullOut - r2), insideIn = A.bits(r2 - fullIn)
            if !A.allPositive(insideOut | insideIn) {
                let nearOut = !A.allPositive(insideOut), nearIn = !A.allPositive(insideIn)
                let rho = r2.squareRoot()
                let radial = normal(rho)
                if !nearIn {
                    c = A.halfPlane(ro - rho, radial)
                } else if !nearOut {
                    c = A.halfPlane(rho - ri, radial)
                } else {
                    c = A.relu(A.halfPlane(ro - rho, radial) + A.halfPlane(rho - ri, radial) - 1)
                }
            }
            if !A.allPositive(A.bits(d0 - reach)) { c *= A.halfPlane(d0, line0) }
            if !A.allPositive(A.bits(d1 - reach)) { c *= A.halfPlane(d1, line1) }
            return A.alphas(c, alpha)
        }
    }
}

extension AnnularSector.Line {
    init(_ nx: Double, _ ny: Double) {
        let a = Float(max(abs(nx), abs(ny))), b = Float(min(abs(nx), abs(ny)))
        self.init(
            flat: .init(repeating: (a - b) * 0.5), b: .init(repeating: b), invA: .init(repeating: 1 / a),
            k: .init(repeating: 0.5 / (b + 1e-5)))
    }

    /// The line across each lane's pixel whose normal is (x, y) / length
    /// (x, y >= 0): a circle's tangent, (x, y) the pixel centre's offset from
    /// the circle's centre and `length` its distance.
    @inline(__always)
    init(_ x: AnnularSector.F4, _ y: AnnularSector.F4, length: AnnularSector.F4) {
        typealias A = AnnularSector
        let inverse = 1 / length
        let xBigger = A.sign(A.bits(y) &- A.bits(x))
        let big = A.select(xBigger, x, y)
        let a = big * inverse, b = (x + y - big) * inverse
        self.init(flat: (a - b) * 0.5, b: b, invA: 1 / a, k: 0.5 / (b + 1e-5))
    }
}

extension AnnularSector {
    /// `alpha` (0...255 in every lane) times coverage `c`, rounded to 0...alpha
    /// through the mantissa (c is within 1e-5 of 0...1).
    @inline(__always)
    static func alphas(_ c: F4, _ alpha: F4) -> SIMD4<UInt32> {
        SIMD4<UInt32>(truncatingIfNeeded: bits(c * alpha + 8_388_608)) & 0xFF
    }
}

extension AnnularSector {
    /// The area of a pixel within distance `d` (its centre's signed distance,
    /// positive inside) of a straight edge whose unit normal has components
    /// a >= b >= 0 (`line`: (a - b) / 2, b, 1 / a, 1 / 2b). Across the pixel,
    /// the area grows as a quadratic over b, linearly over a - b and as a
    /// quadratic again: 0.5 + sign(d) * (min(|d|, flat) + e - e^2 / 2b) / a,
    /// e = min(max(|d| - flat, 0), b). Exact; 0 or 1 from |d| >= (a + b) / 2.
    @inline(__always)
    static func halfPlane(_ d: F4, _ line: Line) -> F4 {
        let db = bits(d)
        let ad = float(db & 0x7FFF_FFFF)
        let over = relu(ad - line.flat)
        let e = over - relu(over - line.b)
        let f = (ad - over + e - e * e * line.k) * line.invA
        return 0.5 + float(bits(f) ^ (db & I4(repeating: Int32.min)))
    }

    @inline(__always)
    static func bits(_ v: F4) -> I4 { unsafeBitCast(v, to: I4.self) }

    @inline(__always)
    static func float(_ v: I4) -> F4 { unsafeBitCast(v, to: F4.self) }

    /// max(v, 0), by the sign bit (Swift's `pointwiseMax` does not compile
    /// to one instruction here).
    @inline(__always)
    static func relu(_ v: F4) -> F4 {
        let b = bits(v)
        return float(b & ~(b &>> 31))
    }

    @inline(__always)
    static func magnitude(_ v: F4) -> F4 { float(bits(v) & 0x7FFF_FFFF) }

    /// All ones in the lanes where `v` is negative, zero elsewhere.
    @inline(__always)
    static func sign(_ v: I4) -> I4 { v &>> 31 }

    /// `a` in the lanes `mask` sets, `b` in the others.
    @inline(__always)
    static func select(_ mask: I4, _ a: F4, _ b: F4) -> F4 {
        float(bits(a) & mask | bits(b) & ~mask)
    }

    /// Whether every lane's sign bit is set.
    @inline(__always)
    static func allNegative(_ v: I4) -> Bool {
        let w = unsafeBitCast(v & I4(repeating: Int32.min), to: SIMD2<UInt64>.self)
        return w[0] & w[1] == 0x8000_0000_8000_0000
    }

    /// Whether no lane's sign bit is set.
    @inline(__always)
    static func allPositive(_ v: I4) -> Bool {
        let w = unsafeBitCast(v, to: SIMD2<UInt64>.self)
        return (w[0] | w[1]) & 0x8000_0000_8000_0000 == 0
    }
}

/// Where `AnnularSector.renderRows` takes the circles' normal at a pixel from
/// (a type, so that each loop is compiled on its own).
private protocol Normals {
    func alphas(
        _ kernel: AnnularSector.Kernel, px: SIMD4<Float>, r2: SIMD4<Float>, apy: SIMD4<Float>, d0: SIMD4<Float>,
        d1: SIMD4<Float>
    ) -> SIMD4<UInt32>
}

/// Each pixel's own.
private struct PixelNormal: Normals {
    @inline(__always)
    func alphas(
        _ kernel: AnnularSector.Kernel, px: SIMD4<Float>, r2: SIMD4<Float>, apy: SIMD4<Float>, d0: SIMD4<Float>,
        d1: SIMD4<Float>
    ) -> SIMD4<UInt32> {
        kernel.alphas(px: px, r2: r2, apy: apy, d0: d0, d1: d1)
    }
}

/// The one at the sector's middle angle (`RowQuads.radial`).
private struct DashNormal: Normals {
    var line: AnnularSector.Line
    @inline(__always)
    func alphas(
        _ kernel: AnnularSector.Kernel, px: SIMD4<Float>, r2: SIMD4<Float>, apy: SIMD4<Float>, d0: SIMD4<Float>,
        d1: SIMD4<Float>
    ) -> SIMD4<UInt32> {
        kernel.alphas(r2: r2, d0: d0, d1: d1, radial: line)
    }
}

extension AnnularSector {
    /// The quads of each row of a sector that its row loop needs to look at,
    /// and the ones wholly inside, from two convex quadrilaterals whose edges
    /// are linear in the row (quad k holds the pixels from `colLo + 4k`).
    ///
    /// `outer`, bounded by the rays, the tangent at the middle angle beyond the
    /// outer circle and a chord inside the inner one, each moved the reach out,
    /// holds every pixel centre within the reach of the sector; a quad with no
    /// lane in it is empty. `inner`, bounded by the rays, the tangent at the
    /// middle angle to the inner circle and a line inside the outer circle,
    /// each moved the reach in, holds only centres the reach inside all four
    /// edges, where `Kernel.alphas` leaves every edge alone and gives exactly
    /// the paint's alpha.
    /// Both are moved a further `margin` to cover the single-precision
    /// arithmetic of the loop and of this. So the bounds change which quads
    /// the kernel sees, not their pixels. (A sector's edges that bound no
    /// columns, `flat` ones, leave the inner quadrilateral empty: its quads
    /// all go through the kernel, the same pixels again.)
    fileprivate struct RowQuads {
        /// Bounds in quads, `base + slope * row` (rows from the sector's first),
        /// in lanes: outer lower bound (k >= it), outer upper bound negated
        /// (-k >= it), inner lower bound, inner upper bound negated. `rays`
        /// from the rays, `lines` from the two other edges: each bound is the
        /// greater of the two.
        var rays = (base: F4(), slope: F4())
        var lines = (base: F4(), slope: F4())
        /// The circles' normal at the middle angle, for every pixel of the
        /// sector where that is within `radialSpread` of each pixel's own
        /// (nil elsewhere).
        var radial: Line?

        static let margin = 0.02
        /// How far a pixel's normal may be from the one `radial` gives it
        /// (radians): the area of a pixel beyond a straight edge changes by at
        /// most 0.12 of a pixel per radian of the edge's direction (measured
        /// over all directions and distances), so 0.0042 at most here.
        static let radialSpread = 0.035
        /// Edges whose horizontal component is under this would bound columns
        /// moving more than 25 quads a row: the outer quadrilateral leaves them
        /// out (it may be larger), the inner one is then left empty.
        static let flat = 0.01
        /// A bound that never binds (within the 2^22 of `quads`' rounding).
        static let none: Double = 1_048_576

        init(_ s: AnnularSector, band: Band, rowLo: Int, colLo: Int) {
            // The middle direction halves the rays' (cos, sin): its length is
            // 2 cos(half sweep).
            let sx = s.n0y - s.n1y, sy = s.n1x - s.n0x
            let length = (sx * sx + sy * sy).squareRoot()
            let m = (cos: sx / length, sin: sy / length)
            let halfCos = length / 2
            let half = (cos: halfCos, sin: max(0, 1 - halfCos * halfCos).squareRoot())
            let h = Double(AnnularSector.reach), e = h + Self.margin
            let px0 = Double(colLo) + 0.5 - s.cx, py0 = Double(rowLo) + 0.5 - s.cy
            // The angle the reach adds at the inner radius, beta: sin beta = h / ri.
            let ri = s.inner - h, sinBeta = band.sinBeta, cosBeta = band.cosBeta
            // Pixel centres within the reach lie within half the sweep plus
            // beta of the middle angle.
            if s.halfSweep + 1.01 * sinBeta <= Self.radialSpread { radial = Line(m.cos, m.sin) }
            // Edge a px + b py >= c (pixel centres, relative to the centre),
            // q = 1 / 4a: the column where it meets row t, in quads, is
            // u + du * t; a lower bound if a > 0, an upper one if a < 0.
            @inline(__always) func column(_ b: Double, _ c: Double, _ q: Double) -> (u: Double, du: Double) {
                ((c - b * py0) * q - px0 / 4, -b * q)
            }
            // A quad has a lane in the outer polygon from u - 3/4 on (or up to
            // u), and all four in the inner one from u on (up to u - 3/4):
            // lanes (outer lower, -outer upper, inner lower, -inner upper).
            @inline(__always) func lanes(
                outerLow: (u: Double, du: Double), outerHigh: (u: Double, du: Double),
                innerLow: (u: Double, du: Double), innerHigh: (u: Double, du: Double)
            ) -> (base: F4, slope: F4) {
                // (Slopes stay within 25 quads a row; the bases are clamped
                // in single precision, where an infinity stays one.)
                let limit = F4(repeating: Float(Self.none))
                var base = F4(
                    Float(outerLow.u - 0.75), Float(-outerHigh.u), Float(innerLow.u), Float(0.75 - innerHigh.u))
                base.replace(with: limit, where: base .> limit)
                base.replace(with: -limit, where: base .< -limit)
                return (base, F4(Float(outerLow.du), Float(-outerHigh.du), Float(innerLow.du), Float(-innerHigh.du)))
            }
            let never = (u: -Self.none, du: 0.0), neverHigh = (u: Self.none, du: 0.0)
            var innerEmpty = false
            // The rays (n . p >= -e for the outer polygon, >= e for the inner).
            let flat0 = abs(s.n0x) < Self.flat, flat1 = abs(s.n1x) < Self.flat
            let q0 = flat0 ? 0 : 0.25 / s.n0x, q1 = flat1 ? 0 : 0.25 / s.n1x
            let out0 = flat0 ? nil : column(s.n0y, -e, q0), in0 = flat0 ? nil : column(s.n0y, e, q0)
            let out1 = flat1 ? nil : column(s.n1y, -e, q1), in1 = flat1 ? nil : column(s.n1y, e, q1)
            if flat0 || flat1 || (s.n0x > 0) == (s.n1x > 0) {
                // (Sectors across 0 or 180 degrees: both rays bound one side,
                // and the outer polygon keeps one of them.)
                innerEmpty = true
                let ray = out0 ?? out1 ?? never
                let lower = out0 != nil ? s.n0x > 0 : s.n1x > 0
                rays = lanes(
                    outerLow: out0 == nil && out1 == nil ? never : (lower ? ray : never),
                    outerHigh: out0 == nil && out1 == nil ? neverHigh : (lower ? neverHigh : ray),
                    innerLow: never, innerHigh: neverHigh)
            } else if s.n0x > 0 {
                rays = lanes(outerLow: out0!, outerHigh: out1!, innerLow: in0!, innerHigh: in1!)
            } else {
                rays = lanes(outerLow: out1!, outerHigh: out0!, innerLow: in1!, innerHigh: in0!)
            }
            // The other two: outer, inside the tangent beyond the outer circle
            // (-m . p >= -(ro + e)) and beyond the inner circle's chord at the
            // angles the reach widens the rays to; inner, inside a line within
            // the outer circle (between the rays, r <= (m . p) / cos(half
            // sweep)) and beyond the tangent to the inner circle.
            if abs(m.cos) < Self.flat {
                innerEmpty = true
                lines = lanes(outerLow: never, outerHigh: neverHigh, innerLow: never, innerHigh: neverHigh)
            } else {
                let qm = 0.25 / m.cos
                let beyond = column(-m.sin, -(s.outer + e), -qm)
                let chord = column(m.sin, ri * (half.cos * cosBeta - half.sin * sinBeta) - Self.margin, qm)
                let within = column(-m.sin, -(s.outer - e) * half.cos, -qm)
                let tangent = column(m.sin, s.inner + e, qm)
                if m.cos > 0 {
                    lines = lanes(outerLow: chord, outerHigh: beyond, innerLow: tangent, innerHigh: within)
                } else {
                    lines = lanes(outerLow: beyond, outerHigh: chord, innerLow: within, innerHigh: tangent)
                }
            }
            if innerEmpty {
                // No quad is at least this far right and left.
                rays.base[2] = Float(Self.none)
                rays.slope[2] = 0
            }
        }

        /// Row `row`'s (from the first) bounds, rounded up: the first quad to
        /// look at, minus the last one, the first whole quad, minus the last one.
        @inline(__always)
        func quads(row: Float) -> SIMD4<Int32> {
            let t = F4(repeating: row)
            let r = rays.base + rays.slope * t, l = lines.base + lines.slope * t
            let b = r.replacing(with: l, where: l .> r)
            // ceil, as the nearest integer to b + 0.4999 through the mantissa
            // (up to 1e-4 over an integer rounds down: the margin covers it).
            let magic: Float = 12_582_912
            return AnnularSector.bits(b + 0.4999 + magic) &- AnnularSector.bits(F4(repeating: magic))
        }
    }
}
