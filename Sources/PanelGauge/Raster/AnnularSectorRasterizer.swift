#if canImport(Glibc)
    import Glibc
#endif

/// Analytic coverage for annular sectors: the band between two concentric
/// circles, cut to an angle range, with optional round caps. Discs, rings,
/// stroked arcs and each dash of a dashed arc are such shapes, and they make up
/// most of a gauge.
///
/// Instead of walking polygon edges, every row is solved in closed form:
/// - which pixel centres lie within 0.75 px (more than half a pixel's diagonal)
///   of a boundary circle: only those can be partly covered;
/// - the pixels between are fully inside the band and become one run;
/// - a partial pixel's coverage is the exact box-filter area of the half-plane
///   tangent to the boundary at the nearest point (`HalfPlane`); the two circles
///   of a band combine as `inner + outer - 1` (parallel edges), the radial ends
///   of a sector multiply in (perpendicular edges), round caps are discs whose
///   coverage is taken where it is larger.
///
/// Where two edges of different directions meet inside one pixel (a sector's
/// corner, a cap joining the band), the pixel square is clipped by their
/// tangent half-planes exactly (`HalfPlane.clippedArea`).
///
/// Error, measured against exact geometry (shared/bench/reference.py and the
/// reference tests): a curvature-corrected tangent half-plane per circle
/// (`HalfPlane.discCoverage`, about 1 8-bit unit at r = 3.3 px). Shapes outside
/// that envelope (radius under 4 px, a hole under 3 px, caps under 2.5 px, round
/// caps that meet, pieces closer than 2 px or shorter than 2 px) go through the
/// polygon scan converter instead; see `Canvas.analyticSectors`.
struct AnnularSector {
    var cx: Double, cy: Double
    /// Inner and outer radius (inner 0 for a disc).
    var ri: Double, ro: Double
    /// Start angle and sweep in radians, sweep in (0, 2 pi]; 2 pi = full ring.
    var start: Double, sweep: Double
    /// Round caps: discs of radius `(ro - ri) / 2` at both ends of the centre line.
    var roundCaps: Bool

    /// The smallest pixel rectangle that can be touched (with the 0.75 px margin).
    var bounds: Rect {
        let e = ro + 1
        return Rect(x: cx - e, y: cy - e, width: 2 * e, height: 2 * e)
    }
}

/// Exact coverage of a pixel (unit box filter) by a half-plane.
enum HalfPlane {
    /// - Parameters:
    ///   - s: signed distance from the pixel centre to the edge, positive inside.
    ///   - a: the larger of |nx|, |ny| for the edge's unit normal.
    ///   - b: the smaller one.
    @inline(__always)
    static func coverage(_ s: Float, _ a: Float, _ b: Float) -> Float {
        let h = (a + b) * 0.5
        if s >= h { return 1 }
        if s <= -h { return 0 }
        let k = (a - b) * 0.5
        let m = s < 0 ? -s : s
        if m <= k { return 0.5 + s / a }
        // Near the corner that the edge cuts off: a triangle of area t^2 / (2ab).
        let t = h - m
        let c = t * t / (2 * a * b)
        return s > 0 ? 1 - c : c
    }

    /// Coverage of a pixel by a disc of radius `r` whose boundary passes at signed
    /// distance `s` from the pixel centre (positive inside), with normal
    /// components `a >= b`: the tangent half-plane's coverage minus the sliver
    /// between the tangent and the arc. For a chord of length `L` through the
    /// pixel that sliver is about `L^3 / (24 r)`. Measured against a 400x400
    /// supersampled disc: worst error 1.1 8-bit units at r = 3.3 and 0.5 at
    /// r = 6, against 8.0 and 4.6 without the correction.
    @inline(__always)
    static func discCoverage(_ s: Float, _ a: Float, _ b: Float, radius r: Float) -> Float {
        let h = (a + b) * 0.5
        if s >= h { return 1 }
        if s <= -h { return 0 }
        let k = (a - b) * 0.5
        let m = s < 0 ? -s : s
        let len = m <= k ? 1 / a : (h - m) / (a * b)
        return max(0, coverage(s, a, b) - len * len * len / (24 * r))
    }
}

