import PanelDisplay
import PanelGauge
import PanelScene

/// A panel layout: which gauges are drawn where, and on which display.
///
/// Read from a JSON file by ``LayoutReader``; every field is checked there, so a
/// `Layout` that exists is valid (names unique, ranges non-empty, rectangles on
/// the screen when the mode is known).
package struct Layout: Sendable {
    /// DRM card to use, e.g. `/dev/dri/by-path/platform-gpu-card` or `/dev/dri/card0`; nil = every card.
    /// A `display` key that names a connector (`DSI-1`) sets ``connector`` instead.
    package var display: String?
    /// Connector name, e.g. `HDMI-A-1`, searched across the cards; nil = a connected one.
    package var connector: String?
    /// Requested mode (physical, before rotation); nil = the connector's preferred mode.
    package var mode: ModeRequest?
    package var pixelFormat: PixelFormat?
    package var rotation: PanelRotation = .none
    /// Touch screens: read or not, which one, their axes (`"touch"`).
    package var touch = LayoutTouch()
    /// The backlight, night dimming and idle blanking (`"light"`).
    package var light = LayoutLight()
    /// The program a gauge's `"tap": { "line" }` writes to (`"tapCommand"`); nil = none.
    package var tapCommand: String?
    var background: Color = .black
    /// Text colour of labels and values.
    var foreground: Color = .white
    /// Path of a TrueType/OpenType font for labels and values; nil = PanelGauge's default.
    var font: String?
    /// The gauge a bare number sets (the first gauge unless the file names one).
    package var defaultGauge: String?
    /// Every slot of every page (gauges and widgets), page by page in layout order.
    package var gauges: [LayoutGauge]
    /// The pages, in the order they are shown in turn; one named `main` when
    /// the layout has a plain `gauges` list.
    var pages = [LayoutPage(name: "main")]
    /// Milliseconds each page is shown before the next when there are several; nil = no rotation.
    var pageInterval: Int64?
    /// A row of dots along the bottom shows the pages and which is shown
    /// (`"pageIndicator": true`, ``PageIndicator``); only with several pages.
    var pageIndicator = false
    /// The grid gauges without a `rect` are placed on; nil = an automatic
    /// one with no gap or margin (see ``placement(screen:)``).
    var grid: LayoutGrid?
    /// Whether gauges may overlap (`"overlap": true`); otherwise the reader
    /// refuses a layout in which two gauges' rectangles meet.
    var allowsOverlap = false
    /// Address for statsd over UDP (`HOST:PORT`); nil = off.
    package var statsd: String?
    /// Path of a Unix datagram socket for statsd/DogStatsD lines; nil = off.
    package var statsdSocket: String?
    /// Milliseconds a gauge takes to glide to a new value; 0 = it jumps.
    package var animation: Int = 0
    /// The MQTT broker the gauges' topics are subscribed at; nil = off.
    package var mqtt: MQTTSettings?
    /// Keys the reader accepted that change nothing on the panel (a label
    /// the gauge's style has no place for, units a percent format drops...):
    /// paneld logs them when it reads the layout, at start and on reload.
    var warnings: [LayoutIssue] = []

    /// The layout used when no file is given: one ring gauge named `value`,
    /// range 0...100, filling the screen; a bare `73` sets it.
    package static let fallback = Layout(
        defaultGauge: "value",
        gauges: [
            LayoutGauge(
                name: "value", rect: nil, range: try! ValueRange(0, 100),
                gauge: try! Gauge(value: 0, in: 0...100).gaugeStyle(RingGaugeStyle()).environment {
                    $0.background = .black
                }.tint(RingGaugeStyle().defaultTint.interpolated(in: .oklab)))
        ])

    /// The package's layout file, which `paneld run` reads when no --config is given.
    package static let systemPath = "/etc/paneld/layout.json"

    /// The layout file `paneld run` reads: `given` (--config), else
    /// ``systemPath`` when it exists, else none (``fallback``). Pure: `exists`
    /// answers for the file system.
    package static func configPath(given: String?, exists: (String) -> Bool) -> String? {
        given ?? (exists(systemPath) ? systemPath : nil)
    }

    /// Logical size (after rotation) implied by the mode, if one is set.
    package var logicalSize: (width: Int, height: Int)? {
        mode.map { rotation.swapsAxes ? ($0.height, $0.width) : ($0.width, $0.height) }
    }
}

extension Layout {
    /// Each gauge with an MQTT topic, in layout order.
    package var mqttSubscriptions: [(gauge: String, subscription: MQTTSubscription)] {
        gauges.compactMap { g in g.mqtt.map { (g.name, $0) } }
    }

    /// Logs each of ``warnings`` with the file's name.
    package func logWarnings(file: String) {
        for w in warnings { Log.warning("\(file): \(w)") }
    }

    /// Each gauge's staleness rule, for ``Staleness``.
    var staleRules: [String: Staleness.Rule] {
        Dictionary(uniqueKeysWithValues: gauges.filter { $0.widget == nil }.map { ($0.name, $0.staleness) })
    }

