import PanelGauge
import Testing

@testable import paneld

@Suite struct PanelRendererTests {
    static let layoutJSON = """
        {"mode": "200x100", "background": "#102030", "gauges": [
          {"name": "a", "style": "ring", "rect": [0, 0, 100, 100], "tint": "#FF0000"},
          {"name": "b", "style": "bar", "rect": [100, 0, 100, 100], "tint": "#00FF00",
           "thresholds": [{"above": 50, "color": "#0000FF"}]}]}
        """

    func rgb(_ s: Surface, _ x: Int, _ y: Int) -> [UInt8] {
        let p = s.pixel(x: x, y: y)
        return [p.red, p.green, p.blue]
    }

    @Test func drawsValuesThresholdsAndBackground() throws {
        let layout = try LayoutReader.parse(Array(Self.layoutJSON.utf8))
        let r = PanelRenderer(layout: layout, width: 200, height: 100)
        let img = Image(width: 200, height: 100)
        r.drawAll(img.surface, values: ["a": 30, "b": 60])
        #expect(rgb(img.surface, 50, 50) == [0x10, 0x20, 0x30])  // ring centre: background
        // Ring centre line is 40 px from the centre: 12 o'clock and 3 o'clock are within 30%.
        #expect(rgb(img.surface, 50, 10) == [0xFF, 0, 0])
        #expect(rgb(img.surface, 90, 50) == [0xFF, 0, 0])
        // 9 o'clock (75%) is track only: red at 20% over the background.
        #expect(rgb(img.surface, 10, 50) == [0x40, 0x1A, 0x26])  // 0x10 + (0xFF - 0x10) * 0.2 = 63.8
        // Bar at 60% is over its threshold: blue at 30%, track at 90%.
        #expect(rgb(img.surface, 130, 50) == [0, 0, 0xFF])
        #expect(rgb(img.surface, 190, 50) != [0, 0, 0xFF])
    }

    @Test func damageRepaintsOnlyItsRectangles() throws {
        let layout = try LayoutReader.parse(Array(Self.layoutJSON.utf8))
        let r = PanelRenderer(layout: layout, width: 200, height: 100)
        let img = Image(width: 200, height: 100)
        r.drawAll(img.surface, values: ["a": 30, "b": 10])
        let before = img.surface.rgbBytes()
        let damage = r.damage(for: ["b"])
        #expect(damage == [IntRect(x: 100, y: 0, width: 100, height: 100)])
        r.draw(img.surface, rects: damage, values: ["a": 90, "b": 80])  // "a" changed too, but is not damaged
        let after = img.surface.rgbBytes()
        for y in 0..<100 {
            for x in 0..<100 {
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

    @Test func rendersInBothPixelFormats() throws {
        let layout = try LayoutReader.parse(Array(Self.layoutJSON.utf8))
        for format in PixelFormat.allCases {
            let img = Image(width: 200, height: 100, format: format, stride: 208 * format.bytesPerPixel)
            PanelRenderer(layout: layout, width: 200, height: 100).drawAll(img.surface, values: ["a": 30, "b": 60])
            #expect(rgb(img.surface, 50, 10) == [0xFF, 0, 0])
        }
    }
}
