import PanelGauge
import Testing

@testable import PanelDisplay
import PanelDisplayFakes

@Suite struct DRMDamageTests {
    let bounds = IntRect(x: 0, y: 0, width: 100, height: 50)

    @Test func clipsDropsEmptyAndMergesOverlaps() {
        let out = Damage.normalize(
            [
                IntRect(x: -10, y: -10, width: 20, height: 20), IntRect(x: 50, y: 10, width: 0, height: 5),
                IntRect(x: 5, y: 5, width: 10, height: 10), IntRect(x: 90, y: 40, width: 30, height: 30),
            ], in: bounds)
        #expect(out == [IntRect(x: 0, y: 0, width: 15, height: 15), IntRect(x: 90, y: 40, width: 10, height: 10)])
    }

    @Test func manyRectsCollapseToTheirBoundingBox() {
        let many = (0..<9).map { IntRect(x: $0 * 10, y: 0, width: 5, height: 5) }
        #expect(Damage.normalize(many, in: bounds) == [IntRect(x: 0, y: 0, width: 85, height: 5)])
        #expect(Damage.normalize(Array(many.prefix(8)), in: bounds).count == 8)
    }

    @Test func chainedOverlapsMergeCompletely() {
        let out = Damage.normalize(
            [
                IntRect(x: 0, y: 0, width: 10, height: 10), IntRect(x: 20, y: 0, width: 10, height: 10),
                IntRect(x: 8, y: 0, width: 14, height: 2),
            ], in: bounds)
        #expect(out == [IntRect(x: 0, y: 0, width: 30, height: 10)])
    }
}

@Suite struct DamageRepaintTests {
    let bounds = IntRect(x: 0, y: 0, width: 100, height: 50)

    /// Rectangles in bounds that hold exactly the input's pixels there, none
    /// held by another.
    func expectExactCover(_ input: [IntRect], _ out: [IntRect]) {
        let wanted = Set(input.flatMap { $0.intersection(bounds).pixels })
        #expect(Set(out.flatMap(\.pixels)) == wanted)
        #expect(out.allSatisfy { !$0.isEmpty && bounds.contains($0) })
        for (i, r) in out.enumerated() {
            #expect(!out.enumerated().contains { j, o in j != i && o.contains(r) }, "\(r) is held by another")
        }
    }

    @Test func overlapsAreKeptNotMerged() {
        // Two bands of a ring that share a corner, and a label box.
        let input = [
            IntRect(x: 10, y: 0, width: 30, height: 20), IntRect(x: 30, y: 15, width: 30, height: 20),
            IntRect(x: 20, y: 18, width: 6, height: 4), IntRect(x: -5, y: 45, width: 10, height: 10),
        ]
        let out = Damage.repaint(input, in: bounds)
        expectExactCover(input, out)
        // Merging the overlap into a box would take in the two empty corners.
        #expect(out.count == 4 && out.reduce(0) { $0 + $1.area } < input[0].union(input[1]).area + 24 + 25)
    }

    @Test func rectanglesHeldByOthersAreDropped() {
        let small = IntRect(x: 4, y: 4, width: 3, height: 2)
        #expect(Damage.repaint([small, bounds, small], in: bounds) == [bounds])
        #expect(Damage.repaint([small, small], in: bounds) == [small])
        #expect(Damage.repaint([IntRect(x: 200, y: 0, width: 5, height: 5)], in: bounds).isEmpty)
        let few = [small, IntRect(x: 0, y: 0, width: 10, height: 3), IntRect(x: 5, y: 5, width: 1, height: 1)]
        expectExactCover(few, Damage.repaint(few, in: bounds))
    }

    @Test func tooManyRectanglesAreMerged() {
        let many = (0..<(Damage.maxRepaintRects + 1)).map { IntRect(x: $0 % 100, y: $0 / 100 * 2, width: 1, height: 1) }
        #expect(Damage.repaint(many, in: bounds) == Damage.normalize(many, in: bounds))
        #expect(Damage.repaint(Array(many.prefix(Damage.maxRepaintRects)), in: bounds).count == Damage.maxRepaintRects)
    }
}

extension IntRect {
    /// Every pixel, for comparing what sets of rectangles cover.
    var pixels: [PixelXY] {
        (minY..<maxY).flatMap { y in (minX..<maxX).map { PixelXY(x: $0, y: y) } }
    }
}

struct PixelXY: Hashable {
    var x: Int
    var y: Int
}

