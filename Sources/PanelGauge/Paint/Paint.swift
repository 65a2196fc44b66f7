#if canImport(Glibc)
    import Glibc
#endif

/// A colour ramp: stops at locations in 0...1, interpolated per 8-bit sRGB
/// channel by default or in Oklab (``ColorInterpolation``), alpha linearly,
/// padded with the end colours outside the stops.
public struct Gradient: Sendable, Hashable {
    /// A colour at a position along the ramp.
    public struct Stop: Sendable, Hashable {
        /// The stop's colour (non-premultiplied).
        public var color: Color
        /// The stop's position along the ramp, in 0...1.
        public var location: Double
        /// Creates a stop.
        ///
        /// - Parameters:
        ///   - color: The stop's colour.
        ///   - location: The stop's position along the ramp, in 0...1.
        public init(color: Color, location: Double) {
            self.color = color
            self.location = location
        }
    }

    /// Sorted by location, at least one stop, locations in 0...1.
    public let stops: [Stop]
    /// How colours between two stops are mixed.
    public let interpolation: ColorInterpolation

    /// Stops are sorted; locations are clamped to 0...1; NaN locations are dropped.
    /// An empty list gives a transparent gradient.
    public init(stops: [Stop], interpolation: ColorInterpolation = .sRGB) {
        self.interpolation = interpolation
        // Stops already in order within 0...1 (as the styles make them, every
        // frame) are kept as they are: no filtered, clamped and sorted copies.
        var ordered = !stops.isEmpty
        var last = 0.0
        for s in stops where ordered {
            ordered = s.location >= last && s.location <= 1
            last = s.location
        }
        if ordered {
            self.stops = stops
            return
        }
        let valid = stops.filter { !$0.location.isNaN }.map {
            Stop(color: $0.color, location: min(1, max(0, $0.location)))
        }
        self.stops = valid.isEmpty ? [Stop(color: .clear, location: 0)] : valid.sorted { $0.location < $1.location }
    }

    /// Evenly spaced colours, as SwiftUI's `Gradient(colors:)`.
    public init(colors: [Color], interpolation: ColorInterpolation = .sRGB) {
        let n = colors.count
        self.init(
            stops: colors.enumerated().map {
                Stop(color: $0.element, location: n > 1 ? Double($0.offset) / Double(n - 1) : 0)
            }, interpolation: interpolation)
    }

    /// The same stops, mixed in `space`.
    public func interpolated(in space: ColorInterpolation) -> Gradient {
        Gradient(stops: stops, interpolation: space)
    }

    /// The colour at `t` (clamped to 0...1).
    public func color(at t: Double) -> Color {
        let t = t.isNaN ? 0 : min(1, max(0, t))
        guard let hi = stops.firstIndex(where: { $0.location >= t }) else { return stops.last!.color }
        if hi == 0 { return stops[0].color }
        let a = stops[hi - 1], b = stops[hi]
        let span = b.location - a.location
        return span <= 0 ? b.color : Color.lerp(a.color, b.color, (t - a.location) / span, in: interpolation)
    }
}

/// What fills a shape.
public enum Paint: Sendable, Hashable {
    /// One colour (with its alpha).
    case solid(Color)
    /// Colour varies along the line from `start` (t = 0) to `end` (t = 1),
    /// constant across it, padded beyond the ends.
    case linearGradient(Gradient, start: Point, end: Point)
    /// Colour varies with the angle about `center`: t = 0 at `startAngle`,
    /// increasing clockwise on screen (see ``Angle``) to t = 1 after a full turn,
    /// like SwiftUI's `AngularGradient`. Evaluated at pixel centres.
    case conicGradient(Gradient, center: Point, startAngle: Angle)

    /// A solid paint.
    public static func color(_ c: Color) -> Paint { .solid(c) }

    /// Whether the paint's geometry is finite. A gradient whose points or
    /// angle are not (NaN, infinity) has no colour anywhere: shapes in it draw
    /// nothing, as shapes with such geometry do.
    var isFinite: Bool {
        switch self {
        case .solid: true
        case .linearGradient(_, let start, let end):
            start.x.isFinite && start.y.isFinite && end.x.isFinite && end.y.isFinite
        case .conicGradient(_, let center, let startAngle):
            center.x.isFinite && center.y.isFinite && startAngle.degrees.isFinite
        }
    }
}
