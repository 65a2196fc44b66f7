#if canImport(Glibc)
    import Glibc
#endif
import Testing
@testable import PanelGauge

/// The DocC articles' code (Sources/PanelGauge/PanelGauge.docc/Articles) runs
/// here, and each article's first code block is this file's code between its
/// markers, line for line: an edit to either shows.
@Suite struct DocArticleTests {
    @Test func firstGaugeDrawsAPNG() throws {
        // article FirstGauge begin
        let cpu = try Gauge(value: 73, in: 0...100) { "CPU" }
            .valueFormat(.percent())
            .gaugeStyle(.accessoryCircular)
            .thresholds(try Thresholds(.green, (60, .orange), (85, .red)))

        let image = Image(width: 160, height: 120)
        let canvas = Canvas(surface: image.surface)
        canvas.clear(Color(red: 16, green: 20, blue: 24))
        cpu.draw(in: Rect(x: 0, y: 0, width: 160, height: 120), on: canvas)
        try PNG.write(image.surface, to: "/tmp/cpu.png")
        // article FirstGauge end
        let back = try PNG.read("/tmp/cpu.png")
        #expect(back.width == 160 && back.height == 120)
        // 73 % is past the orange threshold: the indicator is orange.
        var orange = 0
        for y in 0..<120 {
            for x in 0..<160 {
                let p = image.surface.pixel(x: x, y: y)
                if p.red > 200 && p.green > 100 && p.green < 200 && p.blue < 80 { orange += 1 }
            }
        }
        #expect(orange > 100)
        // The label is drawn: the same gauge without it differs.
        let unlabelled = Image(width: 160, height: 120)
        let other = Canvas(surface: unlabelled.surface)
        other.clear(Color(red: 16, green: 20, blue: 24))
        try Gauge(value: 73, in: 0...100).valueFormat(.percent()).gaugeStyle(.accessoryCircular)
            .thresholds(try Thresholds(.green, (60, .orange), (85, .red)))
            .draw(in: Rect(x: 0, y: 0, width: 160, height: 120), on: other)
        var differ = 0
        for y in 0..<120 {
            for x in 0..<160 where image.surface.pixel(x: x, y: y) != unlabelled.surface.pixel(x: x, y: y) {
                differ += 1
            }
        }
        #expect(differ > 30, "the label 'CPU' is not drawn")
    }

    @Test func dialArticleAnimatesThroughThresholds() throws {
        // article Dials begin
        let pressure = try Gauge(value: 1013, in: 950...1050) { "Pressure" }
            .valueFormat(.number(decimals: 0, unit: "hPa"))
            .gaugeStyle(DialGaugeStyle(valueArc: 0.04))
            .thresholds(try Thresholds(.blue, (1000, .green), (1030, .orange)))

        var animated = AnimatedGauge(pressure, animation: GaugeAnimation(duration: 0.5, curve: .easeInOut))
        try animated.setValue(1040, at: 0)

        let image = Image(width: 240, height: 240)
        let canvas = Canvas(surface: image.surface)
        for (frame, time) in [0.0, 0.25, 0.5].enumerated() {
            canvas.clear(.black)
            animated.gauge(at: time).draw(in: Rect(x: 0, y: 0, width: 240, height: 240), on: canvas)
            try PNG.write(image.surface, to: "/tmp/pressure-\(frame).png")
        }
        // article Dials end
        let frames = try (0..<3).map { try PNG.read("/tmp/pressure-\($0).png").rgb }
        #expect(frames[0] != frames[1] && frames[1] != frames[2], "the needle moves between the frames")
        #expect(!animated.isAnimating(at: 0.5) && animated.gauge(at: 0.5).value == 1040)
        // The band shows the thresholds' colours as sections; the last frame's value arc is orange.
        func count(_ rgb: [UInt8], _ c: Color) -> Int {
            stride(from: 0, to: rgb.count, by: 3).filter {
                abs(Int(rgb[$0]) - Int(c.red)) < 8 && abs(Int(rgb[$0 + 1]) - Int(c.green)) < 8
                    && abs(Int(rgb[$0 + 2]) - Int(c.blue)) < 8
            }.count
        }
        for c in [Color.blue, .green, .orange] { #expect(count(frames[0], c) > 40, "\(c) section") }
        #expect(count(frames[2], .orange) > count(frames[0], .orange))
    }

    @Test func customStyleArticleIsTheTestedStyle() throws {
        let gauge = try Gauge(value: 30, in: 0...40).gaugeStyle(Bar()).tint(.red)
        let img = render(gauge, width: 40, height: 4)
        #expect(img.rgb(10, 2) == RGB(.red))
    }

    @Test(arguments: ["FirstGauge", "CustomStyle", "Dials"])
    func articleCodeIsTheTestedCode(article: String) throws {
        let text = try #require(
            Paths.read(Paths.repoRoot + "/Sources/PanelGauge/PanelGauge.docc/Articles/\(article).md"))
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let open = try #require(lines.firstIndex(of: "```swift"))
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"))
        let block = lines[(open + 1)..<close].filter { $0 != "import PanelGauge" && !$0.isEmpty }
            .map { $0.trimmingPrefix(while: { $0 == " " }) }
        let expected = try Self.testedCode(article)
        #expect(block.map(String.init) == expected)
    }

    /// The code the tests run for `article`: between this file's markers, or
    /// for CustomStyle the `Bar` style (CustomStyleTests.swift) and its gauge.
    static func testedCode(_ article: String) throws -> [String] {
        func lines(of file: String) throws -> [String] {
            let text = try #require(Paths.read(Paths.repoRoot + "/Tests/PanelGaugeTests/Gauges/" + file))
            return String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        func unindented(_ lines: ArraySlice<String>) -> [String] {
            lines.map { String($0.trimmingPrefix(while: { $0 == " " })) }
        }
        if article == "CustomStyle" {
            // The style, to its closing brace in the first column.
            let all = try lines(of: "CustomStyleTests.swift")
            let start = try #require(all.firstIndex(of: "struct Bar: GaugeStyle {"))
            let end = try #require(all[start...].firstIndex(of: "}"))
            return unindented(all[start...end])
                + ["let gauge = try Gauge(value: 30, in: 0...40).gaugeStyle(Bar()).tint(.red)"]
        }
        let all = unindented(try lines(of: "DocArticleTests.swift")[...]).filter { !$0.isEmpty }
        let start = try #require(all.firstIndex(of: "// article \(article) begin"))
        let end = try #require(all.firstIndex(of: "// article \(article) end"))
        return Array(all[(start + 1)..<end])
    }
}
