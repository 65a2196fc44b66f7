#if canImport(Glibc)
    import Glibc
#endif

/// A gradient sampled into 1024 entries (`0xAARRGGBB`, non-premultiplied) for a
/// draw call; a pixel looks its colour up by `t`. 1024 steps keep the lookup error
/// below 0.15 of an 8-bit level for any two-colour ramp.
///
/// The entries are kept between draw calls and sampled again only for another
/// gradient or opacity: a gauge paints the same gradient every frame, and
/// sampling costs about 200 instructions per entry.
final class GradientTable {
    static let size = 1024
    let entries: UnsafeMutablePointer<UInt32>
    /// What `entries` hold, once filled.
    private var filled: (gradient: Gradient, opacity: Double)?
    /// Whether every entry has alpha 255.
    private(set) var opaque = false

    init() { entries = .allocate(capacity: Self.size) }
    deinit { entries.deallocate() }

    /// Fills the table for `gradient`, with every alpha multiplied by `opacity`.
    func fill(_ gradient: Gradient, opacity: Double = 1) {
        if let f = filled, f.gradient == gradient, f.opacity == opacity { return }
        var all: UInt32 = 0xFF
        for i in 0..<Self.size {
            let c = gradient.color(at: Double(i) / Double(Self.size - 1))
            let alpha = UInt32((c.alpha * opacity * 255).rounded())
            entries[i] = alpha << 24 | UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue)
            all &= alpha
        }
        filled = (gradient, opacity)
        opaque = all == 0xFF
    }
}

/// Computes the colours of a horizontal run of pixels (at their centres).
/// Mutating, so that a shader can carry work over from one span of a row to the
/// next (the conic one does).
protocol Shader {
    mutating func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>)
}

/// Linear gradient: t = projection of the pixel centre on start -> end.
struct LinearShader: Shader {
    let table: UnsafeMutablePointer<UInt32>
    let ox: Double, oy: Double, dx: Double, dy: Double  // t = (p - o) . d

    init(table: UnsafeMutablePointer<UInt32>, start: Point, end: Point, origin: (x: Int, y: Int)) {
        self.table = table
        let vx = end.x - start.x, vy = end.y - start.y
        let len2 = vx * vx + vy * vy
        ox = start.x + Double(origin.x)
        oy = start.y + Double(origin.y)
        dx = len2 > 0 ? vx / len2 : 0
        dy = len2 > 0 ? vy / len2 : 0
    }

    func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let scale = Double(GradientTable.size - 1)
        var t = ((Double(x) + 0.5 - ox) * dx + (Double(y) + 0.5 - oy) * dy) * scale
        let step = dx * scale
        for i in 0..<count {
            let idx = Int(min(scale, max(0, t)) + 0.5)
            out[i] = table[idx]
            t += step
        }
    }
}

/// Conic (angular) gradient: t = clockwise angle from `startAngle`, in turns.
///
/// The angle is smooth along a row, so it is computed (`FastMath.atan2Turns`)
/// only at an anchor pixel; the pixels after it on the row follow the
/// fourth-order Taylor polynomial about the anchor, evaluated by forward
/// differences in 32.32 fixed point (four additions per pixel). Every pixel
/// still gets the table entry that `atan2Turns` of its own centre gives, bit for
/// bit: the polynomial is within `margin` of that position, so where its
/// fraction is farther than `margin` from a step boundary the two truncate
/// alike, and elsewhere (about 3 % of the pixels) the angle is computed.
///
/// The reach of an anchor: with the pixel centre at angle φ and distance r from
/// the centre, the n-th derivative of θ along the row is ±(n-1)!·sin(nφ)/rⁿ, so
/// k pixels on the polynomial is off by at most k⁵/(5r⁵) rad, in table steps
/// (1023 per turn) below 1/128 of a step while k <= 0.1888·r, r being the
/// smallest distance over the k pixels. An anchor serves every later span of
/// its row within its reach, so the two edges and the inside of a stroke
/// crossing a row mostly share one. Within a few pixels of the centre the reach
/// is zero and every pixel is its own anchor; near the seam at `startAngle` the
/// reach stops a table step short of it.
struct ConicShader: Shader {
    let table: UnsafeMutablePointer<UInt32>
    let cx: Double, cy: Double
    let startTurns: Float

