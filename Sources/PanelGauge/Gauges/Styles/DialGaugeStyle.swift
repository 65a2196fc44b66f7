import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A classic dial: a circular scale with major and minor ticks, numbers at the
/// major ticks, coloured sections, a needle on a hub, an optional thin value
/// arc, the current value and the label, like a speedometer (LVGL's `lv_scale`
/// with a needle, Home Assistant's needle gauge).
///
/// Angles are in degrees from 3 o'clock, clockwise on screen; the scale runs
/// from ``startAngle`` through ``sweep`` (default 135 and 270: from the lower
/// left over the top to the lower right, open at the bottom). Lengths are
/// fractions of the dial's radius `R`, the outer edge of what the dial draws
/// around its scale: half the side of the largest square centred in the
/// rectangle, less the ring of outside labels when there is one.
///
/// From the outside in: the labels (when ``ScaleLabels/placement`` is
/// `.outside`), the value arc (``valueArc``, round ends, in the tint, from the
/// scale's start to the value), the band (the environment's track colour under
/// the ``sections``), the ticks (their outer ends on one circle), the labels
/// (when inside), and the free centre: the current value below the hub and
/// the label under it, both where the needle never passes (in the scale's
/// opening; a full-turn scale has none: there the value goes under the hub and
/// the label over it), the needle (the tint's colour at the value, or its
/// own) over all of it and the hub over the needle.
///
/// Text sizes: scale labels at ``DrawContext/endLabelSize`` (at most `0.16 R`,
/// a step of ``TypeScale/steps`` on a type scale; none below
/// ``DialLayout/smallestScaleNumber``), the current value at the largest size
/// (at most the type scale's value size) at which the widest value fits the
/// opening, the label at ``DrawContext/titleSize`` at most, never larger than
/// the value or the scale numbers. Every text lies inside the free centre's
/// circle or the label ring, so none meets a tick, the band or another text.
///
/// In a small dial the texts give way in order: the value steps down (never
/// below the label) to make room for the label; the scale numbers are left
/// out when without them the label fits or the value gets larger (marked
/// values, when the gauge has some, only for the label); the label is
/// left out last (``DialLayout/titleBox`` is nil; a gauge whose title is
/// ``TitlePlacement/automatic`` then shows it above the dial).
///
/// Scale labels never overlap each other or the ticks: when they would (too
/// many, too wide, too small a dial) every `k`-th is shown, `k` the smallest
/// divisor of the number of major intervals that separates them (so both ends
/// keep their labels: every 2nd, 5th, 10th of 11 majors); when even the two
/// ends collide, none is shown. ``DialLayout/labelStep`` tells which.
///
/// A gauge's ``Gauge/markedValueLabels`` take the place of the numbers:
/// each at its value's angle, with a major tick there, placed as the
/// numbers are (inside or outside); one that would meet a neighbour is
/// left out, tick and all (see ``MarkedValueLabel``).
///
/// A parameter that is not finite (an angle, a length, a width, a section's
/// bound) makes the style draw nothing.
public struct DialGaugeStyle: GaugeStyle, Hashable {
    /// Where the scale starts (value 0), in degrees clockwise from 3 o'clock.
    public var startAngle: Angle
    /// The scale's extent from ``startAngle``; negative runs counter-clockwise.
    /// At most a full turn (larger values are clamped).
    public var sweep: Angle
    /// The major ticks: ``Ticks/count`` ticks over the scale, both ends included.
    public var majorTicks: Ticks
    /// The minor ticks: ``Ticks/count`` ticks between two major ones. Left out
    /// when they would come closer than their width plus 1.5 px at their inner ends.
    public var minorTicks: Ticks
    /// Numbers at the major ticks; nil shows none.
    public var labels: ScaleLabels?
    /// Coloured ranges of the scale, in the gauge's units, drawn over the band
    /// in order.
    public var sections: [Section]
    /// Whether a gauge's ``Thresholds`` become sections when ``sections`` is empty:
    /// the base colour from the range's start to the first step, each step's
    /// colour from its bound to the next.
    public var sectionsFromThresholds: Bool
    /// The band's width as a fraction of `R` (0 leaves it out, sections too).
    public var bandWidth: Double
    /// The needle and its hub.
    public var needle: Needle
    /// The value arc's width as a fraction of `R`; nil draws no value arc.
    public var valueArc: Double?

    /// A dial; every argument has the default the type's documentation gives.
    public init(
        startAngle: Angle = 135, sweep: Angle = 270, majorTicks: Ticks = .major, minorTicks: Ticks = .minor,
        labels: ScaleLabels? = ScaleLabels(), sections: [Section] = [], sectionsFromThresholds: Bool = true,
        bandWidth: Double = 0.05, needle: Needle = Needle(), valueArc: Double? = nil
    ) {
        self.startAngle = startAngle
        self.sweep = sweep
        self.majorTicks = majorTicks
        self.minorTicks = minorTicks
        self.labels = labels
        self.sections = sections
        self.sectionsFromThresholds = sectionsFromThresholds
        self.bandWidth = bandWidth
        self.needle = needle
        self.valueArc = valueArc
    }

    /// One kind of tick mark: a butt-ended radial segment.
    public struct Ticks: Sendable, Hashable {
        /// How many: over the scale for major ticks (both ends included; fewer
        /// than 2 draws none), between two major ticks for minor ones. Setting
        /// it turns ``fitsTheRange`` off.
        public var count: Int {
            didSet { fitsTheRange = false }
        }
        /// For major ticks: whether the dial puts them at round numbers of the
        /// gauge's range (``roundCount(for:)``) instead of ``count``, where such
        /// a count exists. True for ``major``, false once ``count`` is set.
        public var fitsTheRange = false
        /// Length, from the ticks' outer circle inward, as a fraction of `R`.
        public var length: Double
        /// Width as a fraction of `R`; never thinner than ``minimumWidth`` px.
        public var width: Double
        /// Thinnest width in pixels, so that small dials keep visible ticks.
        public var minimumWidth: Double
        /// Colour; nil takes the environment's foreground (at 0.6 opacity for
        /// minor ticks).
        public var color: Color?

        /// Ticks of `count`, `length` and `width` (fractions of `R`).
        public init(count: Int, length: Double, width: Double, minimumWidth: Double = 1, color: Color? = nil) {
            self.count = count
            self.length = length
            self.width = width
            self.minimumWidth = minimumWidth
            self.color = color
        }

