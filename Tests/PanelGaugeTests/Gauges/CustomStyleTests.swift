import Testing
@testable import PanelGauge

/// The custom style of the README snippet, compiled and checked here so the
/// snippet stays true.
struct Bar: GaugeStyle {
    func makeBody(configuration: Configuration) -> some Drawable {
        Draw { rect, canvas, _ in
            canvas.fill(rect, paint: .solid(.gray))
            var filled = rect
            filled.width *= configuration.value
            canvas.fill(filled, paint: .solid(configuration.tint.color(at: configuration.value)))
        }
    }
}

@Suite struct CustomStyleTests {
    @Test func aCustomStyleReceivesTheNormalizedValueAndTint() throws {
        let g = try Gauge(value: 30, in: 0...40).gaugeStyle(Bar()).tint(.red)
        let img = render(g, width: 40, height: 4)
        #expect((0..<30).allSatisfy { img.rgb($0, 2) == RGB(.red) })
        #expect((30..<40).allSatisfy { img.rgb($0, 2) == RGB(.gray) })
    }

    @Test func aCustomLabelMeasuresItselfAndDrawsIntoItsRectangle() throws {
        let square = Draw(size: { _, _ in Size(width: 10, height: 10) }) { r, canvas, _ in
            canvas.fill(r, paint: .solid(.white))
        }
        let g = try Gauge(value: 0.5) {
            ""
        } currentValueLabel: {
            .custom(square)
        }.gaugeStyle(.accessoryCircularCapacity)
        let img = render(g, width: 60, height: 60)
        // Centred: the 10x10 square covers exactly x, y in 25..<35.
        let white = img.pixels { _, _, c in c == RGB(.white) }
        #expect(white.count == 100)
        #expect(white.allSatisfy { (25..<35).contains($0.x) && (25..<35).contains($0.y) })
    }
}

@Suite struct IconTests {
    @Test func iconsComeFromWhiteOnBlackPictures() throws {
        let rgb: [UInt8] = [255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255]
        let icon = try #require(Icon(luminanceOf: rgb, width: 2, height: 2))
        #expect(icon.coverage == [255, 0, 76, 29])  // Rec. 601: 0.299 R, 0.114 B
        #expect(Icon(luminanceOf: rgb, width: 3, height: 2) == nil)
        let png = try PNG.encode(rgb: rgb, width: 2, height: 2)
        #expect(try Icon(png: png) == icon)
        #expect(Icon(width: 2, height: 2, coverage: [1, 2, 3]) == nil)
    }

    @Test func iconsResizeByAreaAveraging() throws {
        let solid = try #require(Icon(width: 3, height: 2, coverage: [UInt8](repeating: 200, count: 6)))
        #expect(solid.resized(width: 7, height: 5)?.coverage == [UInt8](repeating: 200, count: 35))
        let diagonal = try #require(Icon(width: 2, height: 2, coverage: [255, 0, 0, 255]))
        #expect(diagonal.resized(width: 1, height: 1)?.coverage == [128])  // 127.5 rounds up
        #expect(
            diagonal.resized(width: 4, height: 4)?.coverage == [
                255, 255, 0, 0, 255, 255, 0, 0, 0, 0, 255, 255, 0, 0, 255, 255,
            ])
        // 3 -> 2 columns: each new pixel covers 1.5 old ones.
        let ramp = try #require(Icon(width: 3, height: 1, coverage: [0, 90, 180]))
        #expect(ramp.resized(width: 2, height: 1)?.coverage == [30, 150])  // (0 + 45) / 1.5, (45 + 180) / 1.5
        #expect(ramp.resized(width: 0, height: 1) == nil)
    }

    @Test func anIconLabelIsPaintedInTheForegroundColour() throws {
        let icon = try #require(Icon(width: 6, height: 4, coverage: [UInt8](repeating: 255, count: 24)))
        let g = try Gauge(value: 0.5) {
            ""
        } currentValueLabel: {
            .icon(icon)
        }.gaugeStyle(.accessoryCircularCapacity)
            .environment { $0.foreground = .yellow }
        let img = render(g, width: 60, height: 60)
        let yellow = img.pixels { _, _, c in c == RGB(.yellow) }
        #expect(yellow.count == 24)
        #expect(yellow.allSatisfy { (27..<33).contains($0.x) && (28..<32).contains($0.y) })
    }
}

@Suite struct ReadmeExampleTests {
    /// The first example of docs/gallery/README-snippet.md, as written there.
    @Test func theReadmeExampleRunsAndUsesTheThresholdColour() throws {
        let cpu = try Gauge(value: 73, in: 0...100) { "CPU" }
            .valueFormat(.percent())  // "73 %"
            .gaugeStyle(.accessoryCircularCapacity)
            .thresholds(try Thresholds(.green, (60, .orange), (85, .red)))

        let image = Image(width: 320, height: 240)  // or a DRM dumb buffer's Surface
        let canvas = Canvas(surface: image.surface)
        let cells = PanelLayout.grid(in: Rect(x: 0, y: 0, width: 320, height: 240), columns: 3, rows: 2, spacing: 6)
        cpu.draw(in: cells[0], on: canvas)

        // 73 is in the orange zone: the arc from the top is orange.
        let l = AccessoryCircularCapacityGaugeStyle.layout(in: cells[0])
        #expect(image.rgb(at: l.point(for: 0.36)) == RGB(.orange))
        #expect(image.rgb(at: l.point(for: 0.9)) == Expect.capacityTrack(.orange, over: .black))

        // The animation example.
        let now = 100.0
        var shown = AnimatedGauge(cpu)  // .easeIn(duration: 0.2); or animation: .none
        try shown.setValue(91, at: now)  // a new reading
        canvas.clear(.black)
        shown.gauge(at: now + 0.1).draw(in: cells[0], on: canvas)
        // Half way through, ease-in has moved 31.5 % of the way from 73 to 91:
        // 78.7, still orange, past 0.75 of the ring.
        #expect(image.rgb(at: l.point(for: 0.75)) == RGB(.orange))
        #expect(image.rgb(at: l.point(for: 0.82)) == Expect.capacityTrack(.orange, over: .black))
    }
}

@Suite struct ArticleRingStyleTests {
    /// `Gauge(value: 0.65) { "CPU" } currentValueLabel: { "65%" }` in the
    /// article's ring style: an arc over 65 % of the turn from the top, "65%" centred.
    @Test func theArticleExampleDraws() throws {
        let g = try Gauge(value: 0.65) {
            "CPU"
        } currentValueLabel: {
            "65%"
        }.gaugeStyle(ArticleRingStyle())
        #expect(g.sizeThatFits(Size(width: 300, height: 300)) == Size(width: 80, height: 80))
        let img = render(g, width: 100, height: 100)
        // 80 px centred in 100: radius 36 about (50, 50), 8 px stroke.
        let c = Point(x: 50, y: 50)
        for k in stride(from: 0.02, through: 0.98, by: 0.04) {
            #expect(img.rgb(at: c.onCircle(radius: 36, angle: .degrees(270 + 234 * k))) == RGB(.blue))
        }
        for a in stride(from: 270.0 + 234 + 3, through: 630 - 3, by: 4) {
            #expect(img.rgb(at: c.onCircle(radius: 36, angle: .degrees(a))) == RGB(Panel.background))
        }
        let ink = try #require(
            img.inkBounds(in: IntRect(x: 25, y: 25, width: 50, height: 50), background: RGB(Panel.background)))
        #expect(abs(Double(ink.minX + ink.maxX) / 2 - 50) <= 1.5 && abs(Double(ink.minY + ink.maxY) / 2 - 50) <= 1)
    }
}
