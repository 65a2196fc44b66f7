/// The live values of a layout's gauges, the texts of its text widgets, and
/// the rules for changing them.
///
/// A value type with no I/O: the daemon owns one, applies each parsed
/// ``Command`` to it and sends back whatever reply it returns. A rejected
/// command leaves the store exactly as it was.
package struct GaugeStore: Equatable, Sendable {
    /// Gauge names in layout order (the order `list` answers in).
    package let names: [String]
    /// The gauge a bare number sets, if any.
    let defaultGauge: String?
    /// Other names of gauges (a statsd client's prefixed metric -> the gauge).
    let aliases: [String: String]
    /// Each gauge's value; a gauge without one (never set since start, none
    /// restored, or cleared) is missing and is drawn as "no data".
    package private(set) var values: [String: Double]
    /// Each text widget's text.
    package private(set) var texts: [String: String]
    /// The text widgets' names in layout order.
    private let widgetOrder: [String]
    /// The gauges' names, for look-ups.
    private let known: Set<String>
    /// Names of clock widgets (they show the time: nothing sets them).
    let clocks: Set<String>
    /// Gauges and text widgets changed since the last ``takeChanged()``.
    private(set) var changed: Set<String> = []
    /// Gauges set or adjusted since the last ``takeTouched()``, to the same
    /// value or another (what keeps a value from going stale).
    private(set) var touched: Set<String> = []

    /// One value set on a gauge a chart keeps the history of.
    package struct Sample: Equatable, Sendable {
        package var name: String
        package var value: Double
    }
    /// The gauges whose every set is kept as a ``Sample`` (those a chart or
    /// a sparkline shows).
    package var sampled: Set<String> = []
    /// The values set on ``sampled`` gauges since the last ``takeSamples()``,
    /// in order (each, so a spike between two frames reaches the history).
    private(set) var samples: [Sample] = []

    /// The longest text a text widget takes, in bytes.
    package static let maxTextLength = 256

    init(
        names: [String], defaultGauge: String?, initial: [String: Double], aliases: [String: String] = [:],
        texts: [String: String] = [:], clocks: Set<String> = [], textOrder: [String]? = nil
    ) {
        self.widgetOrder = textOrder ?? texts.keys.sorted()
        self.names = names
        self.known = Set(names)
        self.defaultGauge = defaultGauge
        self.aliases = aliases
        var v: [String: Double] = [:]
        for n in names { v[n] = initial[n] }
        self.values = v
        self.texts = texts
        self.clocks = clocks
    }

    /// The text widgets' names in layout order (what `list` answers after the gauges).
    package var widgetNames: [String] { widgetOrder.filter { texts[$0] != nil } }

    /// The text widgets' names (what ``LineParser/parse(_:texts:)`` reads text lines for).
    package var textNames: Set<String> { Set(texts.keys) }

    /// Applies `command`. Returns the reply text (each line `\n`-terminated),
    /// `""` when a good command needs no reply, or the error; on error nothing changed.
    mutating func apply(_ command: Command) -> Result<String, LineError> {
        switch command {
        case .set(let gauge?, let value) where texts[gauge] != nil:
            // A number for a text widget shows as text.
            return apply(.setText(widget: gauge, text: GaugeStore.format(value)))
        case .set(let gauge, let value):
            return resolve(gauge).map { name in
                set(name, value)
                return ""
            }
        case .setText(let widget, let text):
            if clocks.contains(widget) { return .failure(.isAClock(widget)) }
            guard texts[widget] != nil else { return .failure(.unknownGauge(widget)) }
            guard text.utf8.count <= GaugeStore.maxTextLength else {
                return .failure(.textTooLong(widget: widget, limit: GaugeStore.maxTextLength))
            }
            setText(widget, text)
            return .success("")
        case .get(let gauge?) where texts[gauge] != nil:
            return .success("\(gauge) \(texts[gauge]!)\n")
        case .adjust(let gauge, _) where texts[gauge] != nil:
            return .failure(.notAGauge(gauge))
        case .clear(let gauge) where texts[gauge] != nil:
            return .failure(.notAGauge(gauge))
        case .clear(let gauge):
            return resolve(gauge).map { name in
                clear(name)
                return ""
            }
        case .adjust(let gauge, let delta):
            return resolve(gauge).flatMap { name in
                // A gauge without a value adjusts from 0, as statsd's do.
                let v = (values[name] ?? 0) + delta
                guard v.isFinite else { return .failure(.notFinite(GaugeStore.format(v))) }
                set(name, v)
                return .success("")
            }
        case .get(let gauge):
            return resolve(gauge).map { "\($0) \(shown($0))\n" }
        case .list:
            var out = ""
            for n in names { out += "\(n) \(shown(n))\n" }
            for n in widgetNames { out += "\(n) \(texts[n]!)\n" }
            return .success(out + "END\n")
        case .reload:
            return .failure(.notOnThisInput("reload"))
        case .page:
            return .failure(.notOnThisInput("page"))
        case .screen:
            return .failure(.notOnThisInput("screen"))
        }
    }

    /// Sets a known text widget's text directly (`render --text`). Returns false if unknown.
    @discardableResult
    package mutating func setText(_ name: String, _ text: String) -> Bool {
        guard let old = texts[name] else { return false }
        if old != text { changed.insert(name) }
        texts[name] = text
        return true
    }

    /// A gauge's value as `get` and `list` write it: the number, or `-`
    /// when the gauge has none (the line that clears it).
    package func shown(_ name: String) -> String {
        values[name].map(GaugeStore.format) ?? GaugeStore.noValue
    }

    /// What stands for "no value" on the wire: `NAME -` clears a gauge, and
    /// `get`/`list` answer it for a gauge without a value.
    package static let noValue = "-"

    /// Sets a known gauge directly (state restore, `render --set`). Returns false if unknown.
    @discardableResult
    package mutating func set(_ name: String, _ value: Double) -> Bool {
        guard known.contains(name), value.isFinite else { return false }
        let old = values[name]
        if old != value || old?.sign != value.sign { changed.insert(name) }
        touched.insert(name)
        values[name] = value
        if sampled.contains(name) { samples.append(Sample(name: name, value: value)) }
        return true
    }

    /// Takes a known gauge's value away: it is drawn as "no data" until set
    /// again. Returns false if unknown.
    @discardableResult
    package mutating func clear(_ name: String) -> Bool {
        guard known.contains(name) else { return false }
        if values[name] != nil { changed.insert(name) }
        touched.insert(name)
        values[name] = nil
        return true
    }

    /// Returns and clears the set of changed gauges.
    package mutating func takeChanged() -> Set<String> {
        defer { changed = [] }
        return changed
    }

    /// Returns and clears the samples.
    package mutating func takeSamples() -> [Sample] {
        defer { samples = [] }
        return samples
    }

    /// Returns and clears the set of touched gauges.
    package mutating func takeTouched() -> Set<String> {
        defer { touched = [] }
        return touched
    }

    private func resolve(_ gauge: String?) -> Result<String, LineError> {
        guard let name = gauge ?? defaultGauge else { return .failure(.noDefaultGauge) }
        if known.contains(name) { return .success(name) }
        if let real = aliases[name] { return .success(real) }
        if clocks.contains(name) { return .failure(.isAClock(name)) }
        return .failure(.unknownGauge(name))
    }

    /// Shortest text that reads back as the same value: `73`, `0.5`, `1e+20`.
    static func format(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}
