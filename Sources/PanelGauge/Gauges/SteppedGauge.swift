/// The step logic of SBGauge: a gauge divided into `segments` equal steps that
/// moves one step at a time, with the change eased from the previous step.
///
/// Drawing is separate (``SteppedGaugeStyle``); this type only decides where the
/// gauge is, and ``value(at:)`` is a pure function of time.
public struct SteppedGauge: Sendable, Hashable {
    /// Number of steps from empty to full; at least 1.
    public let segments: Int
    /// The current step, 0...segments.
    public private(set) var step: Int
    /// The step before the last change.
    public private(set) var previousStep: Int
    private var shown: AnimatedValue

    /// Throws if `segments < 1`; `step` is clamped to 0...segments.
    public init(segments: Int, step: Int = 0, animation: GaugeAnimation = .default) throws {
        guard segments >= 1 else { throw SteppedGaugeError.noSegments(segments) }
        self.segments = segments
        let s = min(segments, max(0, step))
        self.step = s
        previousStep = s
        shown = AnimatedValue(Double(s) / Double(segments), animation: animation)
    }

    /// The current step as a fraction of the whole gauge (0...1).
    public var fraction: Double { Double(step) / Double(segments) }

    /// One step up (no change at the top); the change starts at `time`.
    public mutating func stepUp(at time: Double) { move(to: step + 1, at: time) }

    /// One step down (no change at zero); the change starts at `time`.
    public mutating func stepDown(at time: Double) { move(to: step - 1, at: time) }

    /// Jumps to `newStep` (clamped), animated from where the gauge is shown at `time`.
    public mutating func move(to newStep: Int, at time: Double) {
        let s = min(segments, max(0, newStep))
        guard s != step else { return }
        previousStep = step
        step = s
        shown.set(fraction, at: time)
    }

    /// The fraction of the gauge to draw at `time`.
    public func value(at time: Double) -> Double { shown.value(at: time) }

    /// Returns whether the value drawn at `time` still differs from the current step's fraction.
    ///
    /// - Parameter time: Seconds on the clock the changes were started with.
    public func isAnimating(at time: Double) -> Bool { shown.isAnimating(at: time) }
}

/// Why a stepped gauge was refused.
public enum SteppedGaugeError: Error, Equatable {
    /// The number of segments given, which is less than 1.
    case noSegments(Int)
}
