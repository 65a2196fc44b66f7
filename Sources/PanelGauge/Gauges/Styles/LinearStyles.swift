/// The direction a linear gauge's bar runs, as SwiftUI's `Axis`.
public enum Axis: String, Sendable, Hashable, CaseIterable {
    /// Left to right: value 0 at the bar's left end.
    case horizontal
    /// Bottom to top: value 0 at the bar's bottom end.
    case vertical
}

/// Where the parts of a linear gauge go inside its rectangle. Pure geometry, so
/// tests can check a drawing against it.
///
/// A horizontal bar (``Axis/horizontal``, the default) stacks rows, top to
/// bottom, the whole stack centred vertically: the label line (if
/// shown), a gap, the bar row, the scale (if the style has a ``LinearScale``
/// or the gauge marked values), a gap, the current-value line (if shown
/// below). Minimum and maximum labels sit at the two ends of the bar row, the
/// bar spans the space between them (less `endInset` on each side, room for
/// a marker); a scale's numbers take their place, and the bar is shortened
/// so that the first and last numbers, centred under its value ends, stay
/// in the rectangle.
/// The label is set at ``DrawContext/titleSize``, the minimum and maximum at
/// ``DrawContext/endLabelSize``; the current value on its own line below the
/// bar is the largest text: on a type scale at the larger step up to 1.5 x the
/// title's (at most the value size) at which the widest value fits the width
/// and the rows fit the rectangle's height, else at the title's size, as is a
/// value in the slot at the bar's leading end.
///
/// A vertical bar (``Axis/vertical``) stands in a column between the label
/// line at the top of the rectangle and the current value's line at its
/// bottom (an accessory style's value too, there: the bar's leading end),
/// filling the height between them; the scale, or else the minimum and
/// maximum labels, stand to its right, each centred on its value and
/// left-aligned, and the bar is shortened so that the first and last stay
/// in the column. Bar and scale are centred across the rectangle as a
/// group (``LinearCapacityGaugeStyle``) or set against its left edge (the
/// accessory styles, whose labels are leading-aligned). A rectangle
/// without the width for the scale's numbers drops them, then the ticks.
public struct LinearGaugeLayout: Sendable, Hashable {
    /// The direction the bar runs.
    public var axis: Axis = .horizontal
    /// The line of the label, or nil when it is not shown.
    public var labelRect: Rect?
    /// Where the current value goes: a line below the bar row (the bottom line under a vertical
    /// bar), or a slot at the bar row's leading end as wide as the widest value; nil when it is not
    /// shown.
    public var currentValueRect: Rect?
    /// The place of the minimum value label at the bar row's leading end (right of a vertical bar's
    /// bottom end), or nil when it is not shown.
    public var minimumRect: Rect?
    /// The place of the maximum value label at the bar row's trailing end (right of a vertical bar's
    /// top end), or nil when it is not shown.
    public var maximumRect: Rect?
    /// The track: a capsule of the bar's thickness along ``axis``.
    public var bar: Rect
    /// The scale under the bar (right of a vertical one), or nil when there is none (or no room for it).
    public var scale: LinearScaleLayout? { scalePart?.layout }
    /// The scale's layout and the scale drawn (the style's, or the
    /// marks-only one for marked values), shared by copies of this layout.
    var scalePart: ScalePart?
    /// How far inside the bar's ends values 0 and 1 lie (a marker travels
    /// between the centres of the bar's round ends).
    var valueInset: Double = 0
    /// Height of the rows together (what the layout needs of its rectangle).
    public var height: Double = 0
    /// The width a vertical bar's column and scale need side by side (0 for a horizontal bar).
    var columnWidth: Double = 0
    /// Whether the current value has a line of its own (else it sits in
    /// the slot at the bar row's leading end).
    var currentOnItsLine = false

    /// How the label and a value on its own line sit in their lines: on
    /// the font's line (``TextVerticalPlacement/lineCentred``), so that
    /// neighbouring gauges' lines share a baseline, as titles do; a value
    /// in the bar's row is centred on the bar by its ink.
    var currentPlacement: TextVerticalPlacement { currentOnItsLine ? .lineCentred : .inkCentred }
    /// The current value's text size, in pixels.
    public var currentSize: Double = 0

    /// The fill of a capacity bar for normalized value `v`: the leading part of
    /// the bar (its left, or its bottom when vertical), `v` of its length
    /// (nil for nothing to draw).
    public func fill(for v: Double) -> Rect? {
        let t = min(1, max(0, v))
        if axis == .vertical {
            let h = bar.height * t
            return h > 0 ? Rect(x: bar.minX, y: bar.maxY - h, width: bar.width, height: h) : nil
        }
        let w = bar.width * t
        return w > 0 ? Rect(x: bar.minX, y: bar.minY, width: w, height: bar.height) : nil
    }

    /// A marker's centre for normalized value `v`: it travels between the
    /// centres of the bar's two round ends.
    public func marker(for v: Double) -> Point {
        let t = min(1, max(0, v))
        if axis == .vertical {
            let r = bar.width / 2
            return Point(x: bar.midX, y: bar.maxY - r - t * max(0, bar.height - 2 * r))
        }
        let r = bar.height / 2
        return Point(x: bar.minX + r + t * max(0, bar.width - 2 * r), y: bar.midY)
    }

