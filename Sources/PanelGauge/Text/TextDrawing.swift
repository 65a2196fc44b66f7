extension Font {
    /// The ink of `text` laid out with its pen starting at (0, 0) on the
    /// baseline: the union of the glyph bitmaps' non-empty boxes (y down, so the
    /// top of a capital is negative). Nil for text without ink (spaces).
    public func inkBounds(of text: String) -> IntRect? { inkBounds(of: layout(text)) }

    /// The ink of a laid-out run (see ``inkBounds(of:)-(String)``).
    public func inkBounds(of run: Run) -> IntRect? {
        var ink: IntRect?
        for (g, pen) in run.glyphs where g.width > 0 && g.height > 0 {
            let box = g.box(penX: pen, baseline: 0)
            ink = ink.map { $0.union(box) } ?? box
        }
        return ink
    }

    /// Where ``draw(_:at:on:paint:)`` puts the pen for `origin`: rounded to
    /// whole pixels; nil (nothing drawn) when not finite or beyond +-2^30.
    static func pen(at origin: Point) -> (x: Int, y: Int)? {
        guard [origin.x, origin.y].allSatisfy({ $0.isFinite && abs($0) < 1_073_741_824 }) else { return nil }
        return (Int(origin.x.rounded()), Int(origin.y.rounded()))
    }

    /// Draws `text` with its pen starting at `origin` on the baseline. The
    /// origin is rounded to whole pixels so that hinted glyphs stay on the grid.
    /// An origin that is not finite (or beyond +-2^30) draws nothing.
    public func draw(_ text: String, at origin: Point, on canvas: Canvas, paint: Paint) {
        guard let (x0, y0) = Self.pen(at: origin) else { return }
        for (g, pen) in layout(text).glyphs where g.width > 0 && g.height > 0 {
            let box = g.box(penX: x0 + pen, baseline: y0)
            g.coverage.withUnsafeBufferPointer { buf in
                canvas.fillMask(
                    buf.baseAddress!, width: g.width, height: g.height, pitch: g.width, x: box.minX, y: box.minY,
                    paint: paint)
            }
        }
    }
}

extension Glyph {
    /// Where the bitmap lands with the pen at column `penX` on the baseline row `baseline`.
    func box(penX: Int, baseline: Int) -> IntRect {
        IntRect(x: penX + left, y: baseline - top, width: width, height: height)
    }
}

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
