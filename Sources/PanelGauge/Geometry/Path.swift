/// A shape made of contours: straight lines, quadratic and cubic Bézier curves
/// and circular arcs, in surface coordinates (see ``Point``). Filled with a
/// ``FillRule``; every contour is implicitly closed when filled.
public struct Path: Sendable, Hashable {
    /// One drawing command of a path.
    public enum Element: Sendable, Hashable {
        /// Starts a new contour at the point.
        case move(Point)
        /// A straight line from the current point to the given point.
        case line(Point)
        /// A quadratic Bézier curve from the current point to `to`, with one control point.
        case quad(control: Point, to: Point)
        /// A cubic Bézier curve from the current point to `to`, with two control points.
        case cubic(control1: Point, control2: Point, to: Point)
        /// A circular arc about `center` (see ``Angle``); a line joins the
        /// current point to the arc's start.
        case arc(center: Point, radius: Double, start: Angle, sweep: Angle)
        /// Closes the current contour with a straight line back to its first point.
        case close
    }

    /// The path's commands, in the order they were added.
    public private(set) var elements: [Element] = []

    /// Creates an empty path.
    public init() {}

    /// Whether the path has no commands.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a new contour at `p`.
    public mutating func move(to p: Point) { elements.append(.move(p)) }
    /// Adds a straight line from the current point to `p`.
    public mutating func line(to p: Point) { elements.append(.line(p)) }
    /// Adds a quadratic Bézier curve from the current point to `p`.
    ///
    /// - Parameters:
    ///   - p: The end point.
    ///   - c: The control point.
    public mutating func quadCurve(to p: Point, control c: Point) { elements.append(.quad(control: c, to: p)) }
    /// Adds a cubic Bézier curve from the current point to `p`.
    ///
    /// - Parameters:
    ///   - p: The end point.
    ///   - c1: The first control point.
    ///   - c2: The second control point.
    public mutating func curve(to p: Point, control1 c1: Point, control2 c2: Point) {
        elements.append(.cubic(control1: c1, control2: c2, to: p))
    }
    /// Adds an arc; `sweep` > 0 runs clockwise on screen.
    public mutating func addArc(center: Point, radius: Double, startAngle: Angle, sweep: Angle) {
        elements.append(.arc(center: center, radius: radius, start: startAngle, sweep: sweep))
    }
    /// Closes the current contour with a straight line back to its first point.
    public mutating func closeSubpath() { elements.append(.close) }

    /// Adds a closed circle (clockwise).
    public mutating func addCircle(center: Point, radius: Double) {
        move(to: center.onCircle(radius: radius, angle: 0))
        addArc(center: center, radius: radius, startAngle: 0, sweep: 360)
        closeSubpath()
    }

    /// Adds a closed rectangle (clockwise).
    public mutating func addRect(_ r: Rect) {
        move(to: Point(x: r.minX, y: r.minY))
        line(to: Point(x: r.maxX, y: r.minY))
        line(to: Point(x: r.maxX, y: r.maxY))
        line(to: Point(x: r.minX, y: r.maxY))
        closeSubpath()
    }

    /// Adds a rectangle with circular corners of `cornerRadius` (limited to half
    /// the shorter side), clockwise.
    public mutating func addRoundedRect(_ r: Rect, cornerRadius: Double) {
        let rad = max(0, min(cornerRadius, r.width / 2, r.height / 2))
        if rad == 0 { return addRect(r) }
        move(to: Point(x: r.minX + rad, y: r.minY))
        r.forEachRoundedCorner(cornerRadius: rad) { addArc(center: $0, radius: $1, startAngle: $2, sweep: 90) }
        closeSubpath()
    }

    /// The path moved by (dx, dy) and scaled by `scale` about the origin first.
    public func transformed(scale: Double = 1, dx: Double, dy: Double) -> Path {
        func t(_ p: Point) -> Point { Point(x: p.x * scale + dx, y: p.y * scale + dy) }
        var out = Path()
        out.elements = elements.map {
            switch $0 {
            case .move(let p): .move(t(p))
            case .line(let p): .line(t(p))
            case .quad(let c, let p): .quad(control: t(c), to: t(p))
            case .cubic(let c1, let c2, let p): .cubic(control1: t(c1), control2: t(c2), to: t(p))
            case .arc(let c, let r, let s, let w): .arc(center: t(c), radius: r * abs(scale), start: s, sweep: w)
            case .close: .close
            }
        }
        return out
    }

    /// A rectangle containing every point of the path (control points included);
    /// nil for an empty path or one with a non-finite coordinate or radius.
    public var bounds: Rect? {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        var finite = true
        func add(_ p: Point) {
            finite = finite && p.x.isFinite && p.y.isFinite
            x0 = min(x0, p.x)
            y0 = min(y0, p.y)
            x1 = max(x1, p.x)
            y1 = max(y1, p.y)
        }
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p)
            case .quad(let c, let p):
                add(c)
                add(p)
            case .cubic(let c1, let c2, let p):
                add(c1)
                add(c2)
                add(p)
            case .arc(let c, let r, let a, let sw):
                finite = finite && r.isFinite && a.degrees.isFinite && sw.degrees.isFinite
                add(Point(x: c.x - r, y: c.y - r))
                add(Point(x: c.x + r, y: c.y + r))
            case .close: break
            }
        }
        return finite && x0 <= x1 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }
}
