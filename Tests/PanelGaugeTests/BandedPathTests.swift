#if canImport(Glibc)
    import Glibc
#endif
import Testing

@testable import PanelGauge

/// The scan converter has two paths: the banded one (dense cells, for shapes
/// made of simple groups: discs, rounded rectangles, arc strokes, butt-capped
/// dashes) and the general one (sorted cells with self-overlap detection, for
/// paths). On the same polygon the two agree within one 8-bit level (the banded
/// path walks every edge downwards, so an upward edge's row crossings round from
/// its other end). The banded path also takes circles as they are, not as chords
/// (`DenseBand.walkArc`): a disc drawn as a shape and as a flattened path then
/// differ by the flattening, within 1/128 pixel, a few levels.
@Suite struct BandedPathTests {
    static let white = Color(red: 255, green: 255, blue: 255)
    static let black = Color(red: 0, green: 0, blue: 0)

    /// The largest channel difference between two images, and how many pixels differ.
    func difference(_ a: Image, _ b: Image) -> (max: Int, count: Int) {
        var worst = 0, count = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.surface.pixel(x: x, y: y), q = b.surface.pixel(x: x, y: y)
                let d = max(
                    abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)))
                worst = max(worst, d)
                if d > 0 { count += 1 }
            }
        }
        return (worst, count)
    }

    func render(_ clip: IntRect?, _ draw: (Canvas) -> Void) -> Image {
        let img = Image(width: 120, height: 100, format: .xrgb8888)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(Self.black)
        canvas.clip = clip
        draw(canvas)
        return img
    }

    /// Shapes taller than several bands, with edges crossing band boundaries,
    /// clipped on every side or not at all.
    @Test(arguments: [nil, IntRect(x: 7, y: 13, width: 90, height: 61)])
    func discAndRoundedRectMatchTheirPaths(clip: IntRect?) {
        let center = Point(x: 57.3, y: 48.6)
        let disc = render(clip) { $0.fillDisc(center: center, radius: 41.7, paint: .solid(Self.white)) }
        var circle = Path()
        circle.addCircle(center: center, radius: 41.7)
        let viaPath = render(clip) { $0.fill(circle, paint: .solid(Self.white)) }
        let d = difference(disc, viaPath)
        #expect(d.max <= 3, "disc: \(d)")

        let rect = Rect(x: 3.4, y: 5.2, width: 110.5, height: 88.9)
        let rounded = render(clip) { $0.fillRoundedRect(rect, cornerRadius: 17.25, paint: .solid(Self.white)) }
        var outline = Path()
        outline.addRoundedRect(rect, cornerRadius: 17.25)
        let roundedViaPath = render(clip) { $0.fill(outline, paint: .solid(Self.white)) }
        let r = difference(rounded, roundedViaPath)
        #expect(r.max <= 3, "rounded rect: \(r)")
    }

    /// A ring (outer circle and a hole) against the same two circles as a path,
    /// under both fill rules: the banded path has winding 0 or 1 only, where the
    /// rules agree.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func ringMatchesItsPath(rule: FillRule) {
        let center = Point(x: 60.5, y: 50.25)
        let ring = render(nil) {
            $0.strokeRing(center: center, radius: 35, width: 9.5, paint: .solid(Self.white))
        }
        var circles = Path()
        circles.addArc(center: center, radius: 39.75, startAngle: 0, sweep: 360)
        circles.closeSubpath()
        circles.addArc(center: center, radius: 30.25, startAngle: 0, sweep: -360)
        circles.closeSubpath()
        let viaPath = render(nil) { $0.fill(circles, rule: rule, paint: .solid(Self.white)) }
        let d = difference(ring, viaPath)
        #expect(d.max <= 3, "\(d)")
        // And the hole is empty, the ring's middle full.
        #expect(ring.surface.pixel(x: 60, y: 50).red == 0)
        #expect(ring.surface.pixel(x: 95, y: 50).red == 255)
    }

    /// Every pixel's coverage as the scan converter delivers it.
    struct RecordingSink: SpanSink {
        var coverage: [Int: Int] = [:]
        mutating func blendSpan(y: Int, x: Int, count: Int, coverage c: UnsafePointer<UInt8>) {
            for i in 0..<count { coverage[y * 10_000 + x + i] = Int(c[i]) }
        }
        mutating func blendRun(y: Int, x: Int, count: Int, coverage c: UInt8) {
            for i in 0..<count { coverage[y * 10_000 + x + i] = Int(c) }
        }
    }

    func coverage(of polygon: [Point], grouped: Bool, clip: IntRect) -> [Int: Int] {
        var raster = CellRasterizer()
        raster.reset(clip: clip)
        if grouped { raster.beginSimpleGroup() }
        raster.move(polygon[0].x, polygon[0].y)
        for p in polygon.dropFirst() { raster.line(p.x, p.y) }
        if grouped { raster.endSimpleGroup() }
        var sink = RecordingSink()
        raster.sweep(rule: .nonZero, into: &sink)
        return sink.coverage
    }

    /// The same polygon (steep and shallow edges, taller than several bands)
    /// through both paths, whole and clipped through its middle.
    @Test(arguments: [IntRect(x: 0, y: 0, width: 120, height: 100), IntRect(x: 31, y: 17, width: 50, height: 44)])
    func bothPathsAgreeOnOnePolygon(clip: IntRect) {
        let polygon = (0..<13).map { k -> Point in
            let a = Double(k) * 2 * Double.pi / 13 + 0.3
            let r = k % 3 == 0 ? 44.7 : 39.2
            return Point(x: 60.3 + r * cos(a), y: 50.6 + 0.9 * r * sin(a))
        }
        let banded = coverage(of: polygon, grouped: true, clip: clip)
        let general = coverage(of: polygon, grouped: false, clip: clip)
        #expect(banded.values.contains { $0 == 255 })
        var worst = 0
        for key in Set(banded.keys).union(general.keys) {
            worst = max(worst, abs((banded[key] ?? 0) - (general[key] ?? 0)))
        }
        #expect(worst <= 1)
    }

    /// A contour outside any group, after grouped ones, moves what was recorded
    /// to the general path (`leaveBandedMode`), circle pieces as chords: a disc
    /// walked as a circle, then a triangle, give what each gives alone (they do
    /// not touch), within the chords' 1/128 pixel.
    @Test func aContourOutsideAGroupTakesTheRecordedShapeAlong() {
        let clip = IntRect(x: 0, y: 0, width: 120, height: 100)
        func disc(_ raster: inout CellRasterizer) {
            raster.beginSimpleGroup()
            let asCircle = raster.arc(
                cx: 40.3, cy: 50.6, radius: 29.7, start: 0.2, sweep: 2 * Double.pi, moveFirst: true)
            #expect(asCircle)
            raster.endSimpleGroup()
        }
        let triangle = [Point(x: 80.5, y: 10.25), Point(x: 115.75, y: 40.5), Point(x: 85.25, y: 90.5)]
        func sweep(_ raster: inout CellRasterizer) -> [Int: Int] {
            var sink = RecordingSink()
            raster.sweep(rule: .nonZero, into: &sink)
            return sink.coverage
        }
        var both = CellRasterizer()
        both.reset(clip: clip)
        disc(&both)
        both.move(triangle[0].x, triangle[0].y)
        for p in triangle.dropFirst() { both.line(p.x, p.y) }
        let mixed = sweep(&both)
        var alone = CellRasterizer()
        alone.reset(clip: clip)
        disc(&alone)
        let discAlone = sweep(&alone)
        let triangleAlone = coverage(of: triangle, grouped: false, clip: clip)
        #expect(mixed[50 * 10_000 + 40] == 255 && mixed[40 * 10_000 + 95] == 255)
        var worst = 0
        for key in Set(mixed.keys).union(discAlone.keys).union(triangleAlone.keys) {
            worst = max(worst, abs((mixed[key] ?? 0) - max(discAlone[key] ?? 0, triangleAlone[key] ?? 0)))
        }
        #expect(worst <= 3)
    }
}
