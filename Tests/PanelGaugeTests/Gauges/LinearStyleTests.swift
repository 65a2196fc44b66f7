#if canImport(Glibc)
    import Glibc
#endif
import Testing
@testable import PanelGauge

/// The linear styles, checked on their pixels against their documented geometry:
/// labels of 12 px give a bar 6 px thick (linearCapacity) centred in the
/// rectangle when there are no labels.
@Suite struct LinearCapacityTests {
    static let bg = RGB(Panel.background)
    static let track = Expect.over(GaugeEnvironment().track, Panel.background)

    @Test(arguments: [0.0, 0.25, 0.5, 1.0])
    func fillCoversTheValueShareOfTheBar(v: Double) throws {
        let img = render(try Gauge(value: v).gaugeStyle(.linearCapacity).tint(.blue), width: 120, height: 40)
        // Bar: x 0...120, y 17...23 (6 px thick, centred on y = 20).
        for y in [17, 22] { #expect(img.rgb(60, y) != Self.bg) }
        for y in [15, 24] { #expect(img.rgb(60, y) == Self.bg) }
        let end = 120 * v
        for x in stride(from: 4, to: 116, by: 1) {
            let cx = Double(x) + 0.5
            if cx < end - 1 && cx > 3 {
                #expect(img.rgb(x, 20) == RGB(.blue), "x \(x)")
            } else if cx > end + 1 {
                #expect(img.rgb(x, 20) == Self.track, "x \(x)")
            }
        }
    }

    @Test func outOfRangeValuesPinTheBarInTheOutOfRangeColour() throws {
        let g = try Gauge(value: 5, in: 0...10).gaugeStyle(.linearCapacity)
        let oor = RGB(GaugeEnvironment().outOfRange)
        let over = render(try g.withValue(17), width: 80, height: 30)
        let full = render(try g.withValue(10), width: 80, height: 30)
        // Full, as at the top of the range, but in the out-of-range colour.
        #expect(!over.samePixels(as: full))
        #expect(over.pixels { x, _, c in x == 40 && c == oor }.count > 0)
        #expect(full.pixels { _, _, c in c == oor }.isEmpty)
        let under = render(try g.withValue(-5), width: 80, height: 30)
        let empty = render(try g.withValue(0), width: 80, height: 30)
        #expect(!under.samePixels(as: empty))
        #expect(!empty.samePixels(as: full))
    }

    @Test func gradientIsLaidOverTheWholeBar() throws {
        let img = render(
            try Gauge(value: 1).gaugeStyle(.linearCapacity).tint(.gradient([.red, .green])), width: 120, height: 40)
        for x in stride(from: 4, to: 116, by: 8) {
            let expected = RGB(Color.lerp(.red, .green, (Double(x) + 0.5) / 120))
            #expect(img.rgb(x, 20).distance(expected) <= 1, "x \(x)")  // 1024-entry gradient table
        }
    }

    @Test func labelsGoAboveBelowAndAtTheEnds() throws {
        let g = try Gauge(value: 0.5) {
            "CPU"
        } currentValueLabel: {
            "50 %"
        } minimumValueLabel: {
            "0"
        } maximumValueLabel: {
            "1"
        }
        let img = render(g.gaugeStyle(.linearCapacity), width: 160, height: 60)
        let layout = LinearCapacityGaugeStyle().layout(
            g.configuration, in: Rect(x: 0, y: 0, width: 160, height: 60), context: DrawContext())
        let bar = layout.bar
        let above = try #require(
            img.inkBounds(in: IntRect(x: 0, y: 0, width: 160, height: Int(bar.minY) - 1), background: Self.bg))
        let below = try #require(
            img.inkBounds(in: IntRect(x: 0, y: Int(bar.maxY) + 1, width: 160, height: 30), background: Self.bg))
        // Label and current value centred over the gauge's width.
        #expect(abs(Double(above.minX + above.maxX) / 2 - 80) <= 1.5)
        #expect(abs(Double(below.minX + below.maxX) / 2 - 80) <= 1.5)
        // Min and max at the ends, outside the bar, on its row.
        let row = IntRect(x: 0, y: Int(bar.minY) - 6, width: 160, height: 12 + Int(bar.height))
        let left = try #require(
            img.inkBounds(in: IntRect(x: 0, y: row.y, width: Int(bar.minX), height: row.height), background: Self.bg))
        let right = try #require(
            img.inkBounds(
                in: IntRect(x: Int(bar.maxX) + 1, y: row.y, width: 40, height: row.height), background: Self.bg))
        #expect(left.minX <= 2 && Double(left.maxX) < bar.minX)
        #expect(right.maxX >= 157 && Double(right.minX) > bar.maxX)
        #expect(bar.minX > 5 && bar.maxX < 155)
    }
}

