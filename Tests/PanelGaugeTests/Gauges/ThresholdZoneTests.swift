import Foundation
import Testing
@testable import PanelGauge

/// Threshold zones shown along the track: each zone's colour at 0.35 opacity
/// over the background, with hard boundaries where the values say.
@Suite struct ThresholdZoneTests {
    static let zones = try! Thresholds(.green, (60, .orange), (85, .red))

    static func zoneColour(_ c: Color) -> RGB { Expect.over(c.opacity(0.35), Panel.background) }

    @Test func linearTrackShowsZonesWithBoundariesAtTheirValues() throws {
        let g = try Gauge(value: 0, in: 0...100).gaugeStyle(.linearCapacity).thresholds(Self.zones)
            .environment { $0.showsThresholdZones = true }
        let img = render(g, width: 120, height: 40)
        // Bar x 0...120 on row 20; boundaries at 72 (60) and 102 (85).
        #expect(img.rgb(36, 20) == Self.zoneColour(.green))
        #expect(img.rgb(71, 20) == Self.zoneColour(.green) && img.rgb(72, 20) == Self.zoneColour(.orange))
        #expect(img.rgb(101, 20) == Self.zoneColour(.orange) && img.rgb(102, 20) == Self.zoneColour(.red))
        #expect(img.rgb(110, 20) == Self.zoneColour(.red))
        // Off by default.
        let plain = render(g.environment { $0.showsThresholdZones = false }, width: 120, height: 40)
        #expect(plain.rgb(110, 20) == Expect.over(GaugeEnvironment().track, Panel.background))
    }

    /// accessoryLinear maps values between its bar's round ends (where the dot
    /// travels): 24 px labels put value v at x = 10.92 + v (200 - 21.84).
    @Test func accessoryLinearTrackShowsZonesWhereTheDotWouldBe() throws {
        let g = try Gauge(value: 0, in: 0...100).gaugeStyle(.accessoryLinear).thresholds(Self.zones)
            .environment {
                $0.showsThresholdZones = true
                $0.labelSize = 24
            }
        let img = render(g, width: 200, height: 40)
        for (v, colour) in [(0.3, Color.green), (0.59, .green), (0.61, .orange), (0.84, .orange), (0.86, .red)] {
            #expect(img.rgb(at: Point(x: 10.92 + v * (200 - 21.84), y: 20)) == Self.zoneColour(colour), "at \(v)")
        }
    }

    @Test func circularTrackShowsZonesAlongTheArc() throws {
        let g = try Gauge(value: 0, in: 0...100).gaugeStyle(.accessoryCircular).thresholds(Self.zones)
            .environment { $0.showsThresholdZones = true }
        let img = render(g, width: 160, height: 160)
        let l = AccessoryCircularGaugeStyle.layout(in: Rect(x: 0, y: 0, width: 160, height: 160))
        #expect(img.rgb(at: l.point(for: 0.3)) == Self.zoneColour(.green))
        #expect(img.rgb(at: l.point(for: 0.58)) == Self.zoneColour(.green))
        #expect(img.rgb(at: l.point(for: 0.62)) == Self.zoneColour(.orange))
        #expect(img.rgb(at: l.point(for: 0.83)) == Self.zoneColour(.orange))
        #expect(img.rgb(at: l.point(for: 0.87)) == Self.zoneColour(.red))
    }

    /// Full-ring styles: zone boundaries sit at the angles of their values.
    @Test func ringTracksShowZonesAtTheirValues() throws {
        let rect = Rect(x: 0, y: 0, width: 160, height: 160)
        let cases: [(GaugeStyleName, CircularGaugeLayout)] = [
            (.accessoryCircularCapacity, AccessoryCircularCapacityGaugeStyle.layout(in: rect)),
            (.stepped, SteppedGaugeStyle.layout(in: rect)),
        ]
        for (style, l) in cases {
            let g = try Gauge(value: 0, in: 0...100).gaugeStyle(style.style(segments: 4)).thresholds(Self.zones)
                .environment { $0.showsThresholdZones = true }
            let img = render(g, width: 160, height: 160)
            for (v, colour) in [(0.3, Color.green), (0.585, .green), (0.615, .orange), (0.835, .orange), (0.865, .red)]
            {
                #expect(img.rgb(at: l.point(for: v)) == Self.zoneColour(colour), "\(style) at \(v)")
            }
        }
    }

    @Test func withoutABaseTheFirstZoneIsTheUsualTrack() throws {
        let upper = try Thresholds(base: nil, steps: [.init(from: 0.8, color: .red)])
        let tint = upper.zoneTint(over: 0...1, opacity: 0.5, uncovered: .gray)
        #expect(tint.color(at: 0.5) == .gray)
        #expect(tint.color(at: 0.9) == Color.red.opacity(0.5))
    }
}
