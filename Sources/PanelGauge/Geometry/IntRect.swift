/// A rectangle of whole pixels: columns `x ..< x + width`, rows `y ..< y + height`.
///
/// Used for clip rectangles, damage and sub-surfaces. Width and height are never
/// negative; an empty rectangle has zero area. (The small members are
/// inlinable: paneld's damage bookkeeping calls them hundreds of times a frame.)
public struct IntRect: Sendable, Hashable, CustomStringConvertible {
    /// The first column, in pixels from the left edge.
    public var x: Int
    /// The first row, in pixels from the top edge.
    public var y: Int
    /// The number of columns; not negative when set by an initializer.
    public var width: Int
    /// The number of rows; not negative when set by an initializer.
    public var height: Int

    /// Creates a rectangle; negative sizes are clamped to zero.
    @inlinable
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// Creates the rectangle spanning `minX ..< maxX`, `minY ..< maxY`.
    @inlinable
    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The first column (`x`).
    @inlinable
    public var minX: Int { x }
    /// The first row (`y`).
    @inlinable
    public var minY: Int { y }
    /// The column just past the right edge (`x + width`, wrapping on overflow).
    @inlinable
    public var maxX: Int { x &+ width }
    /// The row just past the bottom edge (`y + height`, wrapping on overflow).
    @inlinable
    public var maxY: Int { y &+ height }
    /// Whether the rectangle covers no pixel (zero width or height).
    @inlinable
    public var isEmpty: Bool { width == 0 || height == 0 }
    /// The number of pixels covered (`width * height`).
    @inlinable
    public var area: Int { width * height }

    /// The common part of two rectangles (empty if they do not overlap).
    @inlinable
    public func intersection(_ other: IntRect) -> IntRect {
        let r = IntRect(
            minX: max(minX, other.minX), minY: max(minY, other.minY),
            maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
        return r.isEmpty ? IntRect(x: r.x, y: r.y, width: 0, height: 0) : r
    }

    /// The smallest rectangle containing both; an empty operand is ignored.
    @inlinable
    public func union(_ other: IntRect) -> IntRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return IntRect(
            minX: min(minX, other.minX), minY: min(minY, other.minY),
            maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// Returns whether the two rectangles share at least one pixel.
    @inlinable
    public func intersects(_ other: IntRect) -> Bool { !intersection(other).isEmpty }

    /// Returns whether every pixel of `other` is in this rectangle; an empty `other` is always contained.
    @inlinable
    public func contains(_ other: IntRect) -> Bool {
        other.isEmpty
            || (other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY)
    }

    /// The smallest whole-pixel rectangle that covers `rect` (any pixel it touches).
    public init(covering rect: Rect) {
        let x0 = Int((rect.minX).rounded(.down)), y0 = Int((rect.minY).rounded(.down))
        let x1 = Int((rect.maxX).rounded(.up)), y1 = Int((rect.maxY).rounded(.up))
        self.init(minX: x0, minY: y0, maxX: x1, maxY: y1)
    }

    /// The rectangle as `WIDTHxHEIGHT+X+Y`, the X11 geometry notation (for example `64x32+10+0`).
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
