#if canImport(Glibc)
    import Glibc
#endif

/// A gradient sampled into 1024 entries (`0xAARRGGBB`, non-premultiplied) once per
/// draw call; a pixel looks its colour up by `t`. 1024 steps keep the lookup error
/// below 0.15 of an 8-bit level for any two-colour ramp.
struct GradientTable: ~Copyable {
    static let size = 1024
    let entries: UnsafeMutablePointer<UInt32>

    init() { entries = .allocate(capacity: Self.size) }
    deinit { entries.deallocate() }

    /// Fills the table for `gradient`, with every alpha multiplied by `opacity`.
    func fill(_ gradient: Gradient, opacity: Double = 1) {
        for i in 0..<Self.size {
            let c = gradient.color(at: Double(i) / Double(Self.size - 1))
            let alpha = UInt32((c.alpha * opacity * 255).rounded())
            entries[i] = alpha << 24 | UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue)
        }
    }
}

/// Computes the colours of a horizontal run of pixels (at their centres).
protocol Shader {
    func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>)
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
struct ConicShader: Shader {
    let table: UnsafeMutablePointer<UInt32>
    let cx: Double, cy: Double
    let startTurns: Float

    init(table: UnsafeMutablePointer<UInt32>, center: Point, startAngle: Angle, origin: (x: Int, y: Int)) {
        self.table = table
        cx = center.x + Double(origin.x)
        cy = center.y + Double(origin.y)
        var s = startAngle.degrees / 360
        s -= s.rounded(.down)
        startTurns = Float(s)
    }

    func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let fy = Float(Double(y) + 0.5 - cy)
        let fx0 = Float(Double(x) + 0.5 - cx)
        let scale = Float(GradientTable.size - 1)
        // Eight pixels at a time: the angle is computed in SIMD lanes, then each
        // lane looks its colour up.
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        var i = 0
        while i + 8 <= count {
            let t = FastMath.atan2Turns(SIMD8(repeating: fy), SIMD8(repeating: fx0 + Float(i)) + lanes)
            var u = t - startTurns
            u.replace(with: u + 1, where: u .< 0)
            let f = u * scale + 0.5
            for k in 0..<8 { out[i + k] = table[Int(f[k]) & (GradientTable.size - 1)] }
            i += 8
        }
        while i < count {
            var t = FastMath.atan2Turns(fy, fx0 + Float(i)) - startTurns
            if t < 0 { t += 1 }
            out[i] = table[Int(t * scale + 0.5) & (GradientTable.size - 1)]
            i += 1
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

    /// The same, eight lanes at once (the same polynomial and folding).
    @inline(__always)
    static func atan2Turns(_ y: SIMD8<Float>, _ x: SIMD8<Float>) -> SIMD8<Float> {
        let ax = x.replacing(with: -x, where: x .< 0), ay = y.replacing(with: -y, where: y .< 0)
        let mx = pointwiseMax(ax, ay), mn = pointwiseMin(ax, ay)
        let z = mn / mx.replacing(with: 1, where: mx .== 0)
        let z2 = z * z
        var p = SIMD8<Float>(repeating: -0.011_721_20)
        p = p * z2 + 0.052_653_32
        p = p * z2 - 0.116_432_87
        p = p * z2 + 0.193_543_46
        p = p * z2 - 0.332_623_47
        p = p * z2 + 0.999_977_26
        var a = p * z * (1 / (2 * Float.pi))
        a.replace(with: 0.25 - a, where: ay .> ax)
        a.replace(with: 0.5 - a, where: x .< 0)
        a.replace(with: 1 - a, where: y .< 0)
        a.replace(with: 0, where: a .>= 1)
        return a
    }
}
