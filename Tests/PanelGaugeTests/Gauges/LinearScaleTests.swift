import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import PanelGauge

/// The linear styles' scale and every style's marked values: ticks at their
/// values (pixels against exact rectangle areas), numbers that never meet
/// each other, another part or the gauge's edges, marks in the place of
/// numbers, and a scale that stays in the static layer.
@Suite struct LinearScaleTests {
    /// The three styles with a scale, horizontal, then vertical.
    static let linearStyles: [(String, any GaugeStyle)] = [
        ("linearCapacity", LinearCapacityGaugeStyle(scale: LinearScale())),
        ("accessoryLinear", AccessoryLinearGaugeStyle(scale: LinearScale())),
        ("accessoryLinearCapacity", AccessoryLinearCapacityGaugeStyle(scale: LinearScale())),
        ("linearCapacity vertical", LinearCapacityGaugeStyle(scale: LinearScale(), axis: .vertical)),
        ("accessoryLinear vertical", AccessoryLinearGaugeStyle(scale: LinearScale(), axis: .vertical)),
        (
            "accessoryLinearCapacity vertical",
            AccessoryLinearCapacityGaugeStyle(scale: LinearScale(), axis: .vertical)
        ),
    ]

    static func gauge(
        _ style: any GaugeStyle, range: ClosedRange<Double> = 0...100, value: Double = 40,
        format: ValueFormat = .number(decimals: 0, unit: "%")
    ) throws -> Gauge {
        var g = try Gauge(checkedValue: value, range: range, label: "CPU", current: nil, minimum: nil, maximum: nil)
        g.style = style
        g.valueFormat = format
        return g
    }

    static func layout(_ g: Gauge, in rect: Rect) throws -> LinearGaugeLayout {
        let style = try #require(g.style as? any LinearLaidOut)
        let context = g.context(fonts: .shared, cell: rect)
        let parts = g.titled(in: rect, context: context)
        return style.layout(parts.configuration, in: parts.body, context: context)
    }

    /// The area of `r` inside the pixel at (x, y).
    static func area(_ r: Rect, _ x: Int, _ y: Int) -> Double {
        let w = min(r.maxX, Double(x + 1)) - max(r.minX, Double(x))
        let h = min(r.maxY, Double(y + 1)) - max(r.minY, Double(y))
        return max(0, w) * max(0, h)
    }

