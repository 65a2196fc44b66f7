import Glibc
import Testing
@testable import PanelGauge

/// A chart's line, `Path.roundPolylinePieces` filled by `Canvas.fillPieces`,
/// against the exact area of the set of points within half the width of the
/// polyline, pixel by pixel.
@Suite struct PolylineStrokeTests {
    /// The distance from (x, y) to the segment a-b.
    static func distance(_ x: Double, _ y: Double, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        let t = len2 == 0 ? 0 : min(1, max(0, ((x - a.x) * dx + (y - a.y) * dy) / len2))
        let px = a.x + t * dx - x, py = a.y + t * dy - y
        return (px * px + py * py).squareRoot()
    }

    /// Each pixel's coverage (0...255) from drawing the line white on black.
    static func render(_ points: [Point], width lw: Double, w: Int, h: Int, pieces: Bool = true) -> [Int] {
        let img = Image(width: w, height: h)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(.black)
        if pieces {
            canvas.fillPieces(Path.roundPolylinePieces(points, width: lw), paint: .solid(.white))
        } else {
            canvas.fill(Path.roundPolyline(points, width: lw), rule: .nonZero, paint: .solid(.white))
        }
        var out: [Int] = []
        for y in 0..<h {
            for x in 0..<w { out.append(Int(img.surface.row(y).assumingMemoryBound(to: UInt32.self)[x] & 0xFF)) }
        }
        return out
    }

    /// The worst coverage error of a line against its exact area, after
    /// checking that whole and empty pixels are exact.
    static func worstError(_ pts: [Point], width lw: Double, w: Int, h: Int, pieces: Bool = true) -> (
        worst: Double, partial: Int
    ) {
        let coverage = render(pts, width: lw, w: w, h: h, pieces: pieces)
        let segments = Array(zip(pts, pts.dropFirst()))
        return CoverageTesting.partialErrors(coverage, width: w, height: h) { i, j in
            // A pixel whose centre is more than half a diagonal inside or outside is whole or empty.
            let near = segments.filter { distance(Double(i) + 0.5, Double(j) + 0.5, $0, $1) < lw / 2 + 0.75 }
            let centre = near.map { distance(Double(i) + 0.5, Double(j) + 0.5, $0, $1) }.min() ?? .infinity
            if centre < lw / 2 - 0.75 { return 1 }
            if near.isEmpty { return 0 }
            return CoverageTesting.latticeArea(i, j) { x, y in near.contains { distance(x, y, $0, $1) <= lw / 2 } }
        }
    }

    /// Chart lines (x rising by 2 to 9 px a point, y anywhere) 1.5 to 6 px
    /// wide, those whose pieces tile the line: every pixel within 1.5 % of
    /// its exact area plus a level, whole pixels exact (measured worst 1.3 %,
    /// from the arcs' flattening and the rasterizer's fixed point).
    @Test(arguments: 0..<12)
    func coverageIsTheExactArea(seed: Int) {
        var rng = CanvasFuzzTests.RNG(random: BlendTests.Random(state: UInt64(seed) &+ 77))
        let w = 72, h = 56
        var lw = 0.0, pts: [Point] = []
        repeat {
            lw = 1.5 + 4.5 * rng.unit()
            pts = []
            var x = 4 + rng.unit() * 3, y = Double(h) / 2
            while x < Double(w) - 4 {
                pts.append(Point(x: x, y: y))
                x += 2 + 7 * rng.unit()
                y = min(Double(h) - 6, max(6, y + (rng.unit() - 0.5) * 16))
            }
        } while !Path.roundPolylinePiecesTile(pts, width: lw)
        let (worst, partial) = Self.worstError(pts, width: lw, w: w, h: h)
        #expect(partial > 40)
        #expect(worst <= 0.015 + 1.0 / 255, "worst coverage error \(worst), width \(lw)")
    }

    /// Spikes and zigzags, which the pieces do not tile: the one outline
    /// (`Path.roundPolyline`) is exact, through the rasterizer's fallback for
    /// pixels where it overlaps itself: every pixel within 1.5 % of its
    /// exact area plus a level (measured worst 1.3 %).
    @Test(arguments: 0..<12)
    func spikesTakeTheOneOutlineAndAreExact(seed: Int) {
        var rng = CanvasFuzzTests.RNG(random: BlendTests.Random(state: UInt64(seed) &+ 991))
        let w = 72, h = 56
        let lw = 1.5 + 4.5 * rng.unit()
        var pts: [Point] = []
        if seed % 2 == 0 {
            var x = 4 + rng.unit() * 3
            while x < Double(w) - 4 {
                pts.append(Point(x: x, y: 6 + rng.unit() * Double(h - 12)))
                x += 1.5 + 7.5 * rng.unit()
            }
        } else {
            for _ in 0..<8 { pts.append(Point(x: 6 + rng.unit() * Double(w - 12), y: 6 + rng.unit() * Double(h - 12))) }
        }
        let (worst, partial) = Self.worstError(pts, width: lw, w: w, h: h, pieces: false)
        #expect(partial > 40)
        #expect(worst <= 0.015 + 1.0 / 255, "worst coverage error \(worst), width \(lw)")
    }

    /// One point is a disc; repeated and non-finite points are skipped.
    @Test func degeneratePoints() {
        let c = Point(x: 20.3, y: 19.6)
        let one = Self.render([c], width: 6, w: 40, h: 40)
        let repeated = Self.render([c, c, Point(x: .nan, y: 3), c], width: 6, w: 40, h: 40)
        #expect(one == repeated)
        #expect(Self.render([c], width: 6, w: 40, h: 40, pieces: false) == one)
        #expect(!Path.roundPolylinePiecesTile([Point(x: 0, y: 0), Point(x: 1, y: 30), Point(x: 2, y: 0)], width: 4))
        #expect(Path.roundPolylinePiecesTile([Point(x: 0, y: 0), Point(x: 10, y: 3), Point(x: 20, y: 0)], width: 4))
        #expect(one[20 * 40 + 20] == 255)
        #expect(one.filter { $0 > 0 }.count < 50)
        #expect(Path.roundPolylinePieces([c], width: 0).isEmpty)
    }
}