/// Up to four half-planes `{q : n . q <= s}`, stored inline (no allocation in
/// the per-pixel loop).
struct PlaneList {
    typealias Plane = (nx: Double, ny: Double, s: Double)
    private var p0: Plane = (0, 0, 0), p1: Plane = (0, 0, 0), p2: Plane = (0, 0, 0), p3: Plane = (0, 0, 0)
    private(set) var count = 0

    init() {}
    init(_ a: Plane, _ b: Plane) {
        append(a)
        append(b)
    }

    @inline(__always)
    mutating func append(_ p: Plane) {
        switch count {
        case 0: p0 = p
        case 1: p1 = p
        case 2: p2 = p
        default: p3 = p
        }
        count = min(4, count + 1)
    }

    @inline(__always)
    subscript(i: Int) -> Plane {
        switch i {
        case 0: p0
        case 1: p1
        case 2: p2
        default: p3
        }
    }
}

extension HalfPlane {
    /// Exact area of the pixel square `[-0.5, 0.5]^2` (centred on the pixel
    /// centre) inside every half-plane `{q : n . q <= s}` of `planes` (unit
    /// outward normal n, distance s from the centre, positive inside), by
    /// clipping the square polygon plane by plane (Sutherland-Hodgman) and
    /// taking the shoelace area. Used where two edges of different directions
    /// meet inside one pixel, where no product of single-edge coverages is exact.
    static func clippedArea(_ planes: PlaneList) -> Float {
        withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: 32) { buf in
            var a = buf.baseAddress!, b = buf.baseAddress! + 16
            a[0] = SIMD2(-0.5, -0.5)
            a[1] = SIMD2(0.5, -0.5)
            a[2] = SIMD2(0.5, 0.5)
            a[3] = SIMD2(-0.5, 0.5)
            var n = 4
            for j in 0..<planes.count {
                let p = planes[j]
                var m = 0
                for i in 0..<n {
                    let u = a[i], v = a[(i + 1) % n]
                    let du = p.nx * u.x + p.ny * u.y - p.s, dv = p.nx * v.x + p.ny * v.y - p.s
                    if du <= 0 {
                        b[m] = u
                        m += 1
                    }
                    if (du < 0 && dv > 0) || (du > 0 && dv < 0) {
                        b[m] = u + (v - u) * (du / (du - dv))
                        m += 1
                    }
                }
                swap(&a, &b)
                n = m
                if n < 3 { return 0 }
            }
            var area = 0.0
            for i in 0..<n {
                let u = a[i], v = a[(i + 1) % n]
                area += u.x * v.y - v.x * u.y
            }
            return Float(min(1, max(0, abs(area) / 2)))
        }
    }
}

/// `floor` and `ceil` to Int without a call into libm (values are pixel
/// coordinates, far inside Int's range).
@inline(__always) func floorInt(_ v: Double) -> Int {
    let t = Int(v)
    return Double(t) > v ? t - 1 : t
}
@inline(__always) func ceilInt(_ v: Double) -> Int {
    let t = Int(v)
    return Double(t) < v ? t + 1 : t
}

struct AnnularSectorRasterizer<S: SpanSink>: ~Copyable {
    static var margin: Double { 0.75 }

    let shape: AnnularSector
    let buffer: UnsafeMutablePointer<UInt8>
    let full: Bool, wide: Bool
    let cx: Double, cy: Double, ri: Double, ro: Double, capR: Double
    let u0x: Double, u0y: Double, u1x: Double, u1y: Double
    let n0a: Float, n0b: Float, n1a: Float, n1b: Float
    let e0x: Double, e0y: Double, e1x: Double, e1y: Double
    // Squared distance limits: most pixels are classified without a square root.
    let zoneOut2: Double, fullOut2: Double, fullIn2: Double, zoneIn2: Double

