import Testing

@testable import PanelGauge

/// Peak marks (``GaugePeaks``): where each style puts them, in which colour,
/// what they leave alone. The layer and damage promises with peaks are
/// GaugeLayersTests' (run with and without peaks).
@Suite struct PeakTests {
    static let rect = Rect(x: 0, y: 0, width: 240, height: 120)
    static let white = RGB(.white)

    func render(_ g: Gauge) -> Image {
        let (img, canvas) = Panel.image(width: Int(Self.rect.width), height: Int(Self.rect.height))
        g.draw(in: Self.rect, on: canvas)
        return img
    }

    /// Pixels where two images differ.
    func differing(_ a: Image, _ b: Image) -> [(x: Int, y: Int)] {
        a.pixels { x, y, p in p != b.rgb(x, y) }
    }

    /// On a bar, a mark crosses the bar where the value lies along it (the
    /// fill's end on a capacity bar, the marker's centre on a marker bar),
    /// its middle pixel in the foreground colour, and paints nothing
    /// outside the bar; horizontal and upright, at values across the range.
    @Test(arguments: [
        LinearCapacityGaugeStyle() as any LinearLaidOut, LinearCapacityGaugeStyle(axis: .vertical),
        AccessoryLinearGaugeStyle(), AccessoryLinearCapacityGaugeStyle(axis: .vertical),
    ])
    func aMarkCrossesTheBarAtItsValue(style: any LinearLaidOut) throws {
        let base = try Gauge(value: 30, in: 0...100) { "Tank" }.gaugeStyle(style).tint(.blue)
        let plain = render(base)
        let l = try #require(base.linearLayout(in: Self.rect))
        let r = l.thickness / 2
        for v in [12.0, 30, 47.5, 88] {
            let img = render(base.peaks(GaugePeaks(low: nil, high: v)))
            let along = l.position(for: v / 100)
            let p =
                l.axis == .vertical ? Point(x: l.bar.midX, y: along) : Point(x: along, y: l.bar.midY)
            #expect(img.rgb(at: p) == Self.white, "\(style) at \(v): \(img.rgb(at: p))")
            let changed = differing(img, plain)
            #expect(!changed.isEmpty)
            // Within the bar, and within the mark's width and edge of the value.
            let bar = IntRect(covering: l.bar)
            let reach = 2.5 + 5 / 2 + 2
            for q in changed {
                #expect(bar.contains(IntRect(x: q.x, y: q.y, width: 1, height: 1)), "\(style) at \(v): \(q)")
                let d = l.axis == .vertical ? Double(q.y) + 0.5 - along : Double(q.x) + 0.5 - along
                #expect(abs(d) <= reach, "\(style) at \(v): \(q) is \(d) px from the value")
            }
            #expect(r > 0)
        }
    }

    /// On a ring, a mark crosses the stroke at the value's angle; a dial's
    /// pointer sits at its ticks in the colour the needle has at the peak
    /// (a threshold zone's there).
    @Test func ringsAndDialsMarkAtTheValuesAngle() throws {
        for style in [AccessoryCircularCapacityGaugeStyle() as any GaugeStyle, AccessoryCircularGaugeStyle()] {
            let g = try Gauge(value: 20, in: 0...100).gaugeStyle(style).tint(.blue)
            let l =
                AccessoryCircularCapacityGaugeStyle.self == type(of: style)
                ? AccessoryCircularCapacityGaugeStyle.layout(in: Self.rect)
                : AccessoryCircularGaugeStyle.layout(in: Self.rect)
            for v in [35.0, 60, 90] {
                let img = render(g.peaks(GaugePeaks(low: nil, high: v)))
                let p = l.point(for: v / 100)
                #expect(img.rgb(at: p) == Self.white, "\(style) at \(v)")
                let plain = render(g)
                for q in differing(img, plain) {
                    let d = Point(x: Double(q.x) + 0.5 - l.center.x, y: Double(q.y) + 0.5 - l.center.y)
                    let radius = (d.x * d.x + d.y * d.y).squareRoot()
                    #expect(abs(radius - l.radius) <= l.lineWidth / 2 + 1, "\(style) at \(v): \(q) off the stroke")
                }
            }
        }
        let zones = try Thresholds(.green, (80, .red))
        let dial = try Gauge(value: 50, in: 0...100).gaugeStyle(.dial).thresholds(zones)
        let style = DialGaugeStyle()
        let context = DrawContext(fonts: .shared, environment: dial.environment)
        let l = try #require(style.layout(configuration: dial.configuration, in: Self.rect, context: context))
        for (v, color) in [(30.0, Color.green), (90, .red)] {
            let img = render(dial.peaks(GaugePeaks(low: v, high: nil)))
            let angle = l.startAngle + l.sweep * (v / 100)
            let depth = max(l.majorTickLength, 0.08 * l.radius)
            let p = l.center.onCircle(radius: l.tickRadius - depth / 3, angle: angle)
            #expect(img.rgb(at: p).distance(RGB(color)) <= 2, "dial at \(v): \(img.rgb(at: p))")
        }
    }

