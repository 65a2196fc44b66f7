import Glibc

/// A chart of recent values: one line per series through its history's
/// buckets (``ValueHistory``), each bucket's minimum-to-maximum spread
/// shaded behind it so a spike shorter than a bucket still shows, an area
/// under the line, threshold zones as bands, a value axis of round numbers
/// and a time axis ending at now. A bucket without data is a gap in the
/// line: no data never reads as zero.
///
/// Two forms share the drawing:
/// - ``Form/chart``: a header line (the title, then the last value of one
///   series with its minimum and maximum over the span, or a legend of the
///   series' last values), the plot, the value axis on its left, the time axis
///   below it;
/// - ``Form/sparkline``: the plot alone, its range the data's (Grafana's stat
///   panel draws one under its value).
///
/// Text sizes come from the panel's type scale (``TypeScale``) for the
/// frame, its long side cut to 1.5 times the short one
/// (``sizingBasis(_:)``): the header at the title step, the axes at the
/// end-label step. So a chart across two cells shows the sizes a gauge in
/// one does, and a wide chart's text does not grow with its width.
public struct HistoryChart: Sendable, Hashable {
    /// One line of the chart.
    public struct Series: Sendable, Hashable {
        /// The series' name in a legend.
        public var name: String
        /// The line's colour (the shading takes it, fainter).
        public var color: Color

        /// A series named `name` drawn in `color`.
        public init(_ name: String, color: Color) {
            self.name = name
            self.color = color
        }
    }

    /// Whether the chart has its header and axes.
    public enum Form: Sendable, Hashable {
        /// Header, plot and both axes.
        case chart
        /// The plot alone.
        case sparkline
    }

    /// The lines, in drawing order; each takes the history at its index.
    public var series: [Series]
    /// The chart's title (nil: none).
    public var title: String?
    /// The value axis' range; nil = the data's, widened to round numbers.
    public var range: ClosedRange<Double>?
    /// Zones drawn as bands behind the lines, those of the steps (below the
    /// first step is the normal range, left plain); nil for none.
    public var thresholds: Thresholds?
    /// How the header writes values (its unit included).
    public var format: ValueFormat
    /// The range a percentage ``format`` is of (a gauge's); nil = the value axis'.
    public var formatRange: ClosedRange<Double>?
    /// Whether the area under each line is shaded.
    public var fillsArea: Bool
    /// Header and axes, or the plot alone.
    public var form: Form
    /// Font and colours.
    public var environment: GaugeEnvironment

    /// The width of a line, in pixels, for a plot `height` pixels high:
    /// 1.5 px up to 120 rows, then growing with the plot, to 4 px.
    public static func lineWidth(plotHeight height: Double) -> Double {
        min(4, max(1.5, (height / 80).rounded() * 0.5 + 0.5))
    }

    /// The size whose type-scale steps a chart in `frame` takes: the frame
    /// with its long side cut to 1.5 times its short one.
    public static func sizingBasis(_ frame: IntRect) -> Size {
        let w = Double(frame.width), h = Double(frame.height)
        return Size(width: min(w, 1.5 * h), height: min(h, 1.5 * w))
    }

    /// A chart of `series`.
    public init(
        series: [Series], title: String? = nil, range: ClosedRange<Double>? = nil, thresholds: Thresholds? = nil,
        format: ValueFormat = .number(decimals: 1), formatRange: ClosedRange<Double>? = nil, fillsArea: Bool = true,
        form: Form = .chart, environment: GaugeEnvironment = .init()
    ) {
        self.formatRange = formatRange
        self.series = series
        self.title = title
        self.range = range
        self.thresholds = thresholds
        self.format = format
        self.fillsArea = fillsArea
        self.form = form
        self.environment = environment
    }
}

/// Where a ``HistoryChart`` puts its parts in a frame. Pure: a function of
/// the chart, the histories, the time and the fonts.
public struct HistoryChartLayout: Sendable, Hashable {
    /// A label on an axis: its text, the value or age it marks, and where it is drawn.
    public struct Label: Sendable, Hashable {
        /// The text.
        public var text: String
        /// The value (value axis) or seconds ago (time axis) it marks.
        public var mark: Double
        /// The pixel row (value axis) or column (time axis) of the mark.
        public var position: Double
        /// Where the text is drawn: origin at its left end on the baseline.
        public var origin: Point
    }

