import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A scale along a linear gauge's bar, as a dial has around its needle
/// (LVGL's `lv_scale`, the axis of Grafana's bar gauge): major and minor
/// ticks hanging below a horizontal bar (to the right of a vertical one),
/// numbers beyond the major ticks, and coloured sections on a strip where
/// the ticks start.
///
/// It takes the dial's parts with their defaults and meanings: major ticks
/// at round numbers of the range (``DialGaugeStyle/Ticks/roundCount(for:)``,
/// 0...100 gets 11) or ``DialGaugeStyle/Ticks/count`` of them; minor ticks
/// between two major ones, left out when closer than their width plus 1.5 px;
/// numbers in ``DialGaugeStyle/ScaleLabels/format``, never two alike;
/// ``sections``, or the gauge's thresholds as sections. Lengths and widths
/// are fractions of the scale's unit `U`, three times the numbers' size
/// (``DrawContext/endLabelSize``): for 12 px numbers `U` is 36 px, a major
/// tick 5.4 px long. The numbers always go beyond the ticks, under them
/// on a horizontal bar, to their right (left-aligned) on a vertical one (a
/// ``DialGaugeStyle/ScaleLabels/placement`` means nothing here).
///
/// The numbers never meet each other or the gauge's edges: the bar is
/// shortened by half the first and last numbers' extent along it (their
/// widths, or their line's height when vertical), so that each end's
/// number is centred on its end; when neighbours would come closer than
/// their gap, every `k`-th is shown, `k` the smallest divisor of the number
/// of major intervals that separates them (both ends keep theirs, as on a
/// dial); when even the two ends collide, none is shown. A rectangle without
/// the room across the bar for the numbers drops them, then the ticks.
///
/// A gauge's ``Gauge/markedValueLabels`` take the place of the numbers:
/// each under a major tick at its value.
public struct LinearScale: Sendable, Hashable {
    /// The major ticks; their ``DialGaugeStyle/Ticks/length`` and
    /// ``DialGaugeStyle/Ticks/width`` are fractions of `U`.
    public var majorTicks: DialGaugeStyle.Ticks
    /// The minor ticks between two major ones.
    public var minorTicks: DialGaugeStyle.Ticks
    /// The numbers under the major ticks; nil shows none.
    public var labels: DialGaugeStyle.ScaleLabels?
    /// Coloured ranges of the scale, in the gauge's units, drawn in order on
    /// a strip of ``bandWidth`` where the ticks start.
    public var sections: [DialGaugeStyle.Section]
    /// Whether a gauge's ``Thresholds`` become sections when ``sections`` is
    /// empty (as on a dial).
    public var sectionsFromThresholds: Bool
    /// The sections' strip, as a fraction of `U` (at least 2 px; 0 leaves
    /// the sections out).
    public var bandWidth: Double

    /// A scale; every argument has the default the type's documentation gives.
    public init(
        majorTicks: DialGaugeStyle.Ticks = .major, minorTicks: DialGaugeStyle.Ticks = .minor,
        labels: DialGaugeStyle.ScaleLabels? = DialGaugeStyle.ScaleLabels(), sections: [DialGaugeStyle.Section] = [],
        sectionsFromThresholds: Bool = true, bandWidth: Double = 0.05
    ) {
        self.majorTicks = majorTicks
        self.minorTicks = minorTicks
        self.labels = labels
        self.sections = sections
        self.sectionsFromThresholds = sectionsFromThresholds
        self.bandWidth = bandWidth
    }

    /// What a linear gauge without a scale draws for its marked values: a
    /// major tick and its label at each, nothing else.
    static let marksOnly: LinearScale = {
        var s = LinearScale(sectionsFromThresholds: false, bandWidth: 0)
        s.majorTicks.count = 0
        s.minorTicks.count = 0
        return s
    }()

