import PanelGauge
import Testing

@testable import PanelScene

/// A scene as a program uses it: keep the state shown, ask for the damage to
/// the next one, repaint only that; the result is the full redraw's pixels.
@Suite struct GaugeSceneTests {
    /// A line of text, centred.
    struct Caption: SceneWidget {
        func draw(_ text: String, in frame: IntRect, on canvas: Canvas) {
            guard let font = try? FontCache.shared.font(.default, pixelSize: 14) else { return }
            let x = Double(frame.minX) + (Double(frame.width) - font.advance(of: text)) / 2
            font.draw(text, at: Point(x: x.rounded(), y: Double(frame.maxY) - 8), on: canvas, paint: .solid(.white))
        }
    }

    static func rect(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> IntRect { IntRect(x: x, y: y, width: w, height: h) }

    /// Four gauges of different styles and a caption on a 320x240 screen;
    /// `scaled`: the bar with a scale and sections, the dial with marked
    /// values, a marker bar with a scale for the ring; `vertical`: those two
    /// bars stand upright.
    static func scene(cachesPictures: Bool = true, scaled: Bool = false, vertical: Bool = false) throws -> GaugeScene {
        let ring = try Gauge(value: 0, in: 0...100) { "CPU" }.gaugeStyle(.accessoryCircularCapacity)
        var dial = try Gauge(value: 0, in: 0...200) { "Speed" }.gaugeStyle(.dial)
        var bar = try Gauge(value: 0, in: -20...40) { "Temp" }.gaugeStyle(.linearCapacity)
        var arc = try Gauge(value: 0, in: 0...1).gaugeStyle(.ring)
        if scaled {
            dial.markedValueLabels = [GaugeLabel("0").tag(0), GaugeLabel("limit").tag(130), GaugeLabel("max").tag(200)]
            let axis: Axis = vertical ? .vertical : .horizontal
            bar = bar.gaugeStyle(LinearCapacityGaugeStyle(scale: LinearScale(), axis: axis))
                .thresholds(try Thresholds(.blue, (25, .orange), (35, .red)))
            arc = arc.gaugeStyle(AccessoryLinearGaugeStyle(scale: LinearScale(), axis: axis)).valueFormat(.percent())
        }
        return GaugeScene(
            width: 320, height: 240,
            items: [
                SceneItem("cpu", ring, in: rect(0, 0, 160, 120)),
                SceneItem("speed", dial, in: rect(160, 0, 160, 120)),
                SceneItem("temp", bar, in: rect(0, 120, 160, 90)),
                SceneItem("load", arc, in: rect(160, 120, 160, 90), noValueText: "offline"),
                SceneItem("caption", widget: Caption(), in: rect(0, 210, 320, 30)),
            ],
            background: Color(red: 16, green: 20, blue: 24), staleTint: .white, cachesPictures: cachesPictures)
    }

    func pixels(_ image: Image) -> [UInt8] { withExtendedLifetime(image) { image.surface.rgbBytes() } }

    @Test(arguments: [(false, false), (true, false), (true, true)])
    func damageOnlyUpdatesGiveTheFullRedrawsPixels(scaled: Bool, vertical: Bool) throws {
        let scene = try Self.scene(scaled: scaled, vertical: vertical)
        let reference = try Self.scene(cachesPictures: false, scaled: scaled, vertical: vertical)
        let screen = Image(width: 320, height: 240)
        var shown = SceneState(values: ["cpu": 10, "speed": 40, "temp": 5], texts: ["caption": "up 1 min"])
        scene.drawAll(screen.surface, state: shown)
        var steps: [(String, (inout SceneState) -> Void)] = [
            ("cpu 73", { $0.values["cpu"] = 73 }), ("speed 190", { $0.values["speed"] = 190 }),
            ("temp -3", { $0.values["temp"] = -3 }), ("load 0.4", { $0.values["load"] = 0.4 }),
            ("cpu stale", { $0.stale = ["cpu"] }), ("cpu fresh at 12", { ($0.stale, $0.values["cpu"]) = ([], 12) }),
            ("caption", { $0.texts["caption"] = "up 2 min" }), ("load cleared", { $0.values["load"] = nil }),
        ]
        for v in stride(from: 0.0, through: 200, by: 37) { steps.append(("speed \(v)", { $0.values["speed"] = v })) }
        for (what, change) in steps {
            var next = shown
            change(&next)
            let damage = scene.damage(from: shown, to: next)
            #expect(!damage.isEmpty, "\(what)")
            if scaled, what.hasPrefix("temp") {
                // The bar's scale is static: its update damages less than the bar's frame.
                #expect(damage.reduce(0) { $0 + $1.area } < Self.rect(0, 120, 160, 90).area, "\(what)")
            }
            scene.draw(screen.surface, rects: damage, state: next)
            let expected = Image(width: 320, height: 240)
            reference.drawAll(expected.surface, state: next)
            #expect(pixels(screen) == pixels(expected), "\(what), scaled: \(scaled), vertical: \(vertical)")
            shown = next
        }
    }

    /// Peaks (their marks on the tracks and the dial) repainted damage-only
    /// give the full redraw's pixels: peaks coming, moving without the
    /// value, values moving under them (a value arc's copy is not used
    /// then), stale and cleared gauges with peaks, peaks going.
    @Test(arguments: [false, true]) func peaksRepaintedDamageOnlyGiveTheFullRedrawsPixels(scaled: Bool) throws {
        let scene = try Self.scene(scaled: scaled)
        let reference = try Self.scene(cachesPictures: false, scaled: scaled)
        let screen = Image(width: 320, height: 240)
        var shown = SceneState(values: ["cpu": 10, "speed": 40, "temp": 5, "load": 0.2])
        scene.drawAll(screen.surface, state: shown)
        let steps: [(String, (inout SceneState) -> Void)] = [
            (
                "peaks come",
                {
                    $0.peaks = [
                        "cpu": GaugePeaks(low: 5, high: 60), "speed": GaugePeaks(low: 20, high: 150),
                        "temp": GaugePeaks(low: -10, high: 30), "load": GaugePeaks(low: 0.1, high: 0.7),
                    ]
                }
            ),
            ("temp's high peak moves", { $0.peaks["temp"]?.high = 33 }),
            ("cpu's high peak moves", { $0.peaks["cpu"]?.high = 75 }),
            ("cpu 70 under its peak", { $0.values["cpu"] = 70 }),
            ("cpu 20", { $0.values["cpu"] = 20 }),
            (
                "speed 149 and its peak past the range",
                {
                    $0.values["speed"] = 149
                    $0.peaks["speed"]?.high = 250
                }
            ),
            ("load 0.65", { $0.values["load"] = 0.65 }),
            ("temp stale", { $0.stale = ["temp"] }),
            (
                "temp fresh with a lower low peak",
                {
                    $0.stale = []
                    $0.peaks["temp"]?.low = -15
                }
            ),
            ("load cleared", { $0.values["load"] = nil }),
            ("peaks go", { $0.peaks = [:] }),
        ]
        for (what, change) in steps {
            var next = shown
            change(&next)
            let damage = scene.damage(from: shown, to: next)
            #expect(!damage.isEmpty, "\(what)")
            if what.hasSuffix("peak moves"), what.hasPrefix("temp") || what.hasPrefix("cpu") {
                let frame = what.hasPrefix("temp") ? Self.rect(0, 120, 160, 90) : Self.rect(0, 0, 160, 120)
                #expect(damage.reduce(0) { $0 + $1.area } < frame.area / 4, "\(what): the marks, not the gauge")
            }
            scene.draw(screen.surface, rects: damage, state: next)
            let expected = Image(width: 320, height: 240)
            reference.drawAll(expected.surface, state: next)
            #expect(pixels(screen) == pixels(expected), "\(what), scaled: \(scaled)")
            shown = next
        }
    }

    @Test func aValueChangeDamagesOnlyItsOwnGauge() throws {
        let scene = try Self.scene()
        let before = SceneState(values: ["cpu": 10, "speed": 40, "temp": 5, "load": 0.5])
        var after = before
        after.values["speed"] = 120
        let damage = scene.damage(from: before, to: after)
        let dial = Self.rect(160, 0, 160, 120)
        #expect(!damage.isEmpty && damage.allSatisfy { dial.contains($0) })
        #expect(damage.reduce(0) { $0 + $1.area } < dial.area, "the dial's needle and value, not its whole frame")
        #expect(scene.damage(from: before, to: before).isEmpty)
        // Given names, only those are looked at.
        #expect(scene.damage(for: ["cpu"], from: before, to: after).isEmpty)
    }

    @Test func aWidgetsTextOrAGaugeGoingStaleDamagesItsFrame() throws {
        let scene = try Self.scene()
        let before = SceneState(values: ["cpu": 10], texts: ["caption": "a"])
        var after = before
        after.texts["caption"] = "b"
        #expect(scene.damage(from: before, to: after) == [Self.rect(0, 210, 320, 30)])
        after = before
        after.stale = ["cpu"]
        #expect(scene.damage(from: before, to: after) == [Self.rect(0, 0, 160, 120)])
        after = before
        after.values["temp"] = 1
        #expect(scene.damage(from: before, to: after) == [Self.rect(0, 120, 160, 90)], "a first value: the whole frame")
    }

    @Test func itemsOffTheScreenAreClipped() throws {
        let g = try Gauge(value: 0, in: 0...1).gaugeStyle(.accessoryCircular)
        let scene = GaugeScene(
            width: 100, height: 100,
            items: [
                SceneItem("a", g, in: Self.rect(50, 50, 100, 100)), SceneItem("b", g, in: Self.rect(200, 0, 50, 50)),
            ],
            background: .black)
        let screen = Image(width: 100, height: 100)
        scene.drawAll(screen.surface, state: SceneState(values: ["a": 0.5, "b": 0.5]))
        #expect(scene.damage(from: SceneState(values: ["b": 0.5]), to: SceneState(values: ["b": 0.7])).isEmpty)
        let damage = scene.damage(from: SceneState(values: ["a": 0.5]), to: SceneState())
        #expect(damage == [Self.rect(50, 50, 50, 50)])
    }

    @Test func subtractingLeavesTheRestInAtMostFourRectangles() {
        let r = IntRect(x: 0, y: 0, width: 10, height: 8)
        let hole = IntRect(x: 3, y: 2, width: 4, height: 3)
        let parts = r.subtracting(hole)
        #expect(parts.count == 4)
        #expect(parts.reduce(0) { $0 + $1.area } == r.area - hole.area)
        #expect(!parts.contains { $0.intersects(hole) })
        #expect(r.subtracting(IntRect(x: 20, y: 0, width: 2, height: 2)) == [r])
        #expect(r.subtracting(r).isEmpty)
    }

}