@Suite struct AccessoryLinearTests {
    static let bg = RGB(Panel.background)

    /// Labels of 24 px: bar 8.4 px thick, dot radius 7.56, padding to 10.92; the
    /// dot travels between x = 10.92 and 200 - 10.92.
    static func gauge(_ v: Double, _ tint: Tint) throws -> Gauge {
        try Gauge(value: v) { "T" }.gaugeStyle(.accessoryLinear).tint(tint).environment { $0.labelSize = 24 }
    }

    @Test(arguments: [0.0, 0.4, 1.0])
    func markerSitsAtTheValueWithClearPadding(v: Double) throws {
        let img = render(try Self.gauge(v, .color(.yellow)), width: 200, height: 40)
        let p = Point(x: 10.92 + v * (200 - 21.84), y: 20)
        let dot = img.pixels { _, _, c in c == RGB(.yellow) }
        let cx = dot.map { Double($0.x) + 0.5 }.reduce(0, +) / Double(dot.count)
        let cy = dot.map { Double($0.y) + 0.5 }.reduce(0, +) / Double(dot.count)
        #expect(abs(cx - p.x) < 0.3 && abs(cy - p.y) < 0.3)
        let padding = img.pixels { x, y, _ in
            let d = hypot(Double(x) + 0.5 - p.x, Double(y) + 0.5 - p.y)
            return d >= 7.56 + 0.71 && d <= 10.92 - 0.71
        }
        #expect(padding.count > 12)
        for q in padding { #expect(img.rgb(q.x, q.y) == Self.bg, "padding pixel \(q)") }
    }

    @Test func gradientMarkerTakesTheColourAtItsPosition() throws {
        let tint = Tint.gradient([.green, .yellow, .red])
        for v in [0.1, 0.5, 0.9] {
            let img = render(try Self.gauge(v, tint), width: 200, height: 40)
            let x = 10.92 + v * (200 - 21.84)
            #expect(img.rgb(at: Point(x: x, y: 20)) == RGB(tint.color(at: v)))
        }
    }

    @Test func currentValueSitsAtTheLeadingEdge() throws {
        let g = try Gauge(value: 0.5) {
            "T"
        } currentValueLabel: {
            "50"
        }.gaugeStyle(.accessoryLinear)
        let img = render(g, width: 120, height: 30)
        let layout = AccessoryLinearGaugeStyle().layout(
            g.configuration, in: Rect(x: 0, y: 0, width: 120, height: 30), context: DrawContext())
        let ink = try #require(
            img.inkBounds(in: IntRect(x: 0, y: 0, width: Int(layout.bar.minX) - 1, height: 30), background: Self.bg))
        #expect(ink.minX <= 2)
        #expect(abs(Double(ink.minY + ink.maxY) / 2 - 15) <= 1)
    }
}

@Suite struct AccessoryLinearCapacityTests {
    static let bg = RGB(Panel.background)

    @Test func labelsSitAtTheLeadingEdgeAboveAndBelowTheBar() throws {
        let g = try Gauge(value: 0.6) {
            "Battery"
        } currentValueLabel: {
            "60 %"
        }.gaugeStyle(.accessoryLinearCapacity)
        let img = render(g, width: 160, height: 60)
        let bar = AccessoryLinearCapacityGaugeStyle().layout(
            g.configuration, in: Rect(x: 0, y: 0, width: 160, height: 60), context: DrawContext()
        ).bar
        #expect(abs(bar.height - 4.2) < 1e-9 && bar.minX == 0 && bar.maxX == 160)
        let above = try #require(
            img.inkBounds(in: IntRect(x: 0, y: 0, width: 160, height: Int(bar.minY) - 1), background: Self.bg))
        let below = try #require(
            img.inkBounds(in: IntRect(x: 0, y: Int(bar.maxY) + 1, width: 160, height: 30), background: Self.bg))
        #expect(above.minX <= 2 && below.minX <= 2)
        #expect(above.maxX < 80 && below.maxX < 80)
    }

    @Test func gradientTintFillsWithTheColourAtTheValue() throws {
        let tint = Tint.gradient([.green, .red])
        let g = try Gauge(value: 0.7).gaugeStyle(.accessoryLinearCapacity).tint(tint).environment { $0.labelSize = 24 }
        let img = render(g, width: 100, height: 30)
        // Bar 8.4 px thick centred on y = 15, fill to x = 70.
        for x in stride(from: 5, to: 66, by: 5) { #expect(img.rgb(x, 15) == RGB(tint.color(at: 0.7)), "x \(x)") }
        #expect(img.rgb(80, 15) == Expect.over(GaugeEnvironment().track, Panel.background))
    }
}