    /// Renders `shape` clipped to `clip`, delivering spans to `sink`.
    /// `buffer` must hold at least `clip.width` bytes.
    static func render(_ shape: AnnularSector, clip: IntRect, buffer: UnsafeMutablePointer<UInt8>, into sink: inout S) {
        let r = AnnularSectorRasterizer(shape: shape, buffer: buffer)
        r.run(clip: clip, into: &sink)
    }

    private init(shape: AnnularSector, buffer: UnsafeMutablePointer<UInt8>) {
        self.shape = shape
        self.buffer = buffer
        cx = shape.cx
        cy = shape.cy
        ri = shape.ri
        ro = shape.ro
        full = shape.sweep >= 2 * Double.pi
        wide = shape.sweep > Double.pi
        capR = (ro - ri) / 2
        let a0 = shape.start, a1 = shape.start + shape.sweep
        u0x = cos(a0)
        u0y = sin(a0)
        u1x = cos(a1)
        u1y = sin(a1)
        // The radial lines' normals, as sorted |components| for the half-plane formula.
        n0a = Float(max(abs(u0x), abs(u0y)))
        n0b = Float(min(abs(u0x), abs(u0y)))
        n1a = Float(max(abs(u1x), abs(u1y)))
        n1b = Float(min(abs(u1x), abs(u1y)))
        let rc = (ro + ri) / 2
        e0x = cx + rc * u0x
        e0y = cy + rc * u0y
        e1x = cx + rc * u1x
        e1y = cy + rc * u1y
        let m = Self.margin
        zoneOut2 = (ro + m) * (ro + m)
        fullOut2 = ro > m ? (ro - m) * (ro - m) : -1.0
        fullIn2 = (ri + m) * (ri + m)
        zoneIn2 = ri > m ? (ri - m) * (ri - m) : -1.0
    }

    /// The sector's bounding box (caps included).
    private func box() -> (Double, Double, Double, Double) {
        if full { return (cx - ro, cy - ro, cx + ro, cy + ro) }
        var x0 = min(cx + ri * u0x, cx + ro * u0x, cx + ri * u1x, cx + ro * u1x)
        var x1 = max(cx + ri * u0x, cx + ro * u0x, cx + ri * u1x, cx + ro * u1x)
        var y0 = min(cy + ri * u0y, cy + ro * u0y, cy + ri * u1y, cy + ro * u1y)
        var y1 = max(cy + ri * u0y, cy + ro * u0y, cy + ri * u1y, cy + ro * u1y)
        for k in 0..<4 {  // the axis extremes the angle range passes
            let ang = Double(k) * Double.pi / 2
            var rel = (ang - shape.start).truncatingRemainder(dividingBy: 2 * Double.pi)
            if rel < 0 { rel += 2 * Double.pi }
            if rel <= shape.sweep {
                x0 = min(x0, cx + ro * cos(ang))
                x1 = max(x1, cx + ro * cos(ang))
                y0 = min(y0, cy + ro * sin(ang))
                y1 = max(y1, cy + ro * sin(ang))
            }
        }
        if shape.roundCaps {
            x0 = min(x0, e0x - capR, e1x - capR)
            x1 = max(x1, e0x + capR, e1x + capR)
            y0 = min(y0, e0y - capR, e1y - capR)
            y1 = max(y1, e0y + capR, e1y + capR)
        }
        return (x0, y0, x1, y1)
    }

