import Testing
@testable import PanelGauge

/// Out of range and without a value, the same in every built-in style: the
/// indicator pins at the end in ``GaugeEnvironment/outOfRange``; a gauge
/// without a value draws the same pixels whatever value it last had.
@Suite struct OutOfRangeTests {
    static let styles: [(name: String, style: any GaugeStyle, w: Int, h: Int)] = [
        ("linearCapacity", LinearCapacityGaugeStyle(), 90, 44),
        ("accessoryLinear", AccessoryLinearGaugeStyle(), 90, 30),
        ("accessoryLinearCapacity", AccessoryLinearCapacityGaugeStyle(), 90, 44),
        ("accessoryCircular", AccessoryCircularGaugeStyle(), 56, 56),
        ("accessoryCircularCapacity", AccessoryCircularCapacityGaugeStyle(), 56, 56),
        ("ring", RingGaugeStyle(), 64, 64),
        ("dial", DialGaugeStyle(), 72, 72),
        ("stepped", SteppedGaugeStyle(segments: 6), 56, 56),
        ("linearCapacity vertical", LinearCapacityGaugeStyle(axis: .vertical), 44, 90),
        ("accessoryLinear vertical", AccessoryLinearGaugeStyle(axis: .vertical), 30, 90),
        ("accessoryLinearCapacity vertical", AccessoryLinearCapacityGaugeStyle(axis: .vertical), 44, 90),
    ]

    static func gauge(_ i: Int, _ v: Double) throws -> Gauge {
        let s = styles[i]
        return try Gauge(value: v, in: 0...40) { "T" }.valueFormat(.number(decimals: 0, unit: "C"))
            .gaugeStyle(s.style)
    }

    static func image(_ i: Int, _ g: Gauge) -> Image { render(g, width: styles[i].w, height: styles[i].h) }

    @Test(arguments: styles.indices)
    func aboveTheRangeShowsTheOutOfRangeColour(_ i: Int) throws {
        let oor = RGB(GaugeEnvironment().outOfRange)
        let top = Self.image(i, try Self.gauge(i, 40))
        let over = Self.image(i, try Self.gauge(i, 55))
        #expect(top.pixels { _, _, c in c == oor }.isEmpty, "\(Self.styles[i].name)")
        #expect(!over.pixels { _, _, c in c == oor }.isEmpty, "\(Self.styles[i].name)")
    }

    @Test(arguments: styles.indices)
    func belowTheRangeDiffersFromTheLowerBound(_ i: Int) throws {
        // The same text width ("-5 C" is wider than "0 C" but the value is
        // sized by the range's ends): the track's colour tells them apart.
        let bottom = Self.image(i, try Self.gauge(i, 0))
        let under = Self.image(i, try Self.gauge(i, -5))
        #expect(!under.samePixels(as: bottom), "\(Self.styles[i].name)")
    }

    @Test(arguments: styles.indices)
    func withoutValueShowsNoReading(_ i: Int) throws {
        let a = Self.image(i, try Self.gauge(i, 0).withoutValue())
        let b = Self.image(i, try Self.gauge(i, 33).withoutValue())
        #expect(a.samePixels(as: b), "\(Self.styles[i].name)")
        #expect(!a.samePixels(as: Self.image(i, try Self.gauge(i, 0))), "\(Self.styles[i].name)")
    }
}
