/// Horizontal placement of content inside a wider rectangle.
public enum HorizontalAlignment: Sendable, Hashable {
    case leading, center, trailing
}

/// A line of text as a ``Drawable``: its size is its advance width by the
/// font's ascender + descender; it is drawn in `color`, aligned horizontally in
/// its rectangle and centred vertically on its ink.
public struct Text: Drawable {
    public var string: String
    /// Pixel size; nil takes the environment's label size.
    public var size: Double?
    /// Nil takes the environment's foreground colour.
    public var color: Color?
    public var alignment: HorizontalAlignment

    public init(_ string: String, size: Double? = nil, color: Color? = nil, alignment: HorizontalAlignment = .center) {
        self.string = string
        self.size = size
        self.color = color
        self.alignment = alignment
    }

    public func sizeThatFits(_ proposal: Size, context: DrawContext) -> Size {
        guard let font = context.font(size: size ?? context.environment.labelSize) else { return .zero }
        return Size(width: font.advance(of: string), height: font.ascender + font.descender)
    }

    public func draw(in rect: Rect, on canvas: Canvas, context: DrawContext) {
        guard let font = context.font(size: size ?? context.environment.labelSize) else { return }
        let origin = Self.origin(of: string, font: font, in: rect, alignment: alignment)
        font.draw(string, at: origin, on: canvas, paint: .solid(color ?? context.environment.foreground))
    }

    /// Where the pen starts so that the text's advance is aligned in `rect` and
    /// its ink is centred vertically on the rectangle's middle.
    static func origin(of string: String, font: Font, in rect: Rect, alignment: HorizontalAlignment) -> Point {
        // (Laid out once: the advance is the run's, and the ink needs the run.)
        let run = font.layout(string)
        let w = run.advance
        let x: Double
        switch alignment {
        case .leading: x = rect.minX
        case .center: x = rect.midX - w / 2
        case .trailing: x = rect.maxX - w
        }
        let ink = font.inkBounds(of: run)
        // Baseline such that the ink's vertical middle sits on rect.midY.
        let inkMid = ink.map { Double($0.minY + $0.maxY) / 2 } ?? -font.ascender / 2
        return Point(x: x, y: rect.midY - inkMid)
    }
}
