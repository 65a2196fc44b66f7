import PanelGauge
import Testing

@testable import PaneldCore

/// Numbers at their limits in every key of the layout and on every value input:
/// each is read as a clear error that names its line and key, or accepted and
/// drawn; no arithmetic trap anywhere (a trap ends the test process).
@Suite struct NumberLimitsTests {
    /// The spellings tried in place of every value of the layout: the integer
    /// limits and one past them, the largest and smallest doubles, numbers past
    /// the double range, negative zero, 2^53 + 1, the words for not-a-number and
    /// infinity (not JSON, so syntax errors), huge arrays and deep nesting.
    static let hostile = [
        "-9223372036854775808", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "1e308", "-1e308", "1.7976931348623157e308", "1e999", "-1e999", "5e-324", "-0", "-0.0",
        "9007199254740993", "4294967296", "-2147483649", "0", "-1", "0.5",
        "NaN", "nan", "-NaN", "Infinity", "-Infinity", "inf",
        "[" + Array(repeating: "1e308", count: 5_000).joined(separator: ",") + "]",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        String(repeating: "{\"a\":", count: 300) + "1" + String(repeating: "}", count: 300),
    ]

    /// A layout that uses every key of `LayoutKeys` at least once (checked by
    /// `seedUsesEveryKey`), so that every key is driven with every hostile value.
    static let seed = """
        {
          "display": "/dev/dri/card0", "connector": "HDMI-A-1", "mode": "160x120@60", "format": "xrgb8888",
          "rotation": 0, "background": "#101010", "foreground": "#EEEEEE",
          "font": "/fonts/Panel.ttf", "default": "cpu",
          "statsd": "127.0.0.1:8125", "statsdSocket": "/tmp/paneld-limits.statsd", "animation": 0,
          "staleAfter": 60, "staleOnRestore": true, "overlap": true, "pageInterval": 10, "pageIndicator": true,
          "tapCommand": "/usr/local/bin/panel-tap",
          "touch": { "device": "/dev/input/event0", "swapAxes": true, "invertX": true, "invertY": false },
          "light": { "backlight": "10-0045", "brightness": 80, "blankAfter": 600, "wakeOnThreshold": true,
                     "night": { "from": "22:00", "to": "07:00", "brightness": 10 } },
          "mqtt": { "broker": "mqtts://127.0.0.1:8883", "clientId": "limits", "username": "u",
                    "passwordFile": "/etc/pw", "ca": "/etc/ca.pem", "certificate": "/etc/c.pem", "key": "/etc/k.pem",
                    "keepalive": 60 },
          "grid": { "columns": 2, "rows": 2, "gap": 2, "margin": 2 },
          "pages": [
            { "name": "p1", "grid": { "columns": 2, "rows": 2, "gap": 2, "margin": 2 },
              "gauges": [
                { "name": "cpu", "kind": "gauge", "style": "dial",
                  "cell": { "row": 0, "column": 0, "rowSpan": 1, "columnSpan": 1 },
                  "range": [0, 100], "label": "CPU", "units": "%", "title": "top", "labelSize": 10,
                  "format": { "kind": "number", "decimals": 1, "prefixes": "si",
                              "mappings": [ { "value": 0, "text": "off" } ] },
                  "staleAfter": 30, "staleOnRestore": false, "noData": "offline",
                  "metric": "cpu.load",
                  "mqtt": { "topic": "a/b", "field": "x", "scale": 1, "offset": 0, "qos": 1, "noData": ["n/a"] },
                  "thresholds": [ { "above": 80, "color": "#FF9500" } ],
                  "scale": { "start": 135, "sweep": 270, "band": 0.05,
                             "majorTicks": { "count": 6, "length": 0.1, "width": 0.02, "color": "#FFFFFF" },
                             "minorTicks": { "count": 4, "length": 0.05, "width": 0.01, "color": "#AAAAAA" },
                             "labels": { "placement": "inside", "format": { "kind": "number", "decimals": 0 },
                                         "color": "#FFFFFF" } },
                  "sections": [ { "from": 0, "to": 50, "color": "#34C759" } ],
                  "needle": { "length": 0.8, "width": 0.03, "tipWidth": 0.01, "tail": 0.1, "hub": 0.05,
                              "color": "#FF3B30", "hubColor": "#FFFFFF" },
                  "valueArc": true },
                { "name": "mem", "style": "stepped", "segments": 8, "rect": [80, 0, 80, 60], "range": [-10, 10],
                  "gradient": ["#34C759", "#FFD60A", "#FF3B30"], "interpolation": "oklab", "format": "percent" },
                { "name": "disk", "style": "linearCapacity", "orientation": "vertical", "tint": "#0A84FF",
                  "minimumLabel": "0", "maximumLabel": "9", "cell": { "row": 1, "column": 0 },
                  "markedLabels": [ { "value": 50, "label": "half" } ] },
                { "name": "note", "kind": "text", "rect": [80, 60, 80, 30], "text": "hello", "size": "value",
                  "align": "center", "color": "#FFFFFF" },
                { "name": "clock", "kind": "clock", "rect": [80, 90, 80, 30], "format": "HH:mm", "size": "title",
                  "align": "trailing", "color": "#FFFFFF" }
              ] },
            { "name": "p2", "gauges": [ { "name": "load", "style": "ring", "sparkline": { "span": "10m", "points": 60 },
                                          "peaks": { "window": "1h", "show": "both" },
                                          "tap": { "publish": "panel/load/tap", "payload": "toggle" } },
                                        { "name": "fan", "style": "ring", "tap": { "line": "fan toggle" } },
                                        { "name": "trend", "kind": "chart", "gauges": ["load", "cpu"], "span": 3600,
                                          "points": 120, "label": "Load", "range": [0, 100],
                                          "colors": ["#0A84FF", "#FF9500"], "area": false, "thresholds": true } ] }
          ]
        }
        """

