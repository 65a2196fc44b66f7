import Testing
@testable import PanelGauge

@Suite struct HistoryChartTests {
    static let now = 1_790_000_000.0

    static func constant(_ v: Double, span: Double = 600, points: Int = 60) throws -> ValueHistory {
        var h = try ValueHistory(span: span, points: points)
        for k in 0..<points { h.record(v, at: now - span + (Double(k) + 0.5) * span / Double(points)) }
        return h
    }

    static func meet(_ a: Rect, _ b: Rect) -> Bool {
        a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
    }

    static func pixel(_ img: Image, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let p = img.surface.row(y).assumingMemoryBound(to: UInt32.self)[x]
        return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
    }

    /// A level line is an exact band of the line's width at the value's row:
    /// down a column away from grid lines, each pixel's coverage is the
    /// overlap of its row with the band, within a level.
    @Test(arguments: [(320, 240, 37.0), (800, 480, 62.5), (200, 90, 50.0)])
    func aLevelLineIsAnExactBand(w: Int, h: Int, value: Double) throws {
        var env = GaugeEnvironment()
        env.foreground = .black  // no text over the column checked
        env.track = .clear
        let chart = HistoryChart(
            series: [.init("v", color: .white)], range: 0...100, fillsArea: false, environment: env)
        let history = try Self.constant(value)
        let img = Image(width: w, height: h)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(.black)
        let frame = IntRect(x: 0, y: 0, width: w, height: h)
        chart.draw([history], now: Self.now, in: frame, on: canvas)
        let layout = try #require(chart.layout([history], now: Self.now, in: frame))
        let y = layout.y(value), half = layout.lineWidth / 2
        let x = Int(layout.plot.midX) + 3
        for row in Int(layout.plot.minY) - 4..<Int(layout.plot.maxY) + 4 {
            let exact = max(0, min(Double(row + 1), y + half) - max(Double(row), y - half))
            #expect(abs(Double(Self.pixel(img, x, row).g) - exact * 255) <= 1.5, "row \(row)")
        }
    }

    /// Where no data came the plot shows none: no line, no area across the
    /// gap (the line's colour appears only within a line's width of a bucket
    /// with data); a chart with no data at all says so and shows no number.
    @Test func gapsShowNothing() throws {
        var history = try ValueHistory(span: 600, points: 60)
        for k in 0..<60 where !(20..<35).contains(k) { history.record(40, at: Self.now - 600 + Double(k) * 10 + 5) }
        let chart = HistoryChart(series: [.init("v", color: Color(hex: 0x00FF00))], range: 0...100)
        let (img, canvas) = Panel.image(width: 400, height: 200)
        let frame = IntRect(x: 0, y: 0, width: 400, height: 200)
        chart.draw([history], now: Self.now, in: frame, on: canvas)
        let layout = try #require(chart.layout([history], now: Self.now, in: frame))
        // Buckets 20...34 of 60 (oldest first) are the gap: 39 to 25 before the end one.
        let gapFrom = layout.x(bucketsBeforeEnd: 39, points: 60) + layout.lineWidth
        let gapTo = layout.x(bucketsBeforeEnd: 25, points: 60) - layout.lineWidth
        var green = 0
        for x in Int(gapFrom.rounded(.up))..<Int(gapTo) {
            for y in Int(layout.plot.minY)..<Int(layout.plot.maxY) {
                let p = Self.pixel(img, x, y)
                #expect(p.g - max(p.r, p.b) <= 4, "pixel \(x), \(y): \(p)")
            }
        }
        // And beside the gap there is a line.
        for y in Int(layout.plot.minY)..<Int(layout.plot.maxY) {
            let p = Self.pixel(img, Int(layout.x(bucketsBeforeEnd: 45, points: 60)), y)
            if p.g > 200 && p.r < 50 { green += 1 }
        }
        #expect(green >= 1)

        let empty = try #require(chart.layout([nil], now: Self.now, in: frame))
        #expect(empty.header.map(\.text) == ["no data"])
        #expect(empty.valueLabels.isEmpty || chart.range != nil)
        let none = HistoryChart(series: [.init("v", color: .green)])
        let noneLayout = try #require(none.layout([try ValueHistory(span: 60, points: 10)], now: Self.now, in: frame))
        #expect(noneLayout.valueLabels.isEmpty)
        #expect(noneLayout.header.map(\.text) == ["no data"])
    }