    private func run(clip: IntRect, into sink: inout S) {
        let m = Self.margin
        let (bx0, by0, bx1, by1) = box()
        let rowLo = max(clip.minY, floorInt(by0 - 1))
        let rowHi = min(clip.maxY, ceilInt(by1 + 1))
        let colLo = max(clip.minX, floorInt(bx0 - 1))
        let colHi = min(clip.maxX, ceilInt(bx1 + 1))
        if rowLo >= rowHi || colLo >= colHi { return }

        // Rows near a radial end or a cap need the angular terms per pixel.
        let end0 = (
            min(cy + (ri - 1) * u0y, cy + (ro + 1) * u0y) - 1.5, max(cy + (ri - 1) * u0y, cy + (ro + 1) * u0y) + 1.5
        )
        let end1 = (
            min(cy + (ri - 1) * u1y, cy + (ro + 1) * u1y) - 1.5, max(cy + (ri - 1) * u1y, cy + (ro + 1) * u1y) + 1.5
        )
        let c0 = (e0y - capR - 1.5, e0y + capR + 1.5), c1 = (e1y - capR - 1.5, e1y + capR + 1.5)

        // The x-range of each end: its radial segment and cap, with margin.
        func endBox(_ ux: Double, _ ex: Double) -> (Int, Int) {
            let xa = min(cx + (ri - 1) * ux, cx + (ro + 1) * ux, ex - capR),
                xb = max(cx + (ri - 1) * ux, cx + (ro + 1) * ux, ex + capR)
            return (floorInt(xa - 1.5), ceilInt(xb + 1.5))
        }
        let box0 = endBox(u0x, e0x), box1 = endBox(u1x, e1x)
        let zoneOut = ro + m, zoneIn = ri - m, fullOut = ro - m, fullIn = ri + m
        for row in rowLo..<rowHi {
            let yc = Double(row) + 0.5
            let dy = yc - cy
            let dy2 = dy * dy
            if dy2 >= zoneOut * zoneOut { continue }
            let xo = (zoneOut * zoneOut - dy2).squareRoot()
            let hole = zoneIn > 0 && zoneIn * zoneIn > dy2
            let xh = hole ? (zoneIn * zoneIn - dy2).squareRoot() : 0
            // Centres with dx in [xfi, xf] (either sign) are fully inside the band.
            let xf = fullOut > 0 && fullOut * fullOut > dy2 ? (fullOut * fullOut - dy2).squareRoot() : -1
            let xfi = fullIn * fullIn > dy2 ? (fullIn * fullIn - dy2).squareRoot() : 0
            let angles =
                !full
                && ((yc >= end0.0 && yc <= end0.1) || (yc >= end1.0 && yc <= end1.1)
                    || (shape.roundCaps && ((yc >= c0.0 && yc <= c0.1) || (yc >= c1.0 && yc <= c1.1))))
            for side in 0..<(hole ? 2 : 1) {
                let (lo, hi) = !hole ? (-xo, xo) : (side == 0 ? (-xo, -xh) : (xh, xo))
                let x0 = max(colLo, ceilInt(cx + lo - 0.5))
                let x1 = min(colHi, floorInt(cx + hi - 0.5) + 1)
                if x0 >= x1 { continue }
                if !angles {
                    band(row, x0, x1, dy, xf, xfi, into: &sink)
                    continue
                }
                // Near an end: per-pixel angular work only inside that end's box;
                // the rest of the row is plain band.
                var boxes = (Int.max, Int.max, Int.max, Int.max)
                let inEnd0 = (yc >= end0.0 && yc <= end0.1) || (shape.roundCaps && yc >= c0.0 && yc <= c0.1)
                let inEnd1 = (yc >= end1.0 && yc <= end1.1) || (shape.roundCaps && yc >= c1.0 && yc <= c1.1)
                if inEnd0 { boxes.0 = box0.0; boxes.1 = box0.1 }
                if inEnd1 { boxes.2 = box1.0; boxes.3 = box1.1 }
                if boxes.2 < boxes.0 { boxes = (boxes.2, boxes.3, boxes.0, boxes.1) }
                var cursor = x0
                endRegion(row, boxes.0, boxes.1, &cursor, x0, x1, dy, xf, xfi, into: &sink)
                endRegion(row, boxes.2, boxes.3, &cursor, x0, x1, dy, xf, xfi, into: &sink)
                if cursor < x1 { band(row, cursor, x1, dy, xf, xfi, into: &sink) }
            }
        }
    }

