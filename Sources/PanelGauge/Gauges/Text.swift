/// Horizontal placement of content inside a wider rectangle.
public enum HorizontalAlignment: Sendable, Hashable {
    /// Against the left edge.
    case leading
    /// Centred.
    case center
    /// Against the right edge.
    case trailing
}

/// How a line of text sits vertically in its rectangle.
public enum TextVerticalPlacement: Sendable, Hashable {
    /// Its ink centred on the rectangle's middle: a number in a ring looks
    /// centred whatever its glyphs.
    case inkCentred
    /// The font's line (ascender over descender) centred on the rectangle's
    /// middle: texts of one size in rectangles of one height share a
    /// baseline, with descenders or without (titles in a row of gauges).
    case lineCentred
}

/// A line of text as a ``Drawable``: its size is its advance width by the
/// font's ascender + descender; it is drawn in `color`, aligned horizontally in
/// its rectangle and centred vertically on its ink.
public struct Text: Drawable {
    /// The text, drawn on one line.
    public var string: String
    /// Pixel size; nil takes the environment's label size.
    public var size: Double?
    /// Nil takes the environment's foreground colour.
    public var color: Color?
    /// The text's horizontal placement in its rectangle.
    public var alignment: HorizontalAlignment

    /// Creates a line of text.
    ///
    /// - Parameters:
    ///   - string: The text, drawn on one line.
    ///   - size: The text size in pixels, or nil for the environment's label size.
    ///   - color: The text's colour, or nil for the environment's foreground colour.
    ///   - alignment: The text's horizontal placement in its rectangle.
    public init(_ string: String, size: Double? = nil, color: Color? = nil, alignment: HorizontalAlignment = .center) {
        self.string = string
        self.size = size
        self.color = color
        self.alignment = alignment
    }

    /// Returns the text's advance width by the font's ascender plus descender, whatever the proposal; zero when the
    /// font cannot be loaded.
    ///
    /// - Parameters:
    ///   - proposal: The size offered.
    ///   - context: The drawing context, which gives the font.
    public func sizeThatFits(_ proposal: Size, context: DrawContext) -> Size {
        guard let font = context.font(size: size ?? context.environment.labelSize) else { return .zero }
        return Size(width: font.advance(of: string), height: font.ascender + font.descender)
    }

    /// Draws the text aligned horizontally in `rect` and with its ink centred vertically; nothing when the font cannot
    /// be loaded.
    ///
    /// - Parameters:
    ///   - rect: The rectangle to draw into, in pixels.
    ///   - canvas: The canvas to draw on.
    ///   - context: The drawing context, which gives the font and default colour.
    public func draw(in rect: Rect, on canvas: Canvas, context: DrawContext) {
        guard let font = context.font(size: size ?? context.environment.labelSize) else { return }
        let origin = Self.origin(of: string, font: font, in: rect, alignment: alignment)
        font.draw(string, at: origin, on: canvas, paint: .solid(color ?? context.environment.foreground))
    }

    /// Where the pen starts so that the text's advance is aligned in `rect` and
    /// the text is placed vertically by `vertical`.
    static func origin(
        of string: String, font: Font, in rect: Rect, alignment: HorizontalAlignment,
        vertical: TextVerticalPlacement = .inkCentred
    ) -> Point {
        // (Laid out once: the advance is the run's, and the ink needs the run.)
        let run = font.layout(string)
        let w = run.advance
        let x: Double
        switch alignment {
        case .leading: x = rect.minX
        case .center: x = rect.midX - w / 2
        case .trailing: x = rect.maxX - w
        }
        if vertical == .lineCentred { return Point(x: x, y: rect.midY + (font.ascender - font.descender) / 2) }
        let ink = font.inkBounds(of: run)
        // Baseline such that the ink's vertical middle sits on rect.midY.
        let inkMid = ink.map { Double($0.minY + $0.maxY) / 2 } ?? -font.ascender / 2
        return Point(x: x, y: rect.midY - inkMid)
    }
}