    /// The names of the pages, in order.
    package var pageNames: [String] { pages.map(\.name) }

    /// Each gauge's other name (``LayoutGauge/metric``), for ``GaugeStore``.
    var aliases: [String: String] {
        Dictionary(uniqueKeysWithValues: gauges.compactMap { g in g.metric.map { ($0, g.name) } })
    }

    /// The store for this layout's gauges, starting from `values` (a gauge without
    /// one has no value: it is drawn as "no data").
    /// Text widgets start with their layout text, clocks are listed.
    package func store(values: [String: Double] = [:]) -> GaugeStore {
        let numeric = gauges.filter { $0.widget == nil }
        var texts: [String: String] = [:]
        var clocks: Set<String> = []
        for g in gauges {
            switch g.widget?.kind {
            case .text(let initial)?: texts[g.name] = initial
            case .clock?: clocks.insert(g.name)
            case .chart?, nil: break
            }
        }
        var store = GaugeStore(
            names: numeric.map(\.name), defaultGauge: defaultGauge,
            initial: values, aliases: aliases, texts: texts, clocks: clocks,
            textOrder: gauges.compactMap { g in texts[g.name] != nil ? g.name : nil })
        store.sampled = sampledGauges
        return store
    }
}

/// A non-empty, finite value range `lower < upper`.
package struct ValueRange: Sendable, Equatable {
    package let lower: Double
    package let upper: Double
    struct Invalid: Error {}

    init(_ lower: Double, _ upper: Double) throws(Invalid) {
        guard lower.isFinite, upper.isFinite, lower < upper else { throw Invalid() }
        self.lower = lower
        self.upper = upper
    }
}

/// One gauge of a layout: its name on the socket, where it goes, its range,
/// and the PanelGauge ``Gauge`` that draws it (style, labels, tint, thresholds,
/// value format), prepared at the range's lower bound.
package struct LayoutGauge: Sendable {
    package var name: String
    /// Where the gauge is drawn, in logical pixels; nil = in its ``cell`` or
    /// the next free cell of the layout's grid (``Layout/placement(screen:)``).
    package var rect: IntRect?
    package var range: ValueRange
    /// The gauge as drawn; each frame sets its value.
    package var gauge: Gauge
    /// Another name that sets this gauge (a statsd metric with a client's prefix,
    /// e.g. `host1.cpu`); nil = none.
    var metric: String? = nil
    /// The MQTT topic that sets this gauge and how its payload is read; nil = none.
    var mqtt: MQTTSubscription? = nil
    /// What it shows without a value (`noData`).
    var noDataText = Gauge.defaultNoValueText
    /// When its value goes stale (`staleAfter`, `staleOnRestore`).
    var staleness = Staleness.Rule()
    /// Its cell in the layout's grid; nil = a `rect`, or the next free cell.
    var cell: GridCell? = nil
    /// Lines of the gauge's object and of its `"rect"` in the layout file, for messages.
    var line: Int? = nil
    var rectLine: Int? = nil
    /// What it shows instead of a gauge; nil = the gauge. (A widget's
    /// ``gauge`` only carries the environment: font and colours.)
    package var widget: LayoutWidget? = nil
    /// Its sparkline (`"sparkline"`), drawn under it; nil = none.
    package var sparkline: LayoutSparkline? = nil
    /// Its peaks (`"peaks"`), marked on its track; nil = none.
    package var peaks: LayoutPeaks? = nil
    /// What a tap on it does (`"tap"`); nil = nothing of its own.
    package var tap: TapAction? = nil
    /// Index of its page in ``Layout/pages``.
    var page = 0
    /// Its key path in the layout file (`pages[1].gauges[0]`); nil = `gauges[i]`.
    var path: String? = nil

    /// The gauge as a scene's item in `frame` (a widget's is built by ``LayoutScene``).
    func sceneItem(in frame: IntRect) -> SceneItem { SceneItem(name, gauge, in: frame, noValueText: noDataText) }

    /// The gauge showing `value`, or without one (``SceneItem/gauge(showing:)``).
    func gauge(showing value: Double?) -> Gauge {
        sceneItem(in: IntRect(x: 0, y: 0, width: 0, height: 0)).gauge(showing: value)
    }

    /// The gauge showing a stale `value` (``SceneItem/staleGauge(showing:dash:tint:peaks:)``).
    func staleGauge(showing value: Double, dash: String, tint: Color) -> Gauge {
        sceneItem(in: IntRect(x: 0, y: 0, width: 0, height: 0)).staleGauge(showing: value, dash: dash, tint: tint)
    }
}

extension FBDevOutputOptions {
    /// The framebuffer part of a layout: format and rotation (`display` names a DRM card, not a framebuffer).
    package init(layout: Layout, devicePath: String?) {
        self.init(
            devicePath: devicePath, format: layout.pixelFormat,
            rotation: layout.rotation)
    }
}