    /// Where normalized value `v` lies along the bar (x, or y when
    /// vertical): the fill's end on a capacity bar, the marker's centre on
    /// a marker bar; the scale's ticks are placed by it.
    public func position(for v: Double) -> Double {
        let t = min(1, max(0, v))
        if axis == .vertical { return bar.maxY - valueInset - t * max(0, bar.height - 2 * valueInset) }
        return bar.minX + valueInset + t * max(0, bar.width - 2 * valueInset)
    }

    /// The bar's thickness: its height, or its width when vertical.
    public var thickness: Double { axis == .vertical ? bar.width : bar.height }

    /// The two ends of the bar's centre line, value 0's first: what a
    /// gradient along the bar runs between.
    public var ends: (Point, Point) {
        axis == .vertical
            ? (Point(x: bar.midX, y: bar.maxY), Point(x: bar.midX, y: bar.minY))
            : (Point(x: bar.minX, y: bar.midY), Point(x: bar.maxX, y: bar.midY))
    }

    enum CurrentPlacement { case below(HorizontalAlignment), leadingEdge, hidden }

    /// - Parameters:
    ///   - labelAlignment: nil hides the label.
    ///   - rowHeight: height of the bar row (at least the bar's thickness).
    ///   - valueInset: how far inside the bar's ends values 0 and 1 lie.
    ///   - scale: the style's scale, if any.
    ///   - axis: the direction the bar runs.
    static func make(
        rect: Rect, configuration c: GaugeStyleConfiguration, context: DrawContext, thickness t: Double,
        rowHeight: Double, endInset: Double, valueInset: Double = 0, labelAlignment: HorizontalAlignment?,
        current: CurrentPlacement, scale: LinearScale?, axis: Axis = .horizontal
    ) -> LinearGaugeLayout {
        let parts = Parts(c, context: context, labelAlignment: labelAlignment, current: current, scale: scale)
        if axis == .vertical {
            return makeVertical(
                rect: rect, c, context: context, parts, thickness: t, rowHeight: rowHeight, endInset: endInset,
                valueInset: valueInset, current: current)
        }
        let s = context.titleSize, e = context.endLabelSize
        let (lineH, gap, measured) = (parts.lineH, parts.gap, parts.measured)
        var scaleStyle = parts.scaleStyle
        let showLabel = parts.showLabel, endLabels = parts.endLabels
        var showCurrentBelow = false, currentAtLeading = false
        switch current {
        case .below: showCurrentBelow = parts.showCurrent
        case .leadingEdge: currentAtLeading = parts.showCurrent
        case .hidden: break
        }
        let topH = showLabel ? lineH + gap : 0
        let rowH = max(t, rowHeight)
        // The scale's height: with its labels, else without them, else none,
        // whichever the rectangle has room for (a height of 0 asks for the
        // natural size: all of it).
        var scaleH = 0.0, scaleLabels = false
        if let measured {
            let least = topH + rowH + (showCurrentBelow ? gap + lineH : 0)
            if let fit = measured.fitting(rect.height <= 0 ? nil : rect.height, beside: least, axis: .horizontal) {
                (scaleH, scaleLabels) = fit
            } else {
                scaleStyle = nil
            }
        }
        // The value's own line: a step above the title where it fits.
        var (v, valueH) = (s, lineH)
        if showCurrentBelow {
            (v, valueH) = parts.currentSize(c, context: context) { w, h in
                w <= rect.width && topH + rowH + scaleH + gap + h <= rect.height
            }
        }
        let bottomH = showCurrentBelow ? gap + valueH : 0
        let y0 = rect.midY - (topH + rowH + scaleH + bottomH) / 2
        let row = Rect(x: rect.minX, y: y0 + topH, width: rect.width, height: rowH)

        var layout = LinearGaugeLayout(bar: row, height: topH + rowH + scaleH + bottomH)
        layout.currentSize = v
        layout.valueInset = valueInset
        if showLabel { layout.labelRect = Rect(x: rect.minX, y: y0, width: rect.width, height: lineH) }
        if showCurrentBelow {
            layout.currentOnItsLine = true
            layout.currentValueRect = Rect(
                x: rect.minX, y: row.maxY + scaleH + gap, width: rect.width, height: valueH)
        }
        var lead = 0.0, trail = 0.0
        if currentAtLeading {
            // As wide as the widest value the gauge can show, so the bar
            // keeps its length as the value changes.
            lead = max(
                parts.width(c.currentValueLabel, s, context), widestAdvance(of: c.sizingText, size: s, context))
            layout.currentValueRect = Rect(x: rect.minX, y: row.minY, width: lead, height: rowH)
        } else if endLabels {
            lead = parts.width(c.minimumValueLabel, e, context)
            trail = parts.width(c.maximumValueLabel, e, context)
            layout.minimumRect = Rect(x: rect.minX, y: row.minY, width: lead, height: rowH)
            layout.maximumRect = Rect(x: rect.maxX - trail, y: row.minY, width: trail, height: rowH)
        }
        var a = rect.minX + (lead > 0 ? lead + gap : 0) + endInset
        var b = rect.maxX - (trail > 0 ? trail + gap : 0) - endInset
        if let measured, scaleStyle != nil {
            // The end ticks and numbers, centred on values 0 and 1, stay in the rectangle.
            let over = measured.overhang(labels: scaleLabels, axis: .horizontal)
            a = max(a, rect.minX + over.lead - valueInset)
            b = min(b, rect.maxX - over.trail + valueInset)
        }
        layout.bar = Rect(x: a, y: row.midY - t / 2, width: max(0, b - a), height: t)
        if let measured, let scaleStyle {
            layout.scalePart = scaleStyle.place(
                measured, c, axis: .horizontal, p0: layout.position(for: 0), p1: layout.position(for: 1),
                start: row.maxY, labels: scaleLabels, bounds: rect)
        }
        return layout
    }

