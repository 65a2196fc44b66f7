/// A timing curve: maps the fraction of elapsed time (0...1) to the fraction of
/// the change shown (0...1).
///
/// Curves are cubic Béziers from (0, 0) to (1, 1) with two control points, the
/// model Core Animation's `CAMediaTimingFunction` uses; ``easeIn`` has the
/// control points of `kCAMediaTimingFunctionEaseIn`, (0.42, 0) and (1, 1).
public struct TimingCurve: Sendable, Hashable {
    /// The first control point; its x coordinate is in 0...1.
    public let c1: Point
    /// The second control point; its x coordinate is in 0...1.
    public let c2: Point

    /// Control point x coordinates are clamped to 0...1 so that the curve is a
    /// function of time.
    public init(_ c1: Point, _ c2: Point) {
        self.c1 = Point(x: min(1, max(0, c1.x)), y: c1.y)
        self.c2 = Point(x: min(1, max(0, c2.x)), y: c2.y)
    }

    /// Constant speed: the progress equals the time fraction.
    public static let linear = TimingCurve(Point(x: 0, y: 0), Point(x: 1, y: 1))
    /// Starts slowly and ends at full speed: control points (0.42, 0) and (1, 1).
    public static let easeIn = TimingCurve(Point(x: 0.42, y: 0), Point(x: 1, y: 1))
    /// Starts at full speed and slows down at the end: control points (0, 0) and (0.58, 1).
    public static let easeOut = TimingCurve(Point(x: 0, y: 0), Point(x: 0.58, y: 1))
    /// Starts and ends slowly: control points (0.42, 0) and (0.58, 1).
    public static let easeInOut = TimingCurve(Point(x: 0.42, y: 0), Point(x: 0.58, y: 1))

    /// The progress at time fraction `t`; `t` is clamped to 0...1.
    public func progress(at t: Double) -> Double {
        let t = t.isNaN ? 0 : min(1, max(0, t))
        if t == 0 || t == 1 || self == .linear { return t }
        // Solve x(s) = t for the curve parameter s. x(s) is monotonic because the
        // control x coordinates are in 0...1, so bisection always converges;
        // 60 halvings reach Double's resolution on 0...1.
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if Self.bezier(mid, c1.x, c2.x) < t { lo = mid } else { hi = mid }
        }
        return Self.bezier((lo + hi) / 2, c1.y, c2.y)
    }

    /// One coordinate of the cubic Bézier with end points 0 and 1.
    private static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }
}

/// How a value change is shown: over ``duration`` seconds along ``curve``, or
/// at once. The default is ease-in over 0.2 s, as SBGauge animates its steps.
public struct GaugeAnimation: Sendable, Hashable {
    /// Seconds; 0 means the change is shown at once.
    public let duration: Double
    /// The timing curve the change follows.
    public let curve: TimingCurve

    /// A negative or non-finite duration is treated as 0 (no animation).
    public init(duration: Double, curve: TimingCurve) {
        self.duration = duration.isFinite ? max(0, duration) : 0
        self.curve = curve
    }

    /// Returns an ease-in animation.
    ///
    /// - Parameter duration: The length in seconds; negative or non-finite means no animation.
    public static func easeIn(duration: Double = 0.2) -> GaugeAnimation {
        GaugeAnimation(duration: duration, curve: .easeIn)
    }
    /// Returns an animation at constant speed.
    ///
    /// - Parameter duration: The length in seconds; negative or non-finite means no animation.
    public static func linear(duration: Double) -> GaugeAnimation {
        GaugeAnimation(duration: duration, curve: .linear)
    }
    /// Ease-in over 0.2 s.
    public static let `default` = easeIn()
    /// Changes appear at once.
    public static let none = GaugeAnimation(duration: 0, curve: .linear)
}

/// A value that eases from its previous to its new value; the shown value is a
/// pure function of time, so tests step time explicitly and a renderer asks for
/// the value at each frame's timestamp.
///
/// Times are seconds on any monotonic clock the caller chooses.
public struct AnimatedValue: Sendable, Hashable {
    /// The value shown when the current change started.
    public private(set) var from: Double
    /// The value the current change ends at.
    public private(set) var target: Double
    /// The time the current change started, in seconds on the caller's clock.
    public private(set) var startTime: Double
    /// How changes are shown; a new animation also applies to the running change.
    public var animation: GaugeAnimation

    /// Creates a value that shows `value` at every time until it is set.
    ///
    /// - Parameters:
    ///   - value: The initial value.
    ///   - animation: How later changes are shown.
    public init(_ value: Double, animation: GaugeAnimation = .default) {
        from = value
        target = value
        startTime = 0
        self.animation = animation
    }

    /// Starts a change to `newValue` at `time`. A change that interrupts a running
    /// one starts from the value shown at `time`, so the display never jumps.
    public mutating func set(_ newValue: Double, at time: Double) {
        from = value(at: time)
        target = newValue
        startTime = time
    }

    /// The value to show at `time`: `from` before the change starts, `target`
    /// once ``GaugeAnimation/duration`` has passed.
    public func value(at time: Double) -> Double {
        // Compare times directly: (end - start) / duration can land just below 1
        // in floating point, and the last frame must show the target exactly.
        guard animation.duration > 0, time < startTime + animation.duration else { return target }
        if time <= startTime { return from }
        let t = (time - startTime) / animation.duration
        return from + (target - from) * animation.curve.progress(at: t)
    }

    /// Whether frames at `time` still differ from the final value.
    public func isAnimating(at time: Double) -> Bool {
        animation.duration > 0 && from != target && time < startTime + animation.duration
    }
}

/// A gauge whose value changes are eased: set new values as they arrive, and
/// draw ``gauge(at:)`` for each frame's time.
///
/// The clamped value is animated, so a reading far out of range moves the
/// indicator only as far as the end of the range, taking the same time as any
/// other change.
public struct AnimatedGauge: Sendable {
    /// The gauge with the latest value (where the animation is going).
    public private(set) var target: Gauge
    private var shown: AnimatedValue

    /// Creates an animated gauge that shows `gauge` until its value is set.
    ///
    /// - Parameters:
    ///   - gauge: The gauge with its initial value.
    ///   - animation: How later value changes are shown.
    public init(_ gauge: Gauge, animation: GaugeAnimation = .default) {
        target = gauge
        shown = AnimatedValue(gauge.clampedValue, animation: animation)
    }

    /// How value changes are shown; a new animation also applies to the running change.
    public var animation: GaugeAnimation {
        get { shown.animation }
        set { shown.animation = newValue }
    }

    /// Starts easing to `value` at `time`. Throws ``GaugeError`` for NaN or
    /// infinity, leaving the gauge as it was.
    public mutating func setValue(_ value: Double, at time: Double) throws {
        let next = try target.withValue(value)
        target = next
        shown.set(next.clampedValue, at: time)
    }

    /// The gauge to draw at `time`.
    public func gauge(at time: Double) -> Gauge {
        guard shown.isAnimating(at: time) else { return target }
        // The eased value lies between two finite values, so this cannot throw.
        return (try? target.withValue(shown.value(at: time))) ?? target
    }

    /// Returns whether the gauge drawn at `time` still differs from ``target``.
    ///
    /// - Parameter time: Seconds on the clock given to ``setValue(_:at:)``.
    public func isAnimating(at time: Double) -> Bool { shown.isAnimating(at: time) }
}
