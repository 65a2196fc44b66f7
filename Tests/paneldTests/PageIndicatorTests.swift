import PanelGauge
import Testing

@testable import PaneldCore

/// `"pageIndicator": true`: the key, the strip it takes from the grid, its
/// dots' pixels, and a tap on it showing a page.
@Suite struct PageIndicatorTests {
    static func layout(_ top: String, pages: String? = nil) throws -> Layout {
        let p =
            pages ?? #"""
                [{"name": "one", "gauges": [{"name": "a"}, {"name": "b"}]},
                 {"name": "two", "gauges": [{"name": "c", "style": "linearCapacity"}]},
                 {"name": "three", "gauges": [{"name": "d"}]}]
                """#
        return try LayoutReader.parse(Array(#"{\#(top) "pages": \#(p)}"#.utf8))
    }

    @Test func theKeyIsReadAndWantsPages() throws {
        #expect(try Self.layout(#""pageIndicator": true,"#).pageIndicator)
        #expect(try Self.layout("").pageIndicator == false)
        let one = try LayoutReader.parse(Array("{\"pageIndicator\": true,\n \"gauges\": [{\"name\": \"a\"}]}".utf8))
        #expect(one.warnings.contains { $0.path == "pageIndicator" && $0.line == 1 && $0.message.contains("one page") })
        #expect(one.pageIndicatorStrip(screen: (800, 480)) == nil)
        #expect(throws: LayoutError.self) { try Self.layout(#""pageIndicator": "yes","#) }
    }

    @Test func theStripIsTakenFromTheBottomAndTheCellsStayAbove() throws {
        #expect(Layout.pageIndicatorStrip(width: 800, height: 480) == IntRect(x: 0, y: 451, width: 800, height: 29))
        #expect(Layout.pageIndicatorStrip(width: 320, height: 240) == IntRect(x: 0, y: 224, width: 320, height: 16))
        #expect(Layout.pageIndicatorStrip(width: 480, height: 800) == IntRect(x: 0, y: 771, width: 480, height: 29))
        let l = try Self.layout(#""pageIndicator": true, "grid": {"gap": 12, "margin": 12},"#)
        let placed = l.placement(screen: (800, 480))
        #expect(placed.issues.isEmpty)
        for f in placed.frames { #expect(f.minY == 12 && f.maxY == 451 - 12, "\(f)") }
        let without = try Self.layout(#""grid": {"gap": 12, "margin": 12},"#).placement(screen: (800, 480))
        for f in without.frames { #expect(f.maxY == 480 - 12) }
    }

    @Test func aRectOnTheStripIsRefusedUnlessOverlapIsAllowed() throws {
        let pages = #"""
            [{"name": "one", "gauges": [{"name": "a", "rect": [0, 0, 800, 460]}]},
             {"name": "two", "gauges": [{"name": "b", "rect": [0, 0, 800, 451]}]}]
            """#
        do {
            _ = try Self.layout(#""mode": "800x480", "pageIndicator": true,"#, pages: pages)
            Issue.record("a rect on the strip was taken")
        } catch let error as LayoutError {
            #expect(error.issues.count == 1, "\(error)")
            #expect(error.issues.first?.path == "pages[0].gauges[0].rect")
            #expect(
                error.issues.first?.message.contains("overlaps the page indicator at 0,451 800x29 by 800x9 px") == true)
        }
        // Without a mode the screen decides: checked when it is known.
        let l = try Self.layout(#""pageIndicator": true,"#, pages: pages)
        #expect(l.placement(screen: (800, 480)).issues.count == 1)
        #expect(l.placement(screen: (800, 600)).issues.isEmpty)
        let allowed = try Self.layout(#""mode": "800x480", "pageIndicator": true, "overlap": true,"#, pages: pages)
        #expect(allowed.placement(screen: (800, 480)).issues.isEmpty)
    }

    @Test func theDotsShowThePagesAndTheOneShown() throws {
        let l = try Self.layout(##""pageIndicator": true, "background": "#000000", "foreground": "#FFFFFF","##)
        let img = Image(width: 320, height: 240)
        LayoutScene(layout: l, width: 320, height: 240, page: 1, cachesStaticLayers: false)
            .drawAll(img.surface, values: [:])
        // 3 dots of radius 16/6 px, 32/3 px apart, centred at y 232.
        let centres = PageIndicator.centres(count: 3, in: Layout.pageIndicatorStrip(width: 320, height: 240))
        let pitch: Double = 32.0 / 3
        let want: [Double] = [160 - pitch, 160, 160 + pitch]
        #expect(zip(centres, want).allSatisfy { abs($0 - $1) < 1e-9 } && centres.count == 3)
        func pixel(_ x: Double, _ y: Int) -> UInt32 {
            let p = img.surface.pixel(x: Int(x), y: y)
            return UInt32(p.red) << 16 | UInt32(p.green) << 8 | UInt32(p.blue)
        }
        #expect(pixel(centres[1], 232) == 0xFF_FFFF, "the page shown")
        let dim = UInt32((0.35 * 255).rounded())
        for i in [0, 2] {
            let p = pixel(centres[i], 232)
            let blue = Int(p & 0xFF), red = Int(p >> 16)
            #expect(abs(blue - Int(dim)) <= 1 && red == blue, "page \(i): \(String(p, radix: 16))")
        }
        #expect(pixel(centres[1], 226) == 0 && pixel(centres[1] + 5, 232) == 0, "only the dots are drawn")
        #expect(pixel(centres[0] - 8, 232) == 0 && pixel(centres[2] + 8, 232) == 0)
    }

    @Test func aTapOnTheIndicatorFindsTheNearestDotsPage() throws {
        let l = try Self.layout(#""pageIndicator": true,"#)
        let scene = LayoutScene(layout: l, width: 800, height: 480, page: 0, cachesStaticLayers: false)
        #expect(scene.indicatedPage(atX: 400, y: 465) == 1)
        #expect(scene.indicatedPage(atX: 0, y: 451) == 0 && scene.indicatedPage(atX: 799, y: 479) == 2)
        #expect(scene.indicatedPage(atX: 400, y: 450) == nil && scene.indicatedPage(atX: 400, y: 480) == nil)
        #expect(scene.gauge(atX: 400, y: 465) == nil, "no gauge on the strip")
        let plain = LayoutScene(
            layout: try Self.layout(""), width: 800, height: 480, page: 0, cachesStaticLayers: false)
        #expect(plain.indicatedPage(atX: 400, y: 465) == nil)
    }

    @Test func theDaemonShowsTheTappedPage() throws {
        let l = try Self.layout(#""pageIndicator": true, "pageInterval": 60,"#)
        let rig = try LoopRig(l)
        try rig.turn()
        #expect(rig.daemon.page == 0)
        // 64x32: the strip is y 16..<32, dots at x 32 - 32/3, 32, 32 + 32/3.
        #expect(rig.daemon.tapped(x: 44, y: 24))
        #expect(rig.daemon.page == 2)
        try rig.turn()
        #expect(rig.output.presents.last == [IntRect(x: 0, y: 0, width: 64, height: 32)], "one full frame")
        #expect(rig.daemon.tapped(x: 1, y: 31) && rig.daemon.page == 0)
        #expect(rig.daemon.tapped(x: 32, y: 8) == false, "a gauge without an action: the page's")
        #expect(rig.daemon.page == 0)
    }
}