    /// A vertical bar's layout (see the type's documentation): `parts` as
    /// ``make(rect:configuration:context:thickness:rowHeight:endInset:valueInset:labelAlignment:current:scale:axis:)``
    /// found them; `rowHeight` is the bar column's width.
    private static func makeVertical(
        rect: Rect, _ c: GaugeStyleConfiguration, context: DrawContext, _ parts: Parts, thickness t: Double,
        rowHeight: Double, endInset: Double, valueInset: Double, current: CurrentPlacement
    ) -> LinearGaugeLayout {
        let s = context.titleSize, e = context.endLabelSize
        let (lineH, gap, measured) = (parts.lineH, parts.gap, parts.measured)
        var scaleStyle = parts.scaleStyle
        // (A value at the leading end goes on the bottom line, centred with
        // the bar under the gauge's title.)
        let align: HorizontalAlignment = if case .below(let a) = current, a != .center { .leading } else { .center }
        // A rectangle of no height (or width) asks for the natural size: a
        // bar six titles long (and the column and its scale side by side).
        let natural = rect.height <= 0 || !rect.height.isFinite
        let wide = rect.width > 0 && rect.width.isFinite
        let topH = parts.showLabel ? lineH + gap : 0
        // The value's line: a step above the title where it fits and leaves
        // the bar three titles long.
        var (v, valueH) = (s, lineH)
        if parts.showCurrent {
            (v, valueH) = parts.currentSize(c, context: context) { w, h in
                (!wide || w <= rect.width) && (natural || topH + 3 * s + gap + h <= rect.height)
            }
        }
        let bottomH = parts.showCurrent ? gap + valueH : 0
        let colTop = rect.minY + topH
        let colH = natural ? 6 * s : max(0, rect.height - topH - bottomH)
        let colBottom = colTop + colH
        let rowW = max(t, rowHeight)

        // Across: the scale (with its numbers, else without, else none,
        // whichever the width has room for), or the end labels, right of the column.
        var side = 0.0, scaleLabels = false
        if let measured {
            if let fit = measured.fitting(wide ? rect.width : nil, beside: rowW, axis: .vertical) {
                (side, scaleLabels) = fit
            } else {
                scaleStyle = nil
            }
        }
        let eLine = context.font(size: e).map { $0.ascender + $0.descender } ?? e
        let minW = parts.width(c.minimumValueLabel, e, context), maxW = parts.width(c.maximumValueLabel, e, context)
        if parts.endLabels { side = gap + max(minW, maxW) }
        let groupW = rowW + side
        let left = wide && align == .center ? max(rect.minX, rect.midX - groupW / 2) : rect.minX
        let column = Rect(x: left, y: colTop, width: rowW, height: colH)

        // The bar, shortened so that the end numbers (or labels), centred on
        // values 0 and 1, stay in the column.
        var top = colTop + endInset, bottom = colBottom - endInset
        if let measured, scaleStyle != nil {
            let over = measured.overhang(labels: scaleLabels, axis: .vertical)
            bottom = min(bottom, colBottom - over.lead + valueInset)
            top = max(top, colTop + over.trail - valueInset)
        } else if parts.endLabels {
            bottom = min(bottom, colBottom - eLine / 2 + valueInset)
            top = max(top, colTop + eLine / 2 - valueInset)
        }
        var layout = LinearGaugeLayout(
            bar: Rect(x: column.midX - t / 2, y: top, width: t, height: max(0, bottom - top)),
            height: topH + colH + bottomH)
        layout.axis = .vertical
        layout.columnWidth = groupW
        layout.currentSize = v
        layout.valueInset = valueInset
        if parts.showLabel { layout.labelRect = Rect(x: rect.minX, y: rect.minY, width: rect.width, height: lineH) }
        if parts.showCurrent {
            layout.currentOnItsLine = true
            layout.currentValueRect = Rect(x: rect.minX, y: colBottom + gap, width: rect.width, height: valueH)
        }
        if parts.endLabels {
            let x = column.maxX + gap
            if c.minimumValueLabel != nil {
                layout.minimumRect = Rect(x: x, y: layout.position(for: 0) - eLine / 2, width: minW, height: eLine)
            }
            if c.maximumValueLabel != nil {
                layout.maximumRect = Rect(x: x, y: layout.position(for: 1) - eLine / 2, width: maxW, height: eLine)
            }
        }
        if let measured, let scaleStyle {
            let right = wide ? rect.maxX : column.maxX + side
            layout.scalePart = scaleStyle.place(
                measured, c, axis: .vertical, p0: layout.position(for: 0), p1: layout.position(for: 1),
                start: column.maxX, labels: scaleLabels,
                bounds: Rect(x: column.maxX, y: colTop, width: max(0, right - column.maxX), height: colH))
        }
        return layout
    }

