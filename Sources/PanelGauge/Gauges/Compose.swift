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

public struct Framed<Content: Drawable>: Drawable {
    public let content: Content
    public let size: Size

    public func sizeThatFits(_ proposal: Size, context: DrawContext) -> Size { size }

    public func draw(in rect: Rect, on canvas: Canvas, context: DrawContext) {
        content.draw(in: rect.centred(size), on: canvas, context: context)
    }
}

public struct Overlaid<Base: Drawable, Overlay: Drawable>: Drawable {
    public let base: Base
    public let overlay: Overlay

    public func sizeThatFits(_ proposal: Size, context: DrawContext) -> Size {
        base.sizeThatFits(proposal, context: context)
    }

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
