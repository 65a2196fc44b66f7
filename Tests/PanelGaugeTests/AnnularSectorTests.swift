#if canImport(Glibc)
    import Glibc
#endif
@testable import PanelGauge
import Testing

/// ``AnnularSector``: the coverage it computes against the exact area, and
/// which dashes ``Canvas`` draws with it.
@Suite struct AnnularSectorTests {
    /// Collects the coverages a sector delivers, per pixel.
    struct Recorder: SpanSink {
        var width: Int, height: Int
        var coverage: [Int]
        let row = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            coverage = Array(repeating: -1, count: width * height)
        }

        static var takesPixels: Bool { true }
        // The row's address carries y (the sector only passes it back).
        func rowAddress(_ y: Int) -> UnsafeMutableRawPointer { row + y }
        mutating func blendQuad(row r: UnsafeMutableRawPointer, x: Int, coverage c: SIMD4<UInt32>) {
            let y = r - row
            for i in 0..<4 { put(x + i, y, Int(c[i])) }
        }
        mutating func blendPixel(y: Int, x: Int, coverage c: UInt8) { put(x, y, Int(c)) }
        mutating func blendSpan(y: Int, x: Int, count: Int, coverage c: UnsafePointer<UInt8>) {
            for i in 0..<count { put(x + i, y, Int(c[i])) }
        }
        mutating func blendRun(y: Int, x: Int, count: Int, coverage c: UInt8) {
            for i in 0..<count { put(x + i, y, Int(c)) }
        }
        mutating func put(_ x: Int, _ y: Int, _ c: Int) {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "outside the clip: \(x), \(y)")
            precondition(coverage[y * width + x] == -1, "pixel \(x), \(y) delivered twice")
            coverage[y * width + x] = c
        }
    }

    /// The area of pixel (i, j) inside the sector, from a Fibonacci lattice of
    /// 4181 points (within about 1/4000 of the area for these edges).
    static func exactArea(
        _ i: Int, _ j: Int, cx: Double, cy: Double, inner: Double, outer: Double, start: Double, end: Double
    )
        -> Double
    {
        let n = 4181, a = 2584
        var inside = 0
        for k in 0..<n {
            let x = Double(i) + (Double(k) + 0.5) / Double(n) - cx
            let y = Double(j) + ((Double(k * a) + 0.5) / Double(n)).truncatingRemainder(dividingBy: 1) - cy
            let r2 = x * x + y * y
            guard r2 >= inner * inner, r2 <= outer * outer else { continue }
            // Inside both rays (sweeps under pi).
            if -sin(start) * x + cos(start) * y >= 0 && sin(end) * x - cos(end) * y >= 0 { inside += 1 }
        }
        return Double(inside) / Double(n)
    }

    /// Every pixel of several sectors (both circles, both rays, the corners,
    /// every direction of the edges) within the documented 0.032 of its exact
    /// area, whole pixels exactly 255 or 0, each pixel delivered once.
    @Test(arguments: [
        (60.3, 59.8, 40.0, 45.5, 0.10, 0.31), (58.7, 61.2, 33.1, 37.9, 1.2, 1.32), (61.5, 60.5, 50.2, 56.0, 2.9, 3.05),
        (59.2, 60.1, 44.4, 47.1, 4.4, 4.71), (60.0, 60.0, 38.0, 44.0, 5.8, 6.2),
    ])
    func coverageIsWithinTheBound(cx: Double, cy: Double, inner: Double, outer: Double, start: Double, end: Double) {
        let w = 120, h = 120
        let sector = AnnularSector(cx: cx, cy: cy, inner: inner, outer: outer, start: start, end: end)
        var rec = Recorder(width: w, height: h)
        sector.render(clip: IntRect(x: 0, y: 0, width: w, height: h), into: &rec)
        var worst = 0.0, partial = 0
        for j in 0..<h {
            for i in 0..<w {
                let exact = Self.exactArea(i, j, cx: cx, cy: cy, inner: inner, outer: outer, start: start, end: end)
                let got = rec.coverage[j * w + i]
                if exact == 0 || exact == 1 {
                    // Lattice points miss slivers under 1/4181 px: allow one level there.
                    #expect(got == -1 || abs(Double(max(got, 0)) - exact * 255) <= 1, "pixel \(i), \(j)")
                    continue
                }
                partial += 1
                #expect(got >= 0, "edge pixel \(i), \(j) not delivered")
                worst = max(worst, abs(Double(got) / 255 - exact))
            }
        }
        #expect(partial > 20)
        #expect(worst <= 0.032, "worst coverage error \(worst)")
    }

    /// The rows and columns outside the clip are left alone, and the lanes of
    /// a quad past the clip's right edge too.
    @Test func staysInsideTheClip() {
        let sector = AnnularSector(cx: 30.4, cy: 31.1, inner: 34, outer: 39, start: -0.2, end: 0.15)
        var rec = Recorder(width: 80, height: 80)
        let clip = IntRect(x: 10, y: 25, width: 55, height: 9)
        sector.render(clip: clip, into: &rec)
        for j in 0..<80 {
            for i in 0..<80 where i < clip.minX || i >= clip.maxX || j < clip.minY || j >= clip.maxY {
                #expect(rec.coverage[j * 80 + i] == -1)
            }
        }
        #expect(rec.coverage.contains { $0 > 0 })
    }

    /// Which dashes of a stroke take the sector path: translucent solid paint,
    /// butt caps, an inner radius from 32 px, dashes small and apart.
    @Test func canvasRoutesTranslucentButtDashes() throws {
        let image = Image(width: 200, height: 200)
        let canvas = Canvas(surface: image.surface)
        let c = Point(x: 100, y: 100)
        func dashes(
            _ r: Double, _ w: Double, _ pattern: [Double], alpha: Double, cap: LineCap = .butt, sweep: Double = 360
        )
            throws -> Int
        {
            canvas.strokeArc(
                center: c, radius: r, startAngle: .degrees(0), sweep: .degrees(sweep), width: w, cap: cap,
                dash: try DashPattern(pattern), paint: .solid(Color.white.opacity(alpha)))
            return canvas.sectorDashes
        }
        // 2 pi 60 / 10 = 37.7 periods: 38 dashes, the last ending 0.99 px
        // (0.96 at the inner radius) before the first: those two go to cells.
        #expect(try dashes(60, 4, [6, 4], alpha: 0.2) == 36)
        // 5 px dashes leave 1.99 px there: all 38.
        #expect(try dashes(60, 4, [5, 5], alpha: 0.2) == 38)
        // An open arc (94.2 px): no wrap-around, all 10.
        #expect(try dashes(60, 4, [6, 4], alpha: 0.2, sweep: 90) == 10)
        // Opaque, round caps, a small radius, large dashes: cells only.
        #expect(try dashes(60, 4, [5, 5], alpha: 1) == 0)
        #expect(try dashes(60, 4, [5, 5], alpha: 0.2, cap: .round) == 0)
        #expect(try dashes(30, 4, [5, 5], alpha: 0.2) == 0)
        #expect(try dashes(60, 10, [15, 5], alpha: 0.2) == 0)
        // Gaps under 1.5 px at the inner radius: cells.
        #expect(try dashes(60, 4, [5, 1.4], alpha: 0.2) == 0)
    }
}
