#if canImport(Glibc)
    import Glibc
#endif
import Testing

@testable import PanelGauge

/// What paneld's copies of value arcs rely on: where a value change paints
/// (`changedBounds`, in bands and glyphs), and that away from its ends an
/// arc's pixels are the whole arc's (`exactBounds`, `strokeValueArc`).
@Suite struct ValueArcTests {
    static let rect = GaugeLayersTests.rect

    /// The built-in styles whose value indicator is an arc, with their values.
    func arcGauges() throws -> [(name: String, gauge: Gauge)] {
        try LayeredGauges.all().filter { _, g in g.layering(in: Self.rect).valueArc != nil }
    }

    func value(_ g: Gauge, _ f: Double) throws -> Gauge {
        try g.withValue(g.range.lowerBound + f * (g.range.upperBound - g.range.lowerBound))
    }

    /// Pixels (x, y) where two images differ.
    func differences(_ a: Image, _ b: Image) -> [(Int, Int)] {
        withExtendedLifetime((a, b)) {
            (0..<a.height).flatMap { y in
                (0..<a.width).filter { a.surface.pixel(x: $0, y: y) != b.surface.pixel(x: $0, y: y) }.map { ($0, y) }
            }
        }
    }

    func covered(_ p: (Int, Int), by boxes: [Rect]) -> Bool {
        boxes.map(IntRect.init(covering:)).contains { $0.contains(IntRect(x: p.0, y: p.1, width: 1, height: 1)) }
    }

    /// Every pixel in which two values' drawings differ lies in the changed
    /// bounds: the arc's bands between the values and the glyphs that differ.
    @Test func aValueChangePaintsOnlyInsideItsChangedBounds() throws {
        let layers = GaugeLayersTests()
        let steps: [(Double, Double)] = [
            (0.42, 0.43), (0.05, 0.86), (0.86, 0.05), (0, 1), (1, 0.001), (0.3, 0.72), (0.249, 0.251), (0.5, 0.505),
        ]
        for (name, gauge) in try arcGauges() {
            for (f0, f1) in steps {
                let (a, b) = (try value(gauge, f0), try value(gauge, f1))
                let (la, lb) = (a.layering(in: Self.rect), b.layering(in: Self.rect))
                guard la.staticKey == lb.staticKey, let changed = la.changedBounds(to: lb) else { continue }
                let outside = differences(
                    layers.draw(a, layers: [.all], format: .xrgb8888), layers.draw(b, layers: [.all], format: .xrgb8888)
                ).filter { !covered($0, by: changed) }
                #expect(outside.isEmpty, "\(name) \(f0) -> \(f1): \(outside.prefix(5))")
            }
        }
        // A long arc's bands take in far less than its quarter-turn boxes.
        let l = CircularGaugeLayout(
            center: Point(x: 200, y: 200), radius: 180, lineWidth: 20, startAngle: 90, sweep: 360)
        let bands = l.strokeBands(from: 0.1, to: 0.9), pieces = l.strokePieces(from: 0.1, to: 0.9)
        let bandArea = bands.reduce(0) { $0 + $1.width * $1.height }
        let pieceArea = pieces.reduce(0) { $0 + $1.width * $1.height }
        #expect(bandArea < 0.5 * pieceArea)
    }

    /// Bands lie between multiples of 32 screen rows, so the bands of a change
    /// hold those of any smaller change over the same stretch of ring: an
    /// output that repaints two frames' damage drops the smaller ones instead
    /// of copying their rows twice.
    @Test func bandsOfASmallerChangeLieInTheBandsOfALargerOne() {
        let l = CircularGaugeLayout(
            center: Point(x: 240.3, y: 200.7), radius: 170.5, lineWidth: 24, startAngle: 90, sweep: 360)
        for (outer, inner) in [((0.1, 0.9), (0.3, 0.6)), ((0.55, 0.2), (0.25, 0.5)), ((0.0, 1.0), (0.74, 0.76))] {
            let big = l.strokeBands(from: outer.0, to: outer.1).map(IntRect.init(covering:))
            let small = l.strokeBands(from: inner.0, to: inner.1).map(IntRect.init(covering:))
            for b in big + small {
                #expect(b.minY / 32 == (b.maxY - 1) / 32, "\(b) crosses a multiple of 32 rows")
            }
            let loose = small.filter { s in !big.contains { $0.contains(s) } }
            #expect(loose.isEmpty, "\(inner) in \(outer): \(loose)")
        }
    }

