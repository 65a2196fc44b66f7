import PanelGauge
import Testing

@testable import PaneldCore

@Suite struct LayoutSceneTests {
    static let layoutJSON = """
        {"mode": "200x100", "background": "#102030", "gauges": [
          {"name": "a", "style": "accessoryCircularCapacity", "rect": [0, 0, 100, 100], "tint": "#FF0000"},
          {"name": "b", "style": "accessoryLinearCapacity", "rect": [100, 40, 100, 20], "tint": "#00FF00",
           "thresholds": [{"above": 50, "color": "#0000FF"}]}]}
        """

    func rgb(_ s: Surface, _ x: Int, _ y: Int) -> [UInt8] {
        let p = s.pixel(x: x, y: y)
        return [p.red, p.green, p.blue]
    }

    func colors(_ s: Surface, in r: IntRect) -> Set<[UInt8]> {
        var out: Set<[UInt8]> = []
        for y in r.minY..<r.maxY { for x in r.minX..<r.maxX { out.insert(rgb(s, x, y)) } }
        return out
    }

    @Test func drawsEachGaugeInItsRectOverTheBackground() throws {
        let layout = try LayoutReader.parse(Array(Self.layoutJSON.utf8))
        let r = LayoutScene(layout: layout, width: 200, height: 100)
        let img = Image(width: 200, height: 100)
        r.drawAll(img.surface, values: ["a": 30, "b": 60])
        // Outside every gauge: exactly the background.
        #expect(colors(img.surface, in: IntRect(x: 100, y: 0, width: 100, height: 40)) == [[0x10, 0x20, 0x30]])
        #expect(colors(img.surface, in: IntRect(x: 100, y: 60, width: 100, height: 40)) == [[0x10, 0x20, 0x30]])
        // The ring's tint and the bar's threshold colour (60 is above 50) appear.
        #expect(colors(img.surface, in: IntRect(x: 0, y: 0, width: 100, height: 100)).contains([0xFF, 0, 0]))
        let bar = colors(img.surface, in: IntRect(x: 100, y: 40, width: 100, height: 20))
        #expect(bar.contains([0, 0, 0xFF]) && !bar.contains([0, 0xFF, 0]))
        // Below the threshold the bar keeps its tint.
        r.drawAll(img.surface, values: ["a": 30, "b": 40])
        let low = colors(img.surface, in: IntRect(x: 100, y: 40, width: 100, height: 20))
        #expect(low.contains([0, 0xFF, 0]) && !low.contains([0, 0, 0xFF]))
    }

    /// A gradient that repeats a colour holds it over a long stretch of the
    /// ring (here 288 degrees of green from the bottom, past the right-hand
    /// side): the renderer must draw it in bounded time (such a layout once hung it).
    @Test func aGradientWithALongFlatStretchDraws() throws {
        let layout = try LayoutReader.parse(
            Array(
                ##"{"mode": "240x240", "gauges": [{"name": "v", "style": "ring", "range": [0, 100], "gradient": ["#34C759", "#34C759", "#34C759", "#34C759", "#34C759", "#FF3B30"]}]}"##
                    .utf8))
        let r = LayoutScene(layout: layout, width: 240, height: 240)
        let img = Image(width: 240, height: 240)
        for v in [100.0, 37, 85, 99] {
            r.drawAll(img.surface, values: ["v": v])
            let all = colors(img.surface, in: IntRect(x: 0, y: 0, width: 240, height: 240))
            #expect(all.contains([0x34, 0xC7, 0x59]), "v = \(v)")
            // Past 80 % of the ring the colour turns towards red.
            #expect(all.contains { $0[0] > 0xC0 && $0[1] < 0x70 } == (v > 90), "v = \(v)")
        }
    }