        /// Major ticks at round numbers of the gauge's range (``fitsTheRange``;
        /// 0...100 gets 11, 20...90 gets 8: 20, 30 ... 90), else 11 (every
        /// 10 %); `0.15 R` long, `0.025 R` wide.
        public static let major: Ticks = {
            var t = Ticks(count: 11, length: 0.15, width: 0.025)
            t.fitsTheRange = true
            return t
        }()

        /// A major-tick count that puts round numbers on the scale of `range`:
        /// the most ticks, from 5 to 13, whose step is 1, 2, 2.5 or 5 times a
        /// power of ten and whose first tick, the range's lower bound, is a
        /// multiple of that step (20...90 gets 8 ticks, 20, 30 ... 90; 0...8
        /// gets 9; 0...100 gets 11; 0...240 gets 13, labelled every 20 or, where
        /// they crowd, every 40). Nil when no such step fits (-40...125), or the
        /// range is empty or not finite.
        public static func roundCount(for range: ClosedRange<Double>) -> Int? {
            let lo = range.lowerBound, span = range.upperBound - range.lowerBound
            guard span > 0, span.isFinite, lo.isFinite else { return nil }
            let decade = log10(span).rounded(.down)
            var best: Int?
            for exponent in stride(from: decade - 2, through: decade, by: 1) {
                for mantissa in [1, 2, 2.5, 5] {
                    let step = mantissa * pow(10, exponent)
                    let intervals = span / step, first = lo / step
                    guard abs(intervals - intervals.rounded()) <= 1e-9 * intervals,
                        abs(first - first.rounded()) <= 1e-9 * max(1, abs(first)),
                        (4...12).contains(intervals.rounded())
                    else { continue }
                    best = max(best ?? 0, Int(intervals.rounded()) + 1)
                }
            }
            return best
        }
        /// 4 minor ticks between two major ones, `0.08 R` long, `0.012 R` wide (at least 0.75 px).
        public static let minor = Ticks(count: 4, length: 0.08, width: 0.012, minimumWidth: 0.75)
    }

    /// Which side of the ticks the scale labels go.
    public enum LabelPlacement: String, Sendable, Hashable {
        /// Inside the ticks' ring, toward the centre.
        case inside
        /// Outside the scale; the dial shrinks to make room for them.
        case outside
    }

    /// The numbers at the major ticks.
    public struct ScaleLabels: Sendable, Hashable {
        /// How a tick's value is written (in the gauge's units or as a percentage of the range).
        public var format: ValueFormat
        /// Inside or outside the ticks.
        public var placement: LabelPlacement
        /// Colour; nil takes the environment's foreground.
        public var color: Color?

        /// Labels in `format` on the `placement` side; whole numbers inside by default.
        public init(
            format: ValueFormat = .number(decimals: 0), placement: LabelPlacement = .inside, color: Color? = nil
        ) {
            self.format = format
            self.placement = placement
            self.color = color
        }
    }

    /// A coloured part of the scale's band.
    public struct Section: Sendable, Hashable {
        /// Where the section begins and ends, in the gauge's units (either order;
        /// clamped to the range).
        public var from: Double
        /// See ``from``.
        public var to: Double
        /// The section's colour.
        public var color: Color

        /// The band from `from` to `to` in `color`.
        public init(from: Double, to: Double, color: Color) {
            self.from = from
            self.to = to
            self.color = color
        }
    }

    /// The needle: a tapered convex quadrilateral along the value's direction,
    /// from the end of its tail through the centre to its tip, and a disc (the
    /// hub) over its base.
    public struct Needle: Sendable, Hashable {
        /// From the centre to the tip, as a fraction of the ticks' outer radius.
        public var length: Double
        /// Width at the centre (and at the tail's end), as a fraction of `R`.
        public var baseWidth: Double
        /// Width at the tip, as a fraction of `R`.
        public var tipWidth: Double
        /// Length of the tail behind the centre, as a fraction of ``length``; 0 for none.
        public var tail: Double
        /// The hub's radius as a fraction of `R`; 0 for none.
        public var hubRadius: Double
        /// Colour; nil takes the tint's colour at the value (a threshold's colour).
        public var color: Color?
        /// The hub's colour; nil takes the environment's foreground.
        public var hubColor: Color?

        /// A needle; the defaults reach 0.92 of the way to the ticks' outer
        /// ends, `0.06 R` wide at the centre, `0.012 R` at the tip, no tail, a
        /// hub of `0.08 R`.
        public init(
            length: Double = 0.92, baseWidth: Double = 0.06, tipWidth: Double = 0.012, tail: Double = 0,
            hubRadius: Double = 0.08, color: Color? = nil, hubColor: Color? = nil
        ) {
            self.length = length
            self.baseWidth = baseWidth
            self.tipWidth = tipWidth
            self.tail = tail
            self.hubRadius = hubRadius
            self.color = color
            self.hubColor = hubColor
        }
    }

    /// The needle's red unless the gauge sets a tint.
    public var defaultTint: Tint { .color(.red) }

    /// True: the scale is static, the needle, hub, value arc and current value dynamic.
    public var separatesLayers: Bool { true }

    /// The label and the current value (in the scale's opening); the
    /// scale's numbers take the place of end labels.
    public func shownLabels(configuration c: Configuration) -> GaugeLabelKinds {
        GaugeLabelKinds(of: c).intersection([.label, .currentValue])
    }

    /// Whether the dial places the label, whole (not cut with an ellipsis).
    public func labelFits(configuration c: Configuration, in rect: Rect, context: DrawContext) -> Bool {
        guard let label = c.label, let l = layout(configuration: c, in: rect, context: context) else { return true }
        guard let box = l.titleBox else { return false }
        return label.size(pixelSize: l.titleSize, context: context).width <= box.width
    }

    /// Whether every parameter is finite (else the style draws nothing).
    var isFinite: Bool {
        let numbers = [
            startAngle.degrees, sweep.degrees, majorTicks.length, majorTicks.width, majorTicks.minimumWidth,
            minorTicks.length, minorTicks.width, minorTicks.minimumWidth, bandWidth, needle.length, needle.baseWidth,
            needle.tipWidth, needle.tail, needle.hubRadius, valueArc ?? 0,
        ]
        return numbers.allSatisfy(\.isFinite) && sections.allSatisfy { $0.from.isFinite && $0.to.isFinite }
    }