    /// The sections drawn: ``sections``, or each threshold's colour from its
    /// bound to the next (none below the first: there the bar keeps its own
    /// colour, which needs no mark).
    public func resolvedSections(_ c: GaugeStyleConfiguration) -> [DialGaugeStyle.Section] {
        guard sections.isEmpty, sectionsFromThresholds, let t = c.thresholds else { return sections }
        var c = c
        c.thresholds = try? Thresholds(base: nil, steps: t.steps)
        return DialGaugeStyle(sectionsFromThresholds: true).resolvedSections(c)
    }

    /// Whether every length is finite (else no scale is drawn).
    var isFinite: Bool {
        [
            majorTicks.length, majorTicks.width, majorTicks.minimumWidth, minorTicks.length, minorTicks.width,
            minorTicks.minimumWidth, bandWidth,
        ].allSatisfy(\.isFinite)
    }
}

/// Where a linear scale's parts go beside a bar (under a horizontal one, to
/// the right of a vertical one): pure geometry, so tests can check a
/// drawing against it.
public struct LinearScaleLayout: Sendable, Hashable {
    /// A number or a marked value's label, and its box (the font's line, so
    /// that a row of them shares a baseline).
    public struct Label: Sendable, Hashable {
        /// The text (nil for a marked value's label that is not text).
        public var text: String?
        /// The major tick it belongs to; for a marked value, its index in
        /// ``Gauge/markedValueLabels``.
        public var index: Int
        /// Where it is drawn.
        public var box: Rect
    }

    /// A coloured part of the sections' strip.
    public struct Band: Sendable, Hashable {
        /// The strip's part, in pixels.
        public var rect: Rect
        /// Its colour.
        public var color: Color
    }

    /// The major ticks, each a rectangle centred on its value's position.
    public internal(set) var majorTicks: [Rect] = []
    /// The minor ticks.
    public internal(set) var minorTicks: [Rect] = []
    /// The sections' strip, in order.
    public internal(set) var bands: [Band] = []
    /// The numbers, or the marked values' labels, drawn.
    public internal(set) var labels: [Label] = []
    /// Whether ``labels`` are marked values' labels (else the scale's numbers).
    public internal(set) var showsMarks = false
    /// The labels' text size, in pixels.
    public internal(set) var labelSize: Double = 0
    /// How many major ticks (0 for none).
    public internal(set) var majorCount = 0
    /// Every `labelStep`-th major tick has its number (from the first); 0
    /// when the numbers had no room; 1 when all are shown or the labels are marks.
    public internal(set) var labelStep = 0
    /// Marked values whose labels were left out: out of the range, or too
    /// close to a neighbour.
    public internal(set) var marksLeftOut = 0
    /// How far the scale reaches across the bar, from the bar's row: its
    /// height under a horizontal bar, its width beside a vertical one.
    public internal(set) var depth: Double = 0
    /// The hash of every part above, taken by ``sealed()``.
    private var fingerprint = 0

    /// The layout with its fingerprint taken.
    func sealed() -> LinearScaleLayout {
        var h = Hasher()
        h.combine(majorTicks)
        h.combine(minorTicks)
        h.combine(bands)
        h.combine(labels)
        h.combine(showsMarks)
        h.combine(labelSize)
        h.combine(majorCount)
        h.combine(labelStep)
        h.combine(marksLeftOut)
        h.combine(depth)
        var out = self
        out.fingerprint = h.finalize()
        return out
    }

    /// Hashes the fingerprint.
    public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }

    /// Whether every part is equal (the arrays of one made layout compare by identity first).
    public static func == (a: Self, b: Self) -> Bool {
        a.fingerprint == b.fingerprint && a.majorTicks == b.majorTicks && a.minorTicks == b.minorTicks
            && a.bands == b.bands && a.labels == b.labels && a.showsMarks == b.showsMarks
            && a.labelSize == b.labelSize && a.majorCount == b.majorCount && a.labelStep == b.labelStep
            && a.marksLeftOut == b.marksLeftOut && a.depth == b.depth
    }
}

