import Testing
@testable import PanelGauge

/// SBGauge's stepped ring: D = 80 gives a 9.6 px stroke on radius 35.2 about
/// (40, 40), from the top clockwise, with 2.4 px gaps at segment boundaries.
@Suite struct SteppedStyleTests {
    static let bg = RGB(Panel.background)
    static let c = Point(x: 40, y: 40)
    static let r = 35.2

    static func draw(_ steps: SteppedGauge, at time: Double, tint: Tint = .color(.blue)) throws -> Image {
        render(
            try Gauge(value: steps.value(at: time)).gaugeStyle(.stepped(segments: steps.segments)).tint(tint),
            width: 80, height: 80)
    }

    @Test func segmentsAreSplitByGapsAndFillStepByStep() throws {
        var steps = try SteppedGauge(segments: 4, animation: .none)
        steps.stepUp(at: 0)
        steps.stepUp(at: 0)
        let img = try Self.draw(steps, at: 0)
        let track = Expect.over(GaugeEnvironment().track, Panel.background)
        // Boundaries at 270, 0, 90, 180 degrees fall mid-gap: background on the centre line.
        #expect(img.rgb(39, 4) == Self.bg && img.rgb(40, 4) == Self.bg)  // top
        #expect(img.rgb(75, 39) == Self.bg && img.rgb(75, 40) == Self.bg)  // right
        #expect(img.rgb(39, 75) == Self.bg && img.rgb(4, 40) == Self.bg)  // bottom, left
        // Two of four steps: the first two segments in the tint, the rest track.
        for a in [285.0, 315, 345, 15, 45, 75] {
            #expect(img.rgb(at: Self.c.onCircle(radius: Self.r, angle: .degrees(a))) == RGB(.blue), "angle \(a)")
        }
        for a in [105.0, 135, 165, 195, 225, 255] {
            #expect(img.rgb(at: Self.c.onCircle(radius: Self.r, angle: .degrees(a))) == track, "angle \(a)")
        }
    }

    /// A value between steps shows whole segments, rounded to the nearest
    /// step with a half step up: of 8 segments, 3.5 shows 4, 3.49 shows 3,
    /// 0.4 shows none and 7.6 all 8; never part of a segment.
    @Test(arguments: [(3.5, 4), (3.49, 3), (3.51, 4), (0.4, 0), (0.5, 1), (7.6, 8), (7.5, 8), (7.49, 7)])
    func aValueBetweenStepsShowsTheNearestWholeStep(steps: Double, shown: Int) throws {
        func picture(_ v: Double) throws -> Image {
            render(try Gauge(value: v).gaugeStyle(.stepped(segments: 8)).tint(.blue), width: 80, height: 80)
        }
        let img = try picture(steps / 8)
        #expect(img.samePixels(as: try picture(Double(shown) / 8)), "\(steps) of 8")
        // Mid-segment pixels on the centre line: the first `shown` segments in the tint.
        for k in 0..<8 {
            let p = Self.c.onCircle(radius: Self.r, angle: .degrees(270 + 45 * (Double(k) + 0.5)))
            #expect((img.rgb(at: p) == RGB(.blue)) == (k < shown), "segment \(k) at \(steps) of 8")
        }
        #expect(SteppedGaugeStyle(segments: 8).steppedValue(steps / 8) == Double(shown) / 8)
    }

