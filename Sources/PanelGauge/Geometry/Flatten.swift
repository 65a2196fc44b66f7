#if canImport(Glibc)
    import Glibc
#endif

/// Receives flattened geometry: closed polygons in surface coordinates.
protocol ContourSink: ~Copyable {
    mutating func move(_ x: Double, _ y: Double)
    mutating func line(_ x: Double, _ y: Double)
    mutating func close()
    /// The contours until `endSimpleGroup()` never overlap one another or
    /// themselves (a winding number of 0 or +-1 everywhere), nor any other
    /// simple group of the same shape.
    mutating func beginSimpleGroup()
    mutating func endSimpleGroup()
    /// Takes a circular arc as it is, instead of as chords: a line from the
    /// current point to the arc's start (or a move there), then the arc, from
    /// `start` to `start + sweep` radians on `radius` about (cx, cy). Returns
    /// false, having done nothing, where the sink wants chords.
    mutating func arc(cx: Double, cy: Double, radius: Double, start: Double, sweep: Double, moveFirst: Bool) -> Bool
}

extension ContourSink where Self: ~Copyable {
    mutating func arc(cx: Double, cy: Double, radius: Double, start: Double, sweep: Double, moveFirst: Bool) -> Bool {
        false
    }
}

/// Turns curves into polygons whose distance to the true curve stays within
/// `tolerance` pixels.
///
/// Arcs: a chord of angle `t` on radius `r` lies `r (1 - cos(t/2))` inside the
/// circle. Vertices are placed on the slightly larger radius
/// `2r / (1 + cos(t/2))`, so vertices sit outside and chord midpoints inside by
/// the same amount (at most tolerance / 2): the polygon's edges straddle the
/// circle instead of all lying inside it, which halves the worst error and
/// cancels the area bias. Vertices advance by a rotation recurrence (no sin/cos
/// per vertex).
struct Flattener {
    static let defaultTolerance = 1.0 / 64
    var tolerance: Double = defaultTolerance

    /// Number of chords for an arc of `sweep` radians on radius `r`.
    @inline(__always)
    func arcSegments(radius r: Double, sweep: Double) -> Int {
        Self.arcSegments(radius: r, sweep: sweep, tolerance: tolerance)
    }

    /// The radius of the vertices of chords `step` radians long that straddle
    /// the circle of radius `r` (see the type's comment).
    static func vertexRadius(radius r: Double, step: Double) -> Double {
        r <= 0 ? 0 : 2 * r / (1 + cos(step / 2))
    }

    /// Number of chords for an arc of `sweep` radians on radius `r` within
    /// `tolerance`: at most 16 384 (a sweep of many turns, or one so large it
    /// overflows, gets that many, as a radius too large for the tolerance does).
    static func arcSegments(radius r: Double, sweep: Double, tolerance: Double) -> Int {
        var step = r > tolerance ? 2 * acos(1 - tolerance / r) : Double.pi / 2
        // (For a radius past about 1e14 tolerances, 1 - tolerance / r rounds to
        // 1: the same angle from its half-angle form, which does not.)
        if step == 0 { step = 4 * asin((tolerance / (2 * r)).squareRoot()) }
        return pieces(abs(sweep) / step, atMost: 16_384)
    }

    /// `x` rounded up, from 1 to `limit` (NaN gives `limit`):
    /// how many pieces a curve is cut into, whatever its coordinates come to
    /// (finite ones near the largest doubles overflow in its differences).
    static func pieces(_ x: Double, atMost limit: Int) -> Int {
        x < Double(limit) ? (x > 1 ? Int(x.rounded(.up)) : 1) : limit
    }

    private let steps = ArcSteps()

    /// Emits the arc's points from `start` to `start + sweep` (radians, clockwise
    /// on screen when positive). The first point is a `move` if `moveFirst`,
    /// otherwise a `line` from the current point.
    func arc<S: ContourSink & ~Copyable>(
        _ sink: inout S, cx: Double, cy: Double, radius r: Double, start: Double, sweep: Double,
        moveFirst: Bool
    ) {
        if sink.arc(cx: cx, cy: cy, radius: r, start: start, sweep: sweep, moveFirst: moveFirst) { return }
        let chords = steps.chords(radius: r, sweep: sweep, tolerance: tolerance) {
            let n = arcSegments(radius: r, sweep: sweep)
            let step = sweep / Double(n)
            return ArcSteps.Chords(
                n: n, radius: Self.vertexRadius(radius: r, step: step), cos: cos(step), sin: sin(step))
        }
        let rr = chords.radius, dc = chords.cos, ds = chords.sin
        var c = cos(start), s = sin(start)
        if moveFirst { sink.move(cx + rr * c, cy + rr * s) } else { sink.line(cx + rr * c, cy + rr * s) }
        // The recurrence drifts by about one ulp per step: under 1e-12 pixel
        // after the largest chord count.
        for _ in 0..<chords.n {
            (c, s) = (c * dc - s * ds, s * dc + c * ds)
            sink.line(cx + rr * c, cy + rr * s)
        }
    }

