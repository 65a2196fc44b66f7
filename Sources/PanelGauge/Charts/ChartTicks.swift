import Glibc

/// Round-number positions for a chart's axes. Pure.
public enum ChartTicks {
    /// The values `k * step` in `range`, `step` the smallest of 1, 2 or 5
    /// times a power of ten that gives at most `count` intervals across it
    /// (so at most `count + 1` values). With `count < 1`, or a range that is
    /// a point or not finite, none.
    public static func values(in range: ClosedRange<Double>, atMost count: Int) -> (step: Double, values: [Double]) {
        let span = range.upperBound - range.lowerBound
        guard count >= 1, span > 0, span < 1e300 else { return (0, []) }
        let step = RoundStep(atLeast: span / Double(count))
        // A hair of slack, so an end that is a multiple computed another way still counts.
        let first = (range.lowerBound / step.value - 1e-9).rounded(.up)
        let last = (range.upperBound / step.value + 1e-9).rounded(.down)
        guard first <= last, last - first <= 1000 else { return (step.value, []) }
        return (step.value, stride(from: first, through: last, by: 1).map { step.times($0) })
    }

    /// A step of 1, 2 or 5 times a power of ten, whose multiples are
    /// computed as integers scaled once (3 x 0.1 is 0.3, as written).
    struct RoundStep {
        /// 1, 2 or 5.
        var mantissa: Double
        /// The power of ten.
        var exponent: Int

        /// The smallest step at least `x` (> 0, finite).
        init(atLeast x: Double) {
            var e = Int(log10(x).rounded(.down))
            // log10 may land a hair off a power of ten.
            if Self.scale(1, e) > x { e -= 1 }
            if Self.scale(10, e) <= x { e += 1 }
            exponent = e
            mantissa = [1.0, 2, 5].first { Self.scale($0, e) >= x * (1 - 1e-12) } ?? 10
            if mantissa == 10 {
                mantissa = 1
                exponent += 1
            }
        }

        private static func scale(_ m: Double, _ e: Int) -> Double {
            e >= 0 ? m * pow(10, Double(e)) : m / pow(10, Double(-e))
        }

        /// The step.
        var value: Double { Self.scale(mantissa, exponent) }
        /// `k` times the step (0 for 0, never -0).
        func times(_ k: Double) -> Double { k == 0 ? 0 : Self.scale(k * mantissa, exponent) }
        /// The next larger step.
        var next: RoundStep { RoundStep(atLeast: value * 1.0001) }
    }

    /// The range `values` cover widened to round numbers of the step that
    /// gives at most `count` intervals (at least 2, so a range across zero
    /// has one), so its ends are labelled; a point (one value, or all equal)
    /// is widened to a round interval around it.
    public static func roundRange(of values: ClosedRange<Double>, atMost count: Int) -> ClosedRange<Double> {
        let count = Swift.max(count, 2)
        var lo = values.lowerBound, hi = values.upperBound
        if !(hi > lo) {
            let m = Swift.max(abs(lo), 1)
            lo -= 0.05 * m
            hi += 0.05 * m
        }
        // Numbers too large to round (a span near the largest double) stay as they are.
        guard (hi - lo).isFinite, hi - lo < 1e300 else { return lo...hi }
        var step = RoundStep(atLeast: (hi - lo) / Double(count))
        // Widening to round numbers may take more intervals than wanted: take
        // the next step then (with 2 or more allowed, a step as large as the
        // span always does).
        while true {
            let a = (lo / step.value).rounded(.down), b = (hi / step.value).rounded(.up)
            if b - a <= Double(count) || step.value >= 2 * (hi - lo) { return step.times(a)...step.times(b) }
            step = step.next
        }
    }

    /// The steps a time axis takes, in seconds: round numbers of seconds,
    /// minutes, hours and days.
    static let timeSteps: [Double] = [
        1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172_800,
        604_800,
    ]

    /// Times before now at which a time axis of `span` seconds has a mark,
    /// in seconds ago (0 = now, then one round step back each, up to the
    /// span), the step the smallest round number of seconds, minutes, hours
    /// or days (up to a week, then whole days) giving at most `count`
    /// intervals.
    public static func agesBack(span: Double, atMost count: Int) -> (step: Double, ages: [Double]) {
        guard count >= 1, span > 0, span.isFinite else { return (0, []) }
        // Beyond the largest round step: whole days.
        let step =
            timeSteps.first { span / $0 <= Double(count) + 1e-9 }
            ?? (span / Double(count) / 86400).rounded(.up) * 86400
        let n = Int((span / step + 1e-9).rounded(.down))
        return (step, (0...n).map { Double($0) * step })
    }

    /// A short label for `seconds` ago: "now", "-30s", "-5m", "-1h", "-2d",
    /// with a minus sign (U+2212), the unit the largest that divides it.
    public static func ageLabel(_ seconds: Double, minus: String = "\u{2212}") -> String {
        if seconds == 0 { return "now" }
        let s = Int(seconds.rounded())
        let (v, u): (Int, String) =
            s % 86400 == 0 ? (s / 86400, "d") : s % 3600 == 0 ? (s / 3600, "h") : s % 60 == 0 ? (s / 60, "m") : (s, "s")
        return "\(minus)\(v)\(u)"
    }
}