    /// The sections drawn for `c`: the explicit ones, or those of its thresholds.
    public func resolvedSections(_ c: Configuration) -> [Section] {
        guard sections.isEmpty, sectionsFromThresholds, let t = c.thresholds else { return sections }
        var out: [Section] = []
        var from = c.range.lowerBound, color = t.base
        for s in t.steps {
            if let color, s.from > from {
                out.append(Section(from: from, to: min(s.from, c.range.upperBound), color: color))
            }
            from = max(from, s.from)
            color = s.color
        }
        if let color, from < c.range.upperBound {
            out.append(Section(from: from, to: c.range.upperBound, color: color))
        }
        return out
    }

    /// Where every part of the dial goes for `c` drawn into `rect`; nil when
    /// there is nothing to draw (a parameter not finite, no room).
    public func layout(configuration c: Configuration, in rect: Rect, context: DrawContext) -> DialLayout? {
        guard isFinite, rect.width.isFinite, rect.height.isFinite else { return nil }
        // Every draw, clip and damage computation asks again for the same
        // gauge; text labels make a key (the current value's own text only
        // when no sizing texts stand for it).
        let current = c.sizingText.isEmpty ? c.currentValueLabel : c.currentValueLabel.map { _ in "" }
        guard c.label?.text != nil || c.label == nil, current?.text != nil || current == nil,
            c.markedValueLabels.allSatisfy({ $0.label.text != nil })
        else {
            return DialLayout(style: self, configuration: c, rect: rect, context: context)
        }
        let key = DialLayoutKey(
            style: self, rect: rect, range: c.range, label: c.label?.text, current: current?.text,
            sizingText: c.sizingText, environment: c.environment, textSizes: context.textSizes,
            fonts: ObjectIdentifier(context.fonts), marks: c.markedValueLabels.map { MarkKey($0) })
        if let known = dialLayouts.withLock({ $0[key] }) { return known }
        let made = DialLayout(style: self, configuration: c, rect: rect, context: context)
        dialLayouts.withLock { table in
            if table.count >= 64 { table.removeAll(keepingCapacity: true) }
            table[key] = .some(made)
        }
        return made
    }

    /// The dial in the largest square of its rectangle, drawn in the order
    /// the type's documentation gives (static parts first).
    public func makeBody(configuration c: Configuration) -> some Drawable {
        Draw(size: squareSize) { rect, canvas, context in
            guard let l = layout(configuration: c, in: rect, context: context) else { return }
            let env = c.environment
            if context.layers.contains(.static) {
                if l.bandWidth > 0 {
                    let r = l.bandRadius - l.bandWidth / 2
                    canvas.strokeArc(
                        center: l.center, radius: r, startAngle: l.startAngle, sweep: l.sweep, width: l.bandWidth,
                        cap: .butt, paint: .solid(env.track))
                    for s in resolvedSections(c) {
                        let v0 = Gauge.normalize(min(s.from, s.to), in: c.range)
                        let v1 = Gauge.normalize(max(s.from, s.to), in: c.range)
                        guard v1 > v0 else { continue }
                        canvas.strokeArc(
                            center: l.center, radius: r, startAngle: l.angle(for: v0), sweep: l.sweep * (v1 - v0),
                            width: l.bandWidth, cap: .butt, paint: .solid(s.color))
                    }
                }
                if let p = l.tickPath(minor: true) {
                    canvas.fill(p, paint: .solid(minorTicks.color ?? env.foreground.opacity(0.6)))
                }
                if let p = l.tickPath(minor: false) {
                    canvas.fill(p, paint: .solid(majorTicks.color ?? env.foreground))
                }
                for label in l.labels {
                    let content = l.showsMarks ? c.markedValueLabels[label.tick].label : GaugeLabel.text(label.text)
                    content.draw(
                        in: label.box, on: canvas, context: context, pixelSize: l.labelSize,
                        color: labels?.color ?? env.foreground)
                }
                if let label = c.label, let box = l.titleBox {
                    label.draw(in: box, on: canvas, context: context, pixelSize: l.titleSize, color: env.foreground)
                }
            }
            guard context.layers.contains(.dynamic) else { return }
            for part in DynamicPart.allCases {
                draw(part, c, l, on: canvas, context: context)
            }
        }
    }

    /// The dynamic layer's parts, in the order they are painted.
    enum DynamicPart: CaseIterable {
        case valueArc, currentValue, needle, hub
    }

    /// Paints one part of the dynamic layer: the one code the body and the
    /// layering's parts (``layering(configuration:in:context:)``) both run.
    private func draw(_ part: DynamicPart, _ c: Configuration, _ l: DialLayout, on canvas: Canvas, context: DrawContext)
    {
        switch part {
        case .valueArc:
            if let arc = l.valueArc {
                arc.strokeValueArc(to: c.value, cap: .round, valueStroke(c, arc), on: canvas)
            }
        case .currentValue:
            if let current = c.currentValueLabel, let box = l.valueBox {
                current.draw(
                    in: box, on: canvas, context: context, pixelSize: l.valueSize, color: c.environment.foreground)
            }
        case .needle:
            if c.hasValue, let p = l.needlePath(for: c.value) {
                canvas.fill(p, paint: .solid(needleColor(c)))
            }
        case .hub:
            if l.hubRadius > 0 {
                canvas.fillDisc(center: l.center, radius: l.hubRadius, paint: .solid(hubColor(c)))
            }
        }
    }

    /// The needle's colour; out of range, the tint (the out-of-range colour) whatever the needle says.
    private func needleColor(_ c: Configuration) -> Color {
        c.rangePosition != .within ? c.tint.color(at: c.value) : needle.color ?? c.tint.color(at: c.value)
    }
    private func hubColor(_ c: Configuration) -> Color { needle.hubColor ?? c.environment.foreground }

    /// The value arc's paint: the tint along the scale.
    private func valueStroke(_ c: Configuration, _ arc: CircularGaugeLayout) -> GaugeLayering.ValueArc.Stroke {
        GaugeLayering.ValueArc.Stroke(
            paint: c.tint.arcPaint(center: arc.center, arcStart: arc.startAngle, arcSweep: arc.sweep))
    }