@Suite struct DRMRotationTests {
    /// A logical image whose every pixel is distinct, with a padded stride.
    func numbered(_ w: Int, _ h: Int, _ format: PixelFormat) -> Image {
        let img = Image(width: w, height: h, format: format, stride: w * format.bytesPerPixel + 12)
        for y in 0..<h {
            for x in 0..<w {
                let v = y * w + x + 1
                if format == .xrgb8888 {
                    img.surface.row(y).storeBytes(of: UInt32(v), toByteOffset: x * 4, as: UInt32.self)
                } else {
                    img.surface.row(y).storeBytes(of: UInt16(v), toByteOffset: x * 2, as: UInt16.self)
                }
            }
        }
        return img
    }

    func raw(_ s: Surface, _ x: Int, _ y: Int) -> Int {
        s.format == .xrgb8888
            ? Int(s.row(y).load(fromByteOffset: x * 4, as: UInt32.self))
            : Int(s.row(y).load(fromByteOffset: x * 2, as: UInt16.self))
    }

    /// Where logical (x, y) lands on the panel, written out per the documented convention.
    func expectedPanelPoint(_ r: PanelRotation, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> (Int, Int) {
        switch r {
        case .none: (x, y)
        case .clockwise90: (h - 1 - y, x)  // top-left goes to the top-right corner
        case .upsideDown: (w - 1 - x, h - 1 - y)
        case .clockwise270: (y, w - 1 - x)  // top-left goes to the bottom-left corner
        }
    }

    @Test(arguments: PanelRotation.allCases, PixelFormat.allCases)
    func fullCopyPlacesEveryPixel(rotation: PanelRotation, format: PixelFormat) {
        let (w, h) = (7, 4)
        let src = numbered(w, h, format)
        let (pw, ph) = rotation.swapsAxes ? (h, w) : (w, h)
        let dst = Image(width: pw, height: ph, format: format, stride: pw * format.bytesPerPixel + 20)
        rotation.copy(src.surface.bounds, from: src.surface, to: dst.surface)
        for y in 0..<h {
            for x in 0..<w {
                let (px, py) = expectedPanelPoint(rotation, x, y, w, h)
                #expect(raw(dst.surface, px, py) == y * w + x + 1, "\(rotation) (\(x),\(y))")
            }
        }
    }

    @Test(arguments: PanelRotation.allCases)
    func partialCopyTouchesOnlyThePanelRect(rotation: PanelRotation) {
        let (w, h) = (9, 5)
        let src = numbered(w, h, .xrgb8888)
        let (pw, ph) = rotation.swapsAxes ? (h, w) : (w, h)
        let dst = Image(width: pw, height: ph, format: .xrgb8888)
        let rect = IntRect(x: 2, y: 1, width: 3, height: 2)
        rotation.copy(rect, from: src.surface, to: dst.surface)
        let panel = rotation.panelRect(rect, logicalWidth: w, logicalHeight: h)
        var touched = 0
        for py in 0..<ph {
            for px in 0..<pw where raw(dst.surface, px, py) != 0xFF00_0000 {
                #expect(panel.contains(IntRect(x: px, y: py, width: 1, height: 1)))
                touched += 1
            }
        }
        #expect(touched == rect.area)
        #expect(panel.area == rect.area)
    }

    @Test func logicalSizeAndParsing() {
        #expect(PanelRotation.clockwise90.logicalSize(panelWidth: 480, panelHeight: 800) == (800, 480))
        #expect(PanelRotation.upsideDown.logicalSize(panelWidth: 480, panelHeight: 800) == (480, 800))
        #expect(PanelRotation(degrees: "270") == .clockwise270)
        #expect(PanelRotation(degrees: "45") == nil)
        #expect(PanelRotation(degrees: "") == nil)
    }
}

@Suite struct DRMEventParserTests {
    func event(type: UInt32, length: UInt32, userData: UInt64, crtc: UInt32) -> [UInt8] {
        var b: [UInt8] = []
        func put32(_ v: UInt32) { for i in 0..<4 { b.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
        put32(type)
        put32(length)
        put32(UInt32(truncatingIfNeeded: userData))
        put32(UInt32(truncatingIfNeeded: userData >> 32))
        put32(1)
        put32(2)
        put32(3)
        put32(crtc)
        return b
    }

    @Test func parsesFlipAndOtherEventsAndStopsAtATruncatedOne() {
        let bytes =
            event(type: 2, length: 32, userData: 0x1_0000_0005, crtc: 38)
            + event(type: 1, length: 32, userData: 0, crtc: 38)
            + Array(event(type: 2, length: 32, userData: 9, crtc: 1).prefix(20))
        #expect(DRMEventParser.parse(bytes) == [.flipComplete(crtcID: 38, userData: 0x1_0000_0005), .other(type: 1)])
        #expect(DRMEventParser.parse(Array(repeating: 0, count: 8)) == [])
    }
}
