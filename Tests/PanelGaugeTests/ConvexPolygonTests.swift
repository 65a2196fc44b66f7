import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import PanelGauge

/// Which paths ``Canvas`` fills on the banded path (`Path.isDisjointConvex`),
/// and that it gives them the pixels the general path gives.
struct ConvexPolygonTests {
    static func polygon(_ points: [(Double, Double)]) -> Path {
        Path.polygon(points.map { Point(x: $0.0, y: $0.1) })
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
        #expect(Self.square.isDisjointConvex)
        #expect(Self.polygon([(30, 10), (10, 10), (10, 30), (30, 30)]).isDisjointConvex)  // either direction
        #expect(Self.polygon([(10, 10), (20, 10), (30, 10), (30, 30), (10, 30)]).isDisjointConvex)  // collinear
        #expect(Self.joined([Self.square, Self.farSquare]).isDisjointConvex)
        // Boxes that overlap, shapes that do not: two thin diagonal rectangles side by side.
        let a = Self.polygon([(0, 10), (10, 0), (12, 2), (2, 12)])
        let b = Self.polygon([(6, 14), (16, 4), (18, 6), (8, 16)])
        #expect(Self.joined([a, b]).isDisjointConvex)
    }

    @Test func anythingElseTakesTheGeneralPath() {
        #expect(!Self.joined([Self.square, Self.overlapping]).isDisjointConvex)
        #expect(!Self.joined([Self.square, Self.touching]).isDisjointConvex)
        #expect(!Self.pentagram.isDisjointConvex)
        #expect(!Self.concave.isDisjointConvex)
        #expect(!Self.polygon([(10, 10), (30, 10)]).isDisjointConvex)  // no area
        #expect(!Self.polygon([(10, 10), (30, 10), (50, 10)]).isDisjointConvex)  // collinear only
        var curved = Self.square
        curved.quadCurve(to: Point(x: 5, y: 5), control: Point(x: 0, y: 9))
        #expect(!curved.isDisjointConvex)
        #expect(!Path().isDisjointConvex)
    }

