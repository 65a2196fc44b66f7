extension GaugeLabel {
    /// Draws the label in `rect`: text at `pixelSize` in `color`, aligned
    /// horizontally and centred vertically on its ink; an icon at its natural
    /// size in `color`; a custom drawing at the size it asks for, aligned the
    /// same way.
    public func draw(
        in rect: Rect, on canvas: Canvas, context: DrawContext, pixelSize: Double, color: Color,
        alignment: HorizontalAlignment = .center
    ) {
        guard rect.isDrawable else { return }
        switch self {
        case .text(let s):
            Text(s, size: pixelSize, color: color, alignment: alignment).draw(in: rect, on: canvas, context: context)
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

    /// Boxes holding every pixel that ``draw(in:on:context:pixelSize:color:alignment:)``
    /// paints with the same arguments: none for text without ink, nil when
    /// unknown (a custom drawing may paint anywhere in its clip).
    public func drawnBounds(
        in rect: Rect, context: DrawContext, pixelSize: Double, alignment: HorizontalAlignment = .center
    ) -> [Rect]? {
        guard rect.isDrawable else { return [] }
        switch self {
        case .text(let s):
            guard let font = context.font(size: pixelSize), let ink = font.inkBounds(of: s) else { return [] }
            // Font.draw rounds the pen origin to whole pixels.
            let o = Text.origin(of: s, font: font, in: rect, alignment: alignment)
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

    /// What ``draw(in:on:context:pixelSize:color:alignment:)`` paints for a
    /// text label with the same arguments, as a line of text to draw again;
    /// nil for icons and custom drawings, and for text it draws nothing of.
    public func drawnText(
        in rect: Rect, context: DrawContext, pixelSize: Double, color: Color, alignment: HorizontalAlignment = .center
    ) -> DrawnText? {
        guard case .text(let s) = self, rect.isDrawable, let font = context.font(size: pixelSize) else { return nil }
        return DrawnText(
            string: s, font: font, origin: Text.origin(of: s, font: font, in: rect, alignment: alignment), color: color)
    }

    /// The glyphs that ``draw(in:on:context:pixelSize:color:alignment:)``
    /// paints for a text label with the same arguments, each where its bitmap
    /// lands; nil for icons and custom drawings.
    public func drawnGlyphs(
        in rect: Rect, context: DrawContext, pixelSize: Double, alignment: HorizontalAlignment = .center
    ) -> [DrawnGlyph]? {
        guard case .text = self else { return nil }
        return drawnText(in: rect, context: context, pixelSize: pixelSize, color: .black, alignment: alignment)?
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
    public var string: String
    public var font: Font
    public var origin: Point
    public var color: Color

    public init(string: String, font: Font, origin: Point, color: Color) {
        self.string = string
        self.font = font
        self.origin = origin
        self.color = color
    }

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
    public var scalar: Unicode.Scalar
    public var pixelSize: Double
    public var box: IntRect
}

extension Tint {
    /// The tint along a straight line from `start` (value 0) to `end` (value 1).
    public func linearPaint(from start: Point, to end: Point) -> Paint {
        switch self {
        case .color(let c): .solid(c)
        case .gradient(let g): .linearGradient(g, start: start, end: end)
        }
    }

    /// The tint along an arc from `arcStart` clockwise over `arcSweep` degrees:
    /// the gradient's 0...1 is laid onto the arc, and the rest of the turn is
    /// split evenly between the two end colours, so that round caps on either
    /// end take their own end's colour (the conic gradient's seam falls in the
    /// middle of the gap).
    public func arcPaint(center: Point, arcStart: Angle, arcSweep: Angle) -> Paint {
        switch self {
        case .color(let c):
            return .solid(c)
        case .gradient(let g):
            let sweep = min(360, max(0, arcSweep.degrees))
            let margin = (360 - sweep) / 2
            let stops = g.stops.map {
                Gradient.Stop(color: $0.color, location: (margin + $0.location * sweep) / 360)
            }
            return .conicGradient(Gradient(stops: stops), center: center, startAngle: arcStart - .degrees(margin))
        }
    }

    /// Every colour's alpha multiplied by `opacity`.
    public func opacity(_ opacity: Double) -> Tint {
        switch self {
        case .color(let c): .color(c.opacity(opacity))
        case .gradient(let g):
            .gradient(
                Gradient(stops: g.stops.map { Gradient.Stop(color: $0.color.opacity(opacity), location: $0.location) }))
        }
    }

    public var isGradient: Bool {
        if case .gradient = self { return true }
        return false
    }
}

extension Gauge {
    /// Draws the gauge in its style into `rect`. Nothing is drawn outside the
    /// pixels `rect` touches, even when the rectangle is too small for the
    /// style, so gauges sharing a panel never paint over each other.
    /// A rectangle that is not finite (or beyond +-2^30) draws nothing.
    ///
    /// `layers` picks the parts to draw (see ``GaugeLayers``); a style that does
    /// not separate its layers draws everything as its dynamic layer.
    public func draw(in rect: Rect, on canvas: Canvas, fonts: FontCache = .shared, layers: GaugeLayers = .all) {
        guard rect.isDrawable else { return }
        let separates = style.separatesLayers
        if !separates && !layers.contains(.dynamic) { return }
        let context = DrawContext(fonts: fonts, environment: environment, layers: separates ? layers : .all)
        canvas.withClip(IntRect(covering: rect)) {
            style.makeBody(configuration: configuration).draw(in: rect, on: canvas, context: context)
        }
    }

    /// How the gauge's drawing into `rect` splits into layers (see ``GaugeLayering``).
    public func layering(in rect: Rect, fonts: FontCache = .shared) -> GaugeLayering {
        guard rect.isDrawable, style.separatesLayers else { return .unseparated }
        let context = DrawContext(fonts: fonts, environment: environment)
        return style.layering(configuration: configuration, in: rect, context: context)
    }

    /// Opens the gauge's font, so a missing or broken font file is reported
    /// (``FontError``) before drawing; drawing itself leaves text out instead.
    public func validateFont(fonts: FontCache = .shared) throws(FontError) {
        _ = try fonts.font(environment.font, pixelSize: environment.labelSize)
    }

    /// The size the gauge's style would like when offered `proposal`.
    public func sizeThatFits(_ proposal: Size, fonts: FontCache = .shared) -> Size {
        let context = DrawContext(fonts: fonts, environment: environment)
        return style.makeBody(configuration: configuration).sizeThatFits(proposal, context: context)
    }
}
