/// A signed fixed-point number with 8 fractional bits (1/256 pixel), as used by
/// the scan converter for edge coordinates.
///
/// Conversion from `Double` happens once, after clipping, when geometry enters
/// the rasterizer; everything after that is integer arithmetic. Values are
/// bounded by the clip rectangle (a surface is at most 2^23 pixels wide), so the
/// `Int` arithmetic of the scan converter cannot overflow.
struct Fixed24_8: Hashable, Comparable {
    static let fractionBits = 8
    static let one = 1 << fractionBits
    static let mask = one - 1

    /// The raw value: `value * 256`.
    var raw: Int

    init(raw: Int) { self.raw = raw }

    /// Rounds `value * 256` to the nearest integer. `value` must be finite and
    /// within +-2^23 (guaranteed by clipping before conversion).
    init(rounding value: Double) { raw = Int((value * Double(Self.one)).rounded()) }

    /// Rounds `value * 256` (half up) for `0 <= value < 2^23`: clipped
    /// coordinates are never negative, so truncation after adding one half is
    /// rounding, without a call into libm.
    @inline(__always)
    init(roundingNonNegative value: Double) {
        assert(value >= 0, "clipped coordinates are not negative")
        raw = Int(value * Double(Self.one) + 0.5)
    }

    /// `value` (already scaled: 256 per pixel) rounded to the nearest integer,
    /// ties to even, without the range check of `Int(_:)`: adding 1.5 * 2^52
    /// leaves the integer in the low bits. For values within +-2^31; NaN gives
    /// an unspecified value, never a trap.
    @inline(__always)
    static func nearest(_ value: Double) -> Int {
        Int(Int32(truncatingIfNeeded: (value + 6_755_399_441_055_744.0).bitPattern))
    }

    /// The whole-pixel part (floor).
    var integer: Int { raw >> Self.fractionBits }
    /// The fractional part in 0..<256.
    var fraction: Int { raw & Self.mask }

    static func < (a: Fixed24_8, b: Fixed24_8) -> Bool { a.raw < b.raw }
}

/// Coverage accumulated by the scan converter: `2 * 256 * 256` means a fully
/// covered pixel (the factor 2 comes from summing the two x ends of an edge
/// instead of averaging them).
struct AreaCoverage {
    static let shift = 2 * Fixed24_8.fractionBits + 1
    static let full = 1 << shift
}

/// A polygon edge in 24.8 fixed point, as the scan converter keeps it.
struct FixedEdge {
    var x0: Int32
    var y0: Int32
    var x1: Int32
    var y1: Int32

    @inline(__always)
    init(_ x0: Int32, _ y0: Int32, _ x1: Int32, _ y1: Int32) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
}