    /// A spike shorter than a bucket still reaches its value on the chart.
    @Test func aSpikeSurvivesTheBuckets() throws {
        var history = try ValueHistory(span: 3600, points: 40)
        for k in 0..<3600 { history.record(k == 1801 ? 90 : 20, at: Self.now - 3600 + Double(k)) }
        let chart = HistoryChart(series: [.init("v", color: Color(hex: 0x00FF00))], range: 0...100, fillsArea: false)
        let (img, canvas) = Panel.image(width: 400, height: 240)
        let frame = IntRect(x: 0, y: 0, width: 400, height: 240)
        chart.draw([history], now: Self.now, in: frame, on: canvas)
        let layout = try #require(chart.layout([history], now: Self.now, in: frame))
        let spikeBucket = history.bucketNumber(at: Self.now - 3600 + 1801)!
        let x = Int(layout.x(bucketsBeforeEnd: Int(layout.endBucket - spikeBucket), points: 40))
        let top = Int(layout.y(90))
        // Across the bucket's width, from a pixel below the maximum's row: the spread at 40 %.
        let half = Int(layout.plot.width / 40 / 2) - 1
        for dx in -half...half {
            let p = Self.pixel(img, x + dx, top + 1)
            #expect(p.g > 100 && p.g < 140, "\(p) at \(x + dx), \(top + 1)")
        }
        #expect(layout.header.map(\.text).contains("min 20.0  max 90.0"))
    }

    /// Across sizes, spans and data: labels meet neither each other nor the
    /// frame's edges, the plot lies inside the frame, and nothing is drawn
    /// outside the frame.
    @Test func labelsNeverMeetAndNothingLeavesTheFrame() throws {
        let fonts = FontCache.shared
        let sizes = [(120, 60), (160, 120), (320, 240), (400, 120), (784, 226), (240, 400), (60, 40)]
        let spans: [Double] = [60, 600, 3600, 86400, 7 * 86400]
        let data: [[Double]] = [[1, 2, 3], [-1e6, 5e6], [0.001, 0.002], [41, 83], [-3, -2.5], [7, 7]]
        for (w, h) in sizes {
            for span in spans {
                for values in data {
                    var history = try ValueHistory(span: span, points: 50)
                    for (k, v) in values.enumerated() { history.record(v, at: Self.now - Double(k) * span / 10) }
                    let chart = HistoryChart(
                        series: [.init("a", color: .green), .init("b", color: .blue)], title: "Temperature",
                        format: .number(decimals: 1, unit: "°C"))
                    let (img, canvas) = Panel.image(width: w + 20, height: h + 20)
                    let frame = IntRect(x: 10, y: 10, width: w, height: h)
                    canvas.clear(Color(hex: 0xFF0000))
                    canvas.clear(Panel.background, in: frame)
                    chart.draw([history, history], now: Self.now, in: frame, on: canvas)
                    var outside = 0
                    for y in 0..<h + 20 {
                        for x in 0..<w + 20 where !(x >= 10 && x < 10 + w && y >= 10 && y < 10 + h) {
                            let p = Self.pixel(img, x, y)
                            if !(p.r == 255 && p.g == 0 && p.b == 0) { outside += 1 }
                        }
                    }
                    #expect(outside == 0, "\(outside) pixels drawn outside \(w)x\(h)")
                    guard let layout = chart.layout([history, history], now: Self.now, in: frame) else { continue }
                    let f = Rect(frame)
                    #expect(layout.plot.minX >= f.minX && layout.plot.maxX <= f.maxX)
                    #expect(layout.plot.minY >= f.minY && layout.plot.maxY <= f.maxY)
                    let font = try fonts.font(chart.environment.font, pixelSize: layout.labelSize)
                    func box(_ l: HistoryChartLayout.Label) -> Rect {
                        Rect(
                            x: l.origin.x, y: l.origin.y - font.ascender, width: font.advance(of: l.text),
                            height: font.ascender + font.descender)
                    }
                    for labels in [layout.valueLabels, layout.timeLabels] {
                        for (a, b) in zip(labels, labels.dropFirst()) {
                            #expect(!Self.meet(box(a), box(b)), "\(a.text) meets \(b.text) in \(w)x\(h)")
                        }
                        for l in labels {
                            let r = box(l)
                            #expect(r.minX >= f.minX && r.maxX <= f.maxX && r.maxY <= f.maxY, "\(l.text) in \(w)x\(h)")
                        }
                    }
                    for (a, b) in zip(layout.header, layout.header.dropFirst()) {
                        let fa = try fonts.font(chart.environment.font, pixelSize: a.pixelSize)
                        #expect(a.origin.x + fa.advance(of: a.text) <= b.origin.x, "\(a.text) meets \(b.text)")
                    }
                    for l in layout.valueLabels { #expect(box(l).maxX <= layout.plot.minX) }
                    for l in layout.timeLabels { #expect(box(l).minY >= layout.plot.maxY) }
                }
            }
        }
    }
}
