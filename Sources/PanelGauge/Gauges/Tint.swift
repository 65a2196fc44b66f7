/// The colour of a gauge's value indicator: one colour, or a gradient along the
/// gauge's value axis (0 = minimum, 1 = maximum).
///
/// Linear styles lay the gradient out from the bar's leading to its trailing
/// end, circular styles along the arc; a marker dot takes the gradient's colour
/// at its own position. ``Gradient`` is the rasterizer's colour ramp (8-bit sRGB
/// interpolation, padded with the end colours).
public enum Tint: Sendable, Hashable {
    /// One colour for the whole indicator.
    case color(Color)
    /// A colour ramp along the value axis, 0 at the minimum and 1 at the maximum.
    case gradient(Gradient)

    /// A gradient of evenly spaced colours (`.gradient([.green, .red])`), mixed in
    /// sRGB unless `interpolation` says otherwise (`.oklab` keeps the middle of
    /// red to green a clear colour).
    public static func gradient(_ colors: [Color], interpolation: ColorInterpolation = .sRGB) -> Tint {
        .gradient(Gradient(colors: colors, interpolation: interpolation))
    }

    /// The same tint, a gradient mixed in `space` (a single colour stays as it is).
    public func interpolated(in space: ColorInterpolation) -> Tint {
        switch self {
        case .color: self
        case .gradient(let g): .gradient(g.interpolated(in: space))
        }
    }

    /// The tint's colour at position `t` (0...1) along the value axis.
    public func color(at t: Double) -> Color {
        switch self {
        case .color(let c): c
        case .gradient(let g): g.color(at: t)
        }
    }
}

/// Colour zones by value, for status screens ("green below 60, amber from 60,
/// red from 85"). A value `v` takes the colour of the last step whose `from`
/// is `<= v`, or ``base`` below every step; so boundaries belong to the zone
/// above them. Without a base, values below the first step keep the gauge's
/// tint (a gradient stays a gradient there).
public struct Thresholds: Sendable, Hashable {
    /// One zone: the colour of values from a bound up to the next step's bound.
    public struct Step: Sendable, Hashable {
        /// Lower bound of the zone, inclusive, in the gauge's units.
        public var from: Double
        /// The zone's colour.
        public var color: Color
        /// Creates a zone.
        ///
        /// - Parameters:
        ///   - from: The zone's lower bound, inclusive, in the gauge's units.
        ///   - color: The zone's colour.
        public init(from: Double, color: Color) {
            self.from = from
            self.color = color
        }
    }

    /// Colour below the first step; nil keeps the tint there.
    public let base: Color?
    /// Strictly increasing, finite `from` values.
    public let steps: [Step]

    /// Throws ``ThresholdsError`` if a bound is not finite or the bounds are not
    /// strictly increasing.
    public init(base: Color?, steps: [Step]) throws {
        for s in steps where !s.from.isFinite { throw ThresholdsError.boundNotFinite(s.from) }
        for (a, b) in zip(steps, steps.dropFirst()) where !(a.from < b.from) {
            throw ThresholdsError.notIncreasing(a.from, b.from)
        }
        self.base = base
        self.steps = steps
    }

    /// `Thresholds(.green, (60, .orange), (85, .red))`.
    public init(_ base: Color, _ steps: (Double, Color)...) throws {
        try self.init(base: base, steps: steps.map { Step(from: $0.0, color: $0.1) })
    }

    /// The zones laid along a gauge's value axis (0...1 over `range`) as a tint
    /// with hard boundaries, every zone colour's alpha multiplied by `opacity`;
    /// below the first step, the base colour likewise, or `uncovered` as it is.
    /// Styles draw it as the track, so a reader sees where the zones begin.
    public func zoneTint(over range: ClosedRange<Double>, opacity: Double, uncovered: Color) -> Tint {
        // Each boundary is a pair of stops a hair apart: the gradient table
        // (1024 entries) cannot tell them from one point.
        let eps = 1e-9
        var stops = [Gradient.Stop(color: base?.opacity(opacity) ?? uncovered, location: 0)]
        for s in steps {
            let t = Gauge.normalize(s.from, in: range)
            stops.append(Gradient.Stop(color: stops.last!.color, location: max(0, t - eps)))
            stops.append(Gradient.Stop(color: s.color.opacity(opacity), location: t))
        }
        stops.append(Gradient.Stop(color: stops.last!.color, location: 1))
        return .gradient(Gradient(stops: stops))
    }

    /// The zone's colour for `value`; nil below the first step when there is
    /// no base colour.
    public func color(for value: Double) -> Color? {
        var c = base
        for s in steps where value >= s.from { c = s.color }
        return c
    }
}

/// The reason ``Thresholds`` rejects its steps.
public enum ThresholdsError: Error, Equatable, CustomStringConvertible {
    /// A step's bound is NaN or infinite.
    case boundNotFinite(Double)
    /// A step's bound is not greater than the bound before it; the two bounds in order.
    case notIncreasing(Double, Double)
    /// A sentence naming the offending bound or bounds.
    public var description: String {
        switch self {
        case .boundNotFinite(let v): "threshold bound \(v) is not a finite number"
        case .notIncreasing(let a, let b): "threshold bounds must increase, but \(b) follows \(a)"
        }
    }
}

extension Tint {
    /// The tint along a straight line from `start` (value 0) to `end` (value 1).
    public func linearPaint(from start: Point, to end: Point) -> Paint {
        switch self {
        case .color(let c): .solid(c)
        case .gradient(let g): .linearGradient(g, start: start, end: end)
        }
    }

    /// The tint along an arc from `arcStart` clockwise over `arcSweep` degrees:
    /// the gradient's 0...1 is laid onto the arc, and the rest of the turn is
    /// split evenly between the two end colours, so that round caps on either
    /// end take their own end's colour (the conic gradient's seam falls in the
    /// middle of the gap).
    public func arcPaint(center: Point, arcStart: Angle, arcSweep: Angle) -> Paint {
        switch self {
        case .color(let c):
            return .solid(c)
        case .gradient(let g):
            let sweep = min(360, max(0, arcSweep.degrees))
            let margin = (360 - sweep) / 2
            let stops = g.stops.map {
                Gradient.Stop(color: $0.color, location: (margin + $0.location * sweep) / 360)
            }
            return .conicGradient(
                Gradient(stops: stops, interpolation: g.interpolation), center: center,
                startAngle: arcStart - .degrees(margin))
        }
    }

    /// Every colour's alpha multiplied by `opacity`.
    public func opacity(_ opacity: Double) -> Tint {
        switch self {
        case .color(let c): .color(c.opacity(opacity))
        case .gradient(let g):
            .gradient(
                Gradient(
                    stops: g.stops.map { Gradient.Stop(color: $0.color.opacity(opacity), location: $0.location) },
                    interpolation: g.interpolation))
        }
    }

    /// Whether the tint is a gradient rather than one colour.
    public var isGradient: Bool {
        if case .gradient = self { return true }
        return false
    }
}