    /// What both directions' layouts decide first: the text lines, the
    /// scale measured, which labels are shown.
    struct Parts {
        let lineH: Double
        let gap: Double
        /// The scale: the style's, or ticks and labels at the marked values alone.
        let scaleStyle: LinearScale?
        let measured: MeasuredScale?
        let showLabel: Bool
        /// Minimum and maximum labels at the bar's ends (never with a scale).
        let endLabels: Bool
        /// Whether the current value is shown (on its line, or at the leading end).
        let showCurrent: Bool

        init(
            _ c: GaugeStyleConfiguration, context: DrawContext, labelAlignment: HorizontalAlignment?,
            current: CurrentPlacement, scale: LinearScale?
        ) {
            let s = context.titleSize
            lineH = context.font(size: s).map { $0.ascender + $0.descender } ?? s
            gap = (s * 0.3).rounded()
            var style = scale ?? (c.markedValueLabels.isEmpty ? nil : LinearScale.marksOnly)
            if style?.isFinite == false { style = nil }
            scaleStyle = style
            measured = style?.measure(c, context: context)
            showLabel = labelAlignment != nil && c.label != nil
            endLabels = (c.minimumValueLabel != nil || c.maximumValueLabel != nil) && measured == nil
            switch current {
            case .below: showCurrent = c.currentValueLabel != nil
            case .leadingEdge: showCurrent = c.currentValueLabel != nil && !endLabels
            case .hidden: showCurrent = false
            }
        }

        func width(_ l: GaugeLabel?, _ size: Double, _ context: DrawContext) -> Double {
            l.map { $0.size(pixelSize: size, context: context).width } ?? 0
        }

        /// The current value's size and line height on its own line: the
        /// largest step above the title (at most 1.5 x it, and the value
        /// size) whose widest value and line `fits` (width, height), else the title's.
        func currentSize(
            _ c: GaugeStyleConfiguration, context: DrawContext, fits: (Double, Double) -> Bool
        ) -> (Double, Double) {
            let s = context.titleSize
            guard let sizes = context.textSizes, let current = c.currentValueLabel else { return (s, lineH) }
            var texts = c.sizingText
            if let text = current.text { texts.append(text) }
            for step in TypeScale.steps.reversed() where step > s && step <= min(sizes.value, 1.5 * s) {
                let h = context.font(size: step).map { $0.ascender + $0.descender } ?? step
                let w = max(widestAdvance(of: texts, size: step, context), width(current, step, context))
                if fits(w, h) { return (step, h) }
            }
            return (s, lineH)
        }
    }

    /// Draws the scale, if any (a static part).
    func drawScale(_ c: GaugeStyleConfiguration, on canvas: Canvas, context: DrawContext) {
        guard context.layers.contains(.static), let part = scalePart else { return }
        part.style.draw(part.layout, c, on: canvas, context: context)
    }

    /// A capacity bar: the track, the fill up to the value in `fill`, and the
    /// labels (label and current value aligned by `labels`).
    func drawCapacity(
        _ c: GaugeStyleConfiguration, fill: Paint, labels: HorizontalAlignment, on canvas: Canvas, context: DrawContext
    ) {
        if context.layers.contains(.static) {
            let track = c.zoneTrack?.linearPaint(from: ends.0, to: ends.1) ?? .solid(c.environment.track)
            canvas.fillCapsule(bar, paint: track)
        }
        drawScale(c, on: canvas, context: context)
        if context.layers.contains(.dynamic), let f = self.fill(for: c.value) { canvas.fillCapsule(f, paint: fill) }
        drawLabels(c, on: canvas, context: context, labelAlignment: labels, currentAlignment: labels)
    }

    /// The dynamic layer of a capacity bar, in parts: the fill in `paint`
    /// and the current value.
    func capacityLayering(
        _ c: GaugeStyleConfiguration, fill paint: Paint, labels: HorizontalAlignment, in rect: Rect,
        context: DrawContext
    ) -> GaugeLayering {
        let f = fill(for: c.value)
        let fill = GaugeLayering.DynamicPart(
            bounds: f.map { [$0.insetBy(-1)] } ?? [], change: .key(AnyHashable(FillKey(rect: f, paint: paint)))
        ) { canvas in
            if let f { canvas.fillCapsule(f, paint: paint) }
        }
        // The static layer is laid out by this layout, which may follow the current label's width.
        return layering(
            staticKey: AnyHashable(self), indicator: fill, c, in: rect, context: context, alignment: labels)
    }

