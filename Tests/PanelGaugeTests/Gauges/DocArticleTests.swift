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
            .gaugeStyle(.accessoryCircularCapacity)
            .thresholds(try Thresholds(.green, (60, .orange), (85, .red)))

        let image = Image(width: 160, height: 120)
        let canvas = Canvas(surface: image.surface)
        canvas.clear(Color(red: 16, green: 20, blue: 24))
        cpu.draw(in: Rect(x: 0, y: 0, width: 160, height: 120), on: canvas)
        let png = try PNG.encode(image.surface)
        // article FirstGauge end
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // 73 % is past the orange threshold: the indicator is orange.
        var orange = 0
        for y in 0..<120 {
            for x in 0..<160 {
                let p = image.surface.pixel(x: x, y: y)
                if p.red > 200 && p.green > 100 && p.green < 200 && p.blue < 80 { orange += 1 }
            }
        }
        #expect(orange > 200)
    }

    @Test func customStyleArticleIsTheTestedStyle() throws {
        let gauge = try Gauge(value: 30, in: 0...40).gaugeStyle(Bar()).tint(.red)
        let img = render(gauge, width: 40, height: 4)
        #expect(img.rgb(10, 2) == RGB(.red))
    }

    @Test(arguments: ["FirstGauge", "CustomStyle"])
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
