/// Where a gauge shows its label as a title: a line of text in the gauge's
/// rectangle, above or below the drawing of its style, which gets the rest
/// of the rectangle.
///
/// A title takes the label's line height (at ``DrawContext/titleSize``), and
/// the style's drawing keeps `0.3 x` the title size away from it. It is
/// centred across the rectangle, its line centred vertically
/// (``TextVerticalPlacement/lineCentred``: titles of one size share a
/// baseline, "CPU" beside "Memory"), ends in an ellipsis when it is wider,
/// and belongs to the gauge's static layer.
public enum TitlePlacement: Sendable, Hashable {
    /// No title: the label shows only where the style has a place for it
    /// (SwiftUI's behaviour, and the default).
    case none
    /// Above the gauge when its style has no place for the label (for the
    /// given labels) or the label does not fit there, else where the style
    /// puts it.
    case automatic
    /// Always a title above the gauge (the style is not given the label).
    case top
    /// Always a title below the gauge (the style is not given the label).
    case bottom
}

/// A gauge's rectangle split between its title and its style's drawing.
struct TitledLayout {
    /// What the style draws: the gauge's configuration, less the label when
    /// it is the title.
    var configuration: GaugeStyleConfiguration
    /// Where the style draws.
    var body: Rect
    /// The title and its line, if the gauge shows one.
    var title: (label: GaugeLabel, rect: Rect)?

    /// The title line's height and the gap between it and the body, for a
    /// label at `size`.
    static func strip(for label: GaugeLabel, size: Double, context: DrawContext) -> (line: Double, gap: Double) {
        (label.size(pixelSize: size, context: context).height.rounded(.up), (0.3 * size).rounded())
    }
}

extension Gauge {
    /// Whether the label is shown as a title, and on which edge (true: top),
    /// when the gauge is drawn into `rect` (nil: wherever, assuming the label
    /// fits the style's place for it).
    func titleOnTop(_ c: GaugeStyleConfiguration, in rect: Rect? = nil, context: DrawContext? = nil) -> Bool? {
        guard c.label != nil else { return nil }
        switch title {
        case .none: return nil
        case .top: return true
        case .bottom: return false
        case .automatic:
            guard style.shownLabels(configuration: c).contains(.label) else { return true }
            guard let rect, let context, !style.labelFits(configuration: c, in: rect, context: context) else {
                return nil
            }
            // Above, unless the title's line would take the room of a current
            // value that shows without it (the value is the gauge's first text).
            guard style.currentValueSize(configuration: c, in: rect, context: context) != nil else { return true }
            var bare = c
            bare.label = nil
            let body = bodyUnderTitle(of: c, in: rect, context: context)
            let keepsValue = style.currentValueSize(configuration: bare, in: body, context: context) != nil
            return keepsValue ? true : nil
        }
    }

    /// The style's part of `rect` when the label is a title above it.
    private func bodyUnderTitle(of c: GaugeStyleConfiguration, in rect: Rect, context: DrawContext) -> Rect {
        guard let label = c.label else { return rect }
        let (line, gap) = TitledLayout.strip(for: label, size: context.titleSize, context: context)
        let h = min(line, rect.height)
        return Rect(x: rect.minX, y: rect.minY + h + gap, width: rect.width, height: max(0, rect.height - h - gap))
    }

    /// The drawing context for the cell `rect`: its text sizes from the
    /// environment's type scale.
    func context(fonts: FontCache, cell rect: Rect, layers: GaugeLayers = .all) -> DrawContext {
        let sizes =
            rect.width.isFinite && rect.height.isFinite ? environment.typeScale?.sizes(for: rect.size) : nil
        return DrawContext(fonts: fonts, environment: environment, layers: layers, textSizes: sizes)
    }

    /// `rect` split between the title (if shown) and the style's drawing.
    func titled(in rect: Rect, context: DrawContext) -> TitledLayout {
        var c = configuration
        guard let top = titleOnTop(c, in: rect, context: context), let label = c.label else {
            return TitledLayout(configuration: c, body: rect, title: nil)
        }
        c.label = nil
        let (line, gap) = TitledLayout.strip(for: label, size: context.titleSize, context: context)
        let h = min(line, rect.height)
        // The style's drawing as tall as it asks (a bar's rows, a ring's
        // square), with the title beside it, the two centred together.
        let room = max(0, rect.height - h - gap)
        let asked = style.makeBody(configuration: c).sizeThatFits(
            Size(width: rect.width, height: room), context: context)
        let bodyHeight = asked.height.isFinite && asked.height > 0 ? min(room, asked.height) : room
        let y0 = rect.midY - (h + gap + bodyHeight) / 2
        let titleRect = Rect(x: rect.minX, y: top ? y0 : y0 + bodyHeight + gap, width: rect.width, height: h)
        let body = Rect(x: rect.minX, y: top ? y0 + h + gap : y0, width: rect.width, height: bodyHeight)
        return TitledLayout(configuration: c, body: body, title: (label, titleRect))
    }
}

extension Gauge {
    /// Whether the label is drawn as a title line (above or below the
    /// style's drawing) when the gauge is drawn into `rect`; false also when
    /// the gauge has no label. A style that is given the label may still
    /// leave it out in a small rectangle (``DialLayout/titleBox``).
    public func showsTitle(in rect: Rect, fonts: FontCache = .shared) -> Bool {
        guard rect.isDrawable else { return false }
        return titled(in: rect, context: context(fonts: fonts, cell: rect)).title != nil
    }

    /// The labels this gauge shows: those its style draws, and its label as a
    /// title. A label it was given and does not show is left out silently,
    /// so a program (paneld's layout reader) can warn about it.
    public var shownLabels: GaugeLabelKinds {
        let c = configuration
        var shown = style.shownLabels(configuration: c)
        if titleOnTop(c) != nil { shown.insert(.label) }
        return shown.intersection(GaugeLabelKinds(of: c))
    }
}
