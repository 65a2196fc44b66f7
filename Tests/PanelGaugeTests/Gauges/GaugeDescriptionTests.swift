import Foundation
import Testing

@testable import PanelGauge

/// The gauge dialect as `JSONDecoder` users read it (paneld's layout file reads the
/// same objects; paneldTests' GaugeDialectTests compare the two).
@Suite struct GaugeDescriptionTests {
    func decode(_ json: String) throws -> GaugeDescription {
        try JSONDecoder().decode(GaugeDescription.self, from: Data(json.utf8))
    }

    /// The issues `JSONDecoder` reports for `json`, as `path: message`; empty when it decodes.
    func issues(_ json: String) -> [String] {
        do {
            _ = try decode(json)
            return []
        } catch DecodingError.dataCorrupted(let context) {
            guard let error = context.underlyingError as? GaugeDescriptionError else { return ["\(context)"] }
            return error.issues.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test func aFullObjectBuildsTheGauge() throws {
        let d = try decode(
            """
            { "style": "accessoryCircular", "range": [0, 100], "label": "CPU", "units": "%",
              "minimumLabel": "0", "maximumLabel": "100", "gradient": ["#34C759", "#FF3B30"],
              "interpolation": "srgb", "format": { "kind": "number", "decimals": 1 }, "labelSize": 14,
              "thresholds": [{ "above": 60, "color": "#FF9500" }, { "above": 85, "color": "#FF3B30" }] }
            """)
        let g = try d.makeGauge(value: 73)
        #expect(d.style == .accessoryCircular && g.style is AccessoryCircularGaugeStyle)
        #expect(g.range == 0...100 && g.normalizedValue == 0.73)
        #expect(g.label?.text == "CPU" && g.maximumValueLabel?.text == "100")
        let tint = Tint.gradient([Color(hex: 0x34C759), Color(hex: 0xFF3B30)]).interpolated(in: .sRGB)
        #expect(g.tint == tint)
        #expect(g.indicatorColor == Color(hex: 0xFF9500))  // 73 is in the amber zone
        #expect(g.configuration.currentValueLabel?.text == "73.0 %")
        #expect(g.environment.labelSize == 14 && g.environment.typeScale == nil)
        // Only the first gradient colour shows under thresholds.
        #expect(d.warnings.map(\.path) == ["gradient"])
    }

    @Test func everyKeyIsOptional() throws {
        let d = try decode("{}")
        let g = try d.makeGauge()
        #expect(d.style == .ring && g.style is RingGaugeStyle)
        #expect(g.range == 0...100 && g.value == 0 && g.title == .automatic)
        #expect(g.thresholds == nil && g.valueFormat == nil && g.label == nil)
        #expect(g.environment.typeScale != nil, "text sizes follow the gauge's rectangle")
        #expect(d.warnings.isEmpty)
    }

    @Test func stylesAndAliases() throws {
        for name in GaugeStyleName.allCases {
            #expect(try decode(##"{ "style": "\##(name.rawValue)" }"##).style == name)
        }
        #expect(try decode(##"{ "style": "arc" }"##).style == .accessoryCircular)
        #expect(try decode(##"{ "style": "bar" }"##).style == .linearCapacity)
        let stepped = try decode(##"{ "style": "stepped", "segments": 5, "tint": "#FF3B30" }"##).makeGauge()
        #expect((stepped.style as? SteppedGaugeStyle)?.segments == 5 && stepped.tint == .color(.red))
    }

    @Test func aDialsOwnKeys() throws {
        let g = try decode(
            """
            { "style": "dial", "range": [0, 240],
              "scale": { "start": 135, "sweep": 270, "majorTicks": 7, "minorTicks": { "count": 3, "color": "#FFFFFF" },
                         "labels": { "placement": "outside", "format": "number" }, "band": 0.05 },
              "sections": [{ "from": 200, "to": 240, "color": "#FF3B30" }],
              "needle": { "length": 0.9, "hubColor": "#FFFFFF" }, "valueArc": 0.05 }
            """
        ).makeGauge()
        let dial = try #require(g.style as? DialGaugeStyle)
        #expect(dial.majorTicks.count == 7 && dial.minorTicks.count == 3 && dial.labels?.placement == .outside)
        #expect(dial.sections == [DialGaugeStyle.Section(from: 200, to: 240, color: .red)])
        #expect(dial.needle.length == 0.9 && dial.valueArc == 0.05 && dial.bandWidth == 0.05)
    }

    @Test func badObjectsAreRefusedWithEveryReason() {
        #expect(issues(##"{ "style": "pie" }"##).first?.hasPrefix("style: unknown style 'pie'") == true)
        #expect(
            issues(##"{ "tint": "bleu" }"##) == [
                "tint: 'bleu' is not a colour (use #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name such as red)"
            ])
        #expect(
            issues(##"{ "format": {"kind": "number", "prefixes": "metric"} }"##) == [
                "format.prefixes: 'metric' is not 'si' (k, M, G), 'binary' (Ki, Mi, Gi) or 'none'"
            ])
        #expect(issues(##"{ "format": {"kind": "number", "decimals": 1, "prefixes": "binary"} }"##).isEmpty)
        #expect(
            issues(
                ##"{ "format": {"kind": "number", "mappings": [{"value": 1, "text": "on"}, {"value": 1, "text": "x"}]} }"##
            )
                == ["format.mappings[1].value: value 1.0 is mapped twice"])
        #expect(
            issues(##"{ "format": {"kind": "number", "mappings": [{"value": 0, "text": "off"}]} }"##).isEmpty)
        // CSS colour names, in any case (issue 38 item 8).
        #expect(issues(##"{ "tint": "SteelBlue" }"##).isEmpty)
        #expect(Color(css: "red") == Color(hex: 0xFF0000))
        #expect(Color(css: "rebeccapurple") == Color(hex: 0x663399))
        #expect(Color(css: "DarkOrange") == Color(hex: 0xFF8C00))
        #expect(Color(css: "transparent") == .clear)
        #expect(Color(css: "grey") == Color(css: "gray"))
        #expect(CSSColorNames.table.count == 148)
        #expect(issues(##"{ "range": [5, 5] }"##) == ["range: needs min < max"])
        #expect(issues(##"{ "format": { "kind": "hex" } }"##) == ["format: unknown format 'hex' (percent or number)"])
        #expect(
            issues(##"{ "thresholds": [{ "above": 5, "color": "#fff" }, { "above": 1, "color": "#fff" }] }"##)
                == ["thresholds[1].above: thresholds must be in increasing order"])
        #expect(issues(##"{ "style": "ring", "needle": {} }"##) == ["needle: only a 'dial' gauge has needle"])
        #expect(issues(##"{ "labelSize": "big", "segments": 0, "style": "stepped" }"##).count == 2)
        #expect(issues("[1]") == ["expected an object { ... }, found an array"])
    }

    /// Keys of no gauge object are errors, as in a layout file: a typo never passes silently.
    @Test func unknownKeysAreErrors() {
        for key in [
            "min", "max", "value", "currentLabel", "font", "foreground", "background", "track", "showZones", "name",
        ] {
            let found = issues(##"{ "\##(key)": 1 }"##)
            #expect(found.count == 1 && found[0].hasPrefix("\(key): unknown key (expected one of: style, "), "\(found)")
        }
        #expect(throws: GaugeDescriptionError.self) {
            try GaugeDescription(json: GaugeJSON(.object([.init(key: "zz", value: GaugeJSON(.null))])))
        }
        let accepted = GaugeJSON(.object([.init(key: "name", value: GaugeJSON(.string("cpu")))]))
        #expect(throws: Never.self) { try GaugeDescription(json: accepted, alsoAccepted: ["name"]) }
    }

    @Test func issuesCarryTheGivenPathAndLines() throws {
        let bad = GaugeJSON(.object([.init(key: "range", value: GaugeJSON(.string("x"), line: 4))]), line: 3)
        #expect(throws: GaugeDescriptionError.self) { try GaugeDescription(json: bad, path: "gauges[2]") }
        do {
            _ = try GaugeDescription(json: bad, path: "gauges[2]")
        } catch {
            #expect(error.description == "line 4: gauges[2].range: expected [min, max]")
        }
    }
}
