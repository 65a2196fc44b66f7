/// The self-sizing ring gauge of the SwiftUI article: a dashed track ring at
/// 0.2 opacity of the foreground colour, a value arc from the bottom (90
/// degrees) clockwise, and a centre whose width sets the ring's size:
/// diameter = centre width x 1.777.
///
/// The centre is the current-value label, or by default the value as "73 %".
/// A text centre is sized from the widest text the value can show ("100 %",
/// or the gauge's ``ValueFormat`` at both ends of the range), so the ring never
/// changes size as the value changes. An icon or custom centre sizes the ring
/// by its own width.
///
/// Proportions, from the article's 5 pt stroke on a ring about 80 pt wide: value
/// stroke `T = D / 16`, butt ends; track stroke `T / 1.777` dashed `T` on, `T`
/// off from the bottom; both on the centre-line radius `(D - T) / 2`. The tint
/// is laid over the whole turn from the bottom, as the article's rotated
/// `AngularGradient`; the default tint is the article's red to green.
public struct RingGaugeStyle: GaugeStyle {
    /// Diameter over centre width.
    public static let scale = 1.777
    /// The widest text of the default centre, which sizes it.
    public static let defaultSizingText = "100 %"
    /// Text size of the ideal (unconstrained) ring: SwiftUI's body text.
    public static let idealFontSize = 17.0
    /// Text size of the centre; nil picks the largest size whose ring fits the
    /// rectangle it is drawn into.
    public var fontSize: Double?

    /// Creates a ring gauge style.
    ///
    /// - Parameter fontSize: The centre's text size in pixels, or nil for the largest size whose ring fits the
    ///   rectangle.
    public init(fontSize: Double? = nil) {
        self.fontSize = fontSize
    }

    /// The article's gradient: red at the bottom, through the turn to green.
    public var defaultTint: Tint { .gradient([.red, .green]) }

    /// The ring for a centre `centreWidth` wide, centred in `rect`.
    public static func layout(centreWidth: Double, in rect: Rect) -> (ring: CircularGaugeLayout, diameter: Double) {
        let d = centreWidth * scale
        let t = d / 16
        return (
            CircularGaugeLayout(
                center: rect.center, radius: max(0, (d - t) / 2), lineWidth: t, startAngle: 90, sweep: 360), d
        )
    }

    /// The centre label, the texts that size it, and its text size in `rect`.
    func centre(_ c: GaugeStyleConfiguration, in rect: Rect, context: DrawContext) -> (
        label: GaugeLabel, size: Double, width: Double
    ) {
        var c = c
        if c.currentValueLabel == nil {
            c.currentValueLabel = .text(ValueFormat.percent().string(for: c.value, in: 0...1))
            c.sizingText.append(Self.defaultSizingText)
        }
        let label = c.currentValueLabel!
        // An unbounded proposal (asking for the ideal size) takes the article's
        // 17 px body text, or the fixed size.
        let side = min(rect.width, rect.height)
        let size =
            side.isFinite
            ? centreTextSize(c, preferred: fontSize ?? side, fitting: side / Self.scale, context)
            : (fontSize ?? Self.idealFontSize)
        var width: Double
        if let text = label.text {
            width = widestAdvance(of: [text] + c.sizingText, size: size, context)
        } else {
            width = max(
                label.size(pixelSize: size, context: context).width,
                widestAdvance(of: c.sizingText, size: size, context))
        }
        // On a type scale the text is a step that may fall short of the
        // ring's room: the ring still fills the rectangle.
        if context.textSizes != nil, fontSize == nil, side.isFinite { width = max(width, side / Self.scale) }
        return (label, size, width)
    }

