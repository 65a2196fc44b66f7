import Foundation
import PanelGauge
import Testing

@testable import PaneldCore

/// One gauge JSON dialect: a gauge object of paneld's layout file and a
/// `GaugeDescription` decoded by `JSONDecoder` take the same keys, with the same
/// meanings, defaults and rejections. The layout adds only its own keys (below).
@Suite struct GaugeDialectTests {
    /// The keys a layout's gauge slot has that a gauge object does not: where the
    /// gauge goes and how its values reach it.
    static let layoutOnly = [
        "name", "kind", "rect", "cell", "metric", "mqtt", "staleAfter", "staleOnRestore", "noData", "sparkline",
        "peaks", "tap",
    ]

    /// A valid value for each gauge key, with the other members it needs (a dial's keys need the dial).
    static let samples: [String: (value: String, with: String)] = [
        "style": (##""dial""##, ""),
        "range": ("[-20, 40]", ""),
        "label": (##""Outside""##, ""),
        "units": (##""°C""##, ""),
        "tint": (##""#0A84FF""##, ""),
        "gradient": (##"["#34C759", "#FF9500", "#FF3B30"]"##, ""),
        "interpolation": (##""srgb""##, ""),
        "thresholds": (##"[{"above": 60, "color": "#FF9500"}, {"above": 85, "color": "#FF3B30"}]"##, ""),
        "format": (##"{"kind": "number", "decimals": 1}"##, ""),
        "segments": ("5", ##""style": "stepped""##),
        "minimumLabel": (##""0""##, ##""style": "accessoryCircular""##),
        "maximumLabel": (##""100""##, ##""style": "accessoryCircular""##),
        "labelSize": ("12", ""),
        "title": (##""bottom""##, ##""label": "CPU""##),
        "scale": (
            ##"{"start": 135, "sweep": 270, "majorTicks": {"count": 6, "width": 0.03}, "minorTicks": 4, "labels": {"placement": "outside", "format": "percent"}, "band": 0.05}"##,
            ##""style": "dial""##
        ),
        "sections": (##"[{"from": 0, "to": 60, "color": "#34C759"}]"##, ##""style": "dial""##),
        "needle": (
            ##"{"length": 0.9, "width": 0.05, "color": "#FFFFFF", "hubColor": "#FF3B30"}"##, ##""style": "dial""##
        ),
        "valueArc": ("true", ##""style": "dial""##),
        "markedLabels": (##"[{"value": 0, "label": "zero"}, {"value": 40, "label": "hot"}]"##, ##""style": "dial""##),
        "orientation": (##""vertical""##, ##""style": "linearCapacity""##),
    ]

    /// The layout-only keys' valid values (an MQTT topic also needs a broker at the top level).
    static let layoutSamples: [String: String] = [
        "name": ##""g""##, "kind": ##""gauge""##, "rect": "[0, 0, 120, 90]", "cell": ##"{"row": 0, "column": 0}"##,
        "metric": ##""host.g""##, "mqtt": ##""sensors/g""##, "staleAfter": "30", "staleOnRestore": "true",
        "noData": ##""offline""##, "sparkline": ##"{"span": "10m"}"##,
        "peaks": ##"{"window": "24h", "show": "high"}"##, "tap": ##"{"publish": "panel/g/tap"}"##,
    ]

    /// Gauge objects that together use every gauge key.
    static let objects = [
        "{}",
        ##"{"style": "accessoryCircular", "range": [0, 100], "label": "CPU", "units": "%", "minimumLabel": "0", "maximumLabel": "100", "gradient": ["#34C759", "#FF3B30"], "interpolation": "srgb", "format": {"kind": "number", "decimals": 1}, "labelSize": 12}"##,
        ##"{"style": "stepped", "segments": 6, "tint": "#FF9500", "label": "Tank", "title": "top"}"##,
        ##"{"style": "dial", "range": [0, 240], "units": "km/h", "scale": {"start": 150, "sweep": 240, "majorTicks": 7, "minorTicks": {"count": 3, "color": "#AAAAAA"}, "labels": "outside", "band": 0.04}, "sections": [{"from": 200, "to": 240, "color": "#FF3B30"}], "needle": {"length": 0.85, "tail": 0.2, "hub": 0.1}, "valueArc": 0.05}"##,
        ##"{"style": "dial", "thresholds": [{"above": 80, "color": "#FF3B30"}], "format": "percent"}"##,
        ##"{"style": "bar", "label": "Memory", "units": "MiB", "range": [0, 4096], "thresholds": [{"above": 3000, "color": "#FF3B30"}]}"##,
        ##"{"style": "ring", "thresholds": [{"above": 50, "color": "#FF9500"}], "title": "none", "label": "Load"}"##,
        ##"{"style": "arc", "label": "Fan", "format": {"kind": "percent"}, "tint": "#0A84FF"}"##,
        ##"{"style": "accessoryLinearCapacity", "label": "Disk", "maximumLabel": "full", "title": "bottom"}"##,
        ##"{"style": "linearCapacity", "label": "Load", "range": [0, 4], "scale": {"majorTicks": 5, "minorTicks": 1, "labels": {"placement": "below", "format": {"kind": "number", "decimals": 1}}, "band": 0.1}, "sections": [{"from": 3, "to": 4, "color": "#FF3B30"}]}"##,
        ##"{"style": "accessoryLinear", "units": "%", "markedLabels": [{"value": 0, "label": "E"}, {"value": 50, "label": "half"}, {"value": 100, "label": "F"}]}"##,
        ##"{"style": "dial", "markedLabels": [{"value": 0, "label": "E"}, {"value": 100, "label": "F"}]}"##,
        ##"{"style": "linearCapacity", "orientation": "vertical", "label": "Tank", "units": "%", "scale": true}"##,
        ##"{"style": "accessoryLinear", "orientation": "vertical", "minimumLabel": "E", "maximumLabel": "F"}"##,
    ]

    /// The object as the only gauge of a layout, with the layout keys it needs.
    static func layout(_ object: String, extra: String = ##""name": "g""##, topLevel: String = "") -> String {
        let body = object.trimmingCharacters(in: .whitespaces).dropFirst().dropLast()
        let members = body.trimmingCharacters(in: .whitespaces).isEmpty ? extra : extra + ", " + body
        return "{" + topLevel + ##""gauges": [{"## + members + "}]}"
    }

    static func decode(_ object: String) throws -> GaugeDescription {
        try JSONDecoder().decode(GaugeDescription.self, from: Data(object.utf8))
    }

    /// `JSONDecoder`'s issues for a gauge object, as `path: message`.
    static func decoderIssues(_ object: String) -> [String] {
        do {
            _ = try decode(object)
            return []
        } catch DecodingError.dataCorrupted(let context) {
            guard let e = context.underlyingError as? GaugeDescriptionError else { return ["\(context)"] }
            return e.issues.map { $0.path + ": " + $0.message }
        } catch {
            return ["\(error)"]
        }
    }

    /// The layout's issues for the same object, their paths relative to the gauge.
    static func layoutIssues(_ object: String) -> [String] {
        issues(layout(object)).map { String($0.path.dropFirst("gauges[0].".count)) + ": " + $0.message }
    }

    /// An unknown key's message names the keys of its object, which differ: compare up to the list.
    static func reason(_ issue: String) -> String {
        issue.components(separatedBy: " (expected one of:")[0]
    }

    @Test func theLayoutsGaugeKeysAreTheDialectsAndItsOwn() {
        #expect(Set(LayoutKeys.gauge) == Set(GaugeDescription.Keys.gauge + Self.layoutOnly))
        #expect(LayoutKeys.gauge.count == GaugeDescription.Keys.gauge.count + Self.layoutOnly.count)
        #expect(Set(Self.samples.keys) == Set(GaugeDescription.Keys.gauge), "a sample for each gauge key")
        #expect(Set(Self.layoutSamples.keys) == Set(Self.layoutOnly))
    }

    /// Each gauge key is accepted by both readers, each layout-only key by the layout only.
    @Test func everyGaugeKeyIsAcceptedByBoth() throws {
        for key in GaugeDescription.Keys.gauge {
            let (value, with) = try #require(Self.samples[key])
            let object = "{" + (with.isEmpty ? "" : with + ", ") + "\"" + key + ##"": "## + value + "}"
            #expect(Self.decoderIssues(object).isEmpty, "\(key): \(Self.decoderIssues(object))")
            #expect(Self.layoutIssues(object).isEmpty, "\(key): \(Self.layoutIssues(object))")
        }
        for key in Self.layoutOnly {
            let value = try #require(Self.layoutSamples[key])
            let object = "{" + "\"" + key + ##"": "## + value + "}"
            let refused = Self.decoderIssues(object)
            #expect(refused.count == 1 && refused[0].hasPrefix(key + ": unknown key"), "\(key): \(refused)")
            let extra = key == "name" ? ##""name": "g""## : ##""name": "g", "## + "\"" + key + ##"": "## + value
            let top = key == "mqtt" || key == "tap" ? ##""mqtt": {"broker": "mqtt://127.0.0.1"}, "## : ""
            let found = issues(Self.layout("{}", extra: extra, topLevel: top))
            #expect(found.isEmpty, "\(key): \(found)")
        }
    }

    /// The same object gives the same gauge: the same model and the same pixels.
    @Test func theSameObjectGivesTheSameGauge() throws {
        let used = Set(
            Self.objects.flatMap { object in
                GaugeDescription.Keys.gauge.filter { object.contains("\"" + $0 + ##"":"##) }
            })
        #expect(
            used == Set(GaugeDescription.Keys.gauge), "unused: \(Set(GaugeDescription.Keys.gauge).subtracting(used))")
        for object in Self.objects {
            let description = try Self.decode(object)
            let layout = try LayoutReader.parse(Array(Self.layout(object).utf8))
            let fromLayout = try #require(layout.gauges.first).gauge
            var environment = GaugeEnvironment()
            environment.background = layout.background
            environment.foreground = layout.foreground
            let fromDecoder = try description.makeGauge(environment: environment)
            #expect("\(fromDecoder.style)" == "\(fromLayout.style)", "\(object)")
            #expect(fromDecoder.range == fromLayout.range && fromDecoder.value == fromLayout.value, "\(object)")
            #expect(
                fromDecoder.label?.text == fromLayout.label?.text && fromDecoder.title == fromLayout.title, "\(object)")
            #expect(fromDecoder.minimumValueLabel?.text == fromLayout.minimumValueLabel?.text, "\(object)")
            #expect(fromDecoder.maximumValueLabel?.text == fromLayout.maximumValueLabel?.text, "\(object)")
            #expect(fromDecoder.tint == fromLayout.tint && fromDecoder.thresholds == fromLayout.thresholds, "\(object)")
            #expect(fromDecoder.valueFormat == fromLayout.valueFormat, "\(object)")
            #expect(fromDecoder.environment == fromLayout.environment, "\(object)")
            #expect(
                description.warnings.map { $0.path + ": " + $0.message }
                    == layout.warnings.map { String($0.path.dropFirst("gauges[0].".count)) + ": " + $0.message },
                "\(object)")
            let range = fromLayout.range
            for value in [range.lowerBound, (range.lowerBound + range.upperBound) / 2, range.upperBound] {
                let a = Self.pixels(try fromDecoder.withValue(value))
                let b = Self.pixels(try fromLayout.withValue(value))
                #expect(a == b, "\(object) at \(value)")
            }
        }
    }

    static func pixels(_ g: Gauge) -> [UInt8] {
        let image = Image(width: 96, height: 72)
        let canvas = Canvas(surface: image.surface)
        canvas.clear(.black)
        g.draw(in: Rect(x: 0, y: 0, width: 96, height: 72), on: canvas)
        return image.surface.rgbBytes()
    }

    /// A bad object is refused by both, for the same reasons at the same keys.
    @Test func theSameObjectsAreRefusedForTheSameReasons() {
        let bad = [
            ##"{"style": "pie"}"##, ##"{"style": 3}"##, ##"{"range": "0-100"}"##, ##"{"range": [2, 1]}"##,
            ##"{"range": [0, 1, 2]}"##, ##"{"tint": "bleu"}"##, ##"{"tint": "#FFF", "gradient": ["#000", "#FFF"]}"##,
            ##"{"gradient": ["#000"]}"##, ##"{"gradient": ["#000", "blanc"]}"##, ##"{"thresholds": [{"above": 1}]}"##,
            ##"{"thresholds": {"above": 1, "color": "#FFF"}}"##,
            ##"{"thresholds": [{"above": 5, "color": "#FFF"}, {"above": 1, "color": "#000"}]}"##,
            ##"{"format": "hex"}"##, ##"{"format": {"kind": "number", "decimals": 12}}"##,
            ##"{"format": {"decimals": 1}}"##,
            ##"{"segments": 3}"##, ##"{"style": "stepped", "segments": 0}"##, ##"{"labelSize": 2}"##,
            ##"{"labelSize": "12"}"##, ##"{"title": "left"}"##, ##"{"interpolation": "hsv"}"##, ##"{"label": 5}"##,
            ##"{"units": ["%"]}"##, ##"{"minimumLabel": null}"##,
            ##"{"style": "ring", "scale": {}, "valueArc": true}"##,
            ##"{"style": "dial", "scale": {"sweep": 0, "zz": 1}}"##,
            ##"{"style": "dial", "scale": {"majorTicks": 1}}"##,
            ##"{"style": "dial", "scale": {"labels": "left"}}"##, ##"{"style": "dial", "needle": {"length": 3}}"##,
            ##"{"style": "dial", "sections": [{"from": 5, "to": 1, "color": "#FFF"}, {"from": 0}]}"##,
            ##"{"style": "dial", "valueArc": "yes"}"##, ##"{"zz": 1}"##, ##"{"min": 0, "max": 10, "value": 5}"##,
        ]
        for object in bad {
            let decoder = Self.decoderIssues(object).map(Self.reason)
            let layout = Self.layoutIssues(object).map(Self.reason)
            #expect(!decoder.isEmpty, "\(object)")
            #expect(Set(decoder) == Set(layout), "\(object): \(decoder) vs \(layout)")
        }
    }
}
