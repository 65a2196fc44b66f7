import Testing
@testable import PanelGauge

/// The self-sizing ring of the SwiftUI article, checked against the article's
/// numbers: diameter = width of "100 %" x 1.777, value stroke D / 16 from the
/// bottom clockwise, dashed track D / 16 / 1.777 wide at 0.2 opacity.
@Suite struct RingStyleTests {
    static let bg = RGB(Panel.background)
    static let box = Rect(x: 0, y: 0, width: 160, height: 160)

    /// The largest font size whose ring fits 160 px, found here by plain search.
    static func expectedFont() throws -> (size: Double, diameter: Double) {
        var size = 160.0
        while size > 1 {
            let w = try FontCache.shared.font(.default, pixelSize: size).advance(of: "100 %")
            if w * 1.777 <= 160 { return (size, w * 1.777) }
            size -= 1
        }
        throw IOError(description: "no size fits")
    }

    @Test func diameterIsTheCentreWidthTimesOnePointSevenSevenSevenAndNeverChanges() throws {
        let expected = try Self.expectedFont()
        for v in [0.0, 0.05, 0.37, 0.999, 1.0, 3.0] {
            let g = try Gauge(value: v).gaugeStyle(.ring)
            let s = g.sizeThatFits(Size(width: 160, height: 160))
            #expect(s == Size(width: expected.diameter, height: expected.diameter), "value \(v)")
        }
        // Unconstrained, the ring takes its ideal size from 17 px text (or a fixed size).
        let ideal = try Gauge(value: 0.5).gaugeStyle(.ring).sizeThatFits(Size(width: .infinity, height: .infinity))
        let w17 = try FontCache.shared.font(.default, pixelSize: 17).advance(of: "100 %")
        #expect(ideal == Size(width: w17 * 1.777, height: w17 * 1.777))
        let fixed = try Gauge(value: 0.5).gaugeStyle(.ring(fontSize: 12)).sizeThatFits(
            Size(width: .infinity, height: .infinity))
        let advance = try FontCache.shared.font(.default, pixelSize: 12).advance(of: "100 %")
        #expect(fixed.width == advance * 1.777)
        // A centre given by the user sizes the ring by its own width.
        let icon = try #require(Icon(width: 30, height: 20, coverage: [UInt8](repeating: 255, count: 600)))
        let custom = try Gauge(value: 0.5) {
            ""
        } currentValueLabel: {
            .icon(icon)
        }.gaugeStyle(.ring)
        #expect(custom.sizeThatFits(Size(width: 160, height: 160)).width == 30 * 1.777)
    }

    @Test(arguments: [0.2, 0.73])
    func valueArcStartsAtTheBottomAndRunsClockwise(v: Double) throws {
        let (_, d) = try Self.expectedFont()
        let img = render(try Gauge(value: v).gaugeStyle(.ring).tint(.blue), width: 160, height: 160)
        let t = d / 16, r = (d - t) / 2
        let c = Point(x: 80, y: 80)
        for k in stride(from: 0.04, through: 0.96, by: 0.04) {
            #expect(img.rgb(at: c.onCircle(radius: r, angle: .degrees(90 + 360 * v * k))) == RGB(.blue))
        }
        // Butt ends: beyond the end (and before the start) no value colour.
        let slack = Angle(radians: 1.5 / r).degrees
        for a in stride(from: 90 + 360 * v + slack, through: 450 - slack, by: 1) {
            #expect(img.rgb(at: c.onCircle(radius: r, angle: .degrees(a))) != RGB(.blue), "angle \(a)")
        }
    }

    @Test func trackIsDashedInTheTrackColour() throws {
        let (_, d) = try Self.expectedFont()
        let img = render(try Gauge(value: 0).gaugeStyle(.ring), width: 160, height: 160)
        let t = d / 16, r = (d - t) / 2
        let c = Point(x: 80, y: 80)
        let track = Expect.over(GaugeEnvironment().track, Panel.background)
        // Dash k covers arc length [2kT, 2kT + T] from the bottom; sample the
        // middles of dashes and of gaps.
        let n = Int((2 * Double.pi * r / (2 * t)).rounded(.down))
        for k in 0..<n {
            let dash = Angle(radians: (2 * Double(k) * t + t / 2) / r).degrees
            let gap = Angle(radians: (2 * Double(k) * t + 1.5 * t) / r).degrees
            #expect(img.rgb(at: c.onCircle(radius: r, angle: .degrees(90 + dash))) == track, "dash \(k)")
            if (2 * Double(k) + 2) * t < 2 * Double.pi * r {
                #expect(img.rgb(at: c.onCircle(radius: r, angle: .degrees(90 + gap))) == Self.bg, "gap \(k)")
            }
        }
    }

    /// Red to green over the whole turn from the bottom, at pixel centres (the
    /// rasterizer's 1024-entry gradient table and its atan approximation allow
    /// one level per channel).
    /// Checks a full ring (160 px) along its centre line every 10 degrees from
    /// the bottom: each sampled pixel within one level of `colour(u)`, u its
    /// centre's turn from the bottom, clockwise (0 ..< 1).
    static func expectRingColours(_ gauge: Gauge, _ colour: (Double) -> Color) throws {
        let (_, d) = try expectedFont()
        let img = render(gauge, width: 160, height: 160)
        let t = d / 16, r = (d - t) / 2
        let c = Point(x: 80, y: 80)
        for a in stride(from: 95.0, through: 445, by: 10) {
            let p = c.onCircle(radius: r, angle: .degrees(a))
            let (x, y) = (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
            var u = (angleOfPixel(x, y, about: c) - 90) / 360
            if u < 0 { u += 1 }
            #expect(img.rgb(x, y).distance(RGB(colour(u))) <= 1, "angle \(a)")
        }
    }

    @Test func gradientRunsRedToGreenFromTheBottomByDefault() throws {
        try Self.expectRingColours(try Gauge(value: 1).gaugeStyle(.ring)) { Color.lerp(.red, .green, $0) }
    }

    /// A tint that repeats a colour holds it over a long stretch of the ring:
    /// here green over 288 degrees from the bottom, past the right-hand side,
    /// then green to red. (Below the centre, right of it, the conic shader
    /// once stepped from run to run of the gradient's table without end.)
    @Test func aTintWithALongFlatStretchFollowsItsStops() throws {
        let green = Color(hex: 0x34C759), red = Color(hex: 0xFF3B30)
        let gauge = try Gauge(value: 1).gaugeStyle(.ring).tint(Tint.gradient([green, green, green, green, green, red]))
        try Self.expectRingColours(gauge) { u in u <= 0.8 ? green : Color.lerp(green, red, (u - 0.8) / 0.2) }
    }

    @Test func centreLabelReadsThePercentageAndIsCentred() throws {
        let (size, d) = try Self.expectedFont()
        let img = render(try Gauge(value: 0.73).gaugeStyle(.ring), width: 160, height: 160)
        let inner = Int((d / 2 - d / 16) * 0.7)
        let region = IntRect(x: 80 - inner, y: 80 - inner, width: 2 * inner, height: 2 * inner)
        let ink = try #require(img.inkBounds(in: region, background: Self.bg))
        let font = try FontCache.shared.font(.default, pixelSize: size)
        let expected = try #require(font.inkBounds(of: "73 %"))
        #expect(ink.width == expected.width && ink.height == expected.height)
        #expect(abs(Double(ink.minX + ink.maxX) / 2 - 80) <= 1.5)
        #expect(abs(Double(ink.minY + ink.maxY) / 2 - 80) <= 1)
    }
}