    /// The rectangle the lines are drawn in.
    public var plot: Rect
    /// The value axis' range (bottom to top of the plot).
    public var range: ClosedRange<Double>
    /// Whether some series has data in the span (else the plot says "no data").
    public var hasData: Bool
    /// The value axis' labels, bottom to top.
    public var valueLabels: [Label] = []
    /// The time axis' labels, now first.
    public var timeLabels: [Label] = []
    /// The header's texts, left to right, with their origins and colours.
    public var header: [(text: String, origin: Point, color: Color, pixelSize: Double)] = []
    /// The number of the bucket at the plot's right end.
    public var endBucket: Int64
    /// The pixel size of the axes' labels.
    public var labelSize: Double
    /// The line width.
    public var lineWidth: Double

    /// The pixel column of the centre of the bucket `i` places before the end one.
    public func x(bucketsBeforeEnd i: Int, points: Int) -> Double {
        plot.maxX - (Double(i) + 0.5) / Double(points) * plot.width
    }

    /// The pixel row of `value` (not clamped).
    public func y(_ value: Double) -> Double {
        plot.maxY - (value - range.lowerBound) / (range.upperBound - range.lowerBound) * plot.height
    }

    /// Whether two layouts place every part alike.
    public static func == (a: Self, b: Self) -> Bool {
        a.plot == b.plot && a.range == b.range && a.hasData == b.hasData && a.valueLabels == b.valueLabels
            && a.timeLabels == b.timeLabels
            && a.endBucket == b.endBucket && a.labelSize == b.labelSize && a.lineWidth == b.lineWidth
            && a.header.elementsEqual(b.header) {
                $0.text == $1.text && $0.origin == $1.origin && $0.color == $1.color && $0.pixelSize == $1.pixelSize
            }
    }

    /// Hashes the plot and the end bucket (equal layouts hash alike).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(plot)
        hasher.combine(endBucket)
    }
}