    /// Random sets of two to seven convex polygons (triangles and
    /// quadrilaterals, either way round, most boxes meeting): the answer is
    /// the one a plain test of every pair along both polygons' edge normals
    /// gives; and a polygon beside its mirror image across one of its edges,
    /// or through one of its corners (touching, not overlapping), is not
    /// disjoint.
    @Test func disjointnessIsThePairwiseSeparatingAxisTest() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(UInt64(1) << 53)
        }
        var disjoint = 0, overlapping = 0
        for _ in 0..<400 {
            var polygons: [[Point]] = []
            for _ in 0..<(2 + Int(random() * 6)) {
                let cx = 20 + random() * 60, cy = 20 + random() * 60, r = 3 + random() * 12
                let sides = random() < 0.5 ? 3 : 4, a0 = random() * 2 * Double.pi, squash = 0.2 + random() * 0.8
                // Corners a quarter turn apart at most, give or take 0.25 radians: convex.
                var corners = (0..<sides).map { k -> Point in
                    let a = a0 + Double(k) * 2 * Double.pi / Double(sides) + (random() - 0.5) * 0.5
                    return Point(x: cx + r * cos(a), y: cy + r * squash * sin(a))
                }
                if random() < 0.5 { corners.reverse() }
                polygons.append(corners)
            }
            var expected = true
            for i in polygons.indices {
                for j in polygons.indices where j > i && !Self.apart(polygons[i], polygons[j]) { expected = false }
            }
            let path = Self.joined(polygons.map { Path.polygon($0) })
            #expect(path.isDisjointConvex == expected, "\(polygons)")
            if expected { disjoint += 1 } else { overlapping += 1 }
        }
        // Both answers came up often.
        #expect(disjoint > 50 && overlapping > 50, "\(disjoint) disjoint, \(overlapping) not")
        let p = [Point(x: 10, y: 10), Point(x: 30, y: 12), Point(x: 22, y: 30)]
        let acrossEdge = p.map { q in
            // The mirror image across the line through p[0] and p[1].
            let dx = p[1].x - p[0].x, dy = p[1].y - p[0].y
            let t = ((q.x - p[0].x) * dx + (q.y - p[0].y) * dy) / (dx * dx + dy * dy)
            return Point(x: 2 * (p[0].x + t * dx) - q.x, y: 2 * (p[0].y + t * dy) - q.y)
        }
        let throughCorner = p.map { Point(x: 2 * p[2].x - $0.x, y: 2 * p[2].y - $0.y) }
        #expect(Path.polygon(acrossEdge).isDisjointConvex)
        #expect(!Self.joined([Path.polygon(p), Path.polygon(acrossEdge)]).isDisjointConvex)
        #expect(!Self.joined([Path.polygon(p), Path.polygon(throughCorner)]).isDisjointConvex)
        let apartByOne = throughCorner.map { Point(x: $0.x, y: $0.y + 1) }  // y from 31 on; p's to 30
        #expect(Self.joined([Path.polygon(p), Path.polygon(apartByOne)]).isDisjointConvex)
    }

    /// Whether some edge of either polygon has a normal along which the two
    /// polygons' projections do not meet: every corner of both projected.
    static func apart(_ p: [Point], _ q: [Point]) -> Bool {
        for (a, b) in [(p, q), (q, p)] {
            for i in a.indices {
                let e0 = a[i], e1 = a[(i + 1) % a.count]
                let nx = e1.y - e0.y, ny = e0.x - e1.x
                let pa = a.map { $0.x * nx + $0.y * ny }, pb = b.map { $0.x * nx + $0.y * ny }
                if pa.max()! < pb.min()! || pb.max()! < pa.min()! { return true }
            }
        }
        return false
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
            #expect(shape.isDisjointConvex)
            for rule in [FillRule.nonZero, .evenOdd] {
                let banded = Image(width: 200, height: 200)
                Canvas(surface: banded.surface).fill(shape, rule: rule, paint: .solid(.white))
                // The same contours and one without area (its two edges cancel):
                // not convex polygons any more, so the general path draws it.
                let general = Self.joined([shape, Self.polygon([(1, 1), (3, 3), (1, 1)])])
                #expect(!general.isDisjointConvex)
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

    /// A straight stroke with round caps from `a` to `b`, `w` wide: a rectangle
    /// along it and a half disc over each end, one contour.
    static func capsule(_ a: (Double, Double), _ b: (Double, Double), width w: Double) -> Path {
        let dx = b.0 - a.0, dy = b.1 - a.1, length = (dx * dx + dy * dy).squareRoot()
        let nx = -dy / length * w / 2, ny = dx / length * w / 2
        let heading = atan2(dy, dx) * 180 / Double.pi
        var p = Path()
        p.move(to: Point(x: a.0 + nx, y: a.1 + ny))
        p.line(to: Point(x: b.0 + nx, y: b.1 + ny))
        p.addArc(
            center: Point(x: b.0, y: b.1), radius: w / 2, startAngle: .degrees(heading + 90), sweep: .degrees(-180))
        p.line(to: Point(x: a.0 - nx, y: a.1 - ny))
        p.addArc(
            center: Point(x: a.0, y: a.1), radius: w / 2, startAngle: .degrees(heading - 90), sweep: .degrees(-180))
        p.closeSubpath()
        return p
    }

    /// A pie slice: the centre, then the arc.
    static func slice(_ start: Double, _ sweep: Double) -> Path {
        var p = Path()
        p.move(to: Point(x: 100, y: 100))
        p.addArc(center: Point(x: 100, y: 100), radius: 60, startAngle: .degrees(start), sweep: .degrees(sweep))
        p.closeSubpath()
        return p
    }

    /// Which paths with arcs are convex contours: one contour whose arcs turn
    /// with it (capsules at any angle and width, slices up to a half turn, a
    /// disc); not a slice over a half turn, a crescent (an arc turning
    /// against the contour), two contours with arcs, or curves of other kinds.
    @Test func oneContourWithArcsThatTurnWithItIsConvex() {
        for w in [1.0, 2, 6] {
            for angle in stride(from: 0.0, to: 360, by: 37) {
                let a = angle * Double.pi / 180
                let shape = Self.capsule((100, 100), (100 + 70 * cos(a), 100 + 70 * sin(a)), width: w)
                #expect(shape.isDisjointConvex, "capsule \(w) px at \(angle) degrees")
            }
        }
        #expect(Self.slice(30, 90).isDisjointConvex)
        #expect(Self.slice(-40, -170).isDisjointConvex)
        #expect(!Self.slice(30, 200).isDisjointConvex, "a slice over a half turn is not convex")
        var disc = Path()
        disc.addArc(center: Point(x: 50, y: 50), radius: 20, startAngle: .degrees(10), sweep: .degrees(360))
        disc.closeSubpath()
        #expect(disc.isDisjointConvex)
        var crescent = Path()
        crescent.addArc(center: Point(x: 100, y: 100), radius: 50, startAngle: .degrees(-60), sweep: .degrees(120))
        crescent.addArc(center: Point(x: 120, y: 100), radius: 40, startAngle: .degrees(50), sweep: .degrees(-100))
        crescent.closeSubpath()
        #expect(!crescent.isDisjointConvex)
        let two = Self.joined([Self.square]).appendingArcContour()
        #expect(!two.isDisjointConvex, "arcs in a path of two contours")
        var twice = Path()
        twice.addArc(center: Point(x: 50, y: 50), radius: 20, startAngle: .degrees(0), sweep: .degrees(540))
        twice.closeSubpath()
        #expect(!twice.isDisjointConvex, "more than a turn")
    }

    /// Capsules at many angles and widths (1 to 6 px) and slices: the banded
    /// path gives the pixels the general path gives, within three levels.
    @Test func bandedCapsulesAndSlicesAreTheGeneralPathsPixels() {
        var shapes: [Path] = [Self.slice(30, 90), Self.slice(200, -150)]
        for (k, w) in [1.0, 1.5, 2, 3, 4, 6].enumerated() {
            let a = (17 + 53 * Double(k)) * Double.pi / 180
            shapes.append(Self.capsule((100.3, 99.6), (100.3 + 80 * cos(a), 99.6 + 80 * sin(a)), width: w))
        }
        for shape in shapes {
            #expect(shape.isDisjointConvex)
            let banded = Image(width: 200, height: 200)
            Canvas(surface: banded.surface).fill(shape, paint: .solid(.white))
            // With a contour without area beside it, the general path draws it.
            let general = Self.joined([Self.polygon([(1, 1), (3, 3), (1, 1)])]).appending(shape)
            #expect(!general.isDisjointConvex)
            let reference = Image(width: 200, height: 200)
            Canvas(surface: reference.surface).fill(general, paint: .solid(.white))
            var worst = 0, inked = 0
            for y in 0..<200 {
                for x in 0..<200 {
                    let b = Int(banded.surface.pixel(x: x, y: y).red)
                    worst = max(worst, abs(b - Int(reference.surface.pixel(x: x, y: y).red)))
                    if b > 0 { inked += 1 }
                }
            }
            // Within 3 levels: at the arcs' pixels the banded path walks the
            // edge as a circle and the general path's cells take it in pieces;
            // where they differ the banded value is the exact coverage rounded
            // (the nine such pixels of the slice of radius 60, integrated
            // numerically: at (40, 96) exact 228.8, banded 229, general 227).
            #expect(worst <= 3, "\(shape)")
            #expect(inked > 50)
        }
    }
}

extension Path {
    /// This path with `other`'s elements after it.
    fileprivate func appending(_ other: Path) -> Path {
        var p = self
        for e in other.elements {
            switch e {
            case .move(let a): p.move(to: a)
            case .line(let a): p.line(to: a)
            case .quad(let c, let a): p.quadCurve(to: a, control: c)
            case .cubic(let c1, let c2, let a): p.curve(to: a, control1: c1, control2: c2)
            case .arc(let c, let r, let a0, let sw): p.addArc(center: c, radius: r, startAngle: a0, sweep: sw)
            case .close: p.closeSubpath()
            }
        }
        return p
    }

    /// This path and a far-away disc contour.
    fileprivate func appendingArcContour() -> Path {
        var disc = Path()
        disc.addArc(center: Point(x: 150, y: 150), radius: 10, startAngle: .degrees(0), sweep: .degrees(360))
        disc.closeSubpath()
        return appending(disc)
    }
}
