#if canImport(Glibc)
    import Glibc
#endif

/// A point in continuous surface coordinates: origin at the top-left corner,
/// x to the right, y **down**, unit = one pixel. Pixel `(i, j)` is the square
/// `[i, i+1) x [j, j+1)`, whose centre is `(i + 0.5, j + 0.5)`.
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }

    /// The point at `angle` on the circle of `radius` about `self`.
    /// See ``Angle`` for the angle convention (degrees, 0 = 3 o'clock, clockwise on screen).
    public func onCircle(radius: Double, angle: Angle) -> Point {
        let r = angle.radians
        return Point(x: x + radius * cos(r), y: y + radius * sin(r))
    }
}

/// An angle in **degrees**, measured from the +x axis (3 o'clock), **clockwise on
/// screen** because y points down: 0 = right, 90 = down (6 o'clock), 180 = left,
/// 270 = up (12 o'clock). Angles are not normalised; sweeps may exceed 360.
public struct Angle: Sendable, Hashable, Comparable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var degrees: Double
    public init(degrees: Double) { self.degrees = degrees }
    public init(radians: Double) { self.degrees = radians * 180 / Double.pi }
    public init(floatLiteral value: Double) { self.degrees = value }
    public init(integerLiteral value: Int) { self.degrees = Double(value) }
    public static func degrees(_ d: Double) -> Angle { Angle(degrees: d) }
    public var radians: Double { degrees * Double.pi / 180 }
    public static func < (a: Angle, b: Angle) -> Bool { a.degrees < b.degrees }
    public static func + (a: Angle, b: Angle) -> Angle { Angle(degrees: a.degrees + b.degrees) }
    public static func - (a: Angle, b: Angle) -> Angle { Angle(degrees: a.degrees - b.degrees) }
    public static func * (a: Angle, s: Double) -> Angle { Angle(degrees: a.degrees * s) }
}

/// A rectangle in continuous coordinates (see ``Point``).
public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public init(_ r: IntRect) {
        self.init(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
    }
    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var center: Point { Point(x: midX, y: midY) }
    /// The outline of this rectangle with circular corners of `cornerRadius`
    /// (limited to half the shorter side): calls `corner` for the four corner
    /// arcs clockwise from the top right, each a quarter turn from `start` about
    /// `center`, and returns the radius used (0: a plain rectangle, no calls).
    @discardableResult
    func forEachRoundedCorner(
        cornerRadius: Double, _ corner: (_ center: Point, _ radius: Double, _ start: Angle) -> Void
    )
        -> Double
    {
        let rad = max(0, min(cornerRadius, width / 2, height / 2))
        if rad == 0 { return 0 }
        corner(Point(x: maxX - rad, y: minY + rad), rad, 270)
        corner(Point(x: maxX - rad, y: maxY - rad), rad, 0)
        corner(Point(x: minX + rad, y: maxY - rad), rad, 90)
        corner(Point(x: minX + rad, y: minY + rad), rad, 180)
        return rad
    }

    /// Shrinks (positive) or grows (negative) every side by `d`.
    public func insetBy(_ d: Double) -> Rect {
        Rect(x: x + d, y: y + d, width: max(0, width - 2 * d), height: max(0, height - 2 * d))
    }
}