/// A scale's texts measured once, before the bar's length is known.
struct MeasuredScale {
    /// The major ticks' values, normalized.
    var majors: [Double]
    /// Their numbers (empty when none are shown), or the marks' labels' texts.
    var texts: [String?]
    /// Each text's advance width plus a pixel.
    var widths: [Double]
    /// Each text's normalized position.
    var positions: [Double]
    /// For marks: their indices in the configuration's marks.
    var indices: [Int]
    var marks: Bool
    var marksLeftOut: Int
    var size: Double
    var lineHeight: Double
    var unit: Double
    var gapTop: Double
    var gapLabel: Double

    /// The longest tick's length.
    var tickDepth: Double = 0
    /// Half the widest tick's width: how far an end tick reaches past its value.
    var tickHalfWidth: Double = 0
    /// The placements of this measurement already made, when it was kept.
    var placements: Placements?

    /// How far the scale reaches across the bar with or without the labels:
    /// their line's height under a horizontal bar, the widest one's width
    /// beside a vertical bar.
    func depth(labels: Bool, axis: Axis) -> Double {
        let across = axis == .horizontal ? lineHeight : widths.max() ?? 0
        return gapTop + tickDepth + (labels && !texts.isEmpty ? gapLabel + across : 0)
    }

    /// The scale's depth across the bar, and whether it shows its labels,
    /// where `least` of the gauge's own leaves the rest of `room` (nil: no
    /// limit): with its labels, else without them, else nil (no scale).
    func fitting(_ room: Double?, beside least: Double, axis: Axis) -> (depth: Double, labels: Bool)? {
        let full = depth(labels: true, axis: axis), bare = depth(labels: false, axis: axis)
        guard let room else { return (full, true) }
        if least + full <= room { return (full, true) }
        return least + bare <= room ? (bare, false) : nil
    }

    /// How far past the bar's value ends (values 0 and 1) the ticks at the
    /// ends reach, or the first and last labels when shown: half their
    /// widths along a horizontal bar, half their line along a vertical one.
    func overhang(labels: Bool, axis: Axis) -> (lead: Double, trail: Double) {
        var lead = tickHalfWidth, trail = tickHalfWidth
        guard labels else { return (lead, trail) }
        for (p, w) in zip(positions, widths) {
            let half = (axis == .horizontal ? w : lineHeight) / 2
            if p <= 0 { lead = max(lead, half) }
            if p >= 1 { trail = max(trail, half) }
        }
        return (lead, trail)
    }
}

extension LinearScale {
    /// The texts of the scale (or of the marks) at the context's end-label size.
    func measure(_ c: GaugeStyleConfiguration, context: DrawContext) -> MeasuredScale {
        // (A mark that is not text has no key: measured each time.)
        guard c.markedValueLabels.allSatisfy({ $0.label.text != nil }) else { return measureAnew(c, context: context) }
        let key = MeasureKey(
            scale: self, range: c.range, marks: c.markedValueLabels.map { MarkKey($0) },
            size: context.endLabelSize, font: context.environment.font, fonts: ObjectIdentifier(context.fonts))
        if let known = measured.withLock({ $0[key] }) { return known }
        var made = measureAnew(c, context: context)
        made.placements = Placements()
        measured.withLock { table in
            if table.count >= 64 { table.removeAll(keepingCapacity: true) }
            table[key] = made
        }
        return made
    }

