import PanelGauge

/// A chart slot of a layout (`"kind": "chart"`): the history of one or more
/// of the layout's gauges (the values the inputs feed them, no second feed)
/// over a span of time, in a fixed number of buckets
/// (``PanelGauge/ValueHistory``), drawn as a ``PanelGauge/HistoryChart``.
package struct LayoutChart: Sendable, Equatable {
    /// The gauges charted, one line each, in order.
    package var gauges: [String]
    /// The time the chart spans, in seconds.
    package var span: Double
    /// The number of buckets the span is kept in.
    package var points: Int
    /// What is drawn, once the gauges are known (the layout reader).
    package var chart: HistoryChart
    /// Whether the chart takes its first gauge's range (`"range": "gauge"`),
    /// and its thresholds as bands (`"thresholds"`, true by default): both
    /// known once the gauges are (``Checker/resolveCharts(_:read:)``).
    package var rangeFromGauge = false
    package var bandsFromGauge = true

    /// The history each series takes.
    var keys: [HistoryKey] { gauges.map { HistoryKey(gauge: $0, span: span, points: points) } }
}

/// A gauge's sparkline (`"sparkline"`): its history drawn under it, without axes.
package struct LayoutSparkline: Sendable, Equatable {
    package var span: Double
    package var points: Int
    package var chart: HistoryChart
    /// The share of the gauge's frame the sparkline takes at its bottom.
    static let share = 0.22
    /// Its height in a gauge frame `height` pixels high: a share of it, at least 12 px.
    static func height(in height: Int) -> Int { max(12, Int((Double(height) * share).rounded())) }
}

/// Which history: a gauge's, over a span, in a number of buckets. Two charts
/// of one gauge with the same span and points share one.
package struct HistoryKey: Hashable, Sendable, Comparable {
    package var gauge: String
    package var span: Double
    package var points: Int

    package static func < (a: Self, b: Self) -> Bool {
        (a.gauge, a.span, a.points) < (b.gauge, b.span, b.points)
    }
}

extension LayoutChart {
    /// The span a chart or sparkline has without a `"span"`: an hour.
    static let defaultSpan = 3600.0
    /// The buckets a chart has without `"points"`.
    static let defaultPoints = 120
    /// The buckets a sparkline has without `"points"`.
    static let defaultSparklinePoints = 60
    /// The most buckets all of a layout's histories keep together (each
    /// bucket is three numbers in memory and in the state file).
    static let maxTotalPoints = 16384
    /// The most gauges one chart shows.
    static let maxSeries = 8
    /// Colours for series whose gauge's colour an earlier series already took.
    static let palette: [Color] = [.blue, .orange, .green, .purple, .yellow, .red, Color(hex: 0x64D2FF), .white]

    /// A span from the layout: seconds as a number, or a string of a whole
    /// number and a unit: `"90s"`, `"15m"`, `"1h"`, `"7d"`. Pure.
    static func span(parsing text: String) -> Double? {
        guard let unit = text.last, let factor = ["s": 1.0, "m": 60, "h": 3600, "d": 86400][String(unit)],
            let n = Int(text.dropLast()), n > 0
        else { return nil }
        return Double(n) * factor
    }
}

extension Checker {
    /// A `"span"` at `path`: seconds, or a string such as `"1h"`; 1 s to 31 days.
    mutating func span(_ v: JSONValue?, _ path: String) -> Double? {
        guard let v else { return nil }
        let seconds: Double?
        if case .string(let s) = v.kind {
            seconds = LayoutChart.span(parsing: s)
            if seconds == nil {
                fail(
                    v, path,
                    "'\(s)' is not a time span: a number of seconds, or a whole number with s, m, h or d (\"15m\")")
                return nil
            }
        } else {
            seconds = number(v, path)
        }
        guard let seconds else { return nil }
        guard seconds >= 1, seconds <= ValueHistory.maxSpan else {
            fail(v, path, "must be from 1 s to 31 days")
            return nil
        }
        return seconds
    }

    /// A `"points"` at `path`: a whole number of buckets, 2 to ``ValueHistory/maxPoints``.
    mutating func points(_ v: JSONValue?, _ path: String) -> Int? {
        guard let d = number(v, path, in: 2...Double(ValueHistory.maxPoints)) else { return nil }
        guard let n = Int(exactly: d) else {
            fail(v, path, "expected a whole number of points")
            return nil
        }
        return n
    }