    /// Band, sections, ticks, scale labels and the label are static; the value
    /// arc, the current value, the needle and the hub are dynamic. The needle's
    /// bounds are boxes along its length, so a move repaints a strip around the
    /// needle rather than the box of its whole sweep.
    /// Its dynamic parts (``GaugeLayering/dynamicParts``) are the value arc,
    /// the current value (its glyphs, when it is text), the needle and the hub.
    public func layering(configuration c: Configuration, in rect: Rect, context: DrawContext) -> GaugeLayering {
        guard let l = layout(configuration: c, in: rect, context: context) else {
            return GaugeLayering(staticKey: AnyHashable(0), dynamicBounds: [])
        }
        typealias Part = GaugeLayering.DynamicPart
        var parts: [Part] = []
        var complete = true
        func add(_ part: DynamicPart, _ bounds: [Rect]?, _ change: Part.Change) {
            guard let bounds else { return complete = false }
            parts.append(Part(bounds: bounds, change: change) { draw(part, c, l, on: $0, context: context) })
        }
        if let arc = l.valueArc {
            let a = GaugeLayering.ValueArc(
                layout: arc, value: c.value, cap: .round, paint: AnyHashable(c.tint), others: [])
            add(.valueArc, c.value > 0 ? arc.strokePieces(from: 0, to: c.value) : [], .arc(a))
        }
        if let current = c.currentValueLabel, let box = l.valueBox {
            let color = c.environment.foreground
            let bounds = current.drawnBounds(in: box, context: context, pixelSize: l.valueSize)
            if let glyphs = current.drawnGlyphs(in: box, context: context, pixelSize: l.valueSize) {
                add(.currentValue, bounds, .glyphs(glyphs, color: color))
            } else {
                add(.currentValue, bounds, .key(AnyHashable("\(current)")))
            }
        }
        if c.hasValue, l.needlePath(for: c.value) != nil {
            add(
                .needle, l.needleBounds(for: c.value),
                .key(AnyHashable(NeedleKey(corners: l.needleCorners(for: c.value), color: needleColor(c)))))
        }
        if l.hubRadius > 0 {
            let box = Rect(x: l.center.x, y: l.center.y, width: 0, height: 0).insetBy(-(l.hubRadius + 1))
            add(.hub, [box], .key(AnyHashable(hubColor(c))))
        }
        let key = AnyHashable(StaticKey(layout: l, sections: resolvedSections(c), label: c.label.map { "\($0)" }))
        guard complete else { return GaugeLayering(staticKey: key, dynamicBounds: nil) }
        return GaugeLayering(staticKey: key, dynamicBounds: parts.flatMap(\.bounds), dynamicParts: parts)
    }

    /// What a needle's pixels depend on.
    private struct NeedleKey: Hashable {
        var corners: [Point]
        var color: Color
    }

    /// What the static layer depends on.
    private struct StaticKey: Hashable {
        var layout: DialLayout
        var sections: [Section]
        var label: String?
    }
}

/// Where the parts of a ``DialGaugeStyle`` go in one rectangle. Pure geometry,
/// so tests can check a drawing against it; angles and lengths as the style
/// documents them.
public struct DialLayout: Sendable, Hashable {
    /// The dial's centre: the centre of the largest square in the rectangle.
    public var center: Point
    /// `R`: the outer radius of the scale's parts (value arc, band), inside the
    /// ring of outside labels.
    public var radius: Double
    /// Where the scale starts (value 0).
    public var startAngle: Angle
    /// The scale's extent (at most a full turn either way).
    public var sweep: Angle
    /// The band's outer radius and width.
    public var bandRadius: Double
    /// See ``bandRadius``.
    public var bandWidth: Double
    /// The thin value arc's stroke, when the style has one.
    public var valueArc: CircularGaugeLayout?
    /// The radius of the ticks' outer ends.
    public var tickRadius: Double
    /// The major ticks' length and width, in pixels.
    public var majorTickLength: Double
    /// See ``majorTickLength``.
    public var majorTickWidth: Double
    /// The minor ticks' length and width, in pixels.
    public var minorTickLength: Double
    /// See ``minorTickLength``.
    public var minorTickWidth: Double
    /// How many major ticks (0 for none) and minor ticks between two of them
    /// (0 when there are none or they were too close to draw).
    public var majorCount: Int
    /// See ``majorCount``.
    public var minorCount: Int
    /// The scale labels drawn, each with the major tick it belongs to (or,
    /// for marked values, the mark).
    public var labels: [Label]
    /// Whether ``labels`` are the gauge's marked values' labels, which take
    /// the place of the scale's numbers.
    public var showsMarks = false
    /// The marked values shown, normalized: each has a major tick of its
    /// own unless one of the scale's is there.
    public var marks: [Double] = []
    /// Marked values whose labels were left out: out of the range, or too
    /// close to a neighbour.
    public var marksLeftOut = 0
    /// Every `labelStep`-th major tick has its label (from the first); 0 when
    /// none fit (or the style shows none).
    public var labelStep: Int
    /// The scale labels' text size.
    public var labelSize: Double
    /// Radius of the circle inside the ticks that the label and the current
    /// value stay in (they also keep clear of the scale labels).
    public var freeRadius: Double
    /// The label's line under the current value (over the hub on a
    /// full-turn scale), and its text size; nil when the dial has no room
    /// for the label at a readable size.
    public var titleBox: Rect?
    /// See ``titleBox``.
    public var titleSize: Double
    /// The current value's line below the hub, and its text size.
    public var valueBox: Rect?
    /// See ``valueBox``.
    public var valueSize: Double
    /// The hub's radius (0: none).
    public var hubRadius: Double
    /// The needle: from the centre to its tip, the tail behind the centre,
    /// its widths at the centre and at the tip (pixels).
    public var needleLength: Double
    /// See ``needleLength``.
    public var needleTail: Double
    /// See ``needleLength``.
    public var needleBaseWidth: Double
    /// See ``needleLength``.
    public var needleTipWidth: Double

    /// A scale label: its text, the index of its major tick, its box.
    public struct Label: Sendable, Hashable {
        /// The formatted value (a marked value's text; empty for a mark that is not text).
        public var text: String
        /// Which major tick (0 at the scale's start); for a marked value,
        /// its index in ``Gauge/markedValueLabels``.
        public var tick: Int
        /// The text's box (its advance by its ink's height), centred where the text goes.
        public var box: Rect
    }

    /// The angle of normalized value `v` (clamped to 0...1).
    public func angle(for v: Double) -> Angle { startAngle + sweep * min(1, max(0, v)) }

