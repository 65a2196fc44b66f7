#if canImport(Glibc)
    import Glibc
#endif

/// A point in continuous surface coordinates: origin at the top-left corner,
/// x to the right, y **down**, unit = one pixel. Pixel `(i, j)` is the square
/// `[i, i+1) x [j, j+1)`, whose centre is `(i + 0.5, j + 0.5)`.
public struct Point: Sendable, Hashable {
    /// The horizontal coordinate, in pixels from the left edge.
    public var x: Double
    /// The vertical coordinate, in pixels from the top edge (y grows downward).
    public var y: Double
    /// Creates a point with the given coordinates, in pixels.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    /// Adds two points component-wise.
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// Subtracts the right point from the left one component-wise.
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// Multiplies both coordinates by a scale factor.
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
    /// The angle in degrees (clockwise on screen from 3 o'clock); not normalised.
    public var degrees: Double
    /// Creates an angle from a value in degrees.
    public init(degrees: Double) { self.degrees = degrees }
    /// Creates an angle from a value in radians, converted to degrees.
    public init(radians: Double) { self.degrees = radians * 180 / Double.pi }
    /// Creates an angle from a floating-point literal, in degrees.
    public init(floatLiteral value: Double) { self.degrees = value }
    /// Creates an angle from an integer literal, in degrees.
    public init(integerLiteral value: Int) { self.degrees = Double(value) }
    /// Returns an angle of the given number of degrees.
    ///
    /// - Parameter d: The angle in degrees.
    public static func degrees(_ d: Double) -> Angle { Angle(degrees: d) }
    /// The angle in radians (`degrees * .pi / 180`).
    public var radians: Double { degrees * Double.pi / 180 }
    /// Compares two angles by their value in degrees, without normalising them (360 is greater than 0).
    public static func < (a: Angle, b: Angle) -> Bool { a.degrees < b.degrees }
    /// Adds two angles.
    public static func + (a: Angle, b: Angle) -> Angle { Angle(degrees: a.degrees + b.degrees) }
    /// Subtracts the right angle from the left one.
    public static func - (a: Angle, b: Angle) -> Angle { Angle(degrees: a.degrees - b.degrees) }
    /// Multiplies an angle by a scale factor.
    public static func * (a: Angle, s: Double) -> Angle { Angle(degrees: a.degrees * s) }
}

/// A rectangle in continuous coordinates (see ``Point``).
public struct Rect: Sendable, Hashable {
    /// The x coordinate of the left edge, in pixels.
    public var x: Double
    /// The y coordinate of the top edge, in pixels.
    public var y: Double
    /// The width, in pixels; not clamped, so a negative width is kept as given.
    public var width: Double
    /// The height, in pixels; not clamped, so a negative height is kept as given.
    public var height: Double
    /// Creates a rectangle from its top-left corner and size, in pixels.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    /// Creates the continuous rectangle covering the same pixels as a whole-pixel rectangle.
    ///
    /// - Parameter r: The whole-pixel rectangle.
    public init(_ r: IntRect) {
        self.init(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
    }
    /// The x coordinate of the left edge (`x`).
    public var minX: Double { x }
    /// The y coordinate of the top edge (`y`).
    public var minY: Double { y }
    /// The x coordinate of the right edge (`x + width`).
    public var maxX: Double { x + width }
    /// The y coordinate of the bottom edge (`y + height`).
    public var maxY: Double { y + height }
    /// The x coordinate of the centre.
    public var midX: Double { x + width / 2 }
    /// The y coordinate of the centre.
    public var midY: Double { y + height / 2 }
    /// The centre point.
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