    /// A peak past the range is marked at the end it passed, in the
    /// out-of-range colour; nil and non-finite peaks, and no peaks, mark nothing.
    @Test func outOfRangeAndMissingPeaks() throws {
        let g = try Gauge(value: 50, in: 0...100).gaugeStyle(.linearCapacity)
        let l = try #require(g.linearLayout(in: Self.rect))
        let img = render(g.peaks(GaugePeaks(low: -5, high: 130)))
        let magenta = RGB(GaugeEnvironment().outOfRange)
        let marks = img.pixels { _, _, p in p == magenta }
        #expect(!marks.isEmpty)
        #expect(marks.contains { Double($0.x) < l.bar.minX + l.thickness })
        #expect(marks.contains { Double($0.x) > l.bar.maxX - l.thickness })
        let plain = render(g)
        for peaks in [nil, GaugePeaks(low: nil, high: nil), GaugePeaks(low: .nan, high: .infinity)] {
            #expect(render(g.peaks(peaks)).samePixels(as: plain), "\(String(describing: peaks))")
        }
        // A gauge without a value still marks its peaks.
        let none = render(g.withoutValue().peaks(GaugePeaks(low: 20, high: nil)))
        #expect(!differing(none, render(g.withoutValue())).isEmpty)
    }

    /// Moving a peak changes only its mark: the layering's changed bounds
    /// between two peaks at one value hold every pixel that differs, and
    /// are two small boxes, not the gauge.
    @Test func movingAPeakDamagesItsMarkAlone() throws {
        let g = try Gauge(value: 40, in: 0...100) { "CPU" }.gaugeStyle(.linearCapacity).valueFormat(.percent())
        let a = g.peaks(GaugePeaks(low: 10, high: 60)), b = g.peaks(GaugePeaks(low: 10, high: 75))
        let la = a.layering(in: Self.rect), lb = b.layering(in: Self.rect)
        #expect(la.staticKey == lb.staticKey)
        let changed = try #require(la.changedBounds(to: lb))
        #expect(changed.count == 2, "the old and the new high mark")
        #expect(changed.reduce(0) { $0 + $1.width * $1.height } < 0.05 * Self.rect.width * Self.rect.height)
        let boxes = changed.map(IntRect.init(covering:))
        for q in differing(render(a), render(b)) {
            #expect(boxes.contains { $0.contains(IntRect(x: q.x, y: q.y, width: 1, height: 1)) }, "\(q)")
        }
        #expect(la.changedBounds(to: la) == [])
        // With peaks, a value arc is not declared (a copy of the whole arc would cover a mark).
        let ring = try Gauge(value: 40, in: 0...100).gaugeStyle(.accessoryCircularCapacity)
        #expect(ring.layering(in: Self.rect).valueArc != nil)
        #expect(ring.peaks(GaugePeaks(low: 10, high: nil)).layering(in: Self.rect).valueArc == nil)
    }
}