    static func parse(_ bytes: [UInt8]) throws(LayoutError) -> Layout {
        try LayoutReader.parse(bytes, fileReadable: { _ in true })
    }

    /// The seed is valid and names every key of every object `LayoutKeys` lists;
    /// a key added to the reader without a place here fails.
    @Test func seedUsesEveryKey() throws {
        _ = try Self.parse(Array(Self.seed.utf8))
        var used: Set<String> = []
        func collect(_ v: JSONValue) {
            switch v.kind {
            case .object(let members):
                for m in members {
                    used.insert(m.key)
                    collect(m.value)
                }
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        collect(try JSONReader.parse(Array(Self.seed.utf8)))
        for (object, keys) in LayoutKeys.objects {
            for key in keys where !used.contains(key) { Issue.record("the seed lacks \(object) key '\(key)'") }
        }
    }

    /// Every value of the seed (each member's value and each array item) replaced
    /// by each hostile spelling: the layout is refused with issues whose lines lie
    /// in the file, or accepted and drawn on every page with values at their limits.
    @Test func everyKeyTakesNumbersAtTheirLimits() throws {
        let seed = Array(Self.seed.utf8)
        let spans = Self.valueSpans(try JSONReader.parse(seed), in: seed)
        #expect(spans.count > 150, "only \(spans.count) values found in the seed")
        var accepted = 0, rejected = 0
        for span in spans {
            for text in Self.hostile {
                let bytes = Array(seed[..<span.lowerBound]) + Array(text.utf8) + Array(seed[span.upperBound...])
                let lines = bytes.filter { $0 == 0x0A }.count + 1
                let layout: Layout
                do {
                    layout = try Self.parse(bytes)
                } catch {
                    rejected += 1
                    if error.issues.isEmpty { Issue.record("\(text) at \(span): rejected without an issue") }
                    for i in error.issues where i.line.map({ $0 < 1 || $0 > lines }) ?? true {
                        Issue.record("\(text) at \(span): issue without a line in the file: \(i)")
                    }
                    continue
                }
                accepted += 1
                Self.draw(layout, values: [Double.greatestFiniteMagnitude])
            }
        }
        #expect(accepted > 50 && rejected > 1_000, "accepted \(accepted), rejected \(rejected)")
    }

    /// Values at their limits, as the inputs can deliver them (NaN and infinity
    /// are refused by every input; see `inputsRefuseOrKeepNumbersAtTheirLimits`).
    static let limitValues: [Double] = [
        -Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude, -1e308, 1e308, 9_007_199_254_740_993,
        Double(Int.max), Double(Int.min), -0.0, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude,
    ]

    /// Every style of the seed drawn at each value at its limit, with every gauge's
    /// value set, on both pages.
    @Test func everyStyleDrawsValuesAtTheirLimits() throws {
        let layout = try Self.parse(Array(Self.seed.utf8))
        for v in Self.limitValues { Self.draw(layout, values: [v]) }
    }

    /// The same spellings on the socket protocol (plain, `:+` adjust, statsd) and
    /// in MQTT payloads: each is refused or gives a finite value, and adjusting by
    /// the largest double twice is refused rather than stored as infinity.
    @Test func inputsRefuseOrKeepNumbersAtTheirLimits() throws {
        let layout = try Self.parse(Array(Self.seed.utf8))
        var store = layout.store()
        let topic = MQTTSubscription(topic: "t")
        let field = MQTTSubscription(topic: "t", field: ["v"])
        for text in Self.hostile where text.utf8.count < 100 {
            for line in ["cpu \(text)", "\(text)", "cpu:\(text)|g", "cpu:+\(text)|g", "cpu +\(text)"] {
                if case .success(let command) = LineParser.parse(Array(line.utf8)) {
                    _ = store.apply(command)
                    for v in store.values.values { #expect(v.isFinite, "\(line) stored \(v)") }
                }
            }
            for payload in [text, "{\"v\": \(text)}", "{\"v\": \"\(text)\"}"] {
                for s in [topic, field] {
                    let r = Array(payload.utf8).withUnsafeBytes { MQTTPayload.value($0, s) }
                    if case .success(let v?) = r { #expect(v.isFinite, "\(payload) gave \(v)") }
                }
            }
        }
        let isSet = store.set("cpu", .greatestFiniteMagnitude)
        #expect(isSet)
        _ = store.apply(.adjust(gauge: "cpu", delta: .greatestFiniteMagnitude))
        #expect(store.values["cpu"] == .greatestFiniteMagnitude)
    }

    static func draw(_ layout: Layout, values: [Double]) {
        guard let size = layout.logicalSize, size.width * size.height <= 1 << 20 else { return }
        for (k, v) in values.enumerated() {
            var all: [String: Double] = [:]
            for g in layout.gauges where g.widget == nil { all[g.name] = v }
            for page in layout.pageNames.indices {
                let r = LayoutScene(layout: layout, width: size.width, height: size.height, page: page)
                let img = Image(width: size.width, height: size.height)
                r.drawAll(img.surface, values: all, stale: k % 2 == 0 ? [] : Set(all.keys))
            }
        }
    }

    /// The byte ranges of every value in `v` (members' values and array items),
    /// found by the lines and key order of the reader's tree in `text`.
    static func valueSpans(_ v: JSONValue, in text: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var at = 0
        // Walks the text in step with the tree: each value starts at the next
        // non-blank byte after the previous token, and its end is found by scanning.
        func skipBlank() { while at < text.count, [0x20, 0x0A, 0x0D, 0x09].contains(text[at]) { at += 1 } }
        func value(_ v: JSONValue) {
            skipBlank()
            let start = at
            switch v.kind {
            case .object(let members):
                at += 1  // {
                for (k, m) in members.enumerated() {
                    skipBlank()
                    if k > 0 { at += 1 }  // ,
                    skipBlank()
                    scanString()
                    skipBlank()
                    at += 1  // :
                    value(m.value)
                }
                skipBlank()
                at += 1  // }
            case .array(let items):
                at += 1  // [
                for (k, item) in items.enumerated() {
                    skipBlank()
                    if k > 0 { at += 1 }
                    value(item)
                }
                skipBlank()
                at += 1  // ]
            case .string: scanString()
            default:
                while at < text.count, !",]} \n\t\r".utf8.contains(text[at]) { at += 1 }
            }
            out.append(start..<at)
        }
        func scanString() {
            at += 1
            while at < text.count, text[at] != 0x22 { at += text[at] == 0x5C ? 2 : 1 }
            at += 1
        }
        value(v)
        out.removeLast()  // the whole document
        return out
    }
}
