#if canImport(Glibc)
    import Glibc
#endif
@testable import PanelGauge
import Testing

/// ``AnnularSector``: the coverage it computes against the exact area, and
/// which dashes ``Canvas`` draws with it.
@Suite struct AnnularSectorTests {
    /// The coverage (0...255) a sector gives each pixel: white at alpha 1
    /// over black leaves round(coverage * 255) in every channel. Pixels it
    /// leaves alone stay at `background`.
    static func render(_ sector: AnnularSector, width: Int, height: Int, clip: IntRect? = nil, background: UInt32 = 0)
        -> [Int]
    {
        CoverageTesting.render(width: width, height: height, background: background) { sink in
            sector.render(
                clip: clip ?? IntRect(x: 0, y: 0, width: width, height: height),
                band: AnnularSector.Band(inner: sector.inner, outer: sector.outer, alpha: 255), into: sink)
        }
    }

    /// The area of pixel (i, j) inside the sector (`CoverageTesting.latticeArea`).
    static func exactArea(
        _ i: Int, _ j: Int, cx: Double, cy: Double, inner: Double, outer: Double, start: Double, end: Double
    )
        -> Double
    {
        CoverageTesting.latticeArea(i, j) { px, py in
            let x = px - cx, y = py - cy
            let r2 = x * x + y * y
            guard r2 >= inner * inner, r2 <= outer * outer else { return false }
            // Inside both rays (sweeps under pi).
            return -sin(start) * x + cos(start) * y >= 0 && sin(end) * x - cos(end) * y >= 0
        }
    }

    /// Every pixel of several sectors (both circles, both rays, the corners,
    /// every direction of the edges) within the documented 0.032 of its exact
    /// area (at alpha 1, where the error shows most), whole pixels 255 or
    /// left alone.
    @Test(arguments: [
        (60.3, 59.8, 40.0, 45.5, 0.10, 0.31), (58.7, 61.2, 33.1, 37.9, 1.2, 1.32), (61.5, 60.5, 50.2, 56.0, 2.9, 3.05),
        (59.2, 60.1, 44.4, 47.1, 4.4, 4.71), (60.0, 60.0, 38.0, 44.0, 5.8, 6.2),
        // As wide as `fits` takes at the smallest radius.
        (60.4, 59.6, 32.0, 37.5, 3.6, 4.1),
    ])
    func coverageIsWithinTheBound(cx: Double, cy: Double, inner: Double, outer: Double, start: Double, end: Double) {
        let w = 120, h = 120
        let sector = AnnularSector(cx: cx, cy: cy, inner: inner, outer: outer, start: start, end: end)
        let (worst, partial) = CoverageTesting.partialErrors(
            Self.render(sector, width: w, height: h), width: w, height: h
        ) {
            Self.exactArea($0, $1, cx: cx, cy: cy, inner: inner, outer: outer, start: start, end: end)
        }
        #expect(partial > 20)
        #expect(worst <= 0.032, "worst coverage error \(worst)")
    }

    /// Sectors from `rowsWidth` wide, drawn row by row within `RowQuads`'
    /// bounds, whose quads wholly inside skip the kernel: every pixel of their
    /// box within the bound, and every pixel whose centre lies more than half
    /// a diagonal inside all four edges exactly 255. (The pixels outside the
    /// box are the other tests'.) The inside lies over one colour, which the
    /// even-quad memo keeps. Among them: narrow sweeps, which take the
    /// circles' normal at the middle angle (`RowQuads.radial`), and sectors
    /// whose bounds leave out an edge near the horizontal (across 0, 90 and
    /// 180 degrees, and from exactly 0).
    @Test(arguments: [
        (80.3, 79.6, 62.0, 74.0, 0.3, 0.75), (79.5, 80.4, 63.2, 75.1, 2.0, 2.4), (80.0, 80.0, 65.0, 76.0, 4.0, 4.35),
        (80.6, 79.7, 60.0, 69.5, 5.3, 5.75), (80.2, 79.9, 66.0, 71.0, 1.0, 1.3),
        // Half the sweep and the reach's angle within `RowQuads.radialSpread`.
        (130.3, 129.6, 110.0, 122.0, 0.3, 0.34), (129.6, 130.4, 112.5, 121.0, 2.61, 2.65),
        (130.0, 130.0, 114.0, 126.0, 4.9, 4.94), (130.4, 129.5, 104.0, 117.6, 5.62, 5.66),
        // A band a third of its outer radius wide.
        (130.3, 129.8, 60.0, 90.0, 1.0, 1.1), (129.6, 130.2, 35.0, 48.0, 3.3, 3.6),
        // Across 0 and 180 degrees, around 90, from 0.
        (130.2, 129.7, 110.0, 122.0, -0.03, 0.03), (129.7, 130.3, 110.0, 122.0, Double.pi - 0.03, Double.pi + 0.03),
        (130.1, 129.8, 110.0, 122.0, Double.pi / 2 - 0.03, Double.pi / 2 + 0.03), (130.0, 130.0, 110.0, 122.0, 0, 0.05),
    ])
    func wideSectorsStayWithinTheBound(cx: Double, cy: Double, inner: Double, outer: Double, start: Double, end: Double)
    {
        let w = 260, h = 260
        let sector = AnnularSector(cx: cx, cy: cy, inner: inner, outer: outer, start: start, end: end)
        #expect(outer - inner >= AnnularSector.rowsWidth)
        #expect(AnnularSector.fits(inner: inner, outer: outer))
        let coverage = Self.render(sector, width: w, height: h)
        var worst = 0.0, deepInside = 0
        for j in Int(sector.minY) - 1...Int(sector.maxY) + 1 {
            for i in Int(sector.minX) - 1...Int(sector.maxX) + 1 {
                let exact = Self.exactArea(i, j, cx: cx, cy: cy, inner: inner, outer: outer, start: start, end: end)
                let got = max(coverage[j * w + i], 0)
                // (Lattice points miss slivers under 1/4181 px: one level more.)
                worst = max(worst, abs(Double(got) / 255 - exact) - (exact == 0 || exact == 1 ? 1.0 / 255 : 0))
                // The centre's distances inside the four edges.
                let x = Double(i) + 0.5 - cx, y = Double(j) + 0.5 - cy
                let rho = (x * x + y * y).squareRoot()
                let depth = min(
                    min(rho - inner, outer - rho), min(-sin(start) * x + cos(start) * y, sin(end) * x - cos(end) * y))
                if depth > 0.75 {
                    deepInside += 1
                    #expect(got == 255, "pixel \(i), \(j)")
                }
            }
        }
        #expect(deepInside > 20)
        #expect(worst <= 0.032, "worst coverage error \(worst)")
    }