    /// Random layouts (every style; a tint, or a gradient of 2 to 8 colours
    /// drawn mostly from two, so that colours repeat and hold over long
    /// stretches) drawn at values in and out of range, in both pixel formats:
    /// every frame finishes.
    @Test func randomLayoutsDraw() throws {
        var rng = SplitMix64(state: 21)
        func below(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let styles = GaugeStyleName.allCases.map(\.rawValue)
        let palette = ["#34C759", "#FF3B30", "#0A84FF", "#FFD60A", "#FFFFFF", "#00000080"]
        var frames = 0
        for trial in 0..<60 {
            var gauges: [String] = []
            for g in 0..<(1 + below(3)) {
                let w = 8 + below(120), h = 8 + below(100)
                let rect = "[\(below(160 - w)), \(below(120 - h)), \(w), \(h)]"
                let colours = (0..<(2 + below(7))).map { _ in "\"\(palette[below(below(3) == 0 ? 6 : 2)])\"" }
                let paint =
                    below(4) == 0
                    ? "\"tint\": \"\(palette[below(6)])\"" : "\"gradient\": [\(colours.joined(separator: ", "))]"
                gauges.append(
                    "{\"name\": \"g\(g)\", \"style\": \"\(styles[below(styles.count)])\", \"rect\": \(rect), "
                        + "\"range\": [0, 100], \(paint)}")
            }
            let json = "{\"mode\": \"160x120\", \"overlap\": true, \"gauges\": [\(gauges.joined(separator: ", "))]}"
            let layout = try LayoutReader.parse(Array(json.utf8))
            let r = LayoutScene(layout: layout, width: 160, height: 120)
            let img = Image(width: 160, height: 120, format: trial % 2 == 0 ? .xrgb8888 : .rgb565)
            for v in [0.0, 100, Double(below(1000)) / 10, -5, 250] {
                var values: [String: Double] = [:]
                for g in 0..<gauges.count { values["g\(g)"] = v }
                r.drawAll(img.surface, values: values)
                frames += 1
            }
        }
        #expect(frames == 300)
    }

    @Test func damageRepaintsOnlyItsRectangles() throws {
        let layout = try LayoutReader.parse(Array(Self.layoutJSON.utf8))
        let r = LayoutScene(layout: layout, width: 200, height: 100)
        let img = Image(width: 200, height: 100)
        r.drawAll(img.surface, values: ["a": 30, "b": 10])
        let before = img.surface.rgbBytes()
        let damage = r.damage(for: ["b"], from: ["a": 30, "b": 10], to: ["a": 30, "b": 80])
        // The bar's fill and current value, inside its frame.
        #expect(!damage.isEmpty && damage.allSatisfy { IntRect(x: 100, y: 40, width: 100, height: 20).contains($0) })
        r.draw(img.surface, rects: damage, values: ["a": 90, "b": 80])  // "a" changed too, but is not damaged
        let after = img.surface.rgbBytes()
        for y in 0..<100 {
            for x in 0..<200 where !damage.contains(where: { $0.contains(IntRect(x: x, y: y, width: 1, height: 1)) }) {
                let k = (y * 200 + x) * 3
                if before[k..<k + 3] != after[k..<k + 3] {
                    Issue.record("pixel \(x),\(y) outside the damage changed")
                    return
                }
            }
        }
        #expect(before != after)
        // A full redraw with the same values gives the same image as the partial one.
        let full = Image(width: 200, height: 100)
        r.drawAll(full.surface, values: ["a": 30, "b": 80])
        #expect(full.surface.rgbBytes() == after)
    }

    /// What the DRM output does (damage only, over an older frame) gives exactly
    /// what `paneld render` does (everything at once), in both pixel formats,
    /// RGB565's dithering included.
    @Test(arguments: PixelFormat.allCases)
    func partialRedrawsEqualAFullRedraw(format: PixelFormat) throws {
        let layout = try LayoutReader.parse(Array(Self.layoutJSON.utf8))
        let r = LayoutScene(layout: layout, width: 200, height: 100)
        let partial = Image(width: 200, height: 100, format: format)
        r.drawAll(partial.surface, values: ["a": 10, "b": 90])
        r.draw(
            partial.surface, rects: r.damage(for: ["a"], from: ["a": 10, "b": 90], to: ["a": 55, "b": 90]),
            values: ["a": 55, "b": 90])
        r.draw(
            partial.surface, rects: r.damage(for: ["b"], from: ["a": 55, "b": 90], to: ["a": 55, "b": 20]),
            values: ["a": 55, "b": 20])
        let full = Image(width: 200, height: 100, format: format)
        LayoutScene(layout: layout, width: 200, height: 100).drawAll(full.surface, values: ["a": 55, "b": 20])
        #expect(partial.surface.rgbBytes() == full.surface.rgbBytes())
    }

    @Test func rendersInBothPixelFormatsWithPaddedRows() throws {
        let layout = try LayoutReader.parse(Array(Self.layoutJSON.utf8))
        for format in PixelFormat.allCases {
            let img = Image(width: 200, height: 100, format: format, stride: 208 * format.bytesPerPixel)
            LayoutScene(layout: layout, width: 200, height: 100).drawAll(img.surface, values: ["a": 30, "b": 60])
            #expect(colors(img.surface, in: IntRect(x: 0, y: 0, width: 100, height: 100)).contains([0xFF, 0, 0]))
        }
    }
}
