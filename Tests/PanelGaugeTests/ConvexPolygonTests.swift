import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import PanelGauge

/// Which paths ``Canvas`` fills on the banded path (`Path.isDisjointConvexPolygons`),
/// and that it gives them the pixels the general path gives.
struct ConvexPolygonTests {
    static func polygon(_ points: [(Double, Double)]) -> Path {
        var p = Path()
        p.move(to: Point(x: points[0].0, y: points[0].1))
        for q in points.dropFirst() { p.line(to: Point(x: q.0, y: q.1)) }
        p.closeSubpath()
        return p
    }

    static func joined(_ paths: [Path]) -> Path {
        var p = Path()
        for q in paths {
            for e in q.elements {
                switch e {
                case .move(let a): p.move(to: a)
                case .line(let a): p.line(to: a)
                case .close: p.closeSubpath()
                default: break
                }
            }
        }
        return p
    }

    static let square = polygon([(10, 10), (30, 10), (30, 30), (10, 30)])
    static let farSquare = polygon([(40, 10), (60, 10), (60, 30), (40, 30)])
    static let overlapping = polygon([(25, 25), (45, 25), (45, 45), (25, 45)])
    static let touching = polygon([(30, 10), (50, 10), (50, 30), (30, 30)])
    static let pentagram = polygon(
        (0..<5).map { k in
            let a = Double(k * 2) * 2 * Double.pi / 5
            return (50 + 30 * cos(a), 50 + 30 * sin(a))
        })
    static let concave = polygon([(10, 10), (40, 10), (20, 20), (40, 30), (10, 30)])

    @Test func convexDisjointPolygonsAreRecognised() {
        #expect(Self.square.isDisjointConvexPolygons)
        #expect(Self.polygon([(30, 10), (10, 10), (10, 30), (30, 30)]).isDisjointConvexPolygons)  // either direction
        #expect(Self.polygon([(10, 10), (20, 10), (30, 10), (30, 30), (10, 30)]).isDisjointConvexPolygons)  // collinear
        #expect(Self.joined([Self.square, Self.farSquare]).isDisjointConvexPolygons)
        // Boxes that overlap, shapes that do not: two thin diagonal rectangles side by side.
        let a = Self.polygon([(0, 10), (10, 0), (12, 2), (2, 12)])
        let b = Self.polygon([(6, 14), (16, 4), (18, 6), (8, 16)])
        #expect(Self.joined([a, b]).isDisjointConvexPolygons)
    }

    @Test func anythingElseTakesTheGeneralPath() {
        #expect(!Self.joined([Self.square, Self.overlapping]).isDisjointConvexPolygons)
        #expect(!Self.joined([Self.square, Self.touching]).isDisjointConvexPolygons)
        #expect(!Self.pentagram.isDisjointConvexPolygons)
        #expect(!Self.concave.isDisjointConvexPolygons)
        #expect(!Self.polygon([(10, 10), (30, 10)]).isDisjointConvexPolygons)  // no area
        #expect(!Self.polygon([(10, 10), (30, 10), (50, 10)]).isDisjointConvexPolygons)  // collinear only
        var curved = Self.square
        curved.quadCurve(to: Point(x: 5, y: 5), control: Point(x: 0, y: 9))
        #expect(!curved.isDisjointConvexPolygons)
        #expect(!Path().isDisjointConvexPolygons)
    }

    /// Thin rotated rectangles (ticks) and a tapered needle: the banded path's
    /// pixels are the general path's, within one level, under either rule.
    @Test func bandedPixelsAreTheGeneralPathsPixels() {
        var ticks: [Path] = []
        for t in 0..<41 {
            let a = (135 + 6.75 * Double(t)) * Double.pi / 180
            let dx = cos(a), dy = sin(a), nx = -sin(a), ny = cos(a), half = t % 4 == 0 ? 1.5 : 0.75
            let (r0, r1) = (t % 4 == 0 ? 66.0 : 75.6, 85.2)
            ticks.append(
                Self.polygon([
                    (100 + r0 * dx + half * nx, 100 + r0 * dy + half * ny),
                    (100 + r1 * dx + half * nx, 100 + r1 * dy + half * ny),
                    (100 + r1 * dx - half * nx, 100 + r1 * dy - half * ny),
                    (100 + r0 * dx - half * nx, 100 + r0 * dy - half * ny),
                ]))
        }
        let needle = Self.polygon([(100, 92.8), (181.6, 99.5), (181.6, 100.5), (100, 107.2)])
        for shape in [Self.joined(ticks), needle] {
            #expect(shape.isDisjointConvexPolygons)
            for rule in [FillRule.nonZero, .evenOdd] {
                let banded = Image(width: 200, height: 200)
                Canvas(surface: banded.surface).fill(shape, rule: rule, paint: .solid(.white))
                // The same contours and one without area (its two edges cancel):
                // not convex polygons any more, so the general path draws it.
                let general = Self.joined([shape, Self.polygon([(1, 1), (3, 3), (1, 1)])])
                #expect(!general.isDisjointConvexPolygons)
                let reference = Image(width: 200, height: 200)
                Canvas(surface: reference.surface).fill(general, rule: rule, paint: .solid(.white))
                var worst = 0
                for y in 0..<200 {
                    for x in 0..<200 {
                        worst = max(
                            worst,
                            abs(
                                Int(banded.surface.pixel(x: x, y: y).red) - Int(reference.surface.pixel(x: x, y: y).red)
                            ))
                    }
                }
                #expect(worst <= 1)
                #expect(banded.surface.pixel(x: 185, y: 100).red == 0)
            }
        }
    }
}