    /// The rows and columns outside the clip are left alone, and the lanes of
    /// a quad past the clip's right edge too.
    @Test func staysInsideTheClip() {
        let sector = AnnularSector(cx: 30.4, cy: 31.1, inner: 34, outer: 39, start: -0.2, end: 0.15)
        let clip = IntRect(x: 10, y: 25, width: 55, height: 9)
        let coverage = Self.render(sector, width: 80, height: 80, clip: clip, background: 0xFF12_3456)
        for j in 0..<80 {
            for i in 0..<80 where i < clip.minX || i >= clip.maxX || j < clip.minY || j >= clip.maxY {
                #expect(coverage[j * 80 + i] == -1)
            }
        }
        #expect(coverage.contains { $0 >= 0 })
    }

    /// Through clips ending at every column and row across a sector (wide
    /// ones row by row, thin ones quad by quad), nothing outside the clip
    /// changes and the pixels inside it are the whole sector's, within one
    /// level (a quad's lanes start from the clip's first column, in single
    /// precision).
    @Test(arguments: [(60.3, 59.7, 40.0, 52.0, 0.35, 0.75), (59.6, 60.2, 44.0, 47.0, 3.5, 3.62)])
    func clippedPixelsAreTheWholeSectors(
        cx: Double, cy: Double, inner: Double, outer: Double, start: Double, end: Double
    ) {
        let w = 120, h = 120
        let sector = AnnularSector(cx: cx, cy: cy, inner: inner, outer: outer, start: start, end: end)
        let whole = Self.render(sector, width: w, height: h)
        for edge in 0...w {
            for clip in [
                IntRect(x: 0, y: 0, width: edge, height: h), IntRect(x: edge, y: 0, width: w - edge, height: h),
                IntRect(x: 0, y: edge, width: w, height: h - edge),
                IntRect(x: edge, y: edge / 2 + 30, width: 5, height: 7),
            ] {
                let part = Self.render(sector, width: w, height: h, clip: clip)
                if let (i, j) = CoverageTesting.firstDifference(
                    part, whole, clip: clip, width: w, height: h, tolerance: 1)
                {
                    Issue.record("clip \(clip): pixel \(i), \(j)")
                    return
                }
            }
        }
    }

