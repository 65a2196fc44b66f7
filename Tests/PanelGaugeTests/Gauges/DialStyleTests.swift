import Testing

@testable import PanelGauge

/// The dial style's geometry: scale labels that never meet each other or the
/// ticks (thinned when they would), sections from thresholds, the needle's
/// bounds, and nothing drawn for parameters that are not finite.
@Suite struct DialStyleTests {
    func gauge(_ style: DialGaugeStyle = DialGaugeStyle(), range: ClosedRange<Double> = 0...100) throws -> Gauge {
        try Gauge(value: range.lowerBound + 0.73 * (range.upperBound - range.lowerBound), in: range) { "Speed" }
            .valueFormat(.number(decimals: 0, unit: "km/h")).gaugeStyle(style)
            .environment { $0.typeScale = TypeScale() }
    }

    func layout(_ g: Gauge, _ w: Double, _ h: Double) throws -> DialLayout {
        try #require(g.dialLayout(in: Rect(x: 0, y: 0, width: w, height: h)))
    }

    func distance(_ a: Rect, _ b: Rect) -> (Double, Double) {
        (max(a.minX - b.maxX, b.minX - a.maxX), max(a.minY - b.maxY, b.minY - a.maxY))
    }

    /// Issue 38 item 7: the style's own default puts its major ticks at
    /// round numbers of the range (20...90: 20, 30 ... 90), as the layout
    /// reader does; a count given stays.
    @Test func defaultMajorTicksFallOnRoundNumbers() throws {
        #expect(try layout(try gauge(range: 20...90), 200, 200).majorCount == 8)
        #expect(try layout(try gauge(range: 0...8), 200, 200).majorCount == 9)
        #expect(try layout(try gauge(range: 0...100), 200, 200).majorCount == 11)
        #expect(try layout(try gauge(range: -40...125), 200, 200).majorCount == 11)  // no round step: 11
        // 0...4 in 9 ticks: no two scale numbers read the same ("0 1 1 2 2 ..." before).
        let load = try layout(try gauge(range: 0...4), 300, 300)
        #expect(load.majorCount == 9)
        let texts = load.labels.map(\.text)
        #expect(Set(texts).count == texts.count, "\(texts)")
        #expect(texts.contains("0.5") || load.labelStep > 1, "\(texts)")
        var style = DialGaugeStyle()
        style.majorTicks.count = 5
        #expect(try layout(try gauge(style, range: 20...90), 200, 200).majorCount == 5)
    }

