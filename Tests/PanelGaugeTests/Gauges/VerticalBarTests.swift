import Testing

@testable import PanelGauge

/// The linear styles standing upright (``Axis/vertical``): the bar is the
/// horizontal bar turned a quarter turn, pixel for pixel; the label on the
/// top line, the value on the bottom one, the bar filling the height
/// between; end labels, a scale's numbers and marks to the bar's right,
/// each centred on its value.
@Suite struct VerticalBarTests {
    static func styles(_ axis: Axis, scale: LinearScale? = nil) -> [(String, any GaugeStyle)] {
        [
            ("linearCapacity", LinearCapacityGaugeStyle(scale: scale, axis: axis)),
            ("accessoryLinear", AccessoryLinearGaugeStyle(scale: scale, axis: axis)),
            ("accessoryLinearCapacity", AccessoryLinearCapacityGaugeStyle(scale: scale, axis: axis)),
        ]
    }

    static func layout(_ g: Gauge, in rect: Rect) throws -> LinearGaugeLayout {
        try #require(g.linearLayout(in: rect))
    }

    /// Without labels, a vertical bar drawn into a `T` x 120 rectangle is the
    /// horizontal bar drawn into 120 x `T` turned a quarter turn
    /// anticlockwise (value 0 from the left end to the bottom), `T` the
    /// bar's row (its thickness, or the marker's halo): the track, the fill
    /// or the marker, a gradient along the bar, threshold zones on the
    /// track, at values in the range and out of it. Horizontal pixel (x, y)
    /// is vertical pixel (y, 119 - x).
    /// Tolerance: 3 of 255 per channel (measured: 3 at most, on long sides
    /// and round ends). A lying capsule is one piece of cells; a standing
    /// one is an aligned rectangle between two round ends
    /// (`Canvas.fillCapsule`, CapsuleSplitTests: within 2 of one piece).
    /// Both give exact areas at 1/256 px, rounded apart; the cells of a
    /// shape turned from rows into columns round apart by 1 more.
    @Test(arguments: 0..<3)
    func aVerticalBarIsTheHorizontalBarTurned(_ k: Int) throws {
        let zones = try Thresholds(.green, (0.6, .orange), (0.85, .red))
        let tints: [(Tint, Bool)] = [
            (.color(.blue), false), (.gradient([.red, .yellow, .green]), false), (.color(.blue), true),
        ]
        for (tint, zoned) in tints {
            for v in [0.0, 0.37, 0.5, 1, 1.3, -0.2] {
                let (name, horizontal) = Self.styles(.horizontal)[k]
                let vertical = Self.styles(.vertical)[k].1
                var g = try Gauge(value: v, in: 0...1).tint(tint)
                if zoned { g = g.thresholds(zones).environment { $0.showsThresholdZones = true } }
                g.style = horizontal
                let t = try Self.layout(g, in: Rect(x: 0, y: 0, width: 120, height: 0)).height
                let side = Int(t.rounded(.up)) + 2
                let h = Image(width: 120, height: side)
                g.draw(in: Rect(x: 0, y: 0, width: 120, height: t), on: Canvas(surface: h.surface))
                g.style = vertical
                let img = Image(width: side, height: 120)
                g.draw(in: Rect(x: 0, y: 0, width: t, height: 120), on: Canvas(surface: img.surface))
                var worst = 0, at = (0, 0), inked = 0
                for y in 0..<side {
                    for x in 0..<120 {
                        let a = h.surface.pixel(x: x, y: y), b = img.surface.pixel(x: y, y: 119 - x)
                        let d = max(
                            abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
                            abs(Int(a.blue) - Int(b.blue)))
                        if d > worst { (worst, at) = (d, (x, y)) }
                        if a.red > 0 || a.green > 0 || a.blue > 0 { inked += 1 }
                    }
                }
                #expect(inked > 300, "\(name) draws \(inked) pixels")
                #expect(
                    worst <= 3,
                    "\(name) \(zoned ? "zones" : tint.isGradient ? "gradient" : "colour") at \(v): off by \(worst) at horizontal \(at)"
                )
            }
        }
    }

    /// The label on the rectangle's top line, the value on its bottom line,
    /// the bar between them as long as the height leaves it (less half an
    /// end label at each end, where end labels are shown), and filling from
    /// the bottom.
    @Test(arguments: 0..<3)
    func theBarStandsBetweenTheLabelAndTheValue(_ k: Int) throws {
        let (name, style) = Self.styles(.vertical)[k]
        for ends in [false, true] {
            for rect in [Rect(x: 10, y: 20, width: 100, height: 300), Rect(x: 0, y: 0, width: 160, height: 210)] {
                var g = try Gauge(
                    checkedValue: 25, range: 0...100, label: "Tank", current: nil, minimum: ends ? "E" : nil,
                    maximum: ends ? "F" : nil)
                g.style = style
                g = g.valueFormat(.number(decimals: 0, unit: "%")).typeScale(TypeScale())
                let l = try Self.layout(g, in: rect)
                let what = "\(name) \(rect), end labels \(ends)"
                #expect(l.axis == .vertical)
                let body = g.titled(in: rect, context: g.context(fonts: .shared, cell: rect)).body
                if let label = l.labelRect { #expect(label.minY == body.minY, "\(what)") }
                if let value = l.currentValueRect {
                    #expect(abs(value.maxY - body.maxY) < 1e-9, "\(what)")
                    #expect(l.bar.maxY <= value.minY, "\(what)")
                }
                // The bar takes the height the lines leave (end labels shorten it by half a line each).
                let lines = (l.labelRect.map { $0.height } ?? 0) + (l.currentValueRect.map { $0.height } ?? 0)
                #expect(l.bar.height >= body.height - lines - 3 * 12, "\(what): bar \(l.bar)")
                let fill = try #require(l.fill(for: 0.25))
                #expect(abs(fill.maxY - l.bar.maxY) < 1e-9 && abs(fill.height - l.bar.height / 4) < 1e-9, "\(what)")
                #expect(l.marker(for: 0).y > l.marker(for: 1).y, "\(what)")
                if ends, let minimum = l.minimumRect, let maximum = l.maximumRect {
                    #expect(abs(minimum.midY - l.position(for: 0)) < 1e-9, "\(what)")
                    #expect(abs(maximum.midY - l.position(for: 1)) < 1e-9, "\(what)")
                    #expect(minimum.minX > l.bar.maxX && maximum.minX > l.bar.maxX, "\(what)")
                    // Both inside the column, off the label's and the value's lines.
                    #expect(maximum.minY >= (l.labelRect?.maxY ?? body.minY) - 1e-9, "\(what)")
                    #expect(minimum.maxY <= (l.currentValueRect?.minY ?? body.maxY) + 1e-9, "\(what)")
                } else {
                    #expect(!ends || k == 1, "\(what): end labels not placed")
                }
            }
        }
    }

    /// A scale's numbers stand right of their ticks, each centred on its
    /// value unless pushed inside the column; marked values likewise.
    @Test func numbersAndMarksAreCentredOnTheirValues() throws {
        for (name, style) in Self.styles(.vertical, scale: LinearScale()) {
            var g = try Gauge(value: 40, in: 0...100).gaugeStyle(style)
            g.style = style
            let l = try Self.layout(g, in: Rect(x: 0, y: 0, width: 120, height: 320))
            let s = try #require(l.scale, "\(name)")
            #expect(s.labels.count == 11 && s.labelStep == 1, "\(name): \(s.labels.count)")
            let ticksEnd = try #require(s.majorTicks.map(\.maxX).max())
            for label in s.labels {
                let v = Double(label.index) / 10
                #expect(abs(label.box.midY - l.position(for: v)) < 1e-9, "\(name) \(label)")
                #expect(label.box.minX > ticksEnd, "\(name) \(label)")
            }
            for (i, tick) in s.majorTicks.enumerated() {
                #expect(abs(tick.midY - l.position(for: Double(i) / 10)) < 1e-9, "\(name)")
                #expect(tick.minX > l.bar.maxX, "\(name)")
            }
        }
        var g = try Gauge(value: 40, in: 0...100).gaugeStyle(AccessoryLinearCapacityGaugeStyle(axis: .vertical))
        g.markedValueLabels = [GaugeLabel("E").tag(0), GaugeLabel("½").tag(50), GaugeLabel("F").tag(100)]
        let l = try Self.layout(g, in: Rect(x: 0, y: 0, width: 80, height: 200))
        let s = try #require(l.scale)
        #expect(s.showsMarks && s.labels.map(\.text) == ["E", "½", "F"])
        for label in s.labels {
            let v = g.markedValueLabels[label.index].value / 100
            #expect(abs(label.box.midY - l.position(for: v)) < 1e-9, "\(label)")
        }
    }

    /// A rectangle too narrow for the numbers drops them, then the ticks;
    /// more width never shows less.
    @Test func aNarrowRectangleDropsTheNumbersThenTheTicks() throws {
        let g = try Gauge(value: 40, in: 0...100).gaugeStyle(
            LinearCapacityGaugeStyle(scale: LinearScale(), axis: .vertical))
        let kinds = try (4...120).map { w -> Int in
            let l = try Self.layout(g, in: Rect(x: 0, y: 0, width: Double(w), height: 300))
            return l.scale == nil ? 0 : l.scale!.labels.isEmpty ? 1 : 2
        }
        #expect(kinds.contains(0) && kinds.contains(1) && kinds.contains(2))
        #expect(kinds == kinds.sorted(), "more room never shows less: \(kinds)")
    }

    /// The Dials article's vertical bar is this code, and stands upright.
    @Test func theArticlesVerticalBarIsThisCode() throws {
        // article vertical begin
        let tank = try Gauge(value: 64, in: 0...100) { "Tank" }
            .valueFormat(.number(decimals: 0, unit: "%"))
            .gaugeStyle(LinearCapacityGaugeStyle(scale: LinearScale(), axis: .vertical))
        // article vertical end
        #expect(try Self.layout(tank, in: Rect(x: 0, y: 0, width: 120, height: 300)).axis == .vertical)
        func lines(_ path: String) throws -> [String] {
            let bytes = try #require(Paths.read(Paths.repoRoot + path))
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
                String($0.trimmingPrefix(while: { $0 == " " }))
            }
        }
        let article = try lines("/Sources/PanelGauge/PanelGauge.docc/Articles/Dials.md")
        let section = try #require(article.firstIndex(of: "## Vertical bars"))
        let open = try #require(article[section...].firstIndex(of: "```swift"))
        let close = try #require(article[(open + 1)...].firstIndex(of: "```"))
        let tests = try lines("/Tests/PanelGaugeTests/Gauges/VerticalBarTests.swift")
        let begin = try #require(tests.firstIndex(of: "// article vertical begin"))
        let end = try #require(tests.firstIndex(of: "// article vertical end"))
        #expect(Array(article[(open + 1)..<close]) == Array(tests[(begin + 1)..<end]))
    }

    /// A vertical bar offered a height stands as tall as offered (under a
    /// title, the bar takes the rest of the cell), where a horizontal one
    /// takes its rows' height.
    @Test func aVerticalBarStandsAsTallAsItIsOffered() throws {
        for (name, style) in Self.styles(.vertical) {
            var g = try Gauge(value: 40, in: 0...100) { "Load" }
            g.style = style
            g = g.title(.top)
            #expect(g.sizeThatFits(Size(width: 100, height: 250)).height == 250, "\(name)")
            var flat = g
            flat.style = Self.styles(.horizontal).first { $0.0 == name }!.1
            #expect(flat.sizeThatFits(Size(width: 100, height: 250)).height < 100, "\(name)")
        }
    }
}
