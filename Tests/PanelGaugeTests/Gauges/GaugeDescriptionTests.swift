import Foundation
import Testing
@testable import PanelGauge

@Suite struct GaugeDescriptionTests {
    func decode(_ json: String) throws -> GaugeDescription {
        try JSONDecoder().decode(GaugeDescription.self, from: Data(json.utf8))
    }

    @Test func aFullSpecBuildsTheGauge() throws {
        let g = try decode(
            """
            { "style": "accessoryCircular", "min": 0, "max": 100, "value": 73,
              "label": "CPU", "minimumLabel": "0", "maximumLabel": "100",
              "tint": ["#34C759", "#FF3B30"],
              "thresholds": { "base": "#34C759", "steps": [{ "from": 60, "color": "#FF9500" }, { "from": 85, "color": "#FF3B30" }] },
              "format": { "kind": "number", "decimals": 1, "unit": "%" }, "labelSize": 14 }
            """
        ).makeGauge()
        #expect(g.style is AccessoryCircularGaugeStyle)
        #expect(g.range == 0...100 && g.normalizedValue == 0.73)
        #expect(g.label?.text == "CPU" && g.maximumValueLabel?.text == "100")
        #expect(g.tint == .gradient([Color(hex: 0x34C759), Color(hex: 0xFF3B30)]))
        #expect(g.indicatorColor == Color(hex: 0xFF9500))  // 73 is in the amber zone
        #expect(g.configuration.currentValueLabel?.text == "73.0 %")
        #expect(g.environment.labelSize == 14)
    }

    @Test func environmentKeys() throws {
        let g = try decode(
            ##"{ "style": "ring", "font": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "foreground": "#FFD60A", "background": "#000", "track": "#FFFFFF33" }"##
        ).makeGauge()
        #expect(g.environment.font.path.hasSuffix("DejaVuSans-Bold.ttf"))
        #expect(g.environment.foreground == .yellow && g.environment.background == .black)
        #expect(g.environment.track == Color(hex: 0xFFFFFF, alpha: 0x33 / 255.0))
        #expect(try decode(##"{ "style": "ring" }"##).makeGauge().environment == GaugeEnvironment())
        let upper = try decode(
            ##"{ "style": "ring", "thresholds": { "steps": [{ "from": 0.9, "color": "#FF3B30" }] } }"##)
        #expect(upper.thresholds?.base == nil && upper.thresholds?.steps.count == 1)
    }

    @Test func onlyTheStyleIsRequired() throws {
        let g = try decode(##"{ "style": "stepped", "segments": 5, "tint": "#FF3B30" }"##).makeGauge()
        #expect((g.style as? SteppedGaugeStyle)?.segments == 5)
        #expect(g.range == 0...1 && g.value == 0 && g.tint == .color(.red))
        for name in GaugeStyleName.allCases {
            #expect(try decode(##"{ "style": "\##(name.rawValue)" }"##).style == name)
        }
    }

    @Test func badInputIsRefusedWithAReason() throws {
        #expect(throws: DecodingError.self) { try decode(##"{ "style": "pie" }"##) }
        #expect(throws: DecodingError.self) { try decode(##"{ "style": "ring", "tint": "blue" }"##) }
        #expect(throws: DecodingError.self) { try decode(##"{ "style": "ring", "format": { "kind": "hex" } }"##) }
        #expect(throws: DecodingError.self) {
            try decode(
                ##"{ "style": "ring", "thresholds": { "base": "#000", "steps": [{ "from": 5, "color": "#fff" }, { "from": 1, "color": "#fff" }] } }"##
            )
        }
        #expect(throws: DecodingError.self) { try decode(##"{ "style": "ring", "track": "grey" }"##) }
        #expect(throws: GaugeError.self) { try decode(##"{ "style": "ring", "min": 5, "max": 5 }"##).makeGauge() }
        #expect(throws: GaugeError.self) { try decode(##"{ "style": "ring", "min": 5, "max": 1 }"##).makeGauge() }
    }
}
