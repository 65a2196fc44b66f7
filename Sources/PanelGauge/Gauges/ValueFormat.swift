/// How a gauge's value becomes its current-value text.
///
/// - ``percent(decimals:)``: the position in the range as a percentage with a
///   space before the sign, as the self-sizing ring article writes it: "73 %".
/// - ``number(decimals:unit:prefixes:)``: the value itself in the gauge's units, with an
///   optional unit after a space: "0.73", "21.5 °C"; with ``Prefixes/si`` or
///   ``Prefixes/binary``, scaled to a prefix: "12.4 kW", "3.1 GiB".
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
    /// The prefixes a number is scaled to; ``Prefixes/none`` for a percentage.
    public var prefixes: Prefixes = .none
    /// Texts shown instead of the number for exact values (`0` reads "off",
    /// `1` "on"); empty for none.
    public var mappings: [Double: String] = [:]

    /// Prefixes a number is scaled to, so that its integer part stays below
    /// the step: `12400` reads "12.4 k", `3.1 * 2^30` "3.1 Gi".
    public enum Prefixes: Sendable, Hashable {
        /// The number as it is.
        case none
        /// SI prefixes in steps of 1000: k, M, G, T, P, E.
        case si
        /// Binary prefixes in steps of 1024: Ki, Mi, Gi, Ti, Pi, Ei.
        case binary

        /// The step between two prefixes.
        var step: Double { self == .binary ? 1024 : 1000 }
        /// The prefixes, from none upward.
        var names: [String] {
            switch self {
            case .none: [""]
            case .si: ["", "k", "M", "G", "T", "P", "E"]
            case .binary: ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
            }
        }
    }

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

    /// "0.73", "21.5 °C" (the value in the gauge's units); with `prefixes`,
    /// "12.4 kW", "3.1 GiB".
    public static func number(decimals: Int = 2, unit: String? = nil, prefixes: Prefixes = .none) -> ValueFormat {
        var f = ValueFormat(kind: .number, decimals: decimals, unit: unit)
        f.prefixes = prefixes
        return f
    }

    /// The text for `value` shown in `range`. A value out of the range is
    /// written as it is (a percentage below 0 or above 100).
    /// A value in ``mappings`` shows its text.
    public func string(for value: Double, in range: ClosedRange<Double>) -> String {
        if let text = mappings[value] { return text }
        let v: Double
        switch kind {
        case .percent: v = (value - range.lowerBound) / (range.upperBound - range.lowerBound) * 100
        case .number: v = value
        }
        if kind == .number, prefixes != .none, v.isFinite {
            let (scaled, prefix) = scaled(v)
            let suffix = prefix + (unit ?? "")
            let number = Self.fixed(scaled, decimals: decimals)
            return suffix.isEmpty ? number : number + " " + suffix
        }
        let number = Self.fixed(v, decimals: decimals)
        guard let unit, !unit.isEmpty else { return number }
        return number + " " + unit
    }

    /// `v` divided by the largest step of ``prefixes`` that leaves its
    /// integer part (after rounding to ``decimals``) at least 1, and that
    /// step's prefix.
    func scaled(_ v: Double) -> (Double, String) {
        let names = prefixes.names, step = prefixes.step
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        var x = abs(v), i = 0
        while i < names.count - 1, (x * scale).rounded(.toNearestOrAwayFromZero) / scale >= step {
            x /= step
            i += 1
        }
        return (v < 0 ? -x : x, names[i])
    }

    /// The texts whose widest sizes the current-value slot: the extremes of the
    /// range (for percent, "0 %" and "100 %").
    /// Also the mappings' texts, and with prefixes the widest number under
    /// each prefix the range reaches ("999 k", "1023 Mi").
    public func widestCandidates(in range: ClosedRange<Double>) -> [String] {
        var texts = [string(for: range.lowerBound, in: range), string(for: range.upperBound, in: range)]
        texts += mappings.values.sorted()
        guard kind == .number, prefixes != .none else { return texts }
        let largest = max(abs(range.lowerBound), abs(range.upperBound))
        var factor = 1.0
        for _ in prefixes.names {
            guard factor <= largest else { break }
            let widest = (prefixes.step - 1) * factor
            texts.append(string(for: range.lowerBound < 0 ? -widest : widest, in: range))
            factor *= prefixes.step
        }
        return texts
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