    /// Every tick of one kind as one path of disjoint rectangles (nil: none).
    func tickPath(minor: Bool) -> Path? {
        let count = minor ? minorCount : majorCount
        guard (majorCount >= 2 && count > 0) || (!minor && !marks.isEmpty) else { return nil }
        let length = minor ? minorTickLength : majorTickLength
        let half = (minor ? minorTickWidth : majorTickWidth) / 2
        guard length > 0, half > 0 else { return nil }
        var path = Path()
        let intervals = max(0, majorCount - 1)
        let steps = minor ? intervals * (count + 1) : intervals
        var at: [Double] = []
        for t in 0...steps where majorCount >= 2 && count > 0 {
            if minor && t % (count + 1) == 0 { continue }
            if minor == false, abs(sweep.degrees) >= 360, t == steps { continue }
            at.append(Double(t) / Double(steps))
        }
        if !minor { at += marks.filter { m in !at.contains { abs($0 - m) < 1e-9 } } }
        for v in at {
            let a = angle(for: v).radians
            let d = Point(x: cos(a), y: sin(a)), n = Point(x: -d.y, y: d.x)
            func at(_ r: Double, _ side: Double) -> Point {
                Point(x: center.x + r * d.x + side * n.x, y: center.y + r * d.y + side * n.y)
            }
            path.move(to: at(tickRadius - length, half))
            path.line(to: at(tickRadius, half))
            path.line(to: at(tickRadius, -half))
            path.line(to: at(tickRadius - length, -half))
            path.closeSubpath()
        }
        return path
    }

    /// The needle's corners at normalized value `v`: tail end (left, right),
    /// tip (right, left), a convex quadrilateral.
    public func needleCorners(for v: Double) -> [Point] {
        let a = angle(for: v).radians
        let d = Point(x: cos(a), y: sin(a)), n = Point(x: -d.y, y: d.x)
        func at(_ r: Double, _ side: Double) -> Point {
            Point(x: center.x + r * d.x + side * n.x, y: center.y + r * d.y + side * n.y)
        }
        let b = needleBaseWidth / 2, t = needleTipWidth / 2
        return [at(-needleTail, b), at(needleLength, t), at(needleLength, -t), at(-needleTail, -b)]
    }

    /// The needle's polygon at normalized value `v` (nil: no needle).
    func needlePath(for v: Double) -> Path? {
        guard needleLength > 0, needleBaseWidth > 0 || needleTipWidth > 0 else { return nil }
        let p = needleCorners(for: v)
        var path = Path()
        path.move(to: p[0])
        for q in p.dropFirst() { path.line(to: q) }
        path.closeSubpath()
        return path
    }

    /// Boxes holding every pixel of the needle at `v`: one per quarter of its
    /// length (each a pixel larger than the needle's part in it).
    public func needleBounds(for v: Double) -> [Rect] {
        guard needlePath(for: v) != nil else { return [] }
        let p = needleCorners(for: v)
        var out: [Rect] = []
        let pieces = 4
        for k in 0..<pieces {
            let s0 = Double(k) / Double(pieces), s1 = Double(k + 1) / Double(pieces)
            func mix(_ a: Point, _ b: Point, _ s: Double) -> Point {
                Point(x: a.x + (b.x - a.x) * s, y: a.y + (b.y - a.y) * s)
            }
            let q = [mix(p[0], p[1], s0), mix(p[0], p[1], s1), mix(p[3], p[2], s0), mix(p[3], p[2], s1)]
            let x0 = q.map(\.x).min()!, x1 = q.map(\.x).max()!, y0 = q.map(\.y).min()!, y1 = q.map(\.y).max()!
            out.append(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).insetBy(-1.5))
        }
        return out
    }
}

extension DialLayout {
    /// The smallest scale number drawn, in pixels: smaller digits are blobs
    /// on a panel, so a dial that would set its numbers smaller shows none.
    public static let smallestScaleNumber = 7.0

    /// The smallest label drawn in the dial, in pixels (the type scale's
    /// ``TypeScale/minimum`` when the context has one): a dial with no room
    /// for it at this size leaves the label out.
    static func smallestLabel(_ context: DrawContext) -> Double {
        context.textSizes == nil ? 8 : context.environment.typeScale?.minimum ?? TypeScale().minimum
    }

    /// Lays out `style` for `c` in `rect`; nil when the dial has no room.
    ///
    /// Texts give way in order: the scale's numbers go first, when without
    /// them the label finds a place it has not with them, or the current value
    /// is set smaller than the numbers and gets larger without them (marked
    /// values give way to the label only).
    init?(style: DialGaugeStyle, configuration c: GaugeStyleConfiguration, rect: Rect, context: DrawContext) {
        guard let full = DialLayout(style: style, configuration: c, rect: rect, context: context, numbers: true) else {
            return nil
        }
        self = full
        guard !full.labels.isEmpty else { return }
        let labelLost = c.label != nil && full.titleBox == nil
        // (Marked values, which the gauge asks for by name, do not give way
        // to a larger value.)
        let valueSmall = full.valueBox != nil && full.valueSize < full.labelSize && !full.showsMarks
        guard labelLost || valueSmall,
            let bare = DialLayout(style: style, configuration: c, rect: rect, context: context, numbers: false)
        else { return }
        if (labelLost && bare.titleBox != nil) || (valueSmall && bare.valueSize > full.valueSize) { self = bare }
    }