    /// Every pixel beside the bar of a 0...100 scale (labels off) is the
    /// exact area of the ticks in it: major ticks white at 0, 10 ... 100,
    /// 1 px wide (`0.025 U`, at least 1), `0.15 U` long; four minor ticks
    /// between, at 60 % white, 0.75 px wide, `0.08 U` long; `U` = 36 px for
    /// 12 px labels; they start `max(2, 0.25 x 12)` = 3 px under a
    /// horizontal bar's row, or right of a vertical one's (cases 3 to 5:
    /// value 0 at the bottom). The places come from the values and the bar,
    /// not from the scale's layout. Tolerance: 2 of 255, the rasterizer's
    /// 1/256 px positions and the 8-bit rounding of coverage times opacity.
    @Test(arguments: 0..<6)
    func ticksAreExactRectanglesAtTheirValues(_ k: Int) throws {
        var scale = LinearScale()
        scale.labels = nil
        let axis: Axis = k < 3 ? .horizontal : .vertical
        let style: any GaugeStyle =
            switch k % 3 {
            case 0: LinearCapacityGaugeStyle(scale: scale, axis: axis)
            case 1: AccessoryLinearGaugeStyle(scale: scale, axis: axis)
            default: AccessoryLinearCapacityGaugeStyle(scale: scale, axis: axis)
            }
        var g = try Self.gauge(style).environment {
            $0.foreground = .white; $0.background = .black
        }
        g.valueFormat = nil
        let rect =
            axis == .horizontal
            ? Rect(x: 3.3, y: 2, width: 231.4, height: 60) : Rect(x: 2, y: 3.3, width: 60, height: 231.4)
        let (W, H) = axis == .horizontal ? (240, 64) : (64, 240)
        let l = try Self.layout(g, in: rect)
        let img = Image(width: W, height: H)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(.black)
        g.draw(in: rect, on: canvas, layers: .static)

        // Values 0 and 1 at the fill's ends, or the marker's travel's; the
        // row across the bar is the marker's halo, else the bar.
        let marker = k % 3 == 1
        var white: [Rect] = [], grey: [Rect] = []
        var rowEnd: Double
        if axis == .horizontal {
            let inset = marker ? l.bar.height / 2 : 0
            let x0 = l.bar.minX + inset, x1 = l.bar.maxX - inset
            let halo = AccessoryLinearGaugeStyle.markerRadii(thickness: l.bar.height).halo
            rowEnd = max(l.bar.maxY, marker ? l.bar.midY + halo : 0)
            for i in 0...50 {
                let x = x0 + Double(i) / 50 * (x1 - x0)
                if i % 5 == 0 {
                    white.append(Rect(x: x - 0.5, y: rowEnd + 3, width: 1, height: 0.15 * 36))
                } else {
                    grey.append(Rect(x: x - 0.375, y: rowEnd + 3, width: 0.75, height: 0.08 * 36))
                }
            }
        } else {
            let inset = marker ? l.bar.width / 2 : 0
            let y0 = l.bar.maxY - inset, y1 = l.bar.minY + inset
            let halo = AccessoryLinearGaugeStyle.markerRadii(thickness: l.bar.width).halo
            rowEnd = max(l.bar.maxX, marker ? l.bar.midX + halo : 0)
            for i in 0...50 {
                let y = y0 + Double(i) / 50 * (y1 - y0)
                if i % 5 == 0 {
                    white.append(Rect(x: rowEnd + 3, y: y - 0.5, width: 0.15 * 36, height: 1))
                } else {
                    grey.append(Rect(x: rowEnd + 3, y: y - 0.375, width: 0.08 * 36, height: 0.75))
                }
            }
        }
        var worst = 0.0, checked = 0, at = (0, 0)
        let region =
            axis == .horizontal
            ? (xs: 0..<W, ys: Int(rowEnd.rounded(.up))..<H)
            // (Beside the bar's column: the title line above it is not compared.)
            : (xs: Int(rowEnd.rounded(.up))..<W, ys: Int(l.bar.minY) - 2..<Int(l.bar.maxY) + 3)
        for y in region.ys {
            for x in region.xs {
                let cov =
                    white.reduce(0) { $0 + Self.area($1, x, y) } + 0.6 * grey.reduce(0) { $0 + Self.area($1, x, y) }
                // (Swift 6.0.3 finds `255 * min(1, x)` ambiguous.)
                let want: Double = 255.0 * (cov < 1 ? cov : 1)
                let got = Double(img.surface.pixel(x: x, y: y).red)
                if abs(got - want) > worst { (worst, at) = (abs(got - want), (x, y)) }
                if want > 0 { checked += 1 }
            }
        }
        #expect(checked > 200, "the ticks cover \(checked) pixels")
        #expect(worst <= 2, "style \(k): worst pixel off by \(worst) at \(at), bar \(l.bar)")
    }

    /// Marked values without a scale: a major tick at each value (0, 33 and
    /// 100 of 0...100), the exact area of a 1 x 5.4 px rectangle from 3 px
    /// under the bar, nothing else above the labels; the labels' row is
    /// not compared (text). Tolerance as above.
    @Test func markTicksAreExactRectanglesAtTheirValues() throws {
        var g = try Self.gauge(LinearCapacityGaugeStyle()).environment {
            $0.foreground = .white
            $0.background = .black
        }
        g.valueFormat = nil
        g.markedValueLabels = [GaugeLabel("E").tag(0), GaugeLabel("a third").tag(33), GaugeLabel("F").tag(100)]
        let rect = Rect(x: 2.6, y: 1, width: 231.7, height: 62)
        let l = try Self.layout(g, in: rect)
        let s = try #require(l.scale)
        #expect(s.labels.count == 3)
        let img = Image(width: 240, height: 64)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(.black)
        g.draw(in: rect, on: canvas, layers: .static)
        let top = l.bar.maxY + 3
        let ticks = [0.0, 0.33, 1].map { v in
            Rect(x: l.bar.minX + v * l.bar.width - 0.5, y: top, width: 1, height: 0.15 * 36)
        }
        let labelsTop = try #require(s.labels.map(\.box.minY).min())
        var worst = 0.0
        for y in Int(l.bar.maxY.rounded(.up))..<Int(labelsTop) {
            for x in 0..<240 {
                let covered: Double = ticks.reduce(0) { $0 + Self.area($1, x, y) }
                let want: Double = 255.0 * (covered < 1 ? covered : 1)
                worst = max(worst, abs(Double(img.surface.pixel(x: x, y: y).red) - want))
            }
        }
        #expect(worst <= 2, "worst pixel off by \(worst)")
    }