    /// The part of a row's interval inside an end's box `b0 ..< b1` (none when
    /// `b0` is `Int.max`): plain band up to the box, per-pixel angular work inside.
    @inline(__always)
    private func endRegion(
        _ row: Int, _ b0: Int, _ b1: Int, _ cursor: inout Int, _ x0: Int, _ x1: Int, _ dy: Double, _ xf: Double,
        _ xfi: Double, into sink: inout S
    ) {
        if b0 == Int.max { return }
        let lo = max(cursor, b0), hi = min(x1, b1)
        if hi <= lo { return }
        if lo > cursor { band(row, cursor, lo, dy, xf, xfi, into: &sink) }
        pixels(row, lo, hi, dy, angles: true, into: &sink)
        cursor = hi
    }

    /// Pixels `x0 ..< x1` of a row where no radial end or cap is near: wholly in
    /// or out of the sector (test the middle), then partial pixels and full runs
    /// of the band (centres with |dx| in [xfi, xf] are fully covered).
    private func band(_ row: Int, _ x0: Int, _ x1: Int, _ dy: Double, _ xf: Double, _ xfi: Double, into sink: inout S) {
        if !full {
            let px = Double(x0 + x1) / 2 - cx
            let s0 = u0x * dy - u0y * px, s1 = px * u1y - dy * u1x
            let inside = wide ? (s0 >= 0 || s1 >= 0) : (s0 >= 0 && s1 >= 0)
            if !inside { return }
        }
        var cursor = x0
        if xf >= 0 {
            fullRun(row, -xf, -xfi, &cursor, x1, dy, into: &sink)
            fullRun(row, xfi, xf, &cursor, x1, dy, into: &sink)
        }
        if cursor < x1 { pixels(row, cursor, x1, dy, angles: false, into: &sink) }
    }

    /// Emits the pixels from `cursor` up to the full run of centres with
    /// dx in [a, b] (partial ones per pixel), then the run; advances `cursor`.
    @inline(__always)
    private func fullRun(
        _ row: Int, _ a: Double, _ b: Double, _ cursor: inout Int, _ x1: Int, _ dy: Double, into sink: inout S
    ) {
        if b < a { return }
        let fa = max(cursor, ceilInt(cx + a - 0.5))
        let fb = min(x1, floorInt(cx + b - 0.5) + 1)
        if fb <= fa { return }
        if fa > cursor { pixels(row, cursor, fa, dy, angles: false, into: &sink) }
        sink.blendRun(y: row, x: fa, count: fb - fa, coverage: 255)
        cursor = fb
    }

    /// Coverage of a cap disc centred at (ex, ey) at the pixel centre (x, y).
    @inline(__always)
    private func cap(_ x: Double, _ y: Double, _ ex: Double, _ ey: Double) -> Float {
        let dx = x - ex, dy = y - ey
        let d2 = dx * dx + dy * dy
        let lim = capR + Self.margin
        if d2 >= lim * lim { return 0 }
        let d = d2.squareRoot()
        if d <= capR - Self.margin { return 1 }
        let inv = 1 / max(d, 1e-9)
        let nx = Float(abs(dx) * inv), ny = Float(abs(dy) * inv)
        return HalfPlane.discCoverage(Float(capR - d), max(nx, ny), min(nx, ny), radius: Float(capR))
    }

    /// `c` united with the cap disc centred at (ex, ey), at pixel centre (px, py).
    /// The disc lies inside the band, so its overlap with the sector is its part
    /// on the sector's side of that end's line.
    @inline(__always)
    private func union(
        _ c: Float, withCapAt ex: Double, _ ey: Double, _ px: Double, _ py: Double, line: PlaneList.Plane,
        lineCoverage: Float
    ) -> Float {
        let k = cap(px, py, ex, ey)
        if k == 0 || c == 1 { return c }
        if k == 1 || c == 0 { return max(c, k) }
        // Both partial: union = sector + cap - (cap on the sector's side).
        let overlap: Float
        if lineCoverage == 1 {
            overlap = k
        } else if lineCoverage == 0 {
            overlap = 0
        } else {
            let cdx = px - ex, cdy = py - ey
            let cd = max((cdx * cdx + cdy * cdy).squareRoot(), 1e-9)
            overlap = HalfPlane.clippedArea(PlaneList((cdx / cd, cdy / cd, capR - cd), line))
        }
        return min(1, max(0, c + k - overlap))
    }