    private func measureAnew(_ c: GaugeStyleConfiguration, context: DrawContext) -> MeasuredScale {
        let size = context.endLabelSize
        let font = context.font(size: size)
        let unit = 3 * size
        let wanted =
            majorTicks.fitsTheRange
            ? DialGaugeStyle.Ticks.roundCount(for: c.range) ?? majorTicks.count : majorTicks.count
        let n = wanted >= 2 ? min(wanted, 101) : 0
        let majors = (0..<n).map { Double($0) / Double(n - 1) }
        var m = MeasuredScale(
            majors: majors, texts: [], widths: [], positions: [], indices: [], marks: false, marksLeftOut: 0,
            size: size, lineHeight: font.map { $0.ascender + $0.descender } ?? size, unit: unit,
            gapTop: max(2, (0.25 * size).rounded()), gapLabel: max(2, (0.25 * size).rounded()))
        let span = c.range.upperBound - c.range.lowerBound
        if !c.markedValueLabels.isEmpty {
            m.marks = true
            let shown = c.marksInRange
            m.marksLeftOut = c.markedValueLabels.count - shown.count
            for (i, mark) in shown {
                m.texts.append(mark.label.text)
                m.widths.append(mark.label.size(pixelSize: size, context: context).width + 1)
                m.positions.append((mark.value - c.range.lowerBound) / span)
                m.indices.append(i)
            }
        } else if let labels, n >= 2, font != nil {
            let values = majors.map { c.range.lowerBound + $0 * span }
            let texts = distinctNumbers(values, format: labels.format, range: c.range)
            m.texts = texts
            m.widths = texts.map { (font?.advance(of: $0) ?? 0) + 1 }
            m.positions = majors
            m.indices = Array(0..<n)
        }
        let major = n >= 2 || !m.texts.isEmpty ? majorTicks.length * unit : 0
        let minor = n >= 2 && minorTicks.count > 0 ? minorTicks.length * unit : 0
        m.tickDepth = max(0, major, minor)
        m.tickHalfWidth =
            max(
                n >= 2 || m.marks ? max(majorTicks.minimumWidth, majorTicks.width * unit) : 0,
                n >= 2 && minorTicks.count > 0 ? max(minorTicks.minimumWidth, minorTicks.width * unit) : 0) / 2
        return m
    }

    /// Places the measured scale along a bar on `axis` whose value 0 lies
    /// at `p0` and value 1 at `p1` along it (x for a horizontal bar, y for a
    /// vertical one), starting at `start` across it (the bar row's bottom,
    /// or its right edge), its labels inside `bounds`.
    func place(
        _ m: MeasuredScale, _ c: GaugeStyleConfiguration, axis: Axis, p0: Double, p1: Double, start: Double,
        labels: Bool, bounds: Rect
    ) -> ScalePart {
        // Every draw, clip and damage computation asks again for the same
        // scale: a kept measurement keeps its placements.
        let key = Placement(
            thresholds: c.thresholds, axis: axis, p0: p0, p1: p1, start: start, labels: labels, bounds: bounds)
        func make() -> ScalePart { ScalePart(layout: placeAnew(m, c, key), style: self) }
        guard let memo = m.placements else { return make() }
        if let known = memo.table.withLock({ $0[key] }) { return known }
        let made = make()
        memo.table.withLock { table in
            if table.count >= 16 { table.removeAll(keepingCapacity: true) }
            table[key] = made
        }
        return made
    }