    /// A layering whose dynamic parts are `indicator` and the current value
    /// (its glyphs, when it is text), so that a change repaints each where it
    /// changes, without the other (a scale between them stays). Each part
    /// draws clipped to the pixels `rect` touches, as the gauge does.
    func layering(
        staticKey: AnyHashable, indicator: GaugeLayering.DynamicPart, _ c: GaugeStyleConfiguration, in rect: Rect,
        context: DrawContext, alignment: HorizontalAlignment
    ) -> GaugeLayering {
        let clip = IntRect(covering: rect)
        var parts = [
            GaugeLayering.DynamicPart(bounds: indicator.bounds, change: indicator.change) { canvas in
                canvas.withClip(clip) { indicator.draw(canvas) }
            }
        ]
        if let r = currentValueRect, let label = c.currentValueLabel {
            let size = currentSize, fg = c.environment.foreground
            let v = currentPlacement
            guard
                let bounds = label.drawnBounds(
                    in: r, context: context, pixelSize: size, alignment: alignment, vertical: v)
            else { return GaugeLayering(staticKey: staticKey, dynamicBounds: nil) }
            let change: GaugeLayering.DynamicPart.Change =
                label.drawnGlyphs(in: r, context: context, pixelSize: size, alignment: alignment, vertical: v).map {
                    .glyphs($0, color: fg)
                } ?? .key(AnyHashable("\(label)"))
            parts.append(
                GaugeLayering.DynamicPart(bounds: bounds, change: change) { canvas in
                    canvas.withClip(clip) {
                        label.draw(
                            in: r, on: canvas, context: context, pixelSize: size, color: fg, alignment: alignment,
                            vertical: v)
                    }
                })
        }
        return GaugeLayering(staticKey: staticKey, dynamicBounds: parts.flatMap(\.bounds), dynamicParts: parts)
    }

    /// Draws whichever labels the layout placed (the current value in the
    /// dynamic layer, the others in the static one), static ones first.
    func drawLabels(
        _ c: GaugeStyleConfiguration, on canvas: Canvas, context: DrawContext,
        labelAlignment: HorizontalAlignment, currentAlignment: HorizontalAlignment
    ) {
        let s = context.titleSize, e = context.endLabelSize, fg = c.environment.foreground
        if context.layers.contains(.static) {
            if let r = labelRect, let l = c.label {
                l.draw(
                    in: r, on: canvas, context: context, pixelSize: s, color: fg, alignment: labelAlignment,
                    vertical: .lineCentred)
            }
            if let r = minimumRect, let l = c.minimumValueLabel {
                l.draw(in: r, on: canvas, context: context, pixelSize: e, color: fg, alignment: .leading)
            }
            if let r = maximumRect, let l = c.maximumValueLabel {
                l.draw(in: r, on: canvas, context: context, pixelSize: e, color: fg, alignment: .trailing)
            }
        }
        if context.layers.contains(.dynamic), let r = currentValueRect, let l = c.currentValueLabel {
            l.draw(
                in: r, on: canvas, context: context, pixelSize: currentSize, color: fg, alignment: currentAlignment,
                vertical: currentPlacement)
        }
    }

    /// Where ``drawLabels(_:on:context:labelAlignment:currentAlignment:)``
    /// paints each label, by part.
    func labelParts(
        _ c: GaugeStyleConfiguration, context: DrawContext, labelAlignment: HorizontalAlignment,
        currentAlignment: HorizontalAlignment
    ) -> [GaugePart: [Rect]] {
        let s = context.titleSize, e = context.endLabelSize
        var out: [GaugePart: [Rect]] = [:]
        if let r = labelRect, let l = c.label {
            out.add(
                .label,
                l.drawnBounds(in: r, context: context, pixelSize: s, alignment: labelAlignment, vertical: .lineCentred))
        }
        if let r = minimumRect, let l = c.minimumValueLabel {
            out.add(.minimumValue, l.drawnBounds(in: r, context: context, pixelSize: e, alignment: .leading))
        }
        if let r = maximumRect, let l = c.maximumValueLabel {
            out.add(.maximumValue, l.drawnBounds(in: r, context: context, pixelSize: e, alignment: .trailing))
        }
        out.add(.currentValue, currentBounds(c, context: context, alignment: currentAlignment))
        if let part = scalePart { out.add(.scale, part.style.bounds(part.layout, c, context: context)) }
        return out
    }

    /// Where ``drawLabels(_:on:context:labelAlignment:currentAlignment:)`` paints the current value.
    func currentBounds(_ c: GaugeStyleConfiguration, context: DrawContext, alignment: HorizontalAlignment) -> [Rect]? {
        guard let r = currentValueRect, let l = c.currentValueLabel else { return [] }
        return l.drawnBounds(
            in: r, context: context, pixelSize: currentSize, alignment: alignment, vertical: currentPlacement)
    }
}

/// SwiftUI's `.linearCapacity`: a bar over the whole range in the track colour,
/// filled from the leading end in the tint; the label centred above, the current
/// value centred below, the minimum and maximum labels at the ends.
///
/// Bar thickness is half the label size. A gradient tint is laid out over the
/// whole bar, so the fill reveals the part of it up to the value.
public struct LinearCapacityGaugeStyle: GaugeStyle {
    /// The scale under the bar (right of it when vertical); nil (the default, as in SwiftUI) draws none.
    public var scale: LinearScale?
    /// The direction the bar runs: ``Axis/horizontal`` (the default, as in
    /// SwiftUI) or ``Axis/vertical``, filling from the bottom.
    public var axis: Axis

    /// Creates the linear capacity gauge style, with `scale` beside its bar, running along `axis`.
    public init(scale: LinearScale? = nil, axis: Axis = .horizontal) {
        self.scale = scale
        self.axis = axis
    }