    /// The layout with or without the scale's numbers.
    private init?(
        style: DialGaugeStyle, configuration c: GaugeStyleConfiguration, rect: Rect, context: DrawContext, numbers: Bool
    ) {
        let square = PanelLayout.centredSquare(in: rect)
        let outer = square.width / 2
        guard outer >= 4 else { return nil }
        center = square.center
        startAngle = style.startAngle
        sweep = .degrees(min(360, max(-360, style.sweep.degrees)))
        let wanted =
            style.majorTicks.fitsTheRange
            ? DialGaugeStyle.Ticks.roundCount(for: c.range) ?? style.majorTicks.count : style.majorTicks.count
        let majors = wanted >= 2 ? min(wanted, 361) : 0
        majorCount = majors

        // The scale labels' texts and sizes (measured once; placed below).
        var size = context.endLabelSize
        if context.textSizes != nil {
            size = TypeScale.step(atMost: min(size, 0.16 * outer))
        } else {
            size = min(size, max(1, (0.16 * outer).rounded(.down)))
        }
        // (A size that is not a number, or below the smallest readable one, shows no labels.)
        if !(size >= Self.smallestScaleNumber && size.isFinite) || !numbers { size = 0 }
        labelSize = size
        let font = style.labels == nil || majors == 0 || size == 0 ? nil : context.font(size: size)
        var texts: [(text: String, w: Double, h: Double)] = []
        // Each text's normalized position, and its tick (or mark) index.
        var positions: [Double] = [], indices: [Int] = []
        // The gauge's marked values take the place of the numbers.
        let markedValues = c.marksInRange
        marksLeftOut = c.markedValueLabels.count - markedValues.count
        showsMarks = !c.markedValueLabels.isEmpty
        marks = []
        if showsMarks, let font = size == 0 ? nil : context.font(size: size) {
            for (i, mark) in markedValues {
                if let s = mark.label.text {
                    let h = Double(font.inkBounds(of: s)?.height ?? 0)
                    texts.append((s, font.advance(of: s) + 1, h + 1))
                } else {
                    let z = mark.label.size(pixelSize: size, context: context)
                    texts.append(("", z.width + 1, z.height + 1))
                }
                positions.append(Gauge.normalize(mark.value, in: c.range))
                indices.append(i)
            }
        } else if let font, let format = style.labels?.format {
            let full = abs(sweep.degrees) >= 360
            let values = (0..<(full ? majors - 1 : majors)).map { i in
                c.range.lowerBound + Double(i) / Double(majors - 1) * (c.range.upperBound - c.range.lowerBound)
            }
            // Two ticks never read the same number.
            for s in distinctNumbers(values, format: format, range: c.range) {
                // The ink's height, and its advance; a pixel of slack for the
                // whole-pixel pen position.
                let h = Double(font.inkBounds(of: s)?.height ?? 0)
                texts.append((s, font.advance(of: s) + 1, h + 1))
                positions.append(Double(positions.count) / Double(majors - 1))
                indices.append(indices.count)
            }
        }
        let gap = max(2, (0.3 * size).rounded())
        let outside = style.labels?.placement == .outside && !texts.isEmpty
        // Outside labels take the ring their boxes need: the scale's radius is
        // moved until the farthest corner of a label placed outside it
        // touches the square (the depth changes little with the radius).
        var r = outer
        if outside {
            let (a0, span) = (startAngle, sweep)
            let directions = positions.map { p in
                let a = (a0 + span * p).radians
                return Point(x: cos(a), y: sin(a))
            }
            func farthest(_ r: Double) -> Double {
                var far = 0.0
                for (d, t) in zip(directions, texts) {
                    guard let at = Self.placeOutside(d, t.w, t.h, beyond: r + gap) else { return .infinity }
                    let x = abs(at * d.x) + t.w / 2, y = abs(at * d.y) + t.h / 2
                    far = max(far, (x * x + y * y).squareRoot())
                }
                return far
            }
            r = outer - gap - (texts.map { max($0.w, $0.h) }.max() ?? 0)
            for _ in 0..<8 where r > 0 {
                let over = farthest(r) - outer
                guard over.isFinite, abs(over) > 0.01 else { break }
                r -= over
            }
            if farthest(r) > outer { r -= farthest(r) - outer + 0.01 }
        }
        guard r >= 4 else { return nil }
        radius = r
        var edge = r
        if let w = style.valueArc, w > 0 {
            let width = max(1, w * r)
            valueArc = CircularGaugeLayout(
                center: center, radius: r - width / 2, lineWidth: width, startAngle: startAngle, sweep: sweep)
            edge = r - width - 0.03 * r
        } else {
            valueArc = nil
        }
        bandRadius = edge
        bandWidth = max(0, style.bandWidth * r)
        tickRadius = edge - (bandWidth > 0 ? bandWidth + 0.025 * r : 0)
        majorTickLength = max(0, style.majorTicks.length * r)
        majorTickWidth = max(style.majorTicks.minimumWidth, style.majorTicks.width * r)
        minorTickLength = max(0, style.minorTicks.length * r)
        minorTickWidth = max(style.minorTicks.minimumWidth, style.minorTicks.width * r)
        // Minor ticks closer than their width and 1.5 px at their inner ends are left out.
        let minors = max(0, min(style.minorTicks.count, 100))
        if majors >= 2, minors > 0 {
            let step = abs(sweep.radians) / Double((majors - 1) * (minors + 1))
            let spacing = step * (tickRadius - minorTickLength)
            minorCount = spacing >= minorTickWidth + 1.5 ? minors : 0
        } else {
            minorCount = 0
        }
        let tickInner = tickRadius - (majors > 0 ? majorTickLength : 0)

        // Scale labels: each box as far out as it goes inside the ticks (or
        // as far in as it goes outside the scale), then thinned until no two
        // come within `gap` of each other.
        var placed: [Label] = []
        for (i, t) in texts.enumerated() {
            let a = (startAngle + sweep * positions[i]).radians
            let d = Point(x: cos(a), y: sin(a))
            let centre =
                outside
                ? Self.placeOutside(d, t.w, t.h, beyond: r + gap)
                : Self.placeInside(d, t.w, t.h, within: tickInner - gap)
            guard let centre else { continue }
            let box = Rect(
                x: center.x + centre * d.x - t.w / 2, y: center.y + centre * d.y - t.h / 2, width: t.w, height: t.h)
            placed.append(Label(text: t.text, tick: indices[i], box: box))
        }
        labelStep = 0
        labels = []
        if showsMarks {
            // In order of value, a mark too close to one kept is left out
            // (the last keeps its place over its neighbour).
            labels = thinnedMarks(
                placed, before: { c.markedValueLabels[$0.tick].value < c.markedValueLabels[$1.tick].value },
                fits: { Self.apart($0 + [$1], gap: gap) })
            labelStep = labels.isEmpty ? 0 : 1
            marksLeftOut += markedValues.count - labels.count
            // A major tick at each mark shown.
            marks = labels.map { Gauge.normalize(c.markedValueLabels[$0.tick].value, in: c.range) }
        } else if placed.count == texts.count, !placed.isEmpty {
            let intervals = max(1, majors - 1)
            for k in 1...intervals where intervals % k == 0 {
                let shown = placed.filter { $0.tick % k == 0 }
                if Self.apart(shown, gap: gap) {
                    labelStep = k
                    labels = shown
                    break
                }
            }
        }

        // The free centre, and the label and value in it.
        freeRadius = max(0, tickInner - gap)
        hubRadius = max(0, style.needle.hubRadius * r)
        needleLength = max(0, style.needle.length * tickRadius)
        needleTail = max(0, style.needle.tail * needleLength)
        needleBaseWidth = max(0, style.needle.baseWidth * r)
        needleTipWidth = max(0, style.needle.tipWidth * r)

        // The current value below the hub and the label under it, in the
        // scale's opening: each at the largest size at which its line stays
        // clear of the needle's sweep, the scale labels and the square.
        let clear = hubRadius + gap
        let shown = labels, ctr = square.center, limit = max(0, tickInner - gap)
        let textSizes = context.textSizes
        let needle = (
            length: needleLength, tail: needleTail, halfWidth: max(needleBaseWidth, needleTipWidth) / 2 + 1
        )
        func fit(_ sizes: [Double], below: Bool, width: (Double) -> Double) -> (size: Double, box: Rect)? {
            for s in sizes {
                let w = width(s)
                let y0 = below ? ctr.y + clear : ctr.y - clear - s
                let box = Rect(x: ctr.x - w / 2, y: y0, width: w, height: s)
                let far = Self.farthest(of: box, from: ctr)
                if far <= limit && Self.apart(shown + [Label(text: "", tick: -1, box: box)], gap: gap) {
                    return (s, box)
                }
            }
            return nil
        }
        /// The current value's line below the hub where the needle never
        /// passes: at each size from the largest, the first position down
        /// from the hub outside the needle's sweep (which keeps it off the
        /// band, the ticks and the value arc too, all within the sweep), in
        /// the dial's circle; nil when there is none (a full-turn scale), and
        /// the value then sits under the hub as the label sits over it.
        func fitClearOfNeedle(_ sizes: [Double], from top: Double? = nil, width: (Double) -> Double) -> (
            size: Double, box: Rect
        )? {
            for s in sizes {
                let w = width(s)
                var y0 = top ?? ctr.y + clear
                while true {
                    let box = Rect(x: ctr.x - w / 2, y: y0, width: w, height: s)
                    if Self.farthest(of: box, from: ctr) > outer - 1 { break }
                    if Self.outsideSweep(box, center: ctr, start: startAngle, sweep: sweep, needle: needle)
                        && Self.apart(shown + [Label(text: "", tick: -1, box: box)], gap: gap)
                    {
                        return (s, box)
                    }
                    y0 += 1
                }
            }
            return nil
        }
        /// Sizes from `top` down: steps of the type scale, or whole pixels.
        func sizes(from top: Double) -> [Double] {
            // No text taller than the free circle's radius; none for sizes that are not numbers.
            let top = min(top, limit)
            guard top.isFinite, top >= 1 else { return [] }
            if textSizes != nil { return TypeScale.steps.filter { $0 <= top }.reversed() }
            return stride(from: top.rounded(.down), through: min(6, top.rounded(.down)), by: -1).map { $0 }
        }
        titleSize = 0
        titleBox = nil
        valueSize = 0
        valueBox = nil
        // With an opening (less than a full turn) the value and the label stay
        // in it, where the needle never passes; a full-turn dial has none, and
        // sets the value under the hub and the label over it.
        let opening = abs(sweep.degrees) < 360
        var valueSizes: [Double] = []
        var valueWidth: (Double) -> Double = { _ in 0 }
        if let current = c.currentValueLabel {
            // Sized by the widest value the gauge can show, so it never changes size.
            // (The current text itself only when no sizing texts stand for it,
            // so that the layout does not change with the value.)
            var texts = c.sizingText
            if texts.isEmpty, let t = current.text { texts.append(t) }
            valueSizes = sizes(from: min(context.textSizes?.value ?? 0.3 * limit, 0.5 * limit))
            valueWidth = { (s: Double) -> Double in
                texts.isEmpty
                    ? current.size(pixelSize: s, context: context).width + 1
                    : widestAdvance(of: texts, size: s, context) + 1
            }
            if let (s, box) = fitClearOfNeedle(valueSizes, width: valueWidth)
                ?? (opening ? nil : fit(valueSizes, below: true, width: valueWidth))
            {
                (valueSize, valueBox) = (s, box)
            }
        }
        guard let label = c.label else { return }
        // At most as large as the value (the largest text), and as the scale
        // numbers when there are some, so the dial's smaller texts share one size.
        let smallest = Self.smallestLabel(context)
        var top = shown.isEmpty ? context.titleSize : min(context.titleSize, labelSize)
        let natural = { (s: Double) in label.size(pixelSize: s, context: context).width + 1 }
        guard opening else {
            if valueBox != nil { top = min(top, valueSize) }
            if let (s, box) = fit(sizes(from: top).filter { $0 >= smallest }, below: false, width: natural) {
                (titleSize, titleBox) = (s, box)
            }
            return
        }
        /// The label under a value box (or under the hub without a value), at
        /// the largest readable size up to `top`, whole; or (`cut`) at the
        /// smallest size, ending in an ellipsis, when at least three sizes'
        /// width (a few characters) fits.
        func placeLabel(under value: Rect?, top: Double, cut: Bool, floor: Double = 0) -> (size: Double, box: Rect)? {
            let from = value.map { $0.maxY + gap }
            let candidates = sizes(from: top).filter { $0 >= max(smallest, floor) }
            guard cut else { return fitClearOfNeedle(candidates, from: from, width: natural) }
            guard let s = candidates.last else { return nil }
            var lo = 0.0, hi = natural(s)
            for _ in 0..<24 {
                let w = (lo + hi) / 2
                if fitClearOfNeedle([s], from: from, width: { _ in w }) != nil { lo = w } else { hi = w }
            }
            guard lo >= 3 * s else { return nil }
            return fitClearOfNeedle([s], from: from, width: { _ in lo })
        }
        guard let placedValue = valueBox else {
            if let (s, box) = placeLabel(under: nil, top: top, cut: false)
                ?? placeLabel(under: nil, top: top, cut: true)
            {
                (titleSize, titleBox) = (s, box)
            }
            return
        }
        // The whole label under the value at its size, at least 0.6 of the
        // label's own size (so a large value leaves it in proportion); else
        // the value steps down (never below the label) until it fits; else
        // the whole label at any readable size, or cut short, under the value
        // at its size.
        let proportionate = 0.6 * min(top, valueSize)
        for floor in [proportionate, 0] {
            if let (s, box) = placeLabel(under: placedValue, top: min(top, valueSize), cut: false, floor: floor) {
                (titleSize, titleBox) = (s, box)
                return
            }
            for s in valueSizes where s < valueSize && s >= smallest {
                guard let (vs, vbox) = fitClearOfNeedle([s], width: valueWidth) else { continue }
                if let (ls, lbox) = placeLabel(under: vbox, top: min(top, vs), cut: false, floor: floor) {
                    (valueSize, valueBox, titleSize, titleBox) = (vs, vbox, ls, lbox)
                    return
                }
            }
        }
        if let (s, box) = placeLabel(under: placedValue, top: min(top, valueSize), cut: true) {
            (titleSize, titleBox) = (s, box)
        }
    }