    func quad<S: ContourSink & ~Copyable>(_ sink: inout S, _ p0: Point, _ p1: Point, _ p2: Point) {
        let ddx = p0.x - 2 * p1.x + p2.x, ddy = p0.y - 2 * p1.y + p2.y
        let dd = (ddx * ddx + ddy * ddy).squareRoot()
        let n = Self.pieces((dd / (4 * tolerance)).squareRoot(), atMost: 1000)
        for i in 1...n {
            let t = Double(i) / Double(n), u = 1 - t
            sink.line(
                u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x, u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
        }
    }

    func cubic<S: ContourSink & ~Copyable>(_ sink: inout S, _ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
        let ax = p0.x - 2 * p1.x + p2.x, ay = p0.y - 2 * p1.y + p2.y
        let bx = p1.x - 2 * p2.x + p3.x, by = p1.y - 2 * p2.y + p3.y
        let dd = max((ax * ax + ay * ay).squareRoot(), (bx * bx + by * by).squareRoot())
        let n = Self.pieces((0.75 * dd / tolerance).squareRoot(), atMost: 1000)
        for i in 1...n {
            let t = Double(i) / Double(n), u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            sink.line(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y)
        }
    }

    /// Flattens a whole path (contours are closed by the sink's `move`/`close`).
    func path<S: ContourSink & ~Copyable>(_ sink: inout S, _ path: Path) {
        var current = Point(x: 0, y: 0), start = current
        var open = false
        for e in path.elements {
            switch e {
            case .move(let p):
                sink.move(p.x, p.y)
                current = p
                start = p
                open = true
            case .line(let p):
                if open { sink.line(p.x, p.y) } else { sink.move(p.x, p.y); start = p; open = true }
                current = p
            case .quad(let c, let p):
                if !open { sink.move(current.x, current.y); start = current; open = true }
                quad(&sink, current, c, p)
                current = p
            case .cubic(let c1, let c2, let p):
                if !open { sink.move(current.x, current.y); start = current; open = true }
                cubic(&sink, current, c1, c2, p)
                current = p
            case .arc(let c, let r, let a0, let sw):
                arc(&sink, cx: c.x, cy: c.y, radius: r, start: a0.radians, sweep: sw.radians, moveFirst: !open)
                if !open { start = c.onCircle(radius: r, angle: a0) }
                open = true
                current = c.onCircle(radius: r, angle: a0 + sw)
            case .close:
                sink.close()
                open = false
                current = start
            }
        }
        sink.close()
    }

    /// A rectangle with circular corners (radius limited to half the shorter
    /// side), clockwise: the outline `Path.addRoundedRect` describes, emitted
    /// without building a path.
    func roundedRect<S: ContourSink & ~Copyable>(_ sink: inout S, _ r: Rect, cornerRadius: Double) {
        let rad = max(0, min(cornerRadius, r.width / 2, r.height / 2))
        if rad == 0 {
            sink.move(r.minX, r.minY)
            sink.line(r.maxX, r.minY)
            sink.line(r.maxX, r.maxY)
            sink.line(r.minX, r.maxY)
            sink.close()
            return
        }
        sink.move(r.minX + rad, r.minY)
        r.forEachRoundedCorner(cornerRadius: rad) { center, radius, start in
            arc(
                &sink, cx: center.x, cy: center.y, radius: radius, start: start.radians,
                sweep: Angle(degrees: 90).radians, moveFirst: false)
        }
        sink.close()
    }

    // MARK: Strokes of arcs

    /// Whether the outline of a stroked arc shorter than a turn is simple (then
    /// its circles are walked as circles, see `arcStroke`). It is unless the
    /// round caps reach each other across the gap (or the stroke covers the
    /// centre, where a cap can reach the other end): then it overlaps itself,
    /// and the rasterizer must see that.
    static func arcStrokeIsSimple(radius r: Double, sweep: Double, width w: Double, cap: LineCap) -> Bool {
        let gap = 2 * Double.pi - abs(sweep)
        return r - w / 2 > 0 && (cap == .butt || 2 * r * sin(min(gap, Double.pi) / 2) > w + 1)
    }

    /// The outline of a stroked circular arc: outer arc, end cap, inner arc
    /// backwards, start cap. `sweep >= 2 pi` gives a full ring (two circles of
    /// opposite direction, so the hole stays empty under either fill rule).
    /// `mayGroup: false` keeps the outline out of a simple group even where it is
    /// simple (it may overlap the caller's other outlines).
    func arcStroke<S: ContourSink & ~Copyable>(
        _ sink: inout S, cx: Double, cy: Double, radius r: Double, start: Double, sweep: Double,
        width w: Double, cap: LineCap, mayGroup: Bool = true
    ) {
        var a0 = start, sw = sweep
        if sw < 0 {
            a0 += sw
            sw = -sw
        }
        let ro = r + w / 2, ri = max(0, r - w / 2)
        if sw >= 2 * Double.pi {
            // A ring: the inner circle runs the other way, a hole in the outer disc.
            if mayGroup { sink.beginSimpleGroup() }
            arc(&sink, cx: cx, cy: cy, radius: ro, start: 0, sweep: 2 * Double.pi, moveFirst: true)
            sink.close()
            if ri > 0 {
                arc(&sink, cx: cx, cy: cy, radius: ri, start: 0, sweep: -2 * Double.pi, moveFirst: true)
                sink.close()
            }
            if mayGroup { sink.endSimpleGroup() }
            return
        }
        let simple = mayGroup && Self.arcStrokeIsSimple(radius: r, sweep: sw, width: w, cap: cap)
        if simple { sink.beginSimpleGroup() }
        defer { if simple { sink.endSimpleGroup() } }
        let a1 = a0 + sw
        arc(&sink, cx: cx, cy: cy, radius: ro, start: a0, sweep: sw, moveFirst: true)
        if cap == .round {
            arc(
                &sink, cx: cx + r * cos(a1), cy: cy + r * sin(a1), radius: w / 2, start: a1, sweep: Double.pi,
                moveFirst: false)
        }
        if ri > 0 {
            arc(&sink, cx: cx, cy: cy, radius: ri, start: a1, sweep: -sw, moveFirst: false)
        } else {
            sink.line(cx, cy)
        }
        if cap == .round {
            arc(
                &sink, cx: cx + r * cos(a0), cy: cy + r * sin(a0), radius: w / 2, start: a0 + Double.pi,
                sweep: Double.pi, moveFirst: false)
        }
        sink.close()
    }

    /// About how many edges the dashes of one stroke may take (see
    /// `dashedArcStroke`): some 20 000 round dots 10 px wide.
    static let maximumDashEdges = 1 << 20

    /// A dashed stroke of an arc: every "on" interval of `dash` along the centre
    /// line (arc length `r * angle`) becomes its own stroked sub-arc with `cap`,
    /// up to `maximumDashEdges` edges' worth of dashes (a guard against
    /// patterns far finer than the stroke on huge strokes).
    func dashedArcStroke<S: ContourSink & ~Copyable>(
        _ sink: inout S, cx: Double, cy: Double, radius r: Double, start: Double, sweep: Double,
        width w: Double, cap: LineCap, dash: DashPattern
    ) {
        guard r > 0 else { return }
        let dir: Double = sweep < 0 ? -1 : 1
        // The dashes' chords stay within `maximumDashEdges`, from the longest
        // dash's: a stroke far wider than its radius has round caps of
        // thousands of chords, on each of up to 100 000 dashes.
        var longest = 0.0
        for i in stride(from: 0, to: dash.lengths.count, by: 2) { longest = max(longest, dash.lengths[i]) }
        let dashSweep = min(abs(sweep), longest / r)
        var edges = arcSegments(radius: r + w / 2, sweep: dashSweep) + arcSegments(radius: r, sweep: dashSweep) + 2
        if cap == .round { edges += 2 * arcSegments(radius: w / 2, sweep: Double.pi) }
        // Simple groups must not overlap one another. Butt-capped dashes are
        // disjoint pieces of one annulus; round caps reach into the gaps and may
        // meet the next dash, which only the general path resolves exactly.
        dash.forEachDash(along: abs(sweep) * r, limit: max(1, min(100_000, Self.maximumDashEdges / edges))) { u0, u1 in
            arcStroke(
                &sink, cx: cx, cy: cy, radius: r, start: start + dir * u0 / r, sweep: dir * (u1 - u0) / r,
                width: w, cap: cap, mayGroup: cap == .butt)
        }
    }
}

/// The chord layout of the last two arcs a flattener drew (count, vertex
/// radius, rotation per chord), by radius and sweep: the dashes of a ring
/// alternate between two such arcs, and each layout costs an `acos` and three
/// more calls into libm.
final class ArcSteps {
    struct Chords {
        var n: Int
        var radius: Double
        var cos: Double
        var sin: Double
    }

    private struct Key: Equatable {
        var r: Double
        var sweep: Double
        var tolerance: Double
    }

    private var recent = LastTwo(
        unmatched: Key(r: .nan, sweep: .nan, tolerance: .nan), placeholder: Chords(n: 0, radius: 0, cos: 1, sin: 0))

    @inline(__always)
    func chords(radius r: Double, sweep: Double, tolerance: Double, _ make: () -> Chords) -> Chords {
        recent.value(for: Key(r: r, sweep: sweep, tolerance: tolerance)) { _ in make() }
    }
}