extension HistoryChart {
    /// Where the parts go in `frame` for `histories` (one per series, nil = no
    /// history yet) at time `now`; nil when the frame is too small for a plot.
    public func layout(
        _ histories: [ValueHistory?], now: Double, in frame: IntRect, fonts: FontCache = .shared
    ) -> HistoryChartLayout? {
        guard let reference = histories.lazy.compactMap({ $0 }).first ?? (try? ValueHistory(span: 3600, points: 60)),
            let end = reference.bucketNumber(at: now), frame.width >= 8, frame.height >= 8
        else { return nil }
        let sizes = (environment.typeScale ?? TypeScale()).sizes(for: Self.sizingBasis(frame))
        let f = Rect(frame)
        // Each series' minimum, maximum and last over the span: the header's and the range's, taken once.
        let summaries = histories.map { $0?.summary(endingAt: now) }
        let data = Self.dataRange(summaries)
        if form == .sparkline {
            let plot = Rect(x: f.minX + 1, y: f.minY + 2, width: f.width - 2, height: f.height - 4)
            guard plot.width > 2, plot.height > 2 else { return nil }
            var r = range ?? data ?? 0...1
            if !(r.upperBound > r.lowerBound) { r = r.lowerBound - 1...r.upperBound + 1 }
            return HistoryChartLayout(
                plot: plot, range: r, hasData: data != nil, endBucket: end, labelSize: sizes.endLabel,
                lineWidth: Self.lineWidth(plotHeight: plot.height))
        }
        guard let titleFont = try? fonts.font(environment.font, pixelSize: sizes.title),
            let labelFont = try? fonts.font(environment.font, pixelSize: sizes.endLabel)
        else { return nil }
        let pad = max(2, (0.4 * sizes.endLabel).rounded())
        let headerHeight = (titleFont.ascender + titleFont.descender).rounded(.up)
        let axisHeight = (labelFont.ascender + labelFont.descender).rounded(.up)
        let top = f.minY + pad + headerHeight + pad
        let bottom = f.maxY - pad - axisHeight - (pad / 2).rounded()
        // Room above the top label and below the bottom one: half a label line.
        let plotTop = top + (axisHeight / 2).rounded(), plotBottom = bottom - (axisHeight / 2).rounded()
        guard plotBottom - plotTop >= 8 else { return nil }
        // Labels at least 2.2 lines apart; the range rounded to a step up to
        // twice as fine as theirs, so the data fills more of the plot.
        let intervals = max(2, Int((plotBottom - plotTop) / (2.2 * axisHeight)))
        var r = range ?? data.map { ChartTicks.roundRange(of: $0, atMost: 2 * intervals) } ?? 0...1
        if !(r.upperBound > r.lowerBound) { r = r.lowerBound - 1...r.upperBound + 1 }
        var ticks = ChartTicks.values(in: r, atMost: intervals)
        // In a plot too short for two labels 1.2 lines apart, those closer than that are left out, the bottom kept.
        func row(_ v: Double) -> Double {
            plotBottom - (v - r.lowerBound) / (r.upperBound - r.lowerBound) * (plotBottom - plotTop)
        }
        var kept: [Double] = []
        for v in ticks.values where kept.last.map({ row($0) - row(v) >= 1.2 * axisHeight }) ?? true {
            kept.append(v)
        }
        ticks.values = kept
        let decimals = max(0, Int(-(log10(ticks.step) + 1e-9).rounded(.down)))
        let tickFormat = ValueFormat(kind: .number, decimals: min(decimals, 9), unit: nil)
        let texts = data == nil && range == nil ? [] : ticks.values.map { tickFormat.string(for: $0, in: r) }
        let axisWidth = texts.map { labelFont.advance(of: $0) }.max() ?? 0
        // "now" is centred on the right end but kept inside the frame.
        let plotLeft = f.minX + pad + axisWidth.rounded(.up) + (texts.isEmpty ? 0 : pad)
        let plotRight = f.maxX - pad
        guard plotRight - plotLeft >= 8 else { return nil }
        var layout = HistoryChartLayout(
            plot: Rect(x: plotLeft, y: plotTop, width: plotRight - plotLeft, height: plotBottom - plotTop), range: r,
            hasData: data != nil, endBucket: end, labelSize: sizes.endLabel,
            lineWidth: Self.lineWidth(plotHeight: plotBottom - plotTop))
        let labelShift = ((labelFont.ascender - labelFont.descender) / 2).rounded()
        for (v, t) in zip(ticks.values, texts) {
            let y = layout.y(v).rounded()
            let w = labelFont.advance(of: t)
            layout.valueLabels.append(
                .init(
                    text: t, mark: v, position: y, origin: Point(x: (plotLeft - pad - w).rounded(), y: y + labelShift)))
        }
        // The time axis: round ages back from now, the most intervals at which
        // each is wider than its widest label and a gap.
        var ages: [Double] = []
        for count in stride(from: max(1, min(24, Int(layout.plot.width / (2 * pad)))), through: 1, by: -1) {
            ages = ChartTicks.agesBack(span: reference.span, atMost: count).ages
            let widest = ages.map { labelFont.advance(of: ChartTicks.ageLabel($0)) }.max() ?? 0
            let gap = layout.plot.width * (ages.count > 1 ? ages[1] / reference.span : 1)
            if gap >= widest + 2 * pad { break }
        }
        let baseline = (bottom + labelFont.ascender).rounded()
        var lastLeft = Double.infinity
        for age in ages {
            let text = ChartTicks.ageLabel(age)
            let x = (layout.plot.maxX - age / reference.span * layout.plot.width).rounded()
            let w = labelFont.advance(of: text)
            let left = min(max(x - w / 2, f.minX + pad), f.maxX - pad - w).rounded()
            guard left + w + pad <= lastLeft else { continue }
            lastLeft = left
            layout.timeLabels.append(.init(text: text, mark: age, position: x, origin: Point(x: left, y: baseline)))
        }
        layout.header = header(summaries, data: data, in: f, pad: pad, titleFont: titleFont, labelFont: labelFont)
        return layout
    }

    /// The smallest minimum and largest maximum of the series' summaries; nil without any.
    static func dataRange(_ summaries: [ValueHistory.Bucket?]) -> ClosedRange<Double>? {
        var lo = Double.infinity, hi = -Double.infinity
        for case let s? in summaries {
            lo = min(lo, s.min)
            hi = max(hi, s.max)
        }
        return lo <= hi ? lo...hi : nil
    }