    /// Every label it is given; with a scale (or marked values) not the
    /// end labels: the scale's numbers take their place.
    public func shownLabels(configuration c: Configuration) -> GaugeLabelKinds {
        let all = GaugeLabelKinds(of: c)
        return drawsScale(c) ? all.subtracting([.minimumValue, .maximumValue]) : all
    }

    /// Where the parts of a gauge in this style go inside a rectangle.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The gauge's rectangle, in pixels.
    ///   - context: The drawing context, which gives the text sizes.
    public func layout(_ c: GaugeStyleConfiguration, in rect: Rect, context: DrawContext) -> LinearGaugeLayout {
        let t = context.titleSize * 0.5
        return .make(
            rect: rect, configuration: c, context: context, thickness: t, rowHeight: t, endInset: 0,
            labelAlignment: .center, current: .below(.center), scale: scale, axis: axis)
    }

    /// True: this style draws its static parts (the track) before any dynamic one (value, marker, labels).
    public var separatesLayers: Bool { true }

    /// What the static layer depends on and where the dynamic layer paints.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func layering(configuration c: Configuration, in rect: Rect, context: DrawContext) -> GaugeLayering {
        let l = layout(c, in: rect, context: context)
        return l.capacityLayering(c, fill: fillPaint(c, l), labels: .center, in: rect, context: context)
    }

    /// The fill's paint: the tint laid out over the whole bar.
    private func fillPaint(_ c: Configuration, _ l: LinearGaugeLayout) -> Paint {
        c.tint.linearPaint(from: l.ends.0, to: l.ends.1)
    }

    /// Boxes around the parts this style draws for a gauge, by part.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func partBounds(configuration c: Configuration, in rect: Rect, context: DrawContext) -> [GaugePart: [Rect]] {
        layout(c, in: rect, context: context).labelParts(
            c, context: context, labelAlignment: .center, currentAlignment: .center)
    }

    /// Returns the drawing of a gauge in this style.
    ///
    /// - Parameter c: The gauge to draw.
    public func makeBody(configuration c: Configuration) -> some Drawable {
        Draw(size: { proposal, context in
            stackSize(proposal, layout(c, in: sizingRect(proposal, axis), context: context))
        }) {
            rect, canvas, context in
            let l = layout(c, in: rect, context: context)
            l.drawCapacity(c, fill: fillPaint(c, l), labels: .center, on: canvas, context: context)
        }
    }
}

/// SwiftUI's `.accessoryLinear`: a thin bar with a marker dot at the value. The
/// dot has the tint's colour at its position and a ring of clear padding (painted
/// in the environment's background colour). The label is not shown (a gauge
/// can show it as its title, see ``TitlePlacement``); the current
/// value sits at the leading end unless minimum and maximum labels are given,
/// which then sit at the two ends.
///
/// The bar shows a gradient tint in full (so the dot's colour matches the bar
/// under it); with a solid tint the bar is the track colour. Bar thickness is
/// 0.35 x the label size, dot radius 0.9 x the thickness, padding 0.4 x the
/// thickness.
public struct AccessoryLinearGaugeStyle: GaugeStyle {
    /// The scale under the bar (right of it when vertical); nil (the default, as in SwiftUI) draws none.
    public var scale: LinearScale?
    /// The direction the bar runs: ``Axis/horizontal`` (the default, as in
    /// SwiftUI) or ``Axis/vertical``, filling from the bottom.
    public var axis: Axis

    /// Creates the accessory linear gauge style, with `scale` beside its bar, running along `axis`.
    public init(scale: LinearScale? = nil, axis: Axis = .horizontal) {
        self.scale = scale
        self.axis = axis
    }

    /// Radii of the dot and of its clear padding for a bar of thickness `t`.
    public static func markerRadii(thickness t: Double) -> (dot: Double, halo: Double) { (t * 0.9, t * 1.3) }

    /// Where the parts of a gauge in this style go inside a rectangle.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The gauge's rectangle, in pixels.
    ///   - context: The drawing context, which gives the text sizes.
    public func layout(_ c: GaugeStyleConfiguration, in rect: Rect, context: DrawContext) -> LinearGaugeLayout {
        let t = context.titleSize * 0.35
        let halo = Self.markerRadii(thickness: t).halo
        return .make(
            rect: rect, configuration: c, context: context, thickness: t, rowHeight: 2 * halo,
            endInset: halo - t / 2, valueInset: t / 2, labelAlignment: nil, current: .leadingEdge, scale: scale,
            axis: axis)
    }

    /// Where the current value goes on its line: at the bar's leading
    /// end, or centred under a vertical bar (with the bar, under the title).
    private var valueAlignment: HorizontalAlignment { axis == .vertical ? .center : .leading }

    /// True: this style draws its static parts (the track) before any dynamic one (value, marker, labels).
    public var separatesLayers: Bool { true }

    /// The bar's paint, when it is not the plain track colour.
    private func along(_ c: Configuration) -> Tint? { c.zoneTrack ?? (c.tint.isGradient ? c.tint : nil) }

    /// The end labels, or else the current value; never the label. With a
    /// scale (or marked values) the current value: the scale's numbers take
    /// the place of end labels.
    public func shownLabels(configuration c: Configuration) -> GaugeLabelKinds {
        let ends = GaugeLabelKinds(of: c).intersection([.minimumValue, .maximumValue])
        if drawsScale(c) { return GaugeLabelKinds(of: c).intersection(.currentValue) }
        return ends.isEmpty ? .currentValue : ends
    }