    private func placeAnew(_ m: MeasuredScale, _ c: GaugeStyleConfiguration, _ at: Placement) -> LinearScaleLayout {
        var out = LinearScaleLayout()
        out.labelSize = m.size
        out.majorCount = m.marks ? 0 : m.majors.count
        out.marksLeftOut = m.marksLeftOut
        out.showsMarks = m.marks
        out.depth = m.depth(labels: at.labels, axis: at.axis)
        let length = at.p1 - at.p0
        // Positions along the bar and across it, and the rectangle from them.
        func position(_ p: Double) -> Double { at.p0 + p * length }
        let tickStart = at.start + m.gapTop
        let vertical = at.axis == .vertical
        func rect(along a: Double, _ l: Double, across q: Double, _ d: Double) -> Rect {
            vertical ? Rect(x: q, y: a, width: d, height: l) : Rect(x: a, y: q, width: l, height: d)
        }
        func span(_ r: Rect) -> (lo: Double, hi: Double) { vertical ? (r.minY, r.maxY) : (r.minX, r.maxX) }
        let bounds = at.bounds

        // Sections on a strip where the ticks start.
        let bandH = bandWidth > 0 ? max(2, bandWidth * m.unit) : 0
        if bandH > 0 {
            for s in resolvedSections(c) {
                let v0 = Gauge.normalize(min(s.from, s.to), in: c.range)
                let v1 = Gauge.normalize(max(s.from, s.to), in: c.range)
                guard v1 > v0 else { continue }
                out.bands.append(
                    LinearScaleLayout.Band(
                        rect: rect(
                            along: min(position(v0), position(v1)), abs(position(v1) - position(v0)), across: tickStart,
                            bandH), color: s.color))
            }
        }

        // The scale's ticks (a marked value's comes with its label, below).
        let majorLength = max(0, majorTicks.length * m.unit)
        let majorWidth = max(majorTicks.minimumWidth, majorTicks.width * m.unit)
        func tick(_ p: Double, _ w: Double, _ l: Double) -> Rect {
            rect(along: position(p) - w / 2, w, across: tickStart, l)
        }
        out.majorTicks = m.majors.map { tick($0, majorWidth, majorLength) }
        let minors = max(0, min(minorTicks.count, 100))
        if m.majors.count >= 2, minors > 0 {
            let w = max(minorTicks.minimumWidth, minorTicks.width * m.unit)
            let step = abs(length) / Double((m.majors.count - 1) * (minors + 1))
            if step >= w + 1.5 {
                for i in 0..<(m.majors.count - 1) {
                    for j in 1...minors {
                        let p = (Double(i) + Double(j) / Double(minors + 1)) / Double(m.majors.count - 1)
                        out.minorTicks.append(tick(p, w, max(0, minorTicks.length * m.unit)))
                    }
                }
            }
        }

        // Labels beyond the ticks, each centred on its tick and kept inside
        // `bounds`; then thinned until no two come within a gap (a fifth of
        // their size: a number's advance has its side bearings already).
        guard at.labels, !m.texts.isEmpty else {
            if m.marks { out.marksLeftOut += m.texts.count }
            return out
        }
        let gap = max(2, (0.2 * m.size).rounded())
        let labelTop = tickStart + m.tickDepth + m.gapLabel
        let (lo, hi) = span(bounds)
        var placed: [LinearScaleLayout.Label] = []
        for k in m.texts.indices {
            // (A label wider than the gauge is cut to its width, with an
            // ellipsis; beside a vertical bar, to the room right of the ticks.)
            let w = min(m.widths[k], vertical ? max(0, bounds.maxX - labelTop) : bounds.width)
            let l = vertical ? m.lineHeight : w
            let a = min(max(lo, position(m.positions[k]) - l / 2), hi - l)
            placed.append(
                LinearScaleLayout.Label(
                    text: m.texts[k], index: m.indices[k],
                    box: rect(along: a, l, across: labelTop, vertical ? w : m.lineHeight)))
        }
        func apart(_ a: LinearScaleLayout.Label, _ b: LinearScaleLayout.Label) -> Bool {
            let (a, b) = (span(a.box), span(b.box))
            return max(a.lo - b.hi, b.lo - a.hi) >= gap
        }
        if m.marks {
            // Marks in order of value; one too close to the last kept one is
            // left out, but the last mark keeps its place over its neighbour.
            let kept = thinnedMarks(
                placed, before: { c.markedValueLabels[$0.index].value < c.markedValueLabels[$1.index].value },
                fits: { kept, label in kept.last.map { apart($0, label) } ?? true })
            out.labels = kept
            out.labelStep = kept.isEmpty ? 0 : 1
            out.marksLeftOut += placed.count - kept.count
            // A major tick at each mark shown (one on a scale's tick adds none).
            let shown = zip(placed, m.positions).filter { p, _ in kept.contains(p) }.map(\.1)
            let own = shown.filter { p in !m.majors.contains { abs($0 - p) < 1e-9 } }
            out.majorTicks += own.map { tick($0, majorWidth, majorLength) }
            return out
        }
        let intervals = max(1, m.majors.count - 1)
        for k in 1...intervals where intervals % k == 0 {
            let shown = placed.filter { $0.index % k == 0 }
            if zip(shown, shown.dropFirst()).allSatisfy({ apart($0, $1) }) {
                out.labelStep = k
                out.labels = shown
                break
            }
        }
        return out
    }