    /// The needle never crosses the label or the value: both lie in the scale's
    /// opening, outside every direction the needle (and its tail) can point, at
    /// every size from 40 px, with the default scale and with a 240-degree one.
    /// The label is left out rather than crossed (from 140 px it always
    /// fits), and the texts keep their order: the value is the largest, the
    /// label never larger than it, no scale number below the readable size.
    @Test func theNeedleNeverCrossesTheLabelOrTheValue() throws {
        for style in [DialGaugeStyle(), DialGaugeStyle(startAngle: 150, sweep: 240)] {
            for side in stride(from: 40.0, through: 400, by: 4) {
                let l = try layout(try gauge(style), side, side)
                let needle = (length: l.needleLength, tail: l.needleTail, halfWidth: l.needleBaseWidth / 2 + 1)
                for (what, box) in [("label", l.titleBox), ("value", l.valueBox)] {
                    guard let b = box else {
                        #expect(side < 140 || what != "label", "\(side) px: no \(what)")
                        continue
                    }
                    #expect(
                        DialLayout.outsideSweep(
                            b, center: l.center, start: l.startAngle, sweep: l.sweep, needle: needle),
                        "\(side) px, sweep \(style.sweep.degrees): the needle crosses the \(what)")
                }
                #expect(side < 64 || l.valueBox != nil, "\(side) px: no value")
                if l.titleBox != nil, l.valueBox != nil {
                    #expect(l.titleSize <= l.valueSize, "\(side) px: label \(l.titleSize) over value \(l.valueSize)")
                }
                if !l.labels.isEmpty {
                    #expect(l.labelSize >= DialLayout.smallestScaleNumber, "\(side) px: numbers at \(l.labelSize)")
                }
            }
        }
    }

    /// In a small dial the scale numbers give way before the label: when the
    /// label is left out with the numbers shown, the same dial without
    /// numbers has no room for it either; a dial that keeps its label only
    /// without numbers shows none.
    @Test func scaleNumbersGiveWayBeforeTheLabel() throws {
        var bare = DialGaugeStyle()
        bare.labels = nil
        var droppedNumbers = 0
        for side in stride(from: 40.0, through: 240, by: 2) {
            let l = try layout(try gauge(), side, side)
            let without = try layout(try gauge(bare), side, side)
            if l.titleBox == nil, !l.labels.isEmpty {
                #expect(without.titleBox == nil, "\(side) px: the label is left out while the numbers stay")
            }
            if l.labels.isEmpty, l.majorCount >= 2 { droppedNumbers += 1 }
        }
        // The rule was used: some sizes keep the label by leaving the numbers out.
        #expect(droppedNumbers > 0)
        // 64 px: no number is drawn as a blob; 400 px: all of them, with the label.
        #expect(try layout(try gauge(), 64, 64).labels.isEmpty)
        let large = try layout(try gauge(), 400, 400)
        #expect(large.labels.count == 11 && large.titleBox != nil)
    }

    /// At every size, shown labels keep apart, inside the ticks' inner
    /// circle (or outside the scale, within the square), and the label and
    /// value lines lie inside the ticks clear of the hub and the scale labels.
    @Test(arguments: [DialGaugeStyle.LabelPlacement.inside, .outside])
    func labelsNeverMeetTicksOrEachOther(placement: DialGaugeStyle.LabelPlacement) throws {
        let style = DialGaugeStyle(labels: DialGaugeStyle.ScaleLabels(placement: placement))
        for range in [0.0...100, -20...40, 0...12000] {
            let g = try gauge(style, range: range)
            for side in stride(from: 40.0, through: 480, by: 20) {
                let l = try layout(g, side * 1.4, side)
                let tickInner = l.tickRadius - l.majorTickLength
                for (i, a) in l.labels.enumerated() {
                    for corner in [
                        Point(x: a.box.minX, y: a.box.minY), Point(x: a.box.maxX, y: a.box.minY),
                        Point(x: a.box.minX, y: a.box.maxY), Point(x: a.box.maxX, y: a.box.maxY),
                    ] {
                        let d =
                            ((corner.x - l.center.x) * (corner.x - l.center.x)
                            + (corner.y - l.center.y) * (corner.y - l.center.y)).squareRoot()
                        if placement == .inside {
                            #expect(d <= tickInner, "\(range) \(side): label \(a.text) reaches the ticks")
                        } else {
                            #expect(d <= side / 2 + 1e-6, "\(range) \(side): label \(a.text) leaves the square")
                        }
                    }
                    if placement == .outside {
                        #expect(DialLayout.nearest(of: a.box, to: l.center) >= l.radius, "\(range) \(side) \(a.text)")
                    }
                    for b in l.labels[(i + 1)...] {
                        let (dx, dy) = distance(a.box, b.box)
                        #expect(dx >= 2 || dy >= 2, "\(range) \(side): \(a.text) meets \(b.text)")
                    }
                }
                let needle = (length: l.needleLength, tail: l.needleTail, halfWidth: l.needleBaseWidth / 2 + 1)
                for (what, box) in [("label", l.titleBox), ("value", l.valueBox)] {
                    guard let box else { continue }
                    // Inside the ticks, or in the scale's opening (outside the
                    // needle's sweep, so off the ticks and the band) within the square.
                    #expect(
                        DialLayout.farthest(of: box, from: l.center) <= tickInner
                            || (DialLayout.outsideSweep(
                                box, center: l.center, start: l.startAngle, sweep: l.sweep, needle: needle)
                                && DialLayout.farthest(of: box, from: l.center) <= side / 2),
                        "\(range) \(side): the \(what) reaches the ticks")
                }
                if let t = l.titleBox, let v = l.valueBox {
                    let (dx, dy) = distance(t, v)
                    #expect(dx > 0 || dy > 0, "\(range) \(side): the label meets the value")
                }
                for box in [l.titleBox, l.valueBox].compactMap({ $0 }) {
                    #expect(DialLayout.nearest(of: box, to: l.center) >= l.hubRadius)
                    for a in l.labels {
                        let (dx, dy) = distance(a.box, box)
                        #expect(dx >= 2 || dy >= 2, "\(range) \(side): \(a.text) meets the label or value")
                    }
                }
            }
        }
    }

    /// Crowded labels are thinned to every k-th major tick, k a divisor of
    /// the intervals (both ends labelled); a large dial shows them all, a
    /// tiny one none.
    @Test func crowdedLabelsAreThinnedKeepingBothEnds() throws {
        // At a fixed text size (a type scale grows the labels with the dial).
        let g = try gauge(DialGaugeStyle(majorTicks: DialGaugeStyle.Ticks(count: 21, length: 0.15, width: 0.025)))
            .environment {
                $0.typeScale = nil
                $0.labelSize = 12
            }
        let big = try layout(g, 1600, 1600)
        #expect(big.labelStep == 1 && big.labels.count == 21)
        var steps: Set<Int> = []
        for side in stride(from: 60.0, through: 400, by: 10) {
            let l = try layout(g, side, side)
            steps.insert(l.labelStep)
            guard l.labelStep > 0 else { continue }
            #expect(20 % l.labelStep == 0)
            #expect(l.labels.first?.text == "0" && l.labels.last?.text == "100", "\(side)")
            #expect(l.labels.count == 20 / l.labelStep + 1)
        }
        #expect(steps.count >= 3, "sizes from 60 to 400 px thin differently: \(steps.sorted())")
        // A full turn puts the two ends on one tick: one label for both.
        let full = try layout(try gauge(DialGaugeStyle(startAngle: 270, sweep: 360)), 400, 400)
        #expect(full.labels.map(\.text) == ["0", "10", "20", "30", "40", "50", "60", "70", "80", "90"])
    }

    /// Whether the convex polygon `p` and `r` share an area (separating axes:
    /// the rectangle's two and the polygon's edge normals).
    func meets(_ p: [Point], _ r: Rect) -> Bool {
        let box = [
            Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY), Point(x: r.maxX, y: r.maxY),
            Point(x: r.minX, y: r.maxY),
        ]
        var axes = [Point(x: 1, y: 0), Point(x: 0, y: 1)]
        for i in p.indices {
            let a = p[i], b = p[(i + 1) % p.count]
            axes.append(Point(x: a.y - b.y, y: b.x - a.x))
        }
        for n in axes {
            let pa = p.map { $0.x * n.x + $0.y * n.y }, pb = box.map { $0.x * n.x + $0.y * n.y }
            if pa.max()! <= pb.min()! + 1e-9 || pb.max()! <= pa.min()! + 1e-9 { return false }
        }
        return true
    }

    /// The current value sits where the needle never passes: in the scale's
    /// opening below the hub, for every value, on dials of several sweeps,
    /// with a tail, with a value arc, at several sizes; a full turn has no
    /// opening and keeps the value under the hub.
    @Test func theNeedleNeverCrossesTheValue() throws {
        var tail = DialGaugeStyle()
        tail.needle.tail = 0.2
        let styles: [(String, DialGaugeStyle)] = [
            ("default", DialGaugeStyle()), ("semicircle", DialGaugeStyle(startAngle: 180, sweep: 180)),
            ("counter-clockwise", DialGaugeStyle(startAngle: 45, sweep: -270)), ("tail", tail),
            ("value arc", DialGaugeStyle(valueArc: 0.035)), ("narrow", DialGaugeStyle(startAngle: 120, sweep: 300)),
        ]
        for (name, style) in styles {
            for (w, h) in [(120.0, 120.0), (250, 222), (400, 400), (300, 180)] {
                let l = try layout(try gauge(style, range: 0...240), w, h)
                let box = try #require(l.valueBox, "\(name) \(w)x\(h): no value")
                #expect(box.minY > l.center.y + l.hubRadius, "\(name) \(w)x\(h): below the hub")
                for k in 0...100 {
                    #expect(!meets(l.needleCorners(for: Double(k) / 100), box), "\(name) \(w)x\(h) at \(k) %")
                }
            }
        }
        let full = try layout(try gauge(DialGaugeStyle(startAngle: 270, sweep: 360)), 300, 300)
        let box = try #require(full.valueBox)
        #expect(box.minY < full.center.y + full.freeRadius / 2, "a full turn keeps the value near the hub")
    }

    /// Round numbers on the scale: the most ticks (5 to 13) at a step of 1, 2,
    /// 2.5 or 5 times a power of ten that starts at the lower bound.
    @Test func roundMajorTickCounts() {
        let cases: [(ClosedRange<Double>, Int?)] = [
            (0...100, 11), (20...90, 8), (0...8, 9), (0...5000, 11), (0...1, 11), (0...3, 13), (-20...20, 9),
            (0...240, 13),
            (0...270, nil), (-40...125, nil), (3...53, nil), (0...13, nil), (0...0.5, 11), (0...0.0075, nil),
        ]
        for (range, want) in cases {
            #expect(DialGaugeStyle.Ticks.roundCount(for: range) == want, "\(range)")
        }
        #expect(DialGaugeStyle.Ticks.roundCount(for: 0...Double.infinity) == nil)
        #expect(DialGaugeStyle.Ticks.roundCount(for: 5...5) == nil)
    }

    @Test func sectionsComeFromThresholdsUnlessGiven() throws {
        let t = try Thresholds(base: nil, steps: [.init(from: 60, color: .orange), .init(from: 85, color: .red)])
        let c = try gauge(range: 0...100).thresholds(t).configuration
        #expect(
            DialGaugeStyle().resolvedSections(c) == [
                .init(from: 60, to: 85, color: .orange), .init(from: 85, to: 100, color: .red),
            ])
        let based = try gauge(range: 0...100).thresholds(try Thresholds(.green, (60, .orange))).configuration
        #expect(
            DialGaugeStyle().resolvedSections(based) == [
                .init(from: 0, to: 60, color: .green), .init(from: 60, to: 100, color: .orange),
            ])
        let own = [DialGaugeStyle.Section(from: 10, to: 20, color: .blue)]
        #expect(DialGaugeStyle(sections: own).resolvedSections(c) == own)
        #expect(DialGaugeStyle(sectionsFromThresholds: false).resolvedSections(c).isEmpty)
    }

    /// Every needle pixel lies in its bounds, and a small move repaints a
    /// small part of the dial.
    @Test func needleBoundsHoldTheNeedle() throws {
        let rect = Rect(x: 0, y: 0, width: 200, height: 160)
        let style = DialGaugeStyle(labels: nil, needle: DialGaugeStyle.Needle(tail: 0.25), valueArc: nil)
        let g = try Gauge(value: 0, in: 0...100).gaugeStyle(style).environment { $0.track = .clear }
        for v in [0.0, 13.7, 50, 73, 99.9] {
            let gv = try g.withValue(v)
            let img = Image(width: 200, height: 160)
            let canvas = Canvas(surface: img.surface)
            canvas.clear(.black)
            gv.draw(in: rect, on: canvas, layers: .dynamic)
            let l = try #require(gv.dialLayout(in: rect))
            let boxes =
                (l.needleBounds(for: v / 100) + [
                    Rect(x: l.center.x, y: l.center.y, width: 0, height: 0).insetBy(-(l.hubRadius + 1))
                ]).map(IntRect.init(covering:))
            var outside = 0, painted = 0
            for y in 0..<160 {
                for x in 0..<200 where img.surface.pixel(x: x, y: y) != img.surface.pixel(x: 0, y: 0) {
                    painted += 1
                    if !boxes.contains(where: { $0.contains(IntRect(x: x, y: y, width: 1, height: 1)) }) {
                        outside += 1
                    }
                }
            }
            #expect(painted > 100 && outside == 0, "at \(v): \(outside) of \(painted) outside")
        }
        let a = g.layering(in: rect), b = try g.withValue(1).layering(in: rect)
        let changed = try #require(a.changedBounds(to: b))
        let area = changed.reduce(0) { $0 + $1.width * $1.height }
        #expect(area < 0.25 * rect.width * rect.height, "\(area)")
    }

    @Test func parametersThatAreNotFiniteDrawNothing() throws {
        var broken: [DialGaugeStyle] = []
        for k in 0..<6 {
            var s = DialGaugeStyle()
            switch k {
            case 0: s.startAngle = .degrees(.nan)
            case 1: s.sweep = .degrees(.infinity)
            case 2: s.majorTicks.width = .nan
            case 3: s.needle.length = -.infinity
            case 4: s.sections = [.init(from: 0, to: .nan, color: .red)]
            default: s.valueArc = .nan
            }
            broken.append(s)
        }
        for s in broken {
            let img = Image(width: 120, height: 100)
            let canvas = Canvas(surface: img.surface)
            canvas.clear(.black)
            try gauge(s).draw(in: Rect(x: 0, y: 0, width: 120, height: 100), on: canvas)
            let blank = (0..<100).allSatisfy { y in
                (0..<120).allSatisfy { img.surface.pixel(x: $0, y: y) == img.surface.pixel(x: 0, y: 0) }
            }
            #expect(blank)
            #expect(try gauge(s).dialLayout(in: Rect(x: 0, y: 0, width: 120, height: 100)) == nil)
        }
    }
}
