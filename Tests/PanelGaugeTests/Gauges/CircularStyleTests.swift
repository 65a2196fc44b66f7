#if canImport(Glibc)
    import Glibc
#endif
import Testing
@testable import PanelGauge

/// Geometry the circular styles promise, checked on their pixels with
/// expectations computed from each style's documented proportions (not from a
/// recorded image). A pixel is sampled only where its whole square lies inside
/// (or outside) a shape, so its expected colour is exact.
@Suite struct AccessoryCircularCapacityTests {
    static let bg = RGB(Panel.background)

    @Test(arguments: [0.25, 0.5, 0.73])
    func valueArcRunsClockwiseFromTheTop(v: Double) throws {
        let img = render(try Gauge(value: v).gaugeStyle(.accessoryCircularCapacity).tint(.blue), width: 80, height: 80)
        // D = 80: stroke 8 on the centre-line radius 36 about (40, 40).
        let c = Point(x: 40, y: 40), r = 36.0
        let capDegrees = Angle(radians: 4 / r).degrees, slack = 3.0  // slack: a pixel's half-diagonal, and more
        let track = Expect.capacityTrack(.blue, over: Panel.background)
        for k in stride(from: 0.05, through: 0.95, by: 0.05) {
            #expect(img.rgb(at: c.onCircle(radius: r, angle: .degrees(270 + 360 * v * k))) == RGB(.blue))
        }
        let end = 270 + 360 * v + capDegrees + slack, wrap = 270 + 360 - capDegrees - slack
        for a in stride(from: end, through: wrap, by: 2) {
            #expect(img.rgb(at: c.onCircle(radius: r, angle: .degrees(a))) == track, "angle \(a)")
        }
        // Inside and outside the ring: background.
        #expect(img.rgb(at: c.onCircle(radius: r - 6, angle: 0)) == Self.bg)
        #expect(img.rgb(0, 0) == Self.bg)
    }

    /// A gradient runs over the turn from the top, squeezed by the round cap's
    /// angle m at each end so the start cap keeps the first colour: the colour
    /// at 270 + a degrees is the gradient at a / (360 - 2m).
    @Test func gradientRunsClockwiseFromTheTop() throws {
        let tint = Tint.gradient([.green, .yellow, .red])
        let img = render(try Gauge(value: 1).gaugeStyle(.accessoryCircularCapacity).tint(tint), width: 80, height: 80)
        let c = Point(x: 40, y: 40), r = 36.0
        let m = Angle(radians: 4 / r).degrees
        for a in stride(from: 10.0, through: 350, by: 20) {
            let p = c.onCircle(radius: r, angle: .degrees(270 + a))
            let (x, y) = (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
            var pa = angleOfPixel(x, y, about: c) - 270
            if pa < 0 { pa += 360 }
            // One level per channel: the rasterizer's 1024-entry gradient table.
            #expect(img.rgb(x, y).distance(RGB(tint.color(at: pa / (360 - 2 * m)))) <= 1, "angle \(a)")
        }
    }

    @Test func zeroShowsOnlyTheTrackAndOutOfRangePinsInItsColour() throws {
        let g = try Gauge(value: 0.5).gaugeStyle(.accessoryCircularCapacity).tint(.blue)
        let zero = render(try g.withValue(0), width: 60, height: 60)
        let layout = AccessoryCircularCapacityGaugeStyle.layout(in: Rect(x: 0, y: 0, width: 60, height: 60))
        let track = Expect.capacityTrack(.blue, over: Panel.background)
        for a in stride(from: 0.0, to: 360, by: 10) {
            #expect(zero.rgb(at: layout.center.onCircle(radius: layout.radius, angle: .degrees(a))) == track)
        }
        // Out of range: pinned at the end, in the out-of-range colour.
        let oor = RGB(GaugeEnvironment().outOfRange)
        let under = render(try g.withValue(-4), width: 60, height: 60)
        #expect(!under.samePixels(as: zero))
        let over = render(try g.withValue(9), width: 60, height: 60)
        for a in stride(from: 0.0, to: 360, by: 10) {
            #expect(over.rgb(at: layout.center.onCircle(radius: layout.radius, angle: .degrees(a))) == oor)
        }
    }

    @Test func currentValueIsCentred() throws {
        let g = try Gauge(value: 0.73).valueFormat(.percent()).gaugeStyle(.accessoryCircularCapacity)
        let img = render(g, width: 80, height: 80)
        // Inside the ring's inner edge (radius 32), only the text differs from the background.
        let ink = try #require(img.inkBounds(in: IntRect(x: 10, y: 10, width: 60, height: 60), background: Self.bg))
        #expect(ink.width > 15)  // "73 %" is there
        // Centred on (40, 40): advance-centred horizontally (bearings make the ink
        // up to a pixel off), ink-centred vertically on a whole-pixel baseline.
        #expect(abs(Double(ink.minX + ink.maxX) / 2 - 40) <= 1.5)
        #expect(abs(Double(ink.minY + ink.maxY) / 2 - 40) <= 1)
    }
}

@Suite struct AccessoryCircularTests {
    static let bg = RGB(Panel.background)