    /// (1 / (128 · 1023 / (10π)))^(1/5): the reach of an anchor, per pixel of
    /// distance from the centre, for a polynomial within 1/128 of a table step.
    private static let reach = 0.1888
    /// The longest reach in pixels: the fixed-point steps, each off by less than
    /// 2^-32, then add up to less than 1/1000 of a table step.
    private static let maxReach = 96
    /// How far the polynomial can be from the position `atan2Turns` gives, in
    /// table steps: 1/128 for the polynomial, 2e-6 turn for `atan2Turns` at the
    /// anchor and again at the pixel, float rounding and the fixed-point steps,
    /// rounded up to 1/64.
    private static let margin = 1.0 / 64

    /// The anchor: pixels `anchorX ..< anchorEnd` of row `anchorY` follow the
    /// polynomial whose value and forward differences at `anchorX` are `f0`,
    /// `d1` ... `d4` (table steps in 32.32 fixed point).
    private var anchorY = Int.min, anchorX = 0, anchorEnd = 0
    private var f0 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0
    /// 1 in 32.32 fixed point.
    private static let one = Double(1 << 32)

    init(table: UnsafeMutablePointer<UInt32>, center: Point, startAngle: Angle, origin: (x: Int, y: Int)) {
        self.table = table
        cx = center.x + Double(origin.x)
        cy = center.y + Double(origin.y)
        var s = startAngle.degrees / 360
        s -= s.rounded(.down)
        startTurns = Float(s)
    }

    /// The table position of pixel `x` of row `y`, plus 0.5 (so truncation
    /// rounds): 0.5 ..< 1023.5.
    @inline(__always)
    private func exactPosition(y: Int, x: Int) -> Float {
        var t = FastMath.atan2Turns(Float(Double(y) + 0.5 - cy), Float(Double(x) + 0.5 - cx)) - startTurns
        if t < 0 { t += 1 }
        return t * Float(GradientTable.size - 1) + 0.5
    }

    /// How many pixels after the one at `dx` (pixel centre minus centre, along a
    /// row at `dy2` = dy² from it) the polynomial about it reaches.
    @inline(__always)
    private static func reachLength(dx: Double, dy2: Double) -> Int {
        var h = reach * (dy2 + dx * dx).squareRoot()
        if dx < 0 {
            // Moving towards the centre: the far end is the closest point (or the
            // foot of the perpendicular, at distance |dy|, once past it).
            let end = min(0, dx + h)
            h = min(h, reach * (dy2 + end * end).squareRoot())
        }
        return min(Int(h), maxReach)
    }

