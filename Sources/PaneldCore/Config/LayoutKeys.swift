import PanelGauge

/// The keys each object of a layout file accepts (a gauge's own keys and the
/// objects in them are PanelGauge's gauge dialect, `GaugeDescription.Keys`). The reader's unknown-key
/// check uses these lists (a key not in its object's list is an error), and
/// `docs/layout.md` documents every one of them: the tests compare the two.
enum LayoutKeys {
    /// The layout file's top-level object.
    static let topLevel = [
        "display", "connector", "mode", "format", "rotation", "background", "foreground", "font", "default",
        "statsd", "statsdSocket", "animation", "gauges", "mqtt", "staleAfter", "staleOnRestore", "grid",
        "overlap", "pages", "pageInterval", "pageIndicator", "touch", "light", "tapCommand",
    ]
    /// One page of `"pages"`.
    static let page = ["name", "gauges", "grid"]
    /// `"grid"`.
    static let grid = ["columns", "rows", "gap", "margin"]
    /// The keys of a gauge slot that place and feed the gauge; the layout reader reads them,
    /// PanelGauge's `GaugeDescription` the others (its `Keys.gauge`).
    static let gaugeLayoutOnly = [
        "name", "kind", "rect", "cell", "metric", "mqtt", "staleAfter", "staleOnRestore", "noData", "sparkline",
        "peaks", "tap",
    ]
    /// One gauge of `"gauges"`: its layout keys and the gauge dialect's keys.
    static let gauge = gaugeLayoutOnly + GaugeDescription.Keys.gauge
    /// A slot of `"gauges"` with `"kind": "text"`.
    static let textWidget = ["name", "kind", "rect", "cell", "text", "size", "align", "color", "mqtt"]
    /// A slot of `"gauges"` with `"kind": "clock"`.
    static let clock = ["name", "kind", "rect", "cell", "format", "size", "align", "color"]
    /// A slot of `"gauges"` with `"kind": "chart"`.
    static let chart = [
        "name", "kind", "rect", "cell", "gauges", "span", "points", "label", "range", "colors", "area", "thresholds",
    ]
    /// A gauge's `"sparkline"` given as an object.
    static let sparkline = ["span", "points"]
    /// A gauge's `"peaks"` given as an object.
    static let peaks = ["window", "show"]
    /// The top-level `"touch"` given as an object.
    static let touch = ["device", "swapAxes", "invertX", "invertY"]
    /// A gauge's `"tap"`.
    static let tap = ["publish", "payload", "line"]
    /// The top-level `"light"`.
    static let light = ["backlight", "brightness", "night", "blankAfter", "wakeOnThreshold"]
    /// `"light"`'s `"night"`.
    static let night = ["from", "to", "brightness"]
    /// The gauge keys only a dial accepts (on another style they are errors).
    static let dialOnly = GaugeDescription.Keys.dialOnly
    /// The gauge keys only the linear styles accept.
    static let linearOnly = GaugeDescription.Keys.linearOnly
    /// The gauge keys of a scale, which a dial and the linear styles accept.
    static let scaled = GaugeDescription.Keys.scaled
    /// A gauge's `"cell"`.
    static let cell = ["row", "column", "rowSpan", "columnSpan"]
    /// A value format given as an object (a gauge's `"format"`, a dial's scale labels' `"format"`).
    static let format = GaugeDescription.Keys.format
    /// One of a format's `"mappings"`.
    static let mapping = GaugeDescription.Keys.mapping
    /// One of a gauge's `"thresholds"`.
    static let threshold = GaugeDescription.Keys.threshold
    /// A dial's `"scale"`.
    static let scale = GaugeDescription.Keys.scale
    /// A dial's `"majorTicks"` or `"minorTicks"` given as an object.
    static let ticks = GaugeDescription.Keys.ticks
    /// A dial's scale `"labels"` given as an object.
    static let scaleLabels = GaugeDescription.Keys.scaleLabels
    /// One of a dial's `"sections"`.
    static let section = GaugeDescription.Keys.section
    /// A dial's `"needle"`.
    static let needle = GaugeDescription.Keys.needle
    /// One of a gauge's `"markedLabels"`.
    static let markedLabel = GaugeDescription.Keys.markedLabel
    /// The top-level `"mqtt"` (the broker).
    static let mqtt = MQTTSettings.keys
    /// A gauge's `"mqtt"` given as an object (the topic).
    static let gaugeMQTT = MQTTSubscription.keys

    /// Every object with its keys, named as `docs/layout.md` names them.
    static let objects: [(name: String, keys: [String])] = [
        ("top level", topLevel), ("page", page), ("grid", grid), ("gauge", gauge), ("text widget", textWidget),
        ("clock", clock), ("chart", chart), ("sparkline", sparkline), ("peaks", peaks),
        ("touch", touch), ("light", light), ("night", night), ("tap", tap),
        ("cell", cell), ("format", format),
        ("mapping", mapping),
        ("threshold", threshold), ("scale", scale), ("ticks", ticks), ("scale labels", scaleLabels),
        ("section", section), ("needle", needle), ("marked label", markedLabel), ("mqtt", mqtt),
        ("gauge mqtt", gaugeMQTT),
    ]
}