    /// The header: the title; then for one series its last value, with its
    /// minimum and maximum before it when they fit; for several, each
    /// series' name and last value in its colour, as many as fit.
    private func header(
        _ summaries: [ValueHistory.Bucket?], data: ClosedRange<Double>?, in f: Rect, pad: Double, titleFont: Font,
        labelFont: Font
    ) -> [(text: String, origin: Point, color: Color, pixelSize: Double)] {
        var out: [(text: String, origin: Point, color: Color, pixelSize: Double)] = []
        let baseline = (f.minY + pad + titleFont.ascender).rounded()
        var left = f.minX + pad
        let right = f.maxX - pad
        let r = formatRange ?? range ?? data ?? 0...1
        if let title, !title.isEmpty {
            let t = titleFont.truncated(title, toWidth: right - left)
            out.append((t, Point(x: left, y: baseline), environment.foreground, titleFont.pixelSize))
            left += titleFont.advance(of: t) + 2 * pad
        }
        let secondary = environment.foreground.opacity(0.72)
        if series.count == 1 {
            let summary = summaries.first.flatMap { $0 }
            let last = summary.map { format.string(for: $0.last, in: r) } ?? "no data"
            let w = titleFont.advance(of: last)
            guard right - w >= left else { return out }
            out.append(
                (
                    last, Point(x: (right - w).rounded(), y: baseline), summary == nil ? secondary : series[0].color,
                    titleFont.pixelSize
                ))
            if let s = summaries.first.flatMap({ $0 }) {
                let spread = "min \(format.string(for: s.min, in: r))  max \(format.string(for: s.max, in: r))"
                let sw = labelFont.advance(of: spread)
                if right - w - pad - sw >= left {
                    out.append(
                        (
                            spread, Point(x: (right - w - pad - sw).rounded(), y: baseline), secondary,
                            labelFont.pixelSize
                        ))
                }
            }
            return out
        }
        for (s, summary) in zip(series, summaries) {
            let text = "\(s.name) " + (summary.map { format.string(for: $0.last, in: r) } ?? "\u{2013}")
            let w = labelFont.advance(of: text)
            guard left + w <= right else { break }
            out.append((text, Point(x: left.rounded(), y: baseline), s.color, labelFont.pixelSize))
            left += w + 2 * pad
        }
        return out
    }

    /// Draws the chart of `histories` (one per series) at time `now` in
    /// `frame` on `canvas`, clipped to the frame, over what is there (a
    /// scene clears the frame first). A frame too small for a plot draws nothing.
    public func draw(
        _ histories: [ValueHistory?], now: Double, in frame: IntRect, on canvas: Canvas, fonts: FontCache = .shared
    ) {
        guard let layout = layout(histories, now: now, in: frame, fonts: fonts) else { return }
        let outer = canvas.clip
        defer { canvas.clip = outer }
        let frameClip = outer.map { $0.intersection(frame) } ?? frame
        canvas.clip = frameClip
        let plot = layout.plot
        let r = layout.range
        // Threshold zones: bands across the plot.
        if let thresholds {
            // The zones from the steps up; below them (the base) is the normal range, unmarked.
            var bounds: [(Double, Color?)] = [(r.lowerBound, nil)]
            for s in thresholds.steps { bounds.append((s.from, s.color)) }
            for (i, (from, color)) in bounds.enumerated() {
                guard let color else { continue }
                let to = i + 1 < bounds.count ? bounds[i + 1].0 : r.upperBound
                let lo = max(from, r.lowerBound), hi = min(to, r.upperBound)
                guard hi > lo else { continue }
                let y0 = layout.y(hi).rounded(), y1 = layout.y(lo).rounded()
                canvas.fill(
                    Rect(x: plot.minX, y: y0, width: plot.width, height: y1 - y0),
                    paint: .solid(color.opacity(environment.thresholdZoneOpacity * 0.5)))
            }
        }
        // Grid lines: one pixel row at each value label, one column at each time label.
        let grid = Paint.solid(environment.track.opacity(0.5))
        if form == .chart {
            for l in layout.valueLabels {
                canvas.fill(Rect(x: plot.minX, y: l.position - 0.5, width: plot.width, height: 1), paint: grid)
            }
            for l in layout.timeLabels where l.position > plot.minX && l.position < plot.maxX {
                canvas.fill(Rect(x: l.position - 0.5, y: plot.minY, width: 1, height: plot.height), paint: grid)
            }
            let labelPaint = Paint.solid(environment.foreground.opacity(0.72))
            if let font = try? fonts.font(environment.font, pixelSize: layout.labelSize) {
                for l in layout.valueLabels + layout.timeLabels {
                    font.draw(l.text, at: l.origin, on: canvas, paint: labelPaint)
                }
            }
            for h in layout.header {
                guard let font = try? fonts.font(environment.font, pixelSize: h.pixelSize) else { continue }
                font.draw(h.text, at: h.origin, on: canvas, paint: .solid(h.color))
            }
        }
        // The lines, clipped to the plot widened by half a line, so a value at an end is drawn whole.
        let lw = layout.lineWidth
        let widen = (lw / 2 + 1).rounded(.up)
        canvas.clip = frameClip.intersection(
            IntRect(
                covering: Rect(x: plot.minX, y: plot.minY - widen, width: plot.width, height: plot.height + 2 * widen)))
        let base = layout.y(min(max(0, r.lowerBound), r.upperBound))
        for (s, history) in zip(series, histories) {
            guard let history else { continue }
            drawSeries(history, color: s.color, layout: layout, base: base, on: canvas)
        }
        if !layout.hasData, form == .chart, let font = try? fonts.font(environment.font, pixelSize: layout.labelSize) {
            let t = "no data"
            let w = font.advance(of: t)
            font.draw(
                t, at: Point(x: (plot.midX - w / 2).rounded(), y: (plot.midY + font.ascender / 2).rounded()),
                on: canvas, paint: .solid(environment.foreground.opacity(0.72)))
        }
    }