    /// At every width from 40 to 800 px and several heights, over ranges
    /// with round steps and without, no two numbers come within their gap,
    /// none leaves the gauge, both ends keep theirs when any is shown, and
    /// no part of the gauge meets the scale.
    @Test(arguments: 0..<6)
    func numbersNeverMeetEachOtherOrTheEdges(_ k: Int) throws {
        let (name, style) = Self.linearStyles[k]
        let ranges: [(ClosedRange<Double>, ValueFormat)] = [
            (0...100, .number(decimals: 0, unit: "%")), (20...90, .number(decimals: 0, unit: "°C")),
            (0...240, .number(decimals: 0)), (-40...125, .number(decimals: 0)), (0...5000, .number(decimals: 0)),
            (0...4, .number(decimals: 2)), (0...1, .percent()),
        ]
        var shownSomewhere = 0
        // A horizontal bar's length follows the width, a vertical one's the height.
        let vertical = k >= 3
        let sizes =
            stride(from: 40.0, through: 800, by: 23).flatMap { long in
                [30.0, 60, 120].map { short in vertical ? (short, long) : (long, short) }
            }
        for (range, format) in ranges {
            for (w, h) in sizes {
                do {
                    let rect = Rect(x: 0, y: 0, width: w, height: h)
                    let g = try Self.gauge(style, range: range, value: range.upperBound, format: format).typeScale(
                        TypeScale())
                    let l = try Self.layout(g, in: rect)
                    guard let s = l.scale else { continue }
                    let where_ = "\(name) \(range) \(Int(w))x\(Int(h))"
                    if !s.labels.isEmpty {
                        shownSomewhere += 1
                        #expect(s.labels.first?.index == 0 && s.labels.last?.index == s.majorCount - 1, "\(where_)")
                        #expect((s.majorCount - 1) % s.labelStep == 0, "\(where_)")
                    }
                    for (a, b) in zip(s.labels, s.labels.dropFirst()) {
                        // (Value order: left to right, or bottom to top.)
                        let apart = vertical ? a.box.minY - b.box.maxY : b.box.minX - a.box.maxX
                        #expect(apart >= 2 - 1e-9, "\(where_): \(a) meets \(b)")
                    }
                    for label in s.labels {
                        #expect(
                            label.box.minX >= -1e-9 && label.box.maxX <= w + 1e-9 && label.box.minY >= -1e-9
                                && label.box.maxY <= h + 1e-9, "\(where_): \(label) leaves the gauge")
                    }
                    let parts = g.partBounds(in: rect)
                    #expect(
                        PartCollisionTests.collisions(parts).isEmpty,
                        "\(where_): \(PartCollisionTests.collisions(parts))")
                }
            }
        }
        #expect(shownSomewhere > 100)
    }

    /// A rectangle too low for the numbers drops them, then the ticks; the
    /// gauge's own rows stay.
    @Test func aLowRectangleDropsTheNumbersThenTheTicks() throws {
        let g = try Self.gauge(LinearCapacityGaugeStyle(scale: LinearScale()))
        let tall = try Self.layout(g, in: Rect(x: 0, y: 0, width: 300, height: 200))
        #expect(tall.scale?.labels.isEmpty == false)
        let heights = (20...200).map(Double.init)
        let kinds = try heights.map { h -> Int in
            let l = try Self.layout(g, in: Rect(x: 0, y: 0, width: 300, height: h))
            #expect(l.height <= h + 1e-9 || l.scale == nil, "height \(h): \(l.height)")
            return l.scale == nil ? 0 : l.scale!.labels.isEmpty ? 1 : 2
        }
        #expect(kinds.contains(0) && kinds.contains(1) && kinds.contains(2))
        #expect(kinds == kinds.sorted(), "more room never shows less: \(kinds)")
    }

    /// Marked values take the place of the numbers: each label centred under
    /// a major tick at its value; one outside the range, or too close to a
    /// neighbour, is left out (the last keeps its place).
    @Test func marksTakeThePlaceOfTheNumbers() throws {
        var g = try Self.gauge(LinearCapacityGaugeStyle(scale: LinearScale()), range: 0...240)
        g.markedValueLabels = [
            GaugeLabel("empty").tag(0), GaugeLabel("half").tag(120), GaugeLabel("reserve").tag(230),
            GaugeLabel("full").tag(240), GaugeLabel("over").tag(300),
        ]
        let l = try Self.layout(g, in: Rect(x: 0, y: 0, width: 400, height: 100))
        let s = try #require(l.scale)
        #expect(s.showsMarks)
        #expect(s.labels.map(\.text) == ["empty", "half", "full"])
        #expect(s.marksLeftOut == 2)
        let half = try #require(s.labels.first { $0.text == "half" })
        #expect(abs(half.box.midX - l.position(for: 0.5)) < 1e-9)
        #expect(s.majorTicks.contains { abs($0.midX - l.position(for: 0.5)) < 1e-9 })
        // 13 round ticks (every 20): 0, 120 and 240 are on them, and the
        // mark at 230, whose label is left out, has no tick either.
        #expect(s.majorTicks.count == 13)
        #expect(!s.majorTicks.contains { abs($0.midX - l.position(for: 230.0 / 240)) < 1e-9 })

        // A label wider than the gauge is cut to its width, inside it.
        var wide = try Self.gauge(LinearCapacityGaugeStyle())
        wide.markedValueLabels = [GaugeLabel.text(String(repeating: "very long mark ", count: 20)).tag(50)]
        let w = try #require(try Self.layout(wide, in: Rect(x: 10, y: 0, width: 120, height: 80)).scale)
        #expect(w.labels.count == 1 && w.labels[0].box.minX >= 10 && w.labels[0].box.maxX <= 130)

        // Without a scale, the marks alone: a tick and a label each.
        var bare = try Self.gauge(AccessoryLinearCapacityGaugeStyle())
        bare.markedValueLabels = [GaugeLabel("E").tag(0), GaugeLabel("F").tag(100)]
        let b = try #require(try Self.layout(bare, in: Rect(x: 0, y: 0, width: 200, height: 80)).scale)
        #expect(b.majorTicks.count == 2 && b.minorTicks.isEmpty && b.labels.map(\.text) == ["E", "F"])
        #expect(bare.shownLabels == [.label, .currentValue])
    }

    /// A dial writes its marked values at their angles (the label's centre
    /// seen from the dial's centre), with a major tick at each, instead of
    /// its numbers.
    @Test func aDialWritesItsMarksAtTheirAngles() throws {
        for placement in [DialGaugeStyle.LabelPlacement.inside, .outside] {
            var g = try Self.gauge(DialGaugeStyle(labels: DialGaugeStyle.ScaleLabels(placement: placement)))
            g.markedValueLabels = [
                GaugeLabel("E").tag(0), GaugeLabel("¼").tag(25), GaugeLabel("½").tag(50), GaugeLabel("¾").tag(75),
                GaugeLabel("F").tag(100), GaugeLabel("33").tag(33),
            ]
            let l = try #require(g.dialLayout(in: Rect(x: 0, y: 0, width: 240, height: 240)))
            #expect(l.showsMarks && l.labels.count == 6, "\(placement): \(l.labels)")
            for label in l.labels {
                let value = g.markedValueLabels[label.tick].value
                let want = l.angle(for: value / 100).radians
                var got = atan2(label.box.midY - l.center.y, label.box.midX - l.center.x)
                while got < want - .pi { got += 2 * .pi }
                while got > want + .pi { got -= 2 * .pi }
                #expect(abs(got - want) < 0.2, "\(placement) \(label.text): \(got) vs \(want)")
            }
            #expect(l.marks.count == 6)
            let ticks = try #require(l.tickPath(minor: false))
            // 11 round ticks (every 10) and those at 25, 33 and 75.
            let contours = ticks.elements.filter { if case .move = $0 { true } else { false } }.count
            #expect(contours == 14)
        }
    }

    /// A dial keeps its marks in value order whatever their order in the
    /// gauge, also when one finds no place (a label too wide for the dial).
    @Test func aDialKeepsItsMarksInValueOrder() throws {
        var g = try Self.gauge(DialGaugeStyle())
        g.markedValueLabels = [
            GaugeLabel.text(String(repeating: "far too wide ", count: 8)).tag(50), GaugeLabel("F").tag(100),
            GaugeLabel("E").tag(0),
        ]
        let l = try #require(g.dialLayout(in: Rect(x: 0, y: 0, width: 240, height: 240)))
        let values = l.labels.map { g.markedValueLabels[$0.tick].value }
        #expect(values == [0, 100], "\(l.labels)")
        #expect(l.marksLeftOut == 1)
    }

    /// The scale is static: a value change damages only the fill or the
    /// marker and the current value, never the scale.
    @Test(arguments: 0..<6)
    func theScaleIsStatic(_ k: Int) throws {
        let (name, style) = Self.linearStyles[k]
        let rect = k < 3 ? Rect(x: 0, y: 0, width: 300, height: 90) : Rect(x: 0, y: 0, width: 90, height: 300)
        let a = try Self.gauge(style, value: 20).typeScale(TypeScale())
        let b = try Self.gauge(style, value: 70).typeScale(TypeScale())
        let la = a.layering(in: rect), lb = b.layering(in: rect)
        #expect(la.staticKey == lb.staticKey, "\(name)")
        let scale = try #require(a.partBounds(in: rect)[.scale])
        for box in (la.dynamicBounds ?? []) + (lb.dynamicBounds ?? []) {
            for s in scale {
                let w = min(box.maxX, s.maxX) - max(box.minX, s.minX)
                let h = min(box.maxY, s.maxY) - max(box.minY, s.minY)
                #expect(!(w > 0 && h > 0), "\(name): dynamic \(box) meets the scale's \(s)")
            }
        }
    }
}