    /// Returns the drawing of a gauge in this style.
    ///
    /// - Parameter c: The gauge to draw.
    public func makeBody(configuration c: Configuration) -> some Drawable {
        Draw(
            size: { proposal, context in
                let d =
                    centre(c, in: Rect(x: 0, y: 0, width: proposal.width, height: proposal.height), context: context)
                    .width * Self.scale
                return Size(width: d, height: d)
            },
            { rect, canvas, context in
                let centre = centre(c, in: rect, context: context)
                let l = Self.layout(centreWidth: centre.width, in: rect).ring
                if l.radius > 0 {
                    let t = l.lineWidth
                    if context.layers.contains(.static) {
                        canvas.strokeArc(
                            center: l.center, radius: l.radius, startAngle: l.startAngle, sweep: l.sweep,
                            width: t / Self.scale, cap: .butt, dash: try? DashPattern([t, t]),
                            paint: c.zoneTrack?.arcPaint(center: l.center, arcStart: l.startAngle, arcSweep: l.sweep)
                                ?? .solid(c.environment.track))
                    }
                    if context.layers.contains(.dynamic) {
                        l.strokeValueArc(to: c.value, cap: .butt, valueStroke(c, l), on: canvas)
                    }
                }
                guard context.layers.contains(.dynamic) else { return }
                centre.label.draw(
                    in: centreBox(centre, l), on: canvas, context: context, pixelSize: centre.size,
                    color: c.environment.foreground)
            })
    }

    /// True: this style draws its static parts (the track) before any dynamic one (value arc, labels).
    public var separatesLayers: Bool { true }

    /// The current value (or the percentage) in the centre; no label, no end labels.
    public func shownLabels(configuration c: Configuration) -> GaugeLabelKinds { .currentValue }

    /// What the static layer depends on and where the dynamic layer paints.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func layering(configuration c: Configuration, in rect: Rect, context: DrawContext) -> GaugeLayering {
        let centre = centre(c, in: rect, context: context)
        let l = Self.layout(centreWidth: centre.width, in: rect).ring
        let arc = l.radius > 0 && c.value > 0 ? [l.strokeBounds(from: 0, to: c.value)] : []
        let box = centreBox(centre, l)
        // A text label's bounds are its glyphs' boxes together (one layout for both).
        let drawn = centre.label.drawnText(
            in: box, context: context, pixelSize: centre.size, color: c.environment.foreground)
        // (Nil for icons; none for text that draws nothing.)
        let glyphs = drawn.map(\.glyphs) ?? centre.label.drawnGlyphs(in: box, context: context, pixelSize: centre.size)
        // Given only where the body strokes the arc: see `ValueArc.text`.
        let text = l.radius > 0 ? drawn : nil
        let label =
            glyphs.map { g in g.first.map { [Rect(g.dropFirst().reduce($0.box) { $0.union($1.box) })] } ?? [] }
            ?? centre.label.drawnBounds(in: box, context: context, pixelSize: centre.size)
        // The track's size follows the centre's width (fixed by the sizing texts
        // unless the current label is wider).
        // The tint is laid over the whole turn, so the arc's colours do not
        // follow its sweep: a value change redraws only the arc between the values.
        let valueArc = label.map {
            GaugeLayering.ValueArc(
                layout: l, value: c.value, cap: .butt, paint: AnyHashable(c.tint), others: $0,
                stroke: valueStroke(c, l), glyphs: glyphs, text: text)
        }
        return GaugeLayering(staticKey: AnyHashable(l), dynamicBounds: adding(label, to: arc), valueArc: valueArc)
    }

    /// Boxes around the parts this style draws for a gauge, by part.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func partBounds(configuration c: Configuration, in rect: Rect, context: DrawContext) -> [GaugePart: [Rect]] {
        let centre = centre(c, in: rect, context: context)
        let l = Self.layout(centreWidth: centre.width, in: rect).ring
        var out: [GaugePart: [Rect]] = [:]
        out.add(
            .currentValue,
            centre.label.drawnBounds(in: centreBox(centre, l), context: context, pixelSize: centre.size))
        return out
    }

    /// The value arc's paint: the tint over the whole turn.
    private func valueStroke(_ c: Configuration, _ l: CircularGaugeLayout) -> GaugeLayering.ValueArc.Stroke {
        GaugeLayering.ValueArc.Stroke(
            paint: c.tint.arcPaint(center: l.center, arcStart: l.startAngle, arcSweep: l.sweep))
    }

    /// The centre's box: as wide as the centre, twice its text size high.
    private func centreBox(_ centre: (label: GaugeLabel, size: Double, width: Double), _ l: CircularGaugeLayout)
        -> Rect
    {
        Rect(
            x: l.center.x - centre.width / 2, y: l.center.y - centre.size, width: centre.width, height: 2 * centre.size)
    }
}