    /// What the static layer depends on and where the dynamic layer paints.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func layering(configuration c: Configuration, in rect: Rect, context: DrawContext) -> GaugeLayering {
        let l = layout(c, in: rect, context: context)
        let p = l.marker(for: c.value)
        let radii = Self.markerRadii(thickness: l.thickness)
        let box = Rect(x: p.x - radii.halo, y: p.y - radii.halo, width: 2 * radii.halo, height: 2 * radii.halo)
        let background = c.environment.background, dot = c.tint.color(at: c.value)
        let marker = GaugeLayering.DynamicPart(
            bounds: [box.insetBy(-1)],
            change: .key(AnyHashable([AnyHashable(p), AnyHashable(dot), AnyHashable(background)]))
        ) { canvas in
            canvas.fillDisc(center: p, radius: radii.halo, paint: .solid(background))
            canvas.fillDisc(center: p, radius: radii.dot, paint: .solid(dot))
        }
        return l.layering(
            staticKey: AnyHashable([AnyHashable(l), AnyHashable(along(c))]), indicator: marker, c, in: rect,
            context: context, alignment: valueAlignment)
    }

    /// Boxes around the parts this style draws for a gauge, by part.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func partBounds(configuration c: Configuration, in rect: Rect, context: DrawContext) -> [GaugePart: [Rect]] {
        let l = layout(c, in: rect, context: context)
        let p = l.marker(for: c.value)
        let halo = Self.markerRadii(thickness: l.thickness).halo
        var out = l.labelParts(c, context: context, labelAlignment: .leading, currentAlignment: valueAlignment)
        out[.marker] = [Rect(x: p.x - halo, y: p.y - halo, width: 2 * halo, height: 2 * halo)]
        return out
    }

    /// Returns the drawing of a gauge in this style.
    ///
    /// - Parameter c: The gauge to draw.
    public func makeBody(configuration c: Configuration) -> some Drawable {
        Draw(size: { proposal, context in
            stackSize(proposal, layout(c, in: sizingRect(proposal, axis), context: context))
        }) {
            rect, canvas, context in
            let l = layout(c, in: rect, context: context)
            if context.layers.contains(.static) {
                let track =
                    along(c)?.linearPaint(from: l.marker(for: 0), to: l.marker(for: 1)) ?? .solid(c.environment.track)
                canvas.fillCapsule(l.bar, paint: track)
            }
            l.drawScale(c, on: canvas, context: context)
            // The static labels go under the marker: all static parts come first.
            l.drawLabels(
                c, on: canvas, context: context.with(layers: context.layers.intersection(.static)),
                labelAlignment: .leading, currentAlignment: valueAlignment)
            guard context.layers.contains(.dynamic) else { return }
            let p = l.marker(for: c.value)
            let radii = Self.markerRadii(thickness: l.thickness)
            canvas.fillDisc(center: p, radius: radii.halo, paint: .solid(c.environment.background))
            canvas.fillDisc(center: p, radius: radii.dot, paint: .solid(c.tint.color(at: c.value)))
            l.drawLabels(
                c, on: canvas, context: context.with(layers: .dynamic), labelAlignment: .leading,
                currentAlignment: valueAlignment)
        }
    }
}

/// SwiftUI's `.accessoryLinearCapacity`: like ``LinearCapacityGaugeStyle`` with a
/// thinner bar (0.35 x the label size), the label and the current value at the
/// leading edge. Gradient tints are not drawn as gradients here (as in
/// SwiftUI): the fill takes the gradient's colour at the value.
public struct AccessoryLinearCapacityGaugeStyle: GaugeStyle {
    /// The scale under the bar (right of it when vertical); nil (the default, as in SwiftUI) draws none.
    public var scale: LinearScale?
    /// The direction the bar runs: ``Axis/horizontal`` (the default, as in
    /// SwiftUI) or ``Axis/vertical``, filling from the bottom.
    public var axis: Axis

    /// Creates the accessory linear capacity gauge style, with `scale` beside its bar, running along `axis`.
    public init(scale: LinearScale? = nil, axis: Axis = .horizontal) {
        self.scale = scale
        self.axis = axis
    }

    /// Every label it is given; with a scale (or marked values) not the
    /// end labels: the scale's numbers take their place.
    public func shownLabels(configuration c: Configuration) -> GaugeLabelKinds {
        let all = GaugeLabelKinds(of: c)
        return drawsScale(c) ? all.subtracting([.minimumValue, .maximumValue]) : all
    }

    /// Where the parts of a gauge in this style go inside a rectangle.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The gauge's rectangle, in pixels.
    ///   - context: The drawing context, which gives the text sizes.
    public func layout(_ c: GaugeStyleConfiguration, in rect: Rect, context: DrawContext) -> LinearGaugeLayout {
        let t = context.titleSize * 0.35
        return .make(
            rect: rect, configuration: c, context: context, thickness: t, rowHeight: t, endInset: 0,
            labelAlignment: .leading, current: .below(.leading), scale: scale, axis: axis)
    }

    /// True: this style draws its static parts (the track) before any dynamic one (value, marker, labels).
    public var separatesLayers: Bool { true }