    /// Whether `box` (below `center`) lies where a needle of `needle`'s length,
    /// tail and half-width (plus a pixel) never reaches for any value on the
    /// scale from `start` over `sweep` (less than a full turn): no swept
    /// direction within the box's directions (widened by the needle's
    /// half-width), or the whole box beyond the needle's reach; and beyond its
    /// tail, which sweeps the opposite directions.
    static func outsideSweep(
        _ box: Rect, center: Point, start: Angle, sweep: Angle,
        needle: (length: Double, tail: Double, halfWidth: Double)
    ) -> Bool {
        guard box.minY > center.y else { return false }
        let corners = [
            Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY), Point(x: box.minX, y: box.maxY),
            Point(x: box.maxX, y: box.maxY),
        ]
        // Swept directions: [a0, a1] in degrees, clockwise on screen. A full
        // turn leaves no opening (beyond the needle's tip, the scale's own
        // labels and ticks take the room).
        let a0 = min(start.degrees, start.degrees + sweep.degrees)
        let a1 = max(start.degrees, start.degrees + sweep.degrees)
        if a1 - a0 >= 360 { return false }
        let nearest = box.minY - center.y
        if needle.tail > 0 && nearest <= needle.tail + needle.halfWidth { return false }
        if nearest > needle.length + needle.halfWidth { return true }
        // The box's directions: below the centre they lie in (0, 180) degrees,
        // between its extreme corners'; widened by the needle's half-width at
        // the nearest corner.
        let angles = corners.map { atan2($0.y - center.y, $0.x - center.x) * 180 / .pi }
        let margin = asin(min(1, needle.halfWidth / nearest)) * 180 / .pi
        let lo = angles.min()! - margin, hi = angles.max()! + margin
        for turn in [-360.0, 0, 360] where a0 + turn <= hi && a1 + turn >= lo { return false }
        return true
    }

    /// The distance from `p` to the farthest corner of `box`.
    static func farthest(of box: Rect, from p: Point) -> Double {
        let x = max(abs(box.minX - p.x), abs(box.maxX - p.x)), y = max(abs(box.minY - p.y), abs(box.maxY - p.y))
        return (x * x + y * y).squareRoot()
    }

    /// The largest distance along `d` at which a `w` x `h` box centred there
    /// lies within radius `limit` of the centre; nil when none does.
    static func placeInside(_ d: Point, _ w: Double, _ h: Double, within limit: Double) -> Double? {
        func far(_ t: Double) -> Double {
            let x = abs(t * d.x) + w / 2, y = abs(t * d.y) + h / 2
            return (x * x + y * y).squareRoot()
        }
        guard limit > 0, far(0) <= limit else { return nil }
        var lo = 0.0, hi = limit
        for _ in 0..<40 {
            let m = (lo + hi) / 2
            if far(m) <= limit { lo = m } else { hi = m }
        }
        return lo
    }

    /// The smallest distance along `d` at which a `w` x `h` box centred there
    /// keeps at least `limit` from the centre.
    static func placeOutside(_ d: Point, _ w: Double, _ h: Double, beyond limit: Double) -> Double? {
        func near(_ t: Double) -> Double {
            let x = max(0, abs(t * d.x) - w / 2), y = max(0, abs(t * d.y) - h / 2)
            return (x * x + y * y).squareRoot()
        }
        var lo = 0.0, hi = limit + w + h
        guard near(hi) >= limit else { return nil }
        for _ in 0..<40 {
            let m = (lo + hi) / 2
            if near(m) >= limit { hi = m } else { lo = m }
        }
        return hi
    }

    /// The distance from `p` to the nearest point of `box`.
    static func nearest(of box: Rect, to p: Point) -> Double {
        let x = max(0, box.minX - p.x, p.x - box.maxX), y = max(0, box.minY - p.y, p.y - box.maxY)
        return (x * x + y * y).squareRoot()
    }

    /// Whether no two boxes come within `gap` of each other.
    static func apart(_ labels: [Label], gap: Double) -> Bool {
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] {
                let dx = max(a.box.minX - b.box.maxX, b.box.minX - a.box.maxX)
                let dy = max(a.box.minY - b.box.maxY, b.box.minY - a.box.maxY)
                if dx < gap && dy < gap { return false }
            }
        }
        return true
    }
}