    /// A gradient tint runs over the turn from the top (one level per channel:
    /// the rasterizer's 1024-entry gradient table).
    @Test func gradientRunsClockwiseFromTheTop() throws {
        let g = try Gauge(value: 1).gaugeStyle(.stepped(segments: 1)).tint(.gradient([.red, .green]))
        let img = render(g, width: 80, height: 80)
        for a in stride(from: 10.0, through: 350, by: 20) {
            let p = Self.c.onCircle(radius: Self.r, angle: .degrees(270 + a))
            let (x, y) = (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
            var u = (angleOfPixel(x, y, about: Self.c) - 270) / 360
            if u < 0 { u += 1 }
            #expect(img.rgb(x, y).distance(RGB(Color.lerp(.red, .green, u))) <= 1, "angle \(a)")
        }
    }

    /// SBGauge's width property: a wider stroke, still inside the square.
    @Test func strokeWidthIsConfigurable() throws {
        let g = try Gauge(value: 1).gaugeStyle(.stepped(segments: 1, lineWidth: 0.3)).tint(.blue)
        let img = render(g, width: 80, height: 80)
        // Stroke 24 on radius 28: blue from radius 16 to 40.
        for r in [17.0, 28, 39] { #expect(img.rgb(at: Self.c.onCircle(radius: r, angle: 30)) == RGB(.blue), "r \(r)") }
        #expect(img.rgb(at: Self.c.onCircle(radius: 14.5, angle: 30)) == RGB(Panel.background))
        #expect(SteppedGaugeStyle(segments: 2, lineWidth: 9).lineWidth == 0.5)
    }

    /// The model eases from one step to the next; the ring shows whole steps
    /// all the way, so it turns to the new step once the eased value is past
    /// half a step.
    @Test func aStepEasesInFromThePreviousOne() throws {
        var steps = try SteppedGauge(segments: 4, step: 1)
        steps.stepUp(at: 10)
        // Half way through the 0.2 s, ease-in has shown 31.5 % of the change.
        let shown = 0.25 + 0.25 * TimingCurve.easeIn.progress(at: 0.5)
        #expect(abs(steps.value(at: 10.1) - shown) < 1e-12)
        let one = try Self.draw(try SteppedGauge(segments: 4, step: 1), at: 0)
        let two = try Self.draw(try SteppedGauge(segments: 4, step: 2), at: 0)
        #expect(try Self.draw(steps, at: 10).samePixels(as: one))
        #expect(try Self.draw(steps, at: 10.1).samePixels(as: one))
        #expect(steps.value(at: 10.19) > 0.375)
        #expect(try Self.draw(steps, at: 10.19).samePixels(as: two))
        #expect(try Self.draw(steps, at: 10.2).samePixels(as: two))
    }
}

// The Primary and Secondary loader styles are user code: UserCodeStyles.swift.

@Suite struct LoaderStyleTests {
    static let bg = RGB(Panel.background)

    static func draw(_ loader: Loader, at time: Double, size: Int) -> Image {
        let (img, canvas) = Panel.image(width: size, height: size)
        loader.draw(in: Rect(x: 0, y: 0, width: Double(size), height: Double(size)), on: canvas, at: time)
        return img
    }

    /// Primary at t = 0.25 s: the arc starts at 90 degrees (a quarter turn of the
    /// one-second spin) and runs 0.6 of a turn; 8 px stroke on radius 36.
    @Test func primaryIsAPurpleArcWithThePercentageInside() throws {
        let img = Self.draw(Loader(progress: 0.6).loaderStyle(.primary), at: 0.25, size: 100)
        let c = Point(x: 50, y: 50)
        for k in stride(from: 0.0, through: 1.0, by: 0.05) {
            #expect(img.rgb(at: c.onCircle(radius: 36, angle: .degrees(90 + 216 * k))) == RGB(.purple))
        }
        // Round caps reach 4 px past each end; beyond them, background.
        let cap = Angle(radians: 5.5 / 36).degrees
        for a in stride(from: 306 + cap, through: 450 - cap, by: 3) {
            #expect(img.rgb(at: c.onCircle(radius: 36, angle: .degrees(a))) == Self.bg, "angle \(a)")
        }
        // Inside the square inscribed in the ring's inner edge (radius 32).
        let text = try #require(img.inkBounds(in: IntRect(x: 28, y: 28, width: 44, height: 44), background: Self.bg))
        let expected = try #require(try FontCache.shared.font(.default, pixelSize: 14).inkBounds(of: "60%"))
        // Grey text: an edge column of very faint coverage can round to the
        // background itself, so the drawn ink may be a pixel narrower.
        #expect(
            abs(text.width - expected.width) <= 1 && abs(text.height - expected.height) <= 1, "\(text) vs \(expected)")
        #expect(abs(Double(text.minX + text.maxX) / 2 - 50) <= 1.5 && abs(Double(text.minY + text.maxY) / 2 - 50) <= 1)
    }

    @Test func secondaryIsASmallRedArcWithoutText() throws {
        let img = Self.draw(Loader(progress: 0.6).loaderStyle(.secondary), at: 0, size: 60)
        // 40 px centred in 60: radius 18, stroke 4, from 0 degrees at t = 0.
        let c = Point(x: 30, y: 30)
        for k in stride(from: 0.0, through: 1.0, by: 0.1) {
            #expect(img.rgb(at: c.onCircle(radius: 18, angle: .degrees(216 * k))) == RGB(.red))
        }
        // Nothing inside the ring (inner radius 16) and nothing outside its 40 px square.
        #expect(img.inkBounds(in: IntRect(x: 19, y: 19, width: 22, height: 22), background: Self.bg) == nil)
        #expect(img.inkBounds(in: IntRect(x: 0, y: 0, width: 60, height: 9), background: Self.bg) == nil)
    }

    /// A gradient tint follows the spinning arc: its first colour at the arc's start.
    @Test func aGradientTintStartsAtTheArcStart() throws {
        let (img, canvas) = Panel.image(width: 80, height: 80)
        let indicator = LoaderIndicator(progress: 1, rotation: 90).tint(.gradient([.red, .green]))
        indicator.draw(in: Rect(x: 0, y: 0, width: 80, height: 80), on: canvas, context: DrawContext())
        let c = Point(x: 40, y: 40)
        // Stroke 8 on radius 36; 5 degrees past the start and before the end.
        let start = c.onCircle(radius: 36, angle: 95), end = c.onCircle(radius: 36, angle: 445)
        #expect(img.rgb(at: start).distance(RGB(Color.lerp(.red, .green, 5.0 / 360))) <= 2)
        #expect(img.rgb(at: end).distance(RGB(Color.lerp(.red, .green, 355.0 / 360))) <= 2)
    }

    @Test func theArcSpinsWithTime() throws {
        let loader = Loader(progress: 0.25).loaderStyle(.secondary)
        let a = Self.draw(loader, at: 0.5, size: 40)
        // Half a turn later: the arc from 180 to 270 degrees.
        #expect(a.rgb(at: Point(x: 20 + 18 * -0.7071, y: 20 + 18 * 0.7071)) == Self.bg)  // 135: before the start
        #expect(a.rgb(at: Point(x: 20 + 18 * -0.7071, y: 20 - 18 * 0.7071)) == RGB(.red))  // 225: inside
        #expect(Self.draw(loader, at: 1.5, size: 40).samePixels(as: a))  // one turn per second
    }
}
