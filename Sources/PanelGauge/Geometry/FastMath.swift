/// Approximations where the exact function costs more than its error is worth.
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