    /// Buckets of at least a second: a history wakes paneld once per bucket.
    mutating func checkBuckets(span: Double, points: Int, _ v: JSONValue, _ path: String) {
        if span / Double(points) < 1 {
            fail(
                v, path + ".points",
                "\(points) points over \(GaugeStore.format(span)) s is less than a second each: at most \(Int(span))")
        }
    }

    /// A chart slot (`"kind": "chart"`). Its gauges are checked, and its
    /// chart made, by `resolveCharts(_:read:)` once every slot is read.
    mutating func chartWidget(
        _ v: JSONValue, _ path: String, screen: (width: Int, height: Int)?, environment: GaugeEnvironment
    ) -> LayoutGauge? {
        guard let m = members(v, path, known: LayoutKeys.chart) else { return nil }
        let before = issues.count
        let name = slotName(v, m, path)
        let (rect, cell) = place(m, path, screen: screen)
        var gauges: [String] = []
        if let g = m["gauges"] {
            if case .array(let list) = g.kind, !list.isEmpty, list.count <= LayoutChart.maxSeries {
                for (k, item) in list.enumerated() {
                    if let n = string(item, path + ".gauges[\(k)]") { gauges.append(n) }
                }
                if Set(gauges).count != gauges.count { fail(g, path + ".gauges", "names a gauge twice") }
            } else {
                fail(g, path + ".gauges", "expected an array of 1 to \(LayoutChart.maxSeries) gauge names")
            }
        } else {
            fail(v, path + ".gauges", "missing (the names of the gauges the chart shows)")
        }
        let span = self.span(m["span"], path + ".span") ?? LayoutChart.defaultSpan
        let points = m["points"].map { self.points($0, path + ".points") ?? 0 } ?? LayoutChart.defaultPoints
        checkBuckets(span: span, points: points, m["points"] ?? m["span"] ?? v, path)
        var chart = HistoryChart(series: [], environment: environment)
        var rangeFromGauge = false
        chart.title = string(m["label"], path + ".label")
        if let r = m["range"] {
            if case .string(let s) = r.kind {
                if s == "gauge" {
                    rangeFromGauge = true
                } else if s != "auto" {
                    fail(r, path + ".range", "'\(s)' is not 'auto', 'gauge' or [low, high]")
                }
            } else if case .array(let a) = r.kind, a.count == 2, let lo = number(a[0], path + ".range[0]"),
                let hi = number(a[1], path + ".range[1]")
            {
                if (try? ValueRange(lo, hi)) == nil {
                    fail(r, path + ".range", "expected [low, high] with low < high, both finite")
                } else {
                    chart.range = lo...hi
                }
            } else {
                fail(r, path + ".range", "expected 'auto', 'gauge' or [low, high]")
            }
        }
        var colors: [Color] = []
        if let c = m["colors"] {
            if case .array(let list) = c.kind, list.count <= LayoutChart.maxSeries {
                for (k, item) in list.enumerated() {
                    if let col = color(item, path + ".colors[\(k)]") { colors.append(col) }
                }
            } else {
                fail(c, path + ".colors", "expected an array of up to \(LayoutChart.maxSeries) colours")
            }
        }
        let area = bool(m["area"], path + ".area")
        let thresholds = bool(m["thresholds"], path + ".thresholds") ?? true
        guard issues.count == before else { return nil }
        if colors.count > gauges.count {
            warn(
                m["colors"], path + ".colors",
                "has \(colors.count) colours for \(gauges.count) gauge(s): the rest are not used")
        }
        // Until resolved: the series carry the given colours (clear = the gauge's).
        chart.series = gauges.enumerated().map { k, g in
            HistoryChart.Series(g, color: k < colors.count ? colors[k] : .clear)
        }
        chart.fillsArea = area ?? (gauges.count == 1)
        var g = try! Gauge(value: 0, in: 0...1)
        g.environment = environment
        return LayoutGauge(
            name: name, rect: rect, range: try! ValueRange(0, 1), gauge: g, cell: cell, line: v.line,
            rectLine: m["rect"]?.line,
            widget: LayoutWidget(
                kind: .chart(
                    LayoutChart(
                        gauges: gauges, span: span, points: points, chart: chart, rangeFromGauge: rangeFromGauge,
                        bandsFromGauge: thresholds))))
    }