    /// What the static layer depends on and where the dynamic layer paints.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func layering(configuration c: Configuration, in rect: Rect, context: DrawContext) -> GaugeLayering {
        layout(c, in: rect, context: context).capacityLayering(
            c, fill: .solid(c.tint.color(at: c.value)), labels: .leading, in: rect, context: context)
    }

    /// Boxes around the parts this style draws for a gauge, by part.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func partBounds(configuration c: Configuration, in rect: Rect, context: DrawContext) -> [GaugePart: [Rect]] {
        layout(c, in: rect, context: context).labelParts(
            c, context: context, labelAlignment: .leading, currentAlignment: .leading)
    }

    /// Returns the drawing of a gauge in this style.
    ///
    /// - Parameter c: The gauge to draw.
    public func makeBody(configuration c: Configuration) -> some Drawable {
        Draw(size: { proposal, context in
            stackSize(proposal, layout(c, in: sizingRect(proposal, axis), context: context))
        }) {
            rect, canvas, context in
            let l = layout(c, in: rect, context: context)
            l.drawCapacity(c, fill: .solid(c.tint.color(at: c.value)), labels: .leading, on: canvas, context: context)
        }
    }
}

/// What a capacity bar's fill paints: its rectangle in its paint.
private struct FillKey: Hashable {
    var rect: Rect?
    var paint: Paint
}

/// The rectangle a linear gauge is laid out in to find its size when
/// offered `proposal`: its width and no height (the rows' natural height),
/// or the height offered to a vertical bar, which stands as tall as it may.
private func sizingRect(_ proposal: Size, _ axis: Axis) -> Rect {
    let tall = axis == .vertical && proposal.height.isFinite && proposal.height > 0
    return Rect(x: 0, y: 0, width: proposal.width, height: tall ? proposal.height : 0)
}

/// A linear gauge's size when offered `proposal`: the width offered (a
/// horizontal bar stretches; else the bar's, or a vertical bar's column's),
/// the height of its rows.
private func stackSize(_ proposal: Size, _ l: LinearGaugeLayout) -> Size {
    let natural = l.axis == .vertical ? l.columnWidth : l.bar.width
    return Size(width: proposal.width.isFinite ? proposal.width : natural, height: l.height)
}

extension GaugeStyle where Self == LinearCapacityGaugeStyle {
    /// A gauge style that fills a bar from its leading end in proportion to the value, with the label above and the
    /// current value below.
    public static var linearCapacity: Self { Self() }
}
extension GaugeStyle where Self == AccessoryLinearGaugeStyle {
    /// A gauge style that shows the value as a marker dot on a thin bar.
    public static var accessoryLinear: Self { Self() }
}
extension GaugeStyle where Self == AccessoryLinearCapacityGaugeStyle {
    /// A gauge style that fills a thin bar from its leading end in proportion to the value, with the label and the
    /// current value at the leading edge.
    public static var accessoryLinearCapacity: Self { Self() }
}

/// A linear style whose ``LinearGaugeLayout`` says where its current value goes.
protocol LinearLaidOut: GaugeStyle {
    func layout(_ c: GaugeStyleConfiguration, in rect: Rect, context: DrawContext) -> LinearGaugeLayout
}

/// A style that may draw a ``LinearScale``: the three linear styles.
public protocol LinearScaled: GaugeStyle {
    /// The scale beside the bar, or nil for none.
    var scale: LinearScale? { get }
    /// The direction the bar runs.
    var axis: Axis { get }
}

extension LinearScaled {
    /// Whether the style draws a scale for `c`: its own, or ticks and labels
    /// at the gauge's marked values alone (``LinearGaugeLayout`` lays out the
    /// same choice).
    func drawsScale(_ c: GaugeStyleConfiguration) -> Bool { scale != nil || !c.markedValueLabels.isEmpty }
}

extension LinearCapacityGaugeStyle: LinearScaled {}
extension AccessoryLinearGaugeStyle: LinearScaled {}
extension AccessoryLinearCapacityGaugeStyle: LinearScaled {}

extension Gauge {
    /// Where this gauge's linear style puts its parts when it is drawn into
    /// `rect` (after its title, if any, takes its line); nil unless its
    /// style is one of the linear styles. A program can tell from
    /// ``LinearGaugeLayout/scale`` whether the scale's numbers were thinned
    /// (``LinearScaleLayout/labelStep``) or marked values left out.
    public func linearLayout(in rect: Rect, fonts: FontCache = .shared) -> LinearGaugeLayout? {
        guard let linear = style as? any LinearLaidOut, rect.isDrawable else { return nil }
        let context = context(fonts: fonts, cell: rect)
        let parts = titled(in: rect, context: context)
        return linear.layout(parts.configuration, in: parts.body, context: context)
    }
}

extension LinearLaidOut {
    /// The current value's text size in `rect`; nil when it is not shown.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func currentValueSize(configuration c: Configuration, in rect: Rect, context: DrawContext) -> Double? {
        let l = layout(c, in: rect, context: context)
        return l.currentValueRect == nil || c.currentValueLabel == nil ? nil : l.currentSize
    }
}

extension LinearCapacityGaugeStyle: LinearLaidOut {}
extension AccessoryLinearGaugeStyle: LinearLaidOut {}
extension AccessoryLinearCapacityGaugeStyle: LinearLaidOut {}