    /// Random dashed translucent rings (wide and thin dashes, partly off the
    /// surface) through random clips, via the canvas: nothing outside the clip
    /// changes, and inside it every channel is within one level of the
    /// unclipped ring's (a quad's lanes start from the clip's first column).
    @Test func randomRingsAndClips() throws {
        var rng = BlendTests.Random(state: 23)
        let w = 80, h = 60
        var sectored = 0
        for trial in 0..<200 {
            let r = 40 + Double(rng.below(300)) / 10, width = 3 + Double(rng.below(120)) / 10
            let center = Point(x: Double(rng.below(1000)) / 10 - 10, y: Double(rng.below(800)) / 10 - 10)
            let on = 4 + Double(rng.below(100)) / 10
            let dash = try DashPattern([on, on * 0.7 + 2])
            let clip = IntRect(
                x: rng.below(w) - 4, y: rng.below(h) - 4, width: rng.below(w + 8), height: rng.below(h + 8))
            func draw(_ clip: IntRect?) -> [UInt32] {
                let image = Image(width: w, height: h)
                let canvas = Canvas(surface: image.surface)
                canvas.clear(Color(hex: 0x101418))
                canvas.clip = clip
                canvas.strokeArc(
                    center: center, radius: r, startAngle: .degrees(Double(rng.below(360))), sweep: .degrees(300),
                    width: width, dash: dash, paint: .solid(Color.white.opacity(0.25)))
                if canvas.sectorDashes > 0 { sectored += 1 }
                return (0..<h).flatMap { j in
                    (0..<w).map { image.surface.row(j).assumingMemoryBound(to: UInt32.self)[$0] }
                }
            }
            let state = rng
            let whole = draw(nil)
            rng = state
            let background = draw(IntRect(x: 0, y: 0, width: 0, height: 0))
            rng = state
            let part = draw(clip)
            for j in 0..<h {
                for i in 0..<w {
                    let inside = i >= clip.minX && i < clip.maxX && j >= clip.minY && j < clip.maxY
                    let want = (inside ? whole : background)[j * w + i], got = part[j * w + i]
                    let tolerance = inside ? 1 : 0
                    var close = true
                    for shift in [0, 8, 16] {
                        let a = Int((want >> UInt32(shift)) & 0xFF), b = Int((got >> UInt32(shift)) & 0xFF)
                        if abs(a - b) > tolerance { close = false }
                    }
                    if !close {
                        Issue.record("trial \(trial): pixel \(i), \(j), clip \(clip)")
                        return
                    }
                }
            }
        }
        // (Most rings go through the sectors: all but the ones off the clip.)
        #expect(sectored > 200)
    }

    /// The sector's floor and ceil (no checked conversion inside) agree with
    /// libm's at integers, halves, just off both, and near 2^30.
    @Test func floorAndCeilMatchLibm() {
        var xs: [Double] = []
        for base in [0.0, 1, 2, 3, 7, 240, 1_073_741_822, 1_000_000.25] {
            for d in [0.0, 0.5, 0.25, 0.75, 1e-9, -1e-9, 0.5.nextUp, 0.5.nextDown] {
                xs += [base + d, -(base + d), (base + d).nextUp, (base + d).nextDown]
            }
        }
        for x in xs {
            #expect(AnnularSector.floor(x) == Int(Glibc.floor(x)), "floor(\(x))")
            #expect(AnnularSector.ceil(x) == Int(Glibc.ceil(x)), "ceil(\(x))")
        }
    }

    /// A start angle many turns out draws the dashes of the angle reduced,
    /// and a huge one does not trap (floor and ceil inside take values
    /// under 2^30).
    @Test func hugeStartAngles() throws {
        func draw(_ start: Double) throws -> [UInt32] {
            let image = Image(width: 100, height: 100)
            let canvas = Canvas(surface: image.surface)
            canvas.strokeArc(
                center: Point(x: 50, y: 50), radius: 40, startAngle: .degrees(start), sweep: .degrees(90), width: 4,
                dash: try DashPattern([5, 3]), paint: .solid(Color.white.opacity(0.2)))
            #expect(canvas.sectorDashes > 0)
            return (0..<100).flatMap { y in
                (0..<100).map { image.surface.row(y).assumingMemoryBound(to: UInt32.self)[$0] }
            }
        }
        let reduced = try draw(30)
        let far = try draw(30 + 360 * 1e6)
        // 1e6 turns leave about 1e-9 rad of rounding in the angle.
        #expect(zip(reduced, far).filter { $0 != $1 }.count <= 4)
        // Past 2^53 degrees the angle has no fraction left, but it draws.
        #expect(try draw(1e300).contains { $0 != 0 })
        #expect(reduced.contains { $0 != 0 })
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
        // Opaque, round caps, a small radius: cells only.
        #expect(try dashes(60, 4, [5, 5], alpha: 1) == 0)
        #expect(try dashes(60, 4, [5, 5], alpha: 0.2, cap: .round) == 0)
        #expect(try dashes(30, 4, [5, 5], alpha: 0.2) == 0)
        // Wide dashes too (through the even quads' memo): 2 pi 60 / 20 = 18.8
        // periods, 19 dashes, the last 1.99 px before the first.
        #expect(try dashes(60, 10, [15, 5], alpha: 0.2) == 19)
        // Dashes over 384 px^2 (30 x 17): cells.
        #expect(try dashes(90, 17, [30, 30], alpha: 0.2) == 0)
        // A dash over 0.5 rad: cells.
        #expect(try dashes(60, 4, [40, 5], alpha: 0.2) == 0)
        // A band wide for its radius (8 px at 40): sectors too (each pixel's
        // distances come from its own square root).
        #expect(try dashes(40, 8, [6, 4], alpha: 0.2) > 0)
        // The reference case "translucent-wide-dashes" (the even-quad memo) is drawn as sectors.
        #expect(try dashes(50.2, 8.6, [14.5, 6.1], alpha: 0.25) > 0)
        // Beyond single precision's reach from the centre: cells.
        #expect(try dashes(16390, 4, [5, 5], alpha: 0.2, sweep: 1) == 0)
        #expect(try dashes(16380, 4, [5, 5], alpha: 0.2, sweep: 1) > 0)
        // Gaps under 1.5 px at the inner radius: cells.
        #expect(try dashes(60, 4, [5, 1.4], alpha: 0.2) == 0)
    }
}
