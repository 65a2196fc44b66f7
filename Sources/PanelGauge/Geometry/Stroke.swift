/// The shape at the ends of an open stroke.
public enum LineCap: Sendable, Hashable {
    /// The stroke ends flat at the end point (radial, for an arc).
    case butt
    /// A half-disc of diameter = stroke width is added at each end.
    case round
}

/// A dash pattern for strokes: alternating on and off lengths, in pixels,
/// measured along the stroke's **centre line** (for an arc: `radius * angle`),
/// starting `phase` pixels into the pattern.
///
/// Invariants (checked by the initializer): lengths are finite and not negative,
/// at least one is positive, the phase is finite. An odd number of lengths is
/// repeated once, as SVG and Core Graphics do (`[5]` means 5 on, 5 off).
public struct DashPattern: Sendable, Hashable {
    /// The error thrown when a dash pattern breaks one of its invariants.
    public struct Error: Swift.Error, CustomStringConvertible {
        /// A sentence saying which invariant the lengths or phase break.
        public let description: String
    }

    /// The on and off lengths, in pixels, starting with an on length; always an even number (an odd list given to the
    /// initializer appears twice).
    public let lengths: [Double]
    /// How far into the pattern the stroke starts, in pixels; may be negative or exceed the period.
    public let phase: Double
    /// The sum of the lengths (> 0).
    public let period: Double

    /// Creates a dash pattern.
    ///
    /// - Parameters:
    ///   - lengths: Alternating on and off lengths in pixels, starting with on. Each must be finite
    ///     and not negative, and at least one positive; an odd count is repeated once.
    ///   - phase: How far into the pattern the stroke starts, in pixels; must be finite.
    /// - Throws: ``DashPattern/Error`` when `lengths` is empty, has a negative or non-finite
    ///   length or sums to zero, or when `phase` is not finite.
    public init(_ lengths: [Double], phase: Double = 0) throws {
        guard !lengths.isEmpty else { throw Error(description: "a dash pattern needs at least one length") }
        guard lengths.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw Error(description: "dash lengths must be finite and not negative: \(lengths)")
        }
        guard phase.isFinite else { throw Error(description: "dash phase must be finite") }
        let l = lengths.count % 2 == 1 ? lengths + lengths : lengths
        let p = l.reduce(0, +)
        guard p > 0 else { throw Error(description: "dash pattern lengths are all zero") }
        self.lengths = l
        self.phase = phase
        self.period = p
    }

    /// Calls `body(start, end)` for every "on" interval intersected with
    /// `0 ... length`, in order. At most `limit` intervals (a guard against
    /// patterns far finer than a pixel on huge strokes).
    func forEachDash(along length: Double, limit: Int = 100_000, _ body: (Double, Double) -> Void) {
        guard length > 0 else { return }
        // Position within the pattern at u = 0.
        var offset = phase.truncatingRemainder(dividingBy: period)
        if offset < 0 { offset += period }
        var i = 0
        while offset >= lengths[i] {
            offset -= lengths[i]
            i = (i + 1) % lengths.count
        }
        var u = -offset
        var emitted = 0
        while u < length && emitted < limit {
            let end = u + lengths[i]
            if i % 2 == 0 {
                let a = max(u, 0), b = min(end, length)
                if b > a || (lengths[i] == 0 && u >= 0) {
                    body(a, b)
                    emitted += 1
                }
            }
            u = end
            i = (i + 1) % lengths.count
        }
    }
}
