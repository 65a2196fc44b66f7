import Testing

@testable import PanelGauge

/// The scan converter has two paths for the same polygons: the banded one
/// (dense cells, for shapes made of simple groups: discs, rounded rectangles,
/// arc strokes, butt-capped dashes) and the general one (sorted cells with
/// self-overlap detection, for paths). Filling a path flattens to the very same
/// polygon as the shape call, so the two must agree; the only difference is
/// where an upward edge's row crossings round (the banded path walks every edge
/// downwards), at most one 8-bit level.
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
        #expect(d.max <= 1, "disc: \(d)")

        let rect = Rect(x: 3.4, y: 5.2, width: 110.5, height: 88.9)
        let rounded = render(clip) { $0.fillRoundedRect(rect, cornerRadius: 17.25, paint: .solid(Self.white)) }
        var outline = Path()
        outline.addRoundedRect(rect, cornerRadius: 17.25)
        let roundedViaPath = render(clip) { $0.fill(outline, paint: .solid(Self.white)) }
        let r = difference(rounded, roundedViaPath)
        #expect(r.max <= 1, "rounded rect: \(r)")
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
        #expect(d.max <= 1, "\(d)")
        // And the hole is empty, the ring's middle full.
        #expect(ring.surface.pixel(x: 60, y: 50).red == 0)
        #expect(ring.surface.pixel(x: 95, y: 50).red == 255)
    }
}
