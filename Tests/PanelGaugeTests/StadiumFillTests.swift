@testable import PanelGauge
import Testing

/// ``StadiumFill``: the coverage it gives each pixel against the exact area, its
/// clip, and which discs ``Canvas`` draws with it.
@Suite struct StadiumFillTests {
    /// The coverage (0...255) a disc gives each pixel: white at `alpha` over
    /// black. Pixels it leaves alone stay at `background` (-1).
    static func render(
        _ shape: StadiumFill, width: Int, height: Int, alpha: UInt32 = 255, clip: IntRect? = nil,
        background: UInt32 = 0
    ) -> [Int] {
        CoverageTesting.render(width: width, height: height, alpha: alpha, background: background) { sink in
            shape.render(clip: clip ?? IntRect(x: 0, y: 0, width: width, height: height), into: sink)
        }
    }

    /// The area of pixel (i, j) inside the disc (`CoverageTesting.latticeArea`).
    static func exactArea(_ i: Int, _ j: Int, cx: Double, cy: Double, r: Double) -> Double {
        CoverageTesting.latticeArea(i, j) { px, py in
            let x = px - cx, y = py - cy
            return x * x + y * y <= r * r
        }
    }

    /// Every pixel of discs from the smallest radius up within the documented
    /// 0.0088 of its exact area (at alpha 1, where it shows most; one level
    /// more for rounding and the lattice), whole pixels exactly 255, pixels
    /// outside left alone.
    @Test(arguments: [
        (40.3, 39.6, 16.0), (41.7, 40.2, 20.35), (50.5, 50.5, 27.0), (49.1, 50.8, 33.48), (60.0, 59.6, 45.2),
    ])
    func coverageIsWithinTheBound(cx: Double, cy: Double, r: Double) {
        let w = 120, h = 120
        let coverage = Self.render(StadiumFill(cx: cx, cy: cy, r: r), width: w, height: h)
        let (worst, partial) = CoverageTesting.partialErrors(coverage, width: w, height: h) {
            Self.exactArea($0, $1, cx: cx, cy: cy, r: r)
        }
        #expect(partial > 60)
        #expect(worst <= 0.0088 + 1.0 / 255, "worst coverage error \(worst)")
        // The pixels half a diagonal inside: exactly 255.
        let x = Int(cx), y = Int(cy)
        #expect(coverage[y * w + x] == 255)
    }

    /// A translucent paint scales the coverage (one rounding), and whole
    /// pixels get exactly the paint's alpha.
    @Test func translucentPaint() {
        let w = 80, h = 80, cx = 40.4, cy = 39.7, r = 25.3
        let coverage = Self.render(StadiumFill(cx: cx, cy: cy, r: r), width: w, height: h, alpha: 51)
        for j in 0..<h {
            for i in 0..<w {
                let exact = Self.exactArea(i, j, cx: cx, cy: cy, r: r)
                let got = max(coverage[j * w + i], 0)
                #expect(abs(Double(got) - exact * 51) <= 1, "pixel \(i), \(j)")
            }
        }
    }

    /// The rows and columns outside the clip are left alone, the lanes of a
    /// quad past its right edge too, and a clip through the whole run cuts it.
    @Test func staysInsideTheClip() {
        let disc = StadiumFill(cx: 30.4, cy: 31.1, r: 22.7)
        for clip in [
            IntRect(x: 10, y: 25, width: 37, height: 9), IntRect(x: 0, y: 0, width: 29, height: 80),
            IntRect(x: 33, y: 12, width: 6, height: 30),
        ] {
            let coverage = Self.render(disc, width: 80, height: 80, clip: clip, background: 0xFF12_3456)
            for j in 0..<80 {
                for i in 0..<80 where i < clip.minX || i >= clip.maxX || j < clip.minY || j >= clip.maxY {
                    #expect(coverage[j * 80 + i] == -1)
                }
            }
            #expect(coverage.contains { $0 >= 0 })
        }
    }

    /// Through any clip, the pixels inside it are the ones the whole shape
    /// gives them (paneld repaints damaged rectangles with clips): clips
    /// ending at every column and row across a disc's and a capsule's edges,
    /// where a row's edge pixels run on past the clip.
    @Test func clippedPixelsAreTheWholeShapes() {
        let w = 90, h = 70
        for shape in [
            StadiumFill(cx: 40.3, cy: 33.6, r: 22.7),
            StadiumFill(capsule: Rect(x: 10.4, y: 12.2, width: 64.3, height: 38.5)),
            StadiumFill(capsule: Rect(x: 21.6, y: 4.3, width: 35.2, height: 60.1)),
        ] {
            let whole = Self.render(shape, width: w, height: h)
            for edge in 0...w {
                for clip in [
                    IntRect(x: 0, y: 0, width: edge, height: h), IntRect(x: edge, y: 0, width: w - edge, height: h),
                    IntRect(x: edge, y: edge * h / w, width: 6, height: 9),
                ] {
                    let part = Self.render(shape, width: w, height: h, clip: clip)
                    if let (i, j) = CoverageTesting.firstDifference(part, whole, clip: clip, width: w, height: h) {
                        Issue.record("clip \(clip): pixel \(i), \(j)")
                        return
                    }
                }
            }
        }
    }