    /// Makes pixel `x` of row `y` the anchor.
    private mutating func anchor(y: Int, x: Int) {
        let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
        let p0 = Double(exactPosition(y: y, x: x))
        anchorY = y
        anchorX = x
        anchorEnd = x + 1
        f0 = Int(p0 * Self.one)
        var k = Self.reachLength(dx: dx, dy2: dy * dy)
        if k == 0 { return }
        // dθ/dx = -dy/r², d²θ/dx² = 2·dx·dy/r⁴, d³θ/dx³ = 2·dy·(r² - 4·dx²)/r⁶,
        // d⁴θ/dx⁴ = -24·dx·dy·(r² - 2·dx²)/r⁸ (radians), in table steps.
        let r2 = dx * dx + dy * dy
        let p1 = Double(GradientTable.size - 1) / (2 * Double.pi) * -dy / r2
        let p2 = p1 * -2 * dx / r2
        let p3 = p1 * -2 * (r2 - 4 * dx * dx) / (r2 * r2)
        let p4 = p1 * 24 * dx * (r2 - 2 * dx * dx) / (r2 * r2 * r2)
        // The polynomial must stay a step away from both ends of the table: past
        // the seam the true position wraps around and the polynomial does not. Its
        // slope keeps its sign over the reach, so checking the last pixel suffices;
        // near the seam the reach ends short of it.
        func inside(_ k: Int) -> Bool {
            let t = Double(k)
            let p = p0 + t * (p1 + t * (p2 / 2 + t * (p3 / 6 + t * p4 / 24)))
            return p >= 1.5 && p <= Double(GradientTable.size) - 1.5
        }
        if !inside(k) {
            let room = p1 > 0 ? Double(GradientTable.size) - 1.5 - p0 : p0 - 1.5
            // (A zero slope gives an infinite quotient: the halving then ends at 0.)
            k = room > 0 ? Int(min(Double(k), room / abs(p1))) : 0
            while k > 0 && !inside(k) { k /= 2 }
        }
        anchorEnd = x + k + 1
        d1 = Int((p1 + p2 / 2 + p3 / 6 + p4 / 24) * Self.one)
        d2 = Int((p2 + p3 + p4 * 7 / 12) * Self.one)
        d3 = Int((p3 + p4 * 3 / 2) * Self.one)
        d4 = Int(p4 * Self.one)
    }

    @inline(__always)
    mutating func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let mask = GradientTable.size - 1
        let low = UInt32(Self.margin * Self.one), span = UInt32.max - 2 * low
        var i = 0
        while i < count {
            if y != anchorY || x + i < anchorX || x + i >= anchorEnd { anchor(y: y, x: x + i) }
            let end = min(anchorEnd - x, count)
            // The forward differences k steps on from the anchor (Newton's forward
            // formula): the values the steps would reach, whichever span took them.
            let k = x + i - anchorX
            var f = f0, e1 = d1, e2 = d2, e3 = d3
            if k > 0 {
                let c2 = (k * (k - 1)) >> 1, c3 = c2 * (k - 2) / 3, c4 = (c3 * (k - 3)) >> 2
                f += k * e1 + c2 * e2 + c3 * e3 + c4 * d4
                e1 += k * e2 + c2 * e3 + c3 * d4
                e2 += k * e3 + c2 * d4
                e3 += k * d4
            }
            var j = i
            // Fractions in margin ..< 1 - margin truncate as the exact position does;
            // elsewhere the pixel's own angle decides.
            @inline(__always)
            func sure() -> Bool { UInt32(truncatingIfNeeded: f) &- low < span }
            @inline(__always)
            func next(_ index: Int) {
                out[j] = table[index & mask]
                f += e1
                e1 += e2
                e2 += e3
                e3 += d4
                j += 1
            }
            while j < end {
                next(sure() ? f >> 32 : Int(exactPosition(y: y, x: x + j)))
                // The common case in a loop of its own, without the exact path.
                while j < end && sure() { next(f >> 32) }
            }
            i = end
        }
    }
}

enum FastMath {
    /// `atan2(y, x)` as a fraction of a turn in [0, 1), measured from +x towards +y
    /// (clockwise on screen, y down). A degree-11 odd minimax polynomial for atan on
    /// [0, 1] (max error about 1e-5 rad, i.e. 2e-6 turn) plus octant folding.
    @inline(__always)
    static func atan2Turns(_ y: Float, _ x: Float) -> Float {
        let ax = abs(x), ay = abs(y)
        let mx = max(ax, ay), mn = min(ax, ay)
        if mx == 0 { return 0 }
        let z = mn / mx
        let z2 = z * z
        var p: Float = -0.011_721_20
        p = p * z2 + 0.052_653_32
        p = p * z2 - 0.116_432_87
        p = p * z2 + 0.193_543_46
        p = p * z2 - 0.332_623_47
        p = p * z2 + 0.999_977_26
        var a = p * z * (1 / (2 * Float.pi))  // in turns, 0 ... 1/8
        if ay > ax { a = 0.25 - a }
        if x < 0 { a = 0.5 - a }
        if y < 0 { a = 1 - a }
        return a >= 1 ? 0 : a
    }
}
