import PanelGauge

/// One thing a ``GaugeScene`` shows in its frame: a gauge, which its value
/// in a ``SceneState`` sets, or a widget, which shows its text there.
public struct SceneItem {
    /// The key of its value (or text) in a ``SceneState``.
    public var name: String
    /// Where it is drawn, in screen pixels.
    public var frame: IntRect
    /// The gauge: style, range, labels, colours and fonts (its own value is
    /// replaced by the state's).
    public var gauge: Gauge
    /// What the gauge shows for its current value while it has none.
    public var noValueText: String
    /// What is drawn instead of the gauge; nil = the gauge. A widget's
    /// ``gauge`` only carries the environment (font and colours).
    public var widget: (any SceneWidget)?

    /// A gauge named `name` in `frame`.
    public init(_ name: String, _ gauge: Gauge, in frame: IntRect, noValueText: String = Gauge.defaultNoValueText) {
        self.name = name
        self.frame = frame
        self.gauge = gauge
        self.noValueText = noValueText
    }

    /// A widget named `name` in `frame`, drawn with `environment`'s font and colours.
    public init(_ name: String, widget: any SceneWidget, in frame: IntRect, environment: GaugeEnvironment = .init()) {
        self.name = name
        self.frame = frame
        var carrier = try! Gauge(value: 0, in: 0...1)
        carrier.environment = environment
        gauge = carrier
        noValueText = Gauge.defaultNoValueText
        self.widget = widget
    }

    /// Its font and colours.
    public var environment: GaugeEnvironment { gauge.environment }

    /// The gauge showing `value` (the style pins the indicator at the range's
    /// ends; a non-finite value shows the lower bound); nil shows it without
    /// a value (``noValueText``). With `peaks`, it marks those instead of
    /// its own (PanelGauge's `Gauge.peaks`).
    public func gauge(showing value: Double?, peaks: GaugePeaks? = nil) -> Gauge {
        let g = gauge.peaks(peaks ?? gauge.peaks)
        guard let value else { return g.withoutValue(noValueText) }
        return (try? g.withValue(value)) ?? g
    }

    /// The gauge showing a stale `value`: its indicator in `tint` (no
    /// thresholds) and `dash` for its current value, where it shows one,
    /// sized as the values are, so nothing else moves.
    /// An old value out of range shows pinned as any other, without the
    /// out-of-range colour: a stale gauge states nothing about the present.
    /// With `peaks`, it marks those instead of its own.
    public func staleGauge(showing value: Double, dash: String, tint: Color, peaks: GaugePeaks? = nil) -> Gauge {
        var g = gauge(showing: min(max(value, gauge.range.lowerBound), gauge.range.upperBound), peaks: peaks)
        // A ring without a format shows its percentage, sized by its default
        // text, which a label of its own replaces.
        let ringPercent = g.style is RingGaugeStyle && g.valueFormat == nil
        if g.shownLabels.contains(.currentValue) || ringPercent {
            if ringPercent,
                !g.environment.valueSizingText.contains(RingGaugeStyle.defaultSizingText)
            {
                g.environment.valueSizingText.append(RingGaugeStyle.defaultSizingText)
            }
            g.currentValueLabel = .text(dash)
        }
        g.tint = .color(tint)
        g.thresholds = nil
        return g
    }
}

/// What a ``GaugeScene`` shows: each gauge's value (a gauge missing has
/// none), the gauges shown stale (their values old), each widget's text,
/// each chart's histories.
public struct SceneState: Equatable, Sendable {
    /// Each gauge's value by name; a gauge missing here is drawn without one.
    public var values: [String: Double]
    /// The gauges whose values are old: drawn dimmed, with a dash for the value.
    public var stale: Set<String>
    /// Each widget's text by name; a widget missing here shows an empty text.
    public var texts: [String: String]

    /// Each chart's histories and time by name (``SceneChart``); a chart
    /// missing here shows no data.
    public var charts: [String: ChartFrame]

    /// The peaks each gauge marks, by name (PanelGauge's `GaugePeaks`); a
    /// gauge missing here marks its own, if any.
    public var peaks: [String: GaugePeaks]

    /// A state with these values, stale gauges, texts, charts and peaks.
    public init(
        values: [String: Double] = [:], stale: Set<String> = [], texts: [String: String] = [:],
        charts: [String: ChartFrame] = [:], peaks: [String: GaugePeaks] = [:]
    ) {
        self.values = values
        self.stale = stale
        self.texts = texts
        self.charts = charts
        self.peaks = peaks
    }
}

/// What a chart shows: one history per series (nil = none yet) at a time.
public struct ChartFrame: Equatable, Sendable {
    /// One per series, in the chart's order.
    public var histories: [ValueHistory?]
    /// The time the chart's right end shows, in the histories' seconds.
    public var now: Double

    /// A frame of `histories` at `now`.
    public init(histories: [ValueHistory?], now: Double) {
        self.histories = histories
        self.now = now
    }
}

/// A widget that draws a PanelGauge `HistoryChart` (or its sparkline form) from its
/// ``ChartFrame`` in the ``SceneState``, whole, over its cleared frame,
/// whenever the frame changes.
public struct SceneChart: SceneWidget {
    /// The chart drawn.
    public var chart: HistoryChart
    private let fonts: FontCache

    /// A widget drawing `chart` with `fonts`.
    public init(_ chart: HistoryChart, fonts: FontCache = .shared) {
        self.chart = chart
        self.fonts = fonts
    }

    /// Draws the chart without data (a chart's text is not used).
    public func draw(_ text: String, in frame: IntRect, on canvas: Canvas) {
        draw(nil, in: frame, on: canvas)
    }

    /// Draws the chart of `data` in `frame`; nil draws it without data.
    public func draw(_ data: ChartFrame?, in frame: IntRect, on canvas: Canvas) {
        let histories = data?.histories ?? Array(repeating: nil, count: chart.series.count)
        chart.draw(histories, now: data?.now ?? 0, in: frame, on: canvas, fonts: fonts)
    }
}

/// Something other than a gauge that a scene shows in a frame: a line of
/// text, a clock. It is drawn whole, over its frame cleared to the
/// background, whenever its text changes.
public protocol SceneWidget {
    /// Draws `text` in `frame` on `canvas` (clipped to `frame`).
    func draw(_ text: String, in frame: IntRect, on canvas: Canvas)
}
