#if canImport(Glibc)
    import Glibc
#endif

extension FastMath {
    /// cos and sin of `x` (radians) together, within two units in the last
    /// place of libm's: one reduction to [-pi/4, pi/4] and the two fdlibm
    /// kernel polynomials, about a sixth of the instructions of libm's `cos`
    /// plus `sin` (which reduce twice and test for huge arguments). Beyond
    /// 2^20 radians it is libm's.
    ///
    /// Reduction: q = nearest(x / (pi/2)), r = x - q * pio2Hi - q * pio2Lo,
    /// where pio2Hi holds the first 33 bits of pi/2, so q * pio2Hi is exact
    /// while |q| < 2^20, and pio2Lo the next 53.
    @inline(__always)
    static func cosSin(_ x: Double) -> (cos: Double, sin: Double) {
        guard abs(x) < 1_048_576 else { return (cos(x), sin(x)) }
        // Round to nearest with the 1.5 * 2^52 trick (no SSE4.1 `roundsd` on
        // the baseline x86-64 target).
        // The sum's low mantissa bits hold the rounded quotient (two's complement),
        // which picks the quadrant without a checked Double-to-Int conversion.
        let magic = 6_755_399_441_055_744.0
        let shifted = x * (2 / Double.pi) + magic
        let q = shifted - magic
        let r = (x - q * pio2Hi) - q * pio2Lo
        let z = r * r
        let s = r + r * z * (s1 + z * (s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))))
        let c = (1 - 0.5 * z) + z * z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6)))))
        switch Int(truncatingIfNeeded: shifted.bitPattern) & 3 {
        case 0: return (c, s)
        case 1: return (-s, c)
        case 2: return (-c, -s)
        default: return (s, -c)
        }
    }

    private static let pio2Hi = Double(bitPattern: 0x3FF9_21FB_5440_0000)
    private static let pio2Lo = Double(bitPattern: 0x3DD0_B461_1A62_6331)
    // fdlibm's k_sin.c and k_cos.c minimax coefficients on [-pi/4, pi/4].
    private static let s1 = Double(bitPattern: 0xBFC5_5555_5555_5549)
    private static let s2 = Double(bitPattern: 0x3F81_1111_1110_F8A6)
    private static let s3 = Double(bitPattern: 0xBF2A_01A0_19C1_61D5)
    private static let s4 = Double(bitPattern: 0x3EC7_1DE3_57B1_FE7D)
    private static let s5 = Double(bitPattern: 0xBE5A_E5E6_8A2B_9CEB)
    private static let s6 = Double(bitPattern: 0x3DE5_D93A_5ACF_D57C)
    private static let c1 = Double(bitPattern: 0x3FA5_5555_5555_554C)
    private static let c2 = Double(bitPattern: 0xBF56_C16C_16C1_5177)
    private static let c3 = Double(bitPattern: 0x3EFA_01A0_19CB_1590)
    private static let c4 = Double(bitPattern: 0xBE92_7E4F_809C_52AD)
    private static let c5 = Double(bitPattern: 0x3E21_EE9E_BDB4_B1C4)
    private static let c6 = Double(bitPattern: 0xBDA8_FAE9_BE88_38D4)
}