    /// Draws the scale's static parts: sections, minor and major ticks, labels.
    func draw(
        _ l: LinearScaleLayout, _ c: GaugeStyleConfiguration, on canvas: Canvas, context: DrawContext
    ) {
        let fg = c.environment.foreground
        for b in l.bands { canvas.fill(rects: [b.rect], paint: .solid(b.color)) }
        // Ticks and the band are axis-aligned rectangles: exact coverage
        // without the rasterizer's sweep.
        canvas.fill(rects: l.minorTicks, paint: .solid(minorTicks.color ?? fg.opacity(0.6)))
        canvas.fill(rects: l.majorTicks, paint: .solid(majorTicks.color ?? fg))
        let color = labels?.color ?? fg
        for label in l.labels {
            let content: GaugeLabel? =
                l.showsMarks ? c.markedValueLabels[label.index].label : label.text.map(GaugeLabel.text)
            content?.draw(
                in: label.box, on: canvas, context: context, pixelSize: l.labelSize, color: color,
                vertical: .lineCentred)
        }
    }

    /// Boxes around what ``draw(_:_:on:context:)`` paints: the ticks' and
    /// the sections' rectangles and each label's ink.
    func bounds(_ l: LinearScaleLayout, _ c: GaugeStyleConfiguration, context: DrawContext) -> [Rect]? {
        var out = l.bands.map(\.rect) + l.minorTicks + l.majorTicks
        for label in l.labels {
            let content: GaugeLabel? =
                l.showsMarks ? c.markedValueLabels[label.index].label : label.text.map(GaugeLabel.text)
            guard let content else { continue }
            guard
                let ink = content.drawnBounds(
                    in: label.box, context: context, pixelSize: l.labelSize, vertical: .lineCentred)
            else { return nil }
            out += ink
        }
        return out
    }
}

/// The numbers for `values` in `format`, with more decimals until no two
/// neighbours read the same (0...4 in steps of 0.5 reads 0.0, 0.5, 1.0 ...).
func distinctNumbers(_ values: [Double], format: ValueFormat, range: ClosedRange<Double>) -> [String] {
    var format = format
    func texts() -> [String] { values.map { format.string(for: $0, in: range) } }
    var t = texts()
    while !zip(t, t.dropFirst()).allSatisfy({ $0 != $1 }) && format.decimals < 9 {
        format.decimals += 1
        t = texts()
    }
    return t
}

/// A marked value (with a text label) as a measurement depends on it.
struct MarkKey: Hashable {
    var value: Double
    var text: String?
    init(_ m: MarkedValueLabel) {
        value = m.value
        text = m.label.text
    }
}

private struct MeasureKey: Hashable {
    var scale: LinearScale
    var range: ClosedRange<Double>
    var marks: [MarkKey]
    var size: Double
    var font: FontDescriptor
    var fonts: ObjectIdentifier
}

/// Scales already measured (fonts do not change while open); emptied at 64 entries.
private let measured = Mutex<[MeasureKey: MeasuredScale]>([:])

/// Where a measured scale was placed: what its placement depends on
/// besides the measurement (the arguments of `LinearScale.place`).
struct Placement: Hashable {
    var thresholds: Thresholds?
    var axis: Axis
    var p0: Double
    var p1: Double
    var start: Double
    var labels: Bool
    var bounds: Rect
}

/// A kept measurement's placements; emptied at 16 entries.
final class Placements: Sendable {
    let table = Mutex<[Placement: ScalePart]>([:])
}

/// A placed scale and the scale it draws: one object, so that copies of a
/// ``LinearGaugeLayout`` (a key its repaints compare every frame) share it
/// and compare it by identity first.
final class ScalePart: Sendable, Hashable {
    let layout: LinearScaleLayout
    let style: LinearScale

    init(layout: LinearScaleLayout, style: LinearScale) {
        self.layout = layout.sealed()
        self.style = style
    }

    static func == (a: ScalePart, b: ScalePart) -> Bool {
        a === b || (a.layout == b.layout && a.style == b.style)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(layout) }
}