/// The stepped ring of SBGauge: a track ring under a gauge arc that starts at
/// the top and runs clockwise to the value; the ring is divided into `segments`
/// by small gaps (in both track and gauge), so each step reads as one segment.
/// Drive it with a ``SteppedGauge``, whose ``SteppedGauge/value(at:)`` eases
/// each step from the previous one.
///
/// Stroke width `0.12 D` of the square side `D` by default, drawn inside the square;
/// gaps of `max(1.5, 0.25 x stroke width)` pixels along the centre line.
public struct SteppedGaugeStyle: GaugeStyle {
    /// The number of segments the ring is split into; at least 1.
    public let segments: Int
    /// Stroke width as a fraction of the square's side, 0.01...0.5 (SBGauge's
    /// `width`, which is how it gets its different looks: 0.5 fills a disc).
    public let lineWidth: Double

    /// Creates a stepped ring style.
    ///
    /// - Parameters:
    ///   - segments: The number of segments; values below 1 become 1.
    ///   - lineWidth: The stroke width as a fraction of the square's side, clamped to 0.01...0.5; NaN becomes 0.12.
    public init(segments: Int, lineWidth: Double = 0.12) {
        self.segments = max(1, segments)
        self.lineWidth = lineWidth.isNaN ? 0.12 : min(0.5, max(0.01, lineWidth))
    }

    /// The ring with the default stroke width.
    public static func layout(in rect: Rect) -> CircularGaugeLayout { Self(segments: 1).layout(in: rect) }

    /// The geometry of the ring in a rectangle: a full turn from the top (270°), the stroke ``lineWidth`` of the
    /// square's side, drawn inside the square.
    ///
    /// - Parameter rect: The gauge's rectangle, in pixels.
    public func layout(in rect: Rect) -> CircularGaugeLayout {
        .inscribed(in: rect, lineWidthFraction: lineWidth, startAngle: 270)
    }

    /// The dash pattern that splits the ring into segments, with a gap centred on
    /// every segment boundary; nil for one segment.
    public func segmentDash(_ l: CircularGaugeLayout) -> DashPattern? {
        guard segments > 1 else { return nil }
        let period = 2 * Double.pi * l.radius / Double(segments)
        let gap = max(1.5, 0.25 * l.lineWidth)
        guard gap < period else { return nil }
        // Start half a gap into the "off" part, so that boundaries fall mid-gap.
        return try? DashPattern([period - gap, gap], phase: period - gap / 2)
    }

    /// The value the segments show: `value` (0...1) rounded to the nearest
    /// whole step, a half step up, so the ring lights whole segments as
    /// SBGauge does (3.5 of 8 shows 4). Nearest rather than down: the picture is
    /// never more than half a step from the value, so a gauge at 99 % of 10
    /// segments shows full and one at 2 % shows empty; the current value's
    /// text keeps the exact value.
    public func steppedValue(_ value: Double) -> Double {
        let n = Double(segments)
        return (value * n).rounded(.toNearestOrAwayFromZero) / n
    }

    /// True: this style draws its static parts (the track) before any dynamic one (value arc, labels).
    public var separatesLayers: Bool { true }

    /// The current value in the centre, when given; no label, no end labels.
    public func shownLabels(configuration c: Configuration) -> GaugeLabelKinds {
        GaugeLabelKinds(of: c).intersection(.currentValue)
    }