    /// Per-pixel coverage for pixels `x0 ..< x1` of `row` (`dy` = row centre - cy).
    private func pixels(_ row: Int, _ x0: Int, _ x1: Int, _ dy: Double, angles: Bool, into sink: inout S) {
        var any = false
        let yc = dy + cy
        let dy2 = dy * dy
        for x in x0..<x1 {
            let dx = Double(x) + 0.5 - cx
            let d2 = dx * dx + dy2
            var c: Float
            var outer: Float = 1, inner: Float = 1
            var d = 0.0
            if d2 >= fullIn2 && d2 <= fullOut2 {
                c = 1
            } else if d2 >= zoneOut2 || d2 <= zoneIn2 {
                c = 0
            } else {
                d = d2.squareRoot()
                let inv = 1 / max(d, 1e-9)
                let nx = Float(abs(dx) * inv), ny = Float(abs(dy) * inv)
                let na = max(nx, ny), nb = min(nx, ny)
                // A pixel near one circle is usually clear of the other.
                if d2 > fullOut2 { outer = HalfPlane.discCoverage(Float(ro - d), na, nb, radius: Float(ro)) }
                if d2 < fullIn2 && ri > 0 {
                    inner = 1 - HalfPlane.discCoverage(Float(ri - d), na, nb, radius: Float(ri))
                }
                c = max(0, outer + inner - 1)
            }
            if angles && (c > 0 || shape.roundCaps) {
                if d == 0 { d = d2.squareRoot() }
                let inv = 1 / max(d, 1e-9)
                let s0 = u0x * dy - u0y * dx  // > 0 past the start line
                let s1 = dx * u1y - dy * u1x  // > 0 before the end line
                let a0 = HalfPlane.coverage(Float(s0), n0a, n0b), a1 = HalfPlane.coverage(Float(s1), n1a, n1b)
                let start = (nx: u0y, ny: -u0x, s: s0), end = (nx: -u1y, ny: u1x, s: s1)
                if c > 0 {
                    // The sector is the band cut by the start and end lines: their
                    // intersection when the sweep is at most a half turn, else their union.
                    var lines = PlaneList()
                    var angular: Float = 1
                    if !wide {
                        if a0 == 0 || a1 == 0 { angular = 0 }
                        if a0 < 1 { lines.append(start) }
                        if a1 < 1 { lines.append(end) }
                    } else if a0 < 1 && a1 < 1 {
                        if a0 == 0 {
                            lines.append(end)
                        } else if a1 == 0 {
                            lines.append(start)
                        } else {
                            angular = 1 - (1 - a0) * (1 - a1)  // both ends in one pixel: rare, approximate
                        }
                    }
                    if angular == 0 {
                        c = 0
                    } else if lines.count == 0 {
                        c *= angular
                    } else if c == 1 && lines.count == 1 {
                        c = lines[0].s == s0 && lines[0].nx == u0y ? a0 : a1
                    } else {
                        // Edges of two directions meet in this pixel: clip exactly.
                        if outer < 1 { lines.append((dx * inv, dy * inv, ro - d)) }
                        if inner < 1 { lines.append((-dx * inv, -dy * inv, d - ri)) }
                        c = HalfPlane.clippedArea(lines)
                    }
                }
                if shape.roundCaps {
                    // Union with each cap disc. The disc lies inside the band, so its
                    // overlap with the sector is its part on the sector's side of that
                    // end's line.
                    let px = Double(x) + 0.5
                    c = union(c, withCapAt: e0x, e0y, px, yc, line: start, lineCoverage: a0)
                    c = union(c, withCapAt: e1x, e1y, px, yc, line: end, lineCoverage: a1)
                }
            }
            let v = UInt8(c * 255 + 0.5)
            buffer[x - x0] = v
            any = any || v != 0
        }
        if any { sink.blendSpan(y: row, x: x0, count: x1 - x0, coverage: buffer) }
    }
}