    /// A gauge's `"sparkline"`: `true` (an hour in 60 points), `false`, or
    /// `{"span": ..., "points": ...}`.
    mutating func sparkline(_ v: JSONValue?, _ path: String, gauge: Gauge) -> LayoutSparkline? {
        guard let v else { return nil }
        var span = LayoutChart.defaultSpan, points = LayoutChart.defaultSparklinePoints
        if case .bool(let on) = v.kind {
            if !on { return nil }
        } else if let m = members(v, path, known: LayoutKeys.sparkline) {
            span = self.span(m["span"], path + ".span") ?? span
            if let p = m["points"] { points = self.points(p, path + ".points") ?? points }
            checkBuckets(span: span, points: points, m["points"] ?? m["span"] ?? v, path)
        } else {
            return nil
        }
        let color = Self.seriesColor(of: gauge)
        let chart = HistoryChart(
            series: [.init("", color: color)], format: Self.headerFormat(of: gauge),
            formatRange: gauge.range, fillsArea: true, form: .sparkline, environment: gauge.environment)
        return LayoutSparkline(span: span, points: points, chart: chart)
    }

    /// How a chart writes a gauge's values: as the gauge does (a ring
    /// without a format shows a percentage), else with one decimal.
    static func headerFormat(of gauge: Gauge) -> ValueFormat {
        gauge.valueFormat ?? (gauge.style is RingGaugeStyle ? .percent() : .number(decimals: 1))
    }

    /// The colour a gauge's line takes: its tint's, at the middle of a gradient.
    static func seriesColor(of gauge: Gauge) -> Color { gauge.resolvedTint.color(at: 0.5) }

    /// Each chart's gauges checked (known, not a widget) and its chart made
    /// from them: each series' colour (given, else its gauge's, else the
    /// palette's next when an earlier series has it), the title (given, else
    /// a single gauge's label), the range (`"gauge"`: the first gauge's), the
    /// first gauge's thresholds as bands, its value format for the header.
    /// Then the layout's histories together are checked against
    /// ``LayoutChart/maxTotalPoints``.
    mutating func resolveCharts(_ layout: inout Layout, read: [(item: JSONValue, path: String)]) {
        let gauges = Dictionary(
            layout.gauges.filter { $0.widget == nil }.map { ($0.name, $0.gauge) }, uniquingKeysWith: { a, _ in a })
        for k in layout.gauges.indices {
            guard var c = layout.gauges[k].widget?.chart else { continue }
            let (item, path): (JSONValue?, String) =
                k < read.count ? (read[k].item, read[k].path) : (nil, "gauges[\(k)]")
            var found: [Gauge] = []
            for name in c.gauges {
                if let g = gauges[name] {
                    found.append(g)
                } else if layout.gauges.contains(where: { $0.name == name }) {
                    fail(item, path + ".gauges", "'\(name)' is a widget, not a gauge")
                } else {
                    fail(item, path + ".gauges", "no gauge is named '\(name)'")
                }
            }
            guard found.count == c.gauges.count, let first = found.first else { continue }
            var used: [Color] = []
            for i in c.chart.series.indices {
                var color = c.chart.series[i].color
                if color == .clear {
                    color = Self.seriesColor(of: found[i])
                    if used.contains(color) { color = LayoutChart.palette.first { !used.contains($0) } ?? color }
                }
                used.append(color)
                c.chart.series[i].color = color
                c.chart.series[i].name = found[i].label?.text ?? c.gauges[i]
            }
            if c.chart.title == nil, found.count == 1 { c.chart.title = first.label?.text ?? c.gauges[0] }
            if c.rangeFromGauge { c.chart.range = first.range }
            c.chart.thresholds = c.bandsFromGauge ? first.thresholds : nil
            c.chart.format = Self.headerFormat(of: first)
            c.chart.formatRange = first.range
            layout.gauges[k].widget?.kind = .chart(c)
        }
        let total = layout.historyKeys.reduce(0) { $0 + $1.points }
        if total > LayoutChart.maxTotalPoints {
            fail(
                nil, "gauges",
                "the charts, sparklines and peak windows keep \(total) points in all, more than \(LayoutChart.maxTotalPoints): fewer \"points\" or charts"
            )
        }
    }
}

extension Layout {
    /// Every history the layout's charts, sparklines and peak windows keep, sorted.
    package var historyKeys: [HistoryKey] {
        var keys: Set<HistoryKey> = []
        for g in gauges {
            if let c = g.widget?.chart { keys.formUnion(c.keys) }
            if let s = g.sparkline { keys.insert(HistoryKey(gauge: g.name, span: s.span, points: s.points)) }
            if let k = g.peaks?.key(gauge: g.name) { keys.insert(k) }
        }
        return keys.sorted()
    }

    /// The gauges whose every value set is recorded: those some chart,
    /// sparkline or peaks keep the history of.
    package var sampledGauges: Set<String> {
        Set(historyKeys.map(\.gauge)).union(gauges.filter { $0.peaks != nil }.map(\.name))
    }
}