    /// Random discs and capsules, partly off the surface and through random
    /// clips, on both pixel formats, through the canvas: nothing outside the
    /// clip changes, and inside it the pixels are the unclipped shape's.
    @Test func randomShapesAndClips() {
        var rng = BlendTests.Random(state: 21)
        let w = 64, h = 48
        for trial in 0..<300 {
            let r = 16 + Double(rng.below(400)) / 10
            let x = Double(rng.below(1200)) / 10 - 30, y = Double(rng.below(1000)) / 10 - 30
            let format: PixelFormat = trial % 3 == 0 ? .rgb565 : .xrgb8888
            let rect = Rect(x: x, y: y, width: 2 * r + Double(rng.below(600)) / 10, height: 2 * r)
            let tall = trial % 4 == 1
            let capsuleRect = tall ? Rect(x: x, y: y, width: rect.height, height: rect.width) : rect
            let clip = IntRect(
                x: rng.below(w) - 4, y: rng.below(h) - 4, width: rng.below(w + 8), height: rng.below(h + 8))
            func draw(_ clip: IntRect?) -> [UInt16] {
                let image = Image(width: w, height: h, format: format)
                let canvas = Canvas(surface: image.surface)
                canvas.clear(Color(hex: 0x101418))
                canvas.clip = clip
                let paint = Paint.solid(trial % 2 == 0 ? Color(hex: 0xFFD60A) : Color.white.opacity(0.2))
                if trial % 5 == 0 {
                    canvas.fillDisc(center: Point(x: x + r, y: y + r), radius: r, paint: paint)
                } else {
                    canvas.fillCapsule(capsuleRect, paint: paint)
                }
                let s = image.surface
                return (0..<h).flatMap { j in
                    (0..<(w * format.bytesPerPixel / 2)).map { s.row(j).assumingMemoryBound(to: UInt16.self)[$0] }
                }
            }
            let whole = draw(nil), background = draw(IntRect(x: 0, y: 0, width: 0, height: 0)), part = draw(clip)
            let perRow = w * format.bytesPerPixel / 2, perPixel = format.bytesPerPixel / 2
            for j in 0..<h {
                for k in 0..<perRow {
                    let i = k / perPixel
                    let inside = i >= clip.minX && i < clip.maxX && j >= clip.minY && j < clip.maxY
                    if part[j * perRow + k] != (inside ? whole : background)[j * perRow + k] {
                        Issue.record("trial \(trial): pixel \(i), \(j), clip \(clip)")
                        return
                    }
                }
            }
        }
    }

    /// ``Canvas/fillDisc(center:radius:paint:)`` draws solid discs from the
    /// smallest radius this way, the same pixels as `StadiumFill` itself; smaller
    /// ones and gradients go to the cell rasterizer.
    @Test func canvasRoutesSolidDiscs() {
        func canvasPixels(_ r: Double, _ paint: Paint) -> [UInt32] {
            let image = Image(width: 90, height: 90)
            let canvas = Canvas(surface: image.surface)
            canvas.fillDisc(center: Point(x: 45.3, y: 44.6), radius: r, paint: paint)
            return (0..<90).flatMap { y in
                (0..<90).map { image.surface.row(y).assumingMemoryBound(to: UInt32.self)[$0] }
            }
        }
        func discPixels(_ r: Double) -> [UInt32] {
            let image = Image(width: 90, height: 90)
            let s = image.surface
            let sink = SolidSink<XRGB8888Blender>(base: s.base, stride: s.stride, color: 0xFF_D60A, alpha: 255)
            StadiumFill(cx: 45.3, cy: 44.6, r: r).render(clip: IntRect(x: 0, y: 0, width: 90, height: 90), into: sink)
            return (0..<90).flatMap { y in (0..<90).map { s.row(y).assumingMemoryBound(to: UInt32.self)[$0] } }
        }
        let yellow = Paint.solid(Color(hex: 0xFFD60A))
        #expect(canvasPixels(30.2, yellow) == discPixels(30.2))
        #expect(canvasPixels(16, yellow) == discPixels(16))
        // Under 16 px: cells (whose exact circle walk differs somewhere).
        #expect(canvasPixels(15.9, yellow) != discPixels(15.9))
        func fits(_ r: Double) -> Bool { StadiumFill(cx: 0, cy: 0, r: r).fits }
        #expect(fits(16) && !fits(15.99) && !fits(.infinity))
    }
}
