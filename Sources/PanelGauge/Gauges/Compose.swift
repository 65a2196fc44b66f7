/// Small layout combinators over ``Drawable``, enough to write styles the way
/// SwiftUI code reads (`indicator.frame(width: 80, height: 80).overlay(Text("60%"))`).
extension Drawable {
    /// A fixed size; the content is drawn into a rectangle of that size centred
    /// in whatever rectangle the frame is given.
    public func frame(width: Double, height: Double) -> Framed<Self> {
        Framed(content: self, size: Size(width: width, height: height))
    }

    /// `overlay` drawn over this content, in the same rectangle, sized to its
    /// own ideal size and centred.
    public func overlay<Overlay: Drawable>(_ overlay: Overlay) -> Overlaid<Self, Overlay> {
        Overlaid(base: self, overlay: overlay)
    }
}

/// A drawing with a fixed size, drawn centred in the rectangle it is given; made by ``Drawable/frame(width:height:)``.
public struct Framed<Content: Drawable>: Drawable {
    /// The drawing inside the frame.
    public let content: Content
    /// The frame's size, in pixels, whatever size is proposed.
    public let size: Size

    /// Returns the frame's fixed size, whatever the proposal.
    ///
    /// - Parameters:
    ///   - proposal: The size offered.
    ///   - context: The drawing context.
    public func sizeThatFits(_ proposal: Size, context: DrawContext) -> Size { size }

    /// Draws the content into a rectangle of the frame's size centred in `rect`; the content is not clipped to it.
    ///
    /// - Parameters:
    ///   - rect: The rectangle to draw into, in pixels.
    ///   - canvas: The canvas to draw on.
    ///   - context: The drawing context.
    public func draw(in rect: Rect, on canvas: Canvas, context: DrawContext) {
        content.draw(in: rect.centred(size), on: canvas, context: context)
    }
}

/// A drawing with another drawn over it, centred; made by ``Drawable/overlay(_:)``.
public struct Overlaid<Base: Drawable, Overlay: Drawable>: Drawable {
    /// The drawing underneath, which gives the size.
    public let base: Base
    /// The drawing on top, at its own ideal size for the base's rectangle, centred.
    public let overlay: Overlay

    /// Returns the base's size for the proposal; the overlay does not change it.
    ///
    /// - Parameters:
    ///   - proposal: The size offered.
    ///   - context: The drawing context.
    public func sizeThatFits(_ proposal: Size, context: DrawContext) -> Size {
        base.sizeThatFits(proposal, context: context)
    }

    /// Draws the base into `rect`, then the overlay centred over it at the size it asks for `rect`'s size.
    ///
    /// - Parameters:
    ///   - rect: The rectangle to draw into, in pixels.
    ///   - canvas: The canvas to draw on.
    ///   - context: The drawing context.
    public func draw(in rect: Rect, on canvas: Canvas, context: DrawContext) {
        base.draw(in: rect, on: canvas, context: context)
        let s = overlay.sizeThatFits(Size(width: rect.width, height: rect.height), context: context)
        overlay.draw(in: rect.centred(s), on: canvas, context: context)
    }
}

extension Rect {
    /// A rectangle of `size` with the same centre.
    func centred(_ size: Size) -> Rect {
        Rect(x: midX - size.width / 2, y: midY - size.height / 2, width: size.width, height: size.height)
    }

    var size: Size { Size(width: width, height: height) }

    /// Whether every coordinate is a finite number within +-2^30, so it converts
    /// to whole pixels without trapping.
    var isDrawable: Bool { [x, y, width, height].allSatisfy { $0.isFinite && abs($0) < 1_073_741_824 } }
}
