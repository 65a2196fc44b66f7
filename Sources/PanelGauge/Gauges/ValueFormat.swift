/// How a gauge's value becomes its current-value text.
///
/// - ``percent(decimals:)``: the position in the range as a percentage with a
///   space before the sign, as the self-sizing ring article writes it: "73 %".
/// - ``number(decimals:unit:)``: the value itself in the gauge's units, with an
///   optional unit after a space: "0.73", "21.5 °C".
///
/// Rounding is to nearest, ties away from zero; "-0" never appears.
public struct ValueFormat: Sendable, Hashable {
    /// What the formatted number is.
    public enum Kind: Sendable, Hashable {
        /// The value's position in the range, 0 at the lower bound and 100 at the upper.
        case percent
        /// The value itself, in the gauge's units.
        case number
    }

    /// What the formatted number is: a percentage of the range or the value itself.
    public var kind: Kind
    /// Digits after the decimal point, 0...9.
    public var decimals: Int
    /// Text after the number ("%" for percent); nil for none.
    public var unit: String?

    /// Creates a format.
    ///
    /// - Parameters:
    ///   - kind: What the formatted number is.
    ///   - decimals: Digits after the decimal point, clamped to 0...9.
    ///   - unit: Text written after the number and a space, or nil for none.
    public init(kind: Kind, decimals: Int, unit: String?) {
        self.kind = kind
        self.decimals = min(9, max(0, decimals))
        self.unit = unit
    }

    /// "73 %" (the value's position in the range, in percent).
    public static func percent(decimals: Int = 0) -> ValueFormat {
        ValueFormat(kind: .percent, decimals: decimals, unit: "%")
    }

    /// "0.73", "21.5 °C" (the value in the gauge's units).
    public static func number(decimals: Int = 2, unit: String? = nil) -> ValueFormat {
        ValueFormat(kind: .number, decimals: decimals, unit: unit)
    }

    /// The text for `value` shown in `range`. A value out of the range is
    /// written as it is (a percentage below 0 or above 100).
    public func string(for value: Double, in range: ClosedRange<Double>) -> String {
        let v: Double
        switch kind {
        case .percent: v = (value - range.lowerBound) / (range.upperBound - range.lowerBound) * 100
        case .number: v = value
        }
        let number = Self.fixed(v, decimals: decimals)
        guard let unit, !unit.isEmpty else { return number }
        return number + " " + unit
    }

    /// The texts whose widest sizes the current-value slot: the extremes of the
    /// range (for percent, "0 %" and "100 %").
    public func widestCandidates(in range: ClosedRange<Double>) -> [String] {
        [string(for: range.lowerBound, in: range), string(for: range.upperBound, in: range)]
    }

    /// `v` with exactly `decimals` fractional digits, rounded half away from zero.
    static func fixed(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return v.isNaN ? "nan" : (v < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(v) * scale).rounded(.toNearestOrAwayFromZero)
        // Beyond 2^53 a Double has no more digits to show: drop decimals first,
        // then fall back to Swift's own description of the rounded value.
        guard scaled < 9.0e15 else {
            return decimals > 0 ? fixed(v, decimals: decimals - 1) : String(describing: v.rounded())
        }
        let n = UInt64(scaled)
        let whole = n / UInt64(scale), frac = n % UInt64(scale)
        var s = (v < 0 && n != 0 ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(frac)
            s += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return s
    }
}
