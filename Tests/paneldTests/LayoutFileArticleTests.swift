import Foundation
import PanelGauge
import Testing

@testable import PaneldCore

/// PanelGauge's article "The layout file" stays true: its gauge objects decode
/// with `JSONDecoder` and read in a layout without an issue or a warning, its
/// layout file reads as paneld reads it, its messages are the reader's, and the
/// JSON in its Swift example decodes to the gauge the text describes.
@Suite struct LayoutFileArticleTests {
    static let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
        .joined(separator: "/")

    /// The article's code blocks opened by `fence` (such as "```json"), each as one string.
    static func blocks(_ fence: String) throws -> [String] {
        let article = try String(
            contentsOfFile: root + "/Sources/PanelGauge/PanelGauge.docc/Articles/LayoutFile.md", encoding: .utf8)
        var out: [String] = []
        var current: [Substring] = []
        var open: Substring? = nil
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            if let o = open {
                if line == "```" {
                    if o == fence { out.append(current.joined(separator: "\n")) }
                    open = nil
                    current = []
                } else {
                    current.append(line)
                }
            } else if line.hasPrefix("```") {
                open = line
            }
        }
        return out
    }

    @Test func theGaugeObjectsAndTheLayoutRead() throws {
        let json = try Self.blocks("```json")
        #expect(json.count == 2)
        for block in json {
            if block.contains(##""gauges""##) {
                let layout = try LayoutReader.parse(Array(block.utf8))
                #expect(layout.warnings.isEmpty, "\(layout.warnings)")
                #expect(layout.gauges.count == 2)
            } else {
                let d = try JSONDecoder().decode(GaugeDescription.self, from: Data(block.utf8))
                #expect(d.warnings.isEmpty, "\(d.warnings)")
                #expect(GaugeDialectTests.layoutIssues(block).isEmpty)
                let g = try d.makeGauge(value: 73)
                #expect(g.style is AccessoryCircularGaugeStyle && g.label?.text == "CPU")
                #expect(g.configuration.currentValueLabel?.text == "73 %")
                #expect(g.indicatorColor == Color(hex: 0xFF9500))
            }
        }
    }

    /// The messages block shows the reader's messages (an unknown key's list of keys cut short).
    @Test func theMessagesAreTheReaders() throws {
        let shown = try #require(try Self.blocks("```").first).split(separator: "\n").map(String.init)
        let bad =
            ##"{"range": [1, 0], "thresholds": [{"above": 5, "color": "#FFF"}, {"above": 1, "color": "#000"}], "zz": 1}"##
        let found = GaugeDialectTests.decoderIssues(bad)
        #expect(shown.count == 3)
        for line in shown {
            let head = line.hasSuffix("...)") ? String(line.dropLast(4)) : line
            #expect(found.contains { $0.hasPrefix(head) }, "\(line) is not among \(found)")
        }
    }

    /// The Swift example's JSON decodes, and its code (the same statements as here) draws the gauge.
    @Test func theSwiftExampleRuns() throws {
        let swift = try #require(try Self.blocks("```swift").first)
        let line = try #require(swift.split(separator: "\n").first { $0.hasPrefix("let json = ##\"") })
        let json = String(line.dropFirst("let json = ##\"".count).dropLast(3))
        #expect(json == ##"{ "style": "ring", "label": "Memory", "units": "%", "tint": "#64D2FF" }"##)

        let description = try JSONDecoder().decode(GaugeDescription.self, from: Data(json.utf8))
        let memory = try description.makeGauge(value: 46)

        let image = Image(width: 160, height: 120)
        let canvas = Canvas(surface: image.surface)
        canvas.clear(.black)
        memory.draw(in: Rect(x: 0, y: 0, width: 160, height: 120), on: canvas)

        #expect(memory.style is RingGaugeStyle && memory.label?.text == "Memory")
        #expect(memory.tint == .color(Color(hex: 0x64D2FF)) && description.warnings.isEmpty)
        #expect(image.surface.rgbBytes().contains { $0 != 0 })
        for statement in [
            "let description = try JSONDecoder().decode(GaugeDescription.self, from: Data(json.utf8))",
            "let memory = try description.makeGauge(value: 46)",
            "memory.draw(in: Rect(x: 0, y: 0, width: 160, height: 120), on: canvas)",
        ] {
            #expect(swift.contains(statement), "the article's example has \(statement)")
        }
    }
}