extension GaugeStyle where Self == DialGaugeStyle {
    /// A dial with the defaults of ``DialGaugeStyle``.
    public static var dial: Self { Self() }
}

extension Gauge {
    /// Where this gauge's dial goes when it is drawn into `rect` (after its
    /// title, if any, takes its line); nil unless its style is a
    /// ``DialGaugeStyle`` with room to draw. A program can tell from
    /// ``DialLayout/labelStep`` whether the scale labels were thinned.
    public func dialLayout(in rect: Rect, fonts: FontCache = .shared) -> DialLayout? {
        guard let dial = style as? DialGaugeStyle, rect.isDrawable else { return nil }
        let context = context(fonts: fonts, cell: rect)
        let parts = titled(in: rect, context: context)
        return dial.layout(configuration: parts.configuration, in: parts.body, context: context)
    }
}

/// What a ``DialLayout`` depends on.
private struct DialLayoutKey: Hashable {
    var style: DialGaugeStyle
    var rect: Rect
    var range: ClosedRange<Double>
    var label: String?
    var current: String?
    var sizingText: [String]
    var environment: GaugeEnvironment
    var textSizes: TextSizes?
    var fonts: ObjectIdentifier
    var marks: [MarkKey]
}

/// Layouts already worked out (a pure function of their key: font files do
/// not change while they are open); emptied when it reaches 64 entries.
private let dialLayouts = Mutex<[DialLayoutKey: DialLayout?]>([:])

extension DialGaugeStyle {
    /// The current value's text size in `rect`; nil without a current value
    /// or room for it.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func currentValueSize(configuration c: Configuration, in rect: Rect, context: DrawContext) -> Double? {
        guard c.currentValueLabel != nil, let l = layout(configuration: c, in: rect, context: context),
            l.valueBox != nil
        else { return nil }
        return l.valueSize
    }
}
