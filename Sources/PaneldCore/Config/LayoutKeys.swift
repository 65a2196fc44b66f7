/// The keys each object of a layout file accepts. The reader's unknown-key
/// check uses these lists (a key not in its object's list is an error), and
/// `docs/layout.md` documents every one of them: the tests compare the two.
enum LayoutKeys {
    /// The layout file's top-level object.
    static let topLevel = [
        "display", "connector", "mode", "format", "rotation", "background", "foreground", "font", "default",
        "statsd", "statsdSocket", "animation", "gauges", "mqtt", "staleAfter", "staleOnRestore", "grid",
        "overlap", "pages", "pageInterval",
    ]
    /// One page of `"pages"`.
    static let page = ["name", "gauges", "grid"]
    /// `"grid"`.
    static let grid = ["columns", "rows", "gap", "margin"]
    /// One gauge of `"gauges"`.
    static let gauge = [
        "name", "style", "rect", "range", "label", "units", "tint", "gradient", "thresholds", "format", "segments",
        "minimumLabel", "maximumLabel", "labelSize", "metric", "interpolation", "title", "mqtt", "staleAfter",
        "staleOnRestore", "cell", "scale", "sections", "needle", "valueArc", "kind",
    ]
    /// A slot of `"gauges"` with `"kind": "text"`.
    static let textWidget = ["name", "kind", "rect", "cell", "text", "size", "align", "color"]
    /// A slot of `"gauges"` with `"kind": "clock"`.
    static let clock = ["name", "kind", "rect", "cell", "format", "size", "align", "color"]
    /// The gauge keys only a dial accepts (on another style they are errors).
    static let dialOnly = ["scale", "sections", "needle", "valueArc"]
    /// A gauge's `"cell"`.
    static let cell = ["row", "column", "rowSpan", "columnSpan"]
    /// A value format given as an object (a gauge's `"format"`, a dial's scale labels' `"format"`).
    static let format = ["kind", "decimals"]
    /// One of a gauge's `"thresholds"`.
    static let threshold = ["above", "color"]
    /// A dial's `"scale"`.
    static let scale = ["start", "sweep", "majorTicks", "minorTicks", "labels", "band"]
    /// A dial's `"majorTicks"` or `"minorTicks"` given as an object.
    static let ticks = ["count", "length", "width", "color"]
    /// A dial's scale `"labels"` given as an object.
    static let scaleLabels = ["placement", "format", "color"]
    /// One of a dial's `"sections"`.
    static let section = ["from", "to", "color"]
    /// A dial's `"needle"`.
    static let needle = ["length", "width", "tipWidth", "tail", "hub", "color", "hubColor"]
    /// The top-level `"mqtt"` (the broker).
    static let mqtt = MQTTSettings.keys
    /// A gauge's `"mqtt"` given as an object (the topic).
    static let gaugeMQTT = MQTTSubscription.keys

    /// Every object with its keys, named as `docs/layout.md` names them.
    static let objects: [(name: String, keys: [String])] = [
        ("top level", topLevel), ("page", page), ("grid", grid), ("gauge", gauge), ("text widget", textWidget),
        ("clock", clock), ("cell", cell), ("format", format),
        ("threshold", threshold), ("scale", scale), ("ticks", ticks), ("scale labels", scaleLabels),
        ("section", section), ("needle", needle), ("mqtt", mqtt), ("gauge mqtt", gaugeMQTT),
    ]
}
