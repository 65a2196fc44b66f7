extension GaugeLabel {
    /// Draws the label in `rect`: text at `pixelSize` in `color`, aligned
    /// horizontally, placed vertically by `vertical` (its ink centred unless
    /// told otherwise), ending in an ellipsis
    /// when it is wider than `rect` (see ``Font/truncated(_:toWidth:)``); an icon at its natural
    /// size in `color`; a custom drawing at the size it asks for, aligned the
    /// same way.
    public func draw(
        in rect: Rect, on canvas: Canvas, context: DrawContext, pixelSize: Double, color: Color,
        alignment: HorizontalAlignment = .center, vertical: TextVerticalPlacement = .inkCentred
    ) {
        guard rect.isDrawable else { return }
        switch self {
        case .text(let s):
            guard let font = context.font(size: pixelSize) else { return }
            let line = font.truncated(s, toWidth: rect.width)
            font.draw(
                line, at: Text.origin(of: line, font: font, in: rect, alignment: alignment, vertical: vertical),
                on: canvas,
                paint: .solid(color))
        case .icon(let icon):
            let r = Self.aligned(Size(width: Double(icon.width), height: Double(icon.height)), in: rect, alignment)
            icon.coverage.withUnsafeBufferPointer { buf in
                guard let base = buf.baseAddress else { return }
                canvas.fillMask(
                    base, width: icon.width, height: icon.height, pitch: icon.width, x: Int(r.minX.rounded()),
                    y: Int(r.minY.rounded()), paint: .solid(color))
            }
        case .custom(let d):
            let s = d.sizeThatFits(rect.size, context: context)
            d.draw(in: Self.aligned(s, in: rect, alignment), on: canvas, context: context)
        }
    }

    /// Boxes holding every pixel that ``draw(in:on:context:pixelSize:color:alignment:vertical:)``
    /// paints with the same arguments: none for text without ink, nil when
    /// unknown (a custom drawing may paint anywhere in its clip).
    public func drawnBounds(
        in rect: Rect, context: DrawContext, pixelSize: Double, alignment: HorizontalAlignment = .center,
        vertical: TextVerticalPlacement = .inkCentred
    ) -> [Rect]? {
        guard rect.isDrawable else { return [] }
        switch self {
        case .text(let text):
            guard let font = context.font(size: pixelSize) else { return [] }
            let s = font.truncated(text, toWidth: rect.width)
            guard let ink = font.inkBounds(of: s) else { return [] }
            // Font.draw rounds the pen origin to whole pixels.
            let o = Text.origin(of: s, font: font, in: rect, alignment: alignment, vertical: vertical)
            let x0 = o.x.rounded(), y0 = o.y.rounded()
            return [
                Rect(x: x0 + Double(ink.x), y: y0 + Double(ink.y), width: Double(ink.width), height: Double(ink.height))
            ]
        case .icon(let icon):
            let r = Self.aligned(Size(width: Double(icon.width), height: Double(icon.height)), in: rect, alignment)
            return [r.insetBy(-1)]
        case .custom:
            return nil
        }
    }

    /// What ``draw(in:on:context:pixelSize:color:alignment:vertical:)`` paints for a
    /// text label with the same arguments, as a line of text to draw again;
    /// nil for icons and custom drawings, and for text it draws nothing of.
    public func drawnText(
        in rect: Rect, context: DrawContext, pixelSize: Double, color: Color, alignment: HorizontalAlignment = .center,
        vertical: TextVerticalPlacement = .inkCentred
    ) -> DrawnText? {
        guard case .text(let text) = self, rect.isDrawable, let font = context.font(size: pixelSize) else {
            return nil
        }
        let s = font.truncated(text, toWidth: rect.width)
        return DrawnText(
            string: s, font: font,
            origin: Text.origin(of: s, font: font, in: rect, alignment: alignment, vertical: vertical), color: color)
    }

    /// The glyphs that ``draw(in:on:context:pixelSize:color:alignment:vertical:)``
    /// paints for a text label with the same arguments, each where its bitmap
    /// lands; nil for icons and custom drawings.
    public func drawnGlyphs(
        in rect: Rect, context: DrawContext, pixelSize: Double, alignment: HorizontalAlignment = .center,
        vertical: TextVerticalPlacement = .inkCentred
    ) -> [DrawnGlyph]? {
        guard case .text = self else { return nil }
        return drawnText(
            in: rect, context: context, pixelSize: pixelSize, color: .black, alignment: alignment, vertical: vertical)?
            .glyphs ?? []
    }

    static func aligned(_ s: Size, in rect: Rect, _ alignment: HorizontalAlignment) -> Rect {
        let x: Double
        switch alignment {
        case .leading: x = rect.minX
        case .center: x = rect.midX - s.width / 2
        case .trailing: x = rect.maxX - s.width
        }
        return Rect(x: x, y: rect.midY - s.height / 2, width: s.width, height: s.height)
    }
}

/// A line of text as a label draws it: `string` in `font`, its pen starting
/// at `origin` on the baseline, in `color`. ``draw(on:)`` paints what the
/// label paints.
public struct DrawnText: Sendable {
    /// The text.
    public var string: String
    /// The font at its pixel size.
    public var font: Font
    /// Where the pen starts: the left end of the baseline, in pixels.
    public var origin: Point
    /// The text's colour.
    public var color: Color

    /// Creates a line of text.
    ///
    /// - Parameters:
    ///   - string: The text.
    ///   - font: The font at its pixel size.
    ///   - origin: Where the pen starts on the baseline, in pixels.
    ///   - color: The text's colour.
    public init(string: String, font: Font, origin: Point, color: Color) {
        self.string = string
        self.font = font
        self.origin = origin
        self.color = color
    }

    /// Paints the text in its colour, as the label it was taken from paints it.
    ///
    /// - Parameter canvas: The canvas to draw on; the canvas's clip applies.
    public func draw(on canvas: Canvas) {
        font.draw(string, at: origin, on: canvas, paint: .solid(color))
    }

    /// The glyphs ``draw(on:)`` paints, each where its bitmap lands.
    public var glyphs: [DrawnGlyph] {
        guard let (x0, y0) = Font.pen(at: origin) else { return [] }
        return zip(string.unicodeScalars, font.layout(string).glyphs).compactMap { scalar, laid in
            let (g, pen) = laid
            guard g.width > 0 && g.height > 0 else { return nil }
            return DrawnGlyph(scalar: scalar, pixelSize: font.pixelSize, box: g.box(penX: x0 + pen, baseline: y0))
        }
    }
}

/// One glyph of a drawn text label: the character, the text size and where
/// its bitmap lands. Two equal values paint the same pixels.
public struct DrawnGlyph: Sendable, Hashable {
    /// The character the glyph shows.
    public var scalar: Unicode.Scalar
    /// The text size, in pixels.
    public var pixelSize: Double
    /// The whole-pixel rectangle the glyph's bitmap covers.
    public var box: IntRect
}