    /// D = 160: stroke 16, dot radius 10, clear padding to 12.4, ring radius 67.6.
    @Test(arguments: [0.0, 0.3, 0.73, 1.0])
    func markerSitsOnTheArcWithClearPadding(v: Double) throws {
        let img = render(try Gauge(value: v).gaugeStyle(.accessoryCircular).tint(.yellow), width: 160, height: 160)
        let l = AccessoryCircularGaugeStyle.layout(in: Rect(x: 0, y: 0, width: 160, height: 160))
        #expect(l.radius == 80 - 12.4 && l.lineWidth == 16)
        let a = Angle.degrees(135 + 270 * v).radians
        let p = Point(x: 80 + 67.6 * cos(a), y: 80 + 67.6 * sin(a))
        // The dot: every pixel of exactly the tint, centred on p.
        let dot = img.pixels { _, _, c in c == RGB(.yellow) }
        #expect(!dot.isEmpty)
        let cx = dot.map { Double($0.x) + 0.5 }.reduce(0, +) / Double(dot.count)
        let cy = dot.map { Double($0.y) + 0.5 }.reduce(0, +) / Double(dot.count)
        #expect(abs(cx - p.x) < 0.3 && abs(cy - p.y) < 0.3)
        let farthest = dot.map { hypot(Double($0.x) + 0.5 - p.x, Double($0.y) + 0.5 - p.y) }.max() ?? 0
        #expect(farthest < 10)
        // The clear padding: pixels wholly between radius 10 and 12.4 of p are background.
        let padding = img.pixels { x, y, _ in
            let d = hypot(Double(x) + 0.5 - p.x, Double(y) + 0.5 - p.y)
            return d >= 10 + 0.71 && d <= 12.4 - 0.71
        }
        #expect(padding.count > 20)
        for q in padding { #expect(img.rgb(q.x, q.y) == Self.bg, "padding pixel \(q)") }
    }

    @Test func ringIsOpenAtTheBottom() throws {
        let img = render(try Gauge(value: 0.9).gaugeStyle(.accessoryCircular), width: 160, height: 160)
        let c = Point(x: 80, y: 80), r = 67.6
        let track = Expect.over(GaugeEnvironment().track, Panel.background)
        // The opening spans 45..135 degrees less the round caps (8 px = 6.8 degrees).
        for a in stride(from: 56.0, through: 124, by: 4) {
            #expect(img.rgb(at: c.onCircle(radius: r, angle: .degrees(a))) == Self.bg, "opening at \(a)")
        }
        // The track where the marker is not (marker at 378 degrees).
        for a in stride(from: 140.0, through: 340, by: 10) {
            #expect(img.rgb(at: c.onCircle(radius: r, angle: .degrees(a))) == track, "track at \(a)")
        }
    }

    @Test func gradientMarkerTakesTheColourAtItsPosition() throws {
        let tint = Tint.gradient([.green, .yellow, .red])
        for v in [0.2, 0.5, 0.8] {
            let img = render(try Gauge(value: v).gaugeStyle(.accessoryCircular).tint(tint), width: 160, height: 160)
            let p = AccessoryCircularGaugeStyle.layout(in: Rect(x: 0, y: 0, width: 160, height: 160)).point(for: v)
            #expect(img.rgb(at: p) == RGB(tint.color(at: v)))
        }
    }

    /// With a value format, the centre text is sized from the widest text the
    /// range can show ("100 %"), so "0 %" is not drawn larger than "100 %".
    @Test func centreTextSizeDoesNotChangeWithTheValue() throws {
        let g = try Gauge(value: 0).valueFormat(.percent()).gaugeStyle(.accessoryCircular)
        var heights = Set<Int>()
        for v in [0.0, 0.5, 1.0] {
            let img = render(try g.withValue(v), width: 80, height: 80)
            let ink = try #require(img.inkBounds(in: IntRect(x: 20, y: 25, width: 40, height: 30), background: Self.bg))
            heights.insert(ink.height)
        }
        #expect(heights.count == 1)
        // Without a format nothing tells the style the widest text: each label
        // only shrinks as far as it must to fit (as SwiftUI's text does).
        let zero = render(
            try Gauge(value: 0) {
                ""
            } currentValueLabel: {
                "0 %"
            }.gaugeStyle(.accessoryCircular), width: 80, height: 80)
        let full = render(
            try Gauge(value: 1) {
                ""
            } currentValueLabel: {
                "100 %"
            }.gaugeStyle(.accessoryCircular), width: 80, height: 80)
        let a = try #require(zero.inkBounds(in: IntRect(x: 20, y: 25, width: 40, height: 30), background: Self.bg))
        let b = try #require(full.inkBounds(in: IntRect(x: 20, y: 25, width: 40, height: 30), background: Self.bg))
        #expect(a.height > b.height)
    }

    /// On a small gauge (D = 64, where 0.1 D is 6.4 px) the end labels are set at
    /// 9 px, which still fits below the round ends.
    /// A small gauge's end labels take the room between the marker's padding
    /// at the ends and the square's bottom (less than 9 px here), so neither
    /// the marker nor the square's edge cuts them.
    @Test func smallGaugesFitEndLabelsUnderTheMarker() throws {
        let g = try Gauge(value: 0.5) {
            ""
        } minimumValueLabel: {
            "0"
        } maximumValueLabel: {
            "8"
        }
        let img = render(g.gaugeStyle(.accessoryCircular), width: 64, height: 64)
        // Stroke 6.4, padding 4.96, radius 27.04: ends at (32 -/+ 19.1, 51.1);
        // the labels' line from 56.1 to the bottom, 7.92 px.
        let endY = 32 + 27.04 * 0.5.squareRoot()
        let room = 64 - endY - 4.96
        let left = try #require(img.inkBounds(in: IntRect(x: 0, y: 56, width: 32, height: 8), background: Self.bg))
        let glyph = try #require(try FontCache.shared.font(.default, pixelSize: room).inkBounds(of: "0"))
        #expect(left.height == glyph.height && left.width == glyph.width)
        #expect(left.maxY <= 64 && Double(left.minY) >= endY + 4.96 - 0.5)
    }

    @Test func minAndMaxLabelsSitInTheOpening() throws {
        let g = try Gauge(value: 0.5) {
            ""
        } currentValueLabel: {
            "50"
        } minimumValueLabel: {
            "0"
        } maximumValueLabel: {
            "9"
        }
        let img = render(g.gaugeStyle(.accessoryCircular), width: 160, height: 160)
        // The round ends are centred at (80 -/+ 47.8, 127.8), radius 8: below
        // y = 136 only the labels are drawn.
        let end = 67.6 * 0.5.squareRoot()
        let left = try #require(img.inkBounds(in: IntRect(x: 0, y: 136, width: 80, height: 24), background: Self.bg))
        let right = try #require(img.inkBounds(in: IntRect(x: 80, y: 136, width: 80, height: 24), background: Self.bg))
        // Centred under the ends, below the marker's padding (0.775 x 16 =
        // 12.4): ink centred at 127.8 + 12.4 + 0.1 D / 2 = 148.2.
        #expect(abs(Double(left.minX + left.maxX) / 2 - (80 - end)) <= 1.5)
        #expect(abs(Double(right.minX + right.maxX) / 2 - (80 + end)) <= 1.5)
        for ink in [left, right] { #expect(abs(Double(ink.minY + ink.maxY) / 2 - (80 + end + 12.4 + 8)) <= 1) }
    }
}