    /// What the static layer depends on and where the dynamic layer paints.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func layering(configuration c: Configuration, in rect: Rect, context: DrawContext) -> GaugeLayering {
        let l = layout(in: rect)
        guard l.radius > 0 else { return GaugeLayering(staticKey: AnyHashable(0), dynamicBounds: []) }
        var others: [Rect]? = []
        if let current = c.currentValueLabel {
            others = l.centreBounds(
                current, c, preferred: 0.5 * l.innerRadius, fitting: 1.5 * l.innerRadius, context: context)
        }
        let shown = steppedValue(c.value)
        let arc = shown > 0 ? [l.strokeBounds(from: 0, to: shown)] : []
        // The segments are dashes with butt ends from the start, so they stay
        // put as the value changes: only the segments between the values change.
        let valueArc = others.map {
            GaugeLayering.ValueArc(
                layout: l, value: shown, cap: .butt, paint: AnyHashable(c.tint), others: $0,
                stroke: valueStroke(c, l))
        }
        return GaugeLayering(staticKey: AnyHashable(l), dynamicBounds: adding(others, to: arc), valueArc: valueArc)
    }

    /// Boxes around the parts this style draws for a gauge, by part.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func partBounds(configuration c: Configuration, in rect: Rect, context: DrawContext) -> [GaugePart: [Rect]] {
        let l = layout(in: rect)
        guard l.radius > 0, let current = c.currentValueLabel else { return [:] }
        var out: [GaugePart: [Rect]] = [:]
        out.add(
            .currentValue,
            l.centreBounds(
                current, c, preferred: 0.5 * l.innerRadius, fitting: 1.5 * l.innerRadius, context: context))
        return out
    }

    /// The value arc's paint (the tint over the whole turn) and segment dashes.
    private func valueStroke(_ c: Configuration, _ l: CircularGaugeLayout) -> GaugeLayering.ValueArc.Stroke {
        GaugeLayering.ValueArc.Stroke(
            paint: c.tint.arcPaint(center: l.center, arcStart: l.startAngle, arcSweep: l.sweep), dash: segmentDash(l))
    }

    /// Returns the drawing of a gauge in this style.
    ///
    /// - Parameter c: The gauge to draw.
    public func makeBody(configuration c: Configuration) -> some Drawable {
        Draw(size: squareSize) { rect, canvas, context in
            let l = layout(in: rect)
            guard l.radius > 0 else { return }
            let dash = segmentDash(l)
            if context.layers.contains(.static) {
                canvas.strokeArc(
                    center: l.center, radius: l.radius, startAngle: l.startAngle, sweep: l.sweep, width: l.lineWidth,
                    cap: .butt, dash: dash,
                    paint: c.zoneTrack?.arcPaint(center: l.center, arcStart: l.startAngle, arcSweep: l.sweep)
                        ?? .solid(c.environment.track))
            }
            guard context.layers.contains(.dynamic) else { return }
            l.strokeValueArc(to: steppedValue(c.value), cap: .butt, valueStroke(c, l), on: canvas)
            if let current = c.currentValueLabel {
                l.drawCentre(
                    current, c, preferred: 0.5 * l.innerRadius, fitting: 1.5 * l.innerRadius, on: canvas,
                    context: context)
            }
        }
    }
}

extension GaugeStyle where Self == RingGaugeStyle {
    /// The self-sizing ring gauge (see ``RingGaugeStyle``).
    public static var ring: Self { Self() }
    /// The self-sizing ring gauge with a given centre text size (see ``RingGaugeStyle``).
    ///
    /// - Parameter fontSize: The centre's text size in pixels, or nil for the largest size whose ring fits.
    public static func ring(fontSize: Double?) -> Self { Self(fontSize: fontSize) }
}
extension GaugeStyle where Self == SteppedGaugeStyle {
    /// The SBGauge stepped ring with `segments` steps and a stroke `lineWidth`
    /// of the square's side.
    public static func stepped(segments: Int, lineWidth: Double = 0.12) -> Self {
        Self(segments: segments, lineWidth: lineWidth)
    }
}

extension RingGaugeStyle {
    /// The centre text's size in `rect` (the value, or the percentage the ring
    /// shows without one).
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func currentValueSize(configuration c: Configuration, in rect: Rect, context: DrawContext) -> Double? {
        centre(c, in: rect, context: context).size
    }
}

extension SteppedGaugeStyle {
    /// The centre value's text size in `rect`; nil without a current value.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func currentValueSize(configuration c: Configuration, in rect: Rect, context: DrawContext) -> Double? {
        let l = layout(in: rect)
        guard l.radius > 0, c.currentValueLabel != nil else { return nil }
        return centreTextSize(c, preferred: 0.5 * l.innerRadius, fitting: 1.5 * l.innerRadius, context)
    }
}