    /// One series: per run of buckets with data, the area, the spread and the line.
    /// Values outside the range are drawn at its nearer end (the header
    /// gives their numbers).
    private func drawSeries(
        _ history: ValueHistory, color: Color, layout: HistoryChartLayout, base: Double, on canvas: Canvas
    ) {
        let n = history.points
        let r = layout.range
        func y(_ v: Double) -> Double { layout.y(min(max(v, r.lowerBound), r.upperBound)) }
        var runs: [[(x: Double, b: ValueHistory.Bucket)]] = []
        var run: [(x: Double, b: ValueHistory.Bucket)] = []
        for i in stride(from: n - 1, through: 0, by: -1) {
            if let b = history.bucket(layout.endBucket - Int64(i)) {
                run.append((layout.x(bucketsBeforeEnd: i, points: n), b))
            } else if !run.isEmpty {
                runs.append(run)
                run = []
            }
        }
        if !run.isEmpty { runs.append(run) }
        let lw = layout.lineWidth
        let bucketWidth = layout.plot.width / Double(n)
        for run in runs {
            if fillsArea, run.count > 1 {
                var area = Path()
                area.move(to: Point(x: run[0].x, y: base))
                for p in run { area.line(to: Point(x: p.x, y: y(p.b.last))) }
                area.line(to: Point(x: run[run.count - 1].x, y: base))
                area.closeSubpath()
                canvas.fill(area, rule: .nonZero, paint: .solid(color.opacity(0.18)))
            }
            // The spread: each bucket's minimum to maximum across its width,
            // so a spike shorter than a bucket shows at its full height and a
            // bucket's width; the buckets' rectangles filled as one shape.
            let spread = run.compactMap { p -> Path? in
                let top = y(p.b.max), bottom = y(p.b.min)
                guard bottom - top > 0.5 else { return nil }
                return Path.polygon([
                    Point(x: p.x - bucketWidth / 2, y: top), Point(x: p.x + bucketWidth / 2, y: top),
                    Point(x: p.x + bucketWidth / 2, y: bottom), Point(x: p.x - bucketWidth / 2, y: bottom),
                ])
            }
            if !spread.isEmpty { canvas.fillPieces(spread, paint: .solid(color.opacity(0.4))) }
            // Convex pieces where they tile the line (smooth data: the cheap
            // path); one outline, exact through the rasterizer's fallback for
            // its overlaps, where a spike is too sharp for them.
            let points = run.map { Point(x: $0.x, y: y($0.b.last)) }
            if Path.roundPolylinePiecesTile(points, width: lw) {
                canvas.fillPieces(Path.roundPolylinePieces(points, width: lw), paint: .solid(color))
            } else {
                canvas.fill(Path.roundPolyline(points, width: lw), rule: .nonZero, paint: .solid(color))
            }
        }
    }
}
