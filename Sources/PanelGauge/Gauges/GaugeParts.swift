/// A part of a gauge's drawing that a reader tells apart from the others, and
/// that must therefore stay clear of them at every value.
public enum GaugePart: String, Sendable, Hashable, CaseIterable {
    /// The label shown as the gauge's title (``TitlePlacement``).
    case title
    /// The label where the style has a place for it.
    case label
    /// The current value's text.
    case currentValue
    /// The minimum value's label at the start of the range.
    case minimumValue
    /// The maximum value's label at the end of the range.
    case maximumValue
    /// A marker dot at the value, with its clear padding.
    case marker
    /// A linear scale: its sections, ticks and numbers (or marked values' labels).
    case scale
}

extension GaugeStyle {
    /// No parts known: a custom style may paint anywhere in its rectangle.
    public func partBounds(configuration: Configuration, in rect: Rect, context: DrawContext) -> [GaugePart: [Rect]] {
        [:]
    }

    /// The current value's text size: not known for a custom style.
    ///
    /// The default implementation returns nil.
    ///
    /// - Parameters:
    ///   - configuration: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func currentValueSize(configuration: Configuration, in rect: Rect, context: DrawContext) -> Double? { nil }
}

extension Gauge {
    /// Boxes around the parts of the gauge drawn into `rect` at its value
    /// (each text's ink, a marker with its padding), by part; a part it
    /// does not draw is absent. For checking that no two parts meet at any value.
    public func partBounds(in rect: Rect, fonts: FontCache = .shared) -> [GaugePart: [Rect]] {
        guard rect.isDrawable else { return [:] }
        let context = context(fonts: fonts, cell: rect)
        let parts = titled(in: rect, context: context)
        var out = style.partBounds(configuration: parts.configuration, in: parts.body, context: context)
        if let title = parts.title,
            let ink = title.label.drawnBounds(
                in: title.rect, context: context, pixelSize: context.titleSize, vertical: .lineCentred)
        {
            out[.title] = ink
        }
        return out
    }
}

extension Gauge {
    /// The pixel size of the current value's text when the gauge is drawn
    /// into `rect` (its style's ``GaugeStyle/currentValueSize(configuration:in:context:)``
    /// in the rectangle its title leaves); nil when the style does not say.
    public func currentValueSize(in rect: Rect, fonts: FontCache = .shared) -> Double? {
        guard rect.isDrawable else { return nil }
        let context = context(fonts: fonts, cell: rect)
        let parts = titled(in: rect, context: context)
        return style.currentValueSize(configuration: parts.configuration, in: parts.body, context: context)
    }
}

extension Dictionary where Key == GaugePart, Value == [Rect] {
    /// Adds `part`'s boxes (nothing for an unknown extent).
    mutating func add(_ part: GaugePart, _ boxes: [Rect]?) {
        guard let boxes, !boxes.isEmpty else { return }
        self[part, default: []] += boxes
    }
}