    /// A ring's label damages only the glyphs that differ: one digit for a
    /// step from 42 % to 43 %.
    @Test func aRingLabelDamagesTheGlyphsThatDiffer() throws {
        let ring = try Gauge(value: 0, in: 0...100).gaugeStyle(.ring)
        let (a, b) = (try ring.withValue(42).layering(in: Self.rect), try ring.withValue(43).layering(in: Self.rect))
        let (ga, gb) = (try #require(a.valueArc?.glyphs), try #require(b.valueArc?.glyphs))
        #expect(ga.count == gb.count && ga.count >= 3)
        #expect(Set(ga).symmetricDifference(gb).map(\.scalar).sorted() == ["2", "3"])
        let label = try #require(a.valueArc?.others.first)
        let changed = try #require(a.changedBounds(to: b))
        #expect(!changed.contains { $0.width >= label.width }, "no box as wide as the label")
    }

    /// Where a layering gives its value arc's text, the arc stroked and then
    /// the text drawn are the dynamic layer, pixel for pixel (paneld draws
    /// them so); the ring gives it.
    @Test func anArcAndItsTextAreTheDynamicLayer() throws {
        let layers = GaugeLayersTests()
        var withText: [String] = []
        for (name, gauge) in try arcGauges() {
            for f in [0, 0.07, 0.42, 0.5, 1] {
                let g = try value(gauge, f)
                guard let arc = g.layering(in: Self.rect).valueArc, let text = arc.text else { continue }
                withText.append(name)
                let drawn = layers.draw(g, layers: [.static], format: .xrgb8888)
                let canvas = Canvas(surface: drawn.surface)
                if let stroke = arc.stroke {
                    arc.layout.strokeValueArc(to: arc.value, cap: arc.cap, stroke, on: canvas)
                }
                text.draw(on: canvas)
                let expected = layers.draw(g, layers: [.static, .dynamic], format: .xrgb8888)
                #expect(differences(drawn, expected).isEmpty, "\(name) at \(f)")
                #expect(text.glyphs == arc.glyphs, "\(name) at \(f)")
            }
        }
        #expect(Set(withText).contains { $0.hasPrefix("ring") }, "\(Set(withText))")
    }

    /// Over the static layer, the arc at a value and the whole arc (at 1)
    /// differ only in the arc's exact bounds (both ends, the label) or outside
    /// the value's sector: what lets paneld copy the rest.
    @Test func awayFromItsEndsAnArcIsTheWholeArc() throws {
        let layers = GaugeLayersTests()
        for (name, gauge) in try arcGauges() {
            for f in [0.001, 0.13, 0.42, 0.5, 0.86, 0.999] {
                let g = try value(gauge, f)
                let l = g.layering(in: Self.rect)
                let arc = try #require(l.valueArc)
                guard let stroke = arc.stroke, arc.followsTheCircle else { continue }
                let drawn = layers.draw(g, layers: [.static, .dynamic], format: .xrgb8888)
                let whole = layers.draw(g, layers: [.static], format: .xrgb8888)
                arc.layout.strokeValueArc(to: 1, cap: arc.cap, stroke, on: Canvas(surface: whole.surface))
                var wrong: [(Int, Int)] = []
                for (x, y) in differences(drawn, whole) where !covered((x, y), by: arc.exactBounds) {
                    if Self.sweeps(arc.layout, upTo: arc.value, x, y) { wrong.append((x, y)) }
                }
                #expect(wrong.isEmpty, "\(name) at \(f): \(wrong.prefix(5))")
            }
        }
    }

    /// Whether the centre of pixel (x, y) lies in the directions the arc of
    /// `layout` sweeps from its start to normalized `value` (rays included).
    static func sweeps(_ layout: CircularGaugeLayout, upTo value: Double, _ x: Int, _ y: Int) -> Bool {
        let reach = layout.sweep.degrees * min(1, max(0, value))
        if reach == 0 { return false }
        if abs(reach) >= 360 { return true }
        let dx = Double(x) + 0.5 - layout.center.x, dy = Double(y) + 0.5 - layout.center.y
        var d = atan2(dy, dx) * 180 / Double.pi - layout.startAngle.degrees
        if reach < 0 { d = -d }
        d = d.truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return d <= abs(reach)
    }

    @Test func theHoleHoldsOnlyRectanglesClearOfTheStroke() {
        let l = CircularGaugeLayout(center: Point(x: 50, y: 50), radius: 40, lineWidth: 10, startAngle: 90, sweep: 360)
        #expect(l.holeContains(IntRect(x: 40, y: 40, width: 20, height: 20)))
        // The inner edge is at 35: a corner at 34.6 is too close.
        #expect(!l.holeContains(IntRect(x: 26, y: 26, width: 48, height: 48)))
        #expect(!l.holeContains(IntRect(x: 80, y: 45, width: 5, height: 5)))
    }
}
