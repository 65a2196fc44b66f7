/// Something that sizes itself and draws into a rectangle: a gauge style's body,
/// or a custom label. The counterpart of a SwiftUI `View` for our purposes.
public protocol Drawable: Sendable {
    /// The size this content wants when offered `proposal` (it may return less
    /// or more; callers decide).
    func sizeThatFits(_ proposal: Size, context: DrawContext) -> Size
    /// Draws into `rect` on `canvas`; the caller has sized the rectangle.
    func draw(in rect: Rect, on canvas: Canvas, context: DrawContext)
}

/// A ``Drawable`` from two closures: the quickest way to write a custom label or
/// a style's body.
public struct Draw: Drawable {
    private let size: @Sendable (Size, DrawContext) -> Size
    private let body: @Sendable (Rect, Canvas, DrawContext) -> Void

    /// `size` defaults to taking the whole proposal.
    public init(
        size: @escaping @Sendable (Size, DrawContext) -> Size = { proposal, _ in proposal },
        _ body: @escaping @Sendable (Rect, Canvas, DrawContext) -> Void
    ) {
        self.size = size
        self.body = body
    }

    /// Returns the size closure's answer for the proposal.
    ///
    /// - Parameters:
    ///   - proposal: The size offered.
    ///   - context: The drawing context.
    public func sizeThatFits(_ proposal: Size, context: DrawContext) -> Size { size(proposal, context) }
    /// Calls the body closure with the rectangle, canvas and context.
    ///
    /// - Parameters:
    ///   - rect: The rectangle to draw into, in pixels.
    ///   - canvas: The canvas to draw on.
    ///   - context: The drawing context.
    public func draw(in rect: Rect, on canvas: Canvas, context: DrawContext) { body(rect, canvas, context) }
}
