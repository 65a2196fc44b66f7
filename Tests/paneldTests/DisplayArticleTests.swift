import Foundation
import Testing

/// PanelDisplay's article "A gauge on the screen" shows the `gauge-on-screen`
/// program whole: its first code block is Sources/gauge-on-screen/main.swift line
/// for line, so the code the e2e test runs on a DRM display is the code the
/// article shows.
@Suite struct DisplayArticleTests {
    static let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
        .joined(separator: "/")

    @Test func theArticleShowsTheExampleProgram() throws {
        let article = try String(
            contentsOfFile: Self.root + "/Sources/PanelDisplay/PanelDisplay.docc/Articles/GaugeOnScreen.md",
            encoding: .utf8)
        let program = try String(contentsOfFile: Self.root + "/Sources/gauge-on-screen/main.swift", encoding: .utf8)
        let lines = article.split(separator: "\n", omittingEmptySubsequences: false)
        let open = try #require(lines.firstIndex(of: "```swift"))
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"))
        let block = lines[(open + 1)..<close].map(String.init)
        let source = (program.hasSuffix("\n") ? String(program.dropLast()) : program)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(block == source)
    }

    /// PanelScene's article "Repainting only what changed" shows parts of the
    /// same program: each of its code blocks is a run of consecutive lines of
    /// main.swift.
    @Test func theSceneArticleQuotesTheExampleProgram() throws {
        let article = try String(
            contentsOfFile: Self.root + "/Sources/PanelScene/PanelScene.docc/Articles/RepaintingOnlyWhatChanged.md",
            encoding: .utf8)
        let program = try String(contentsOfFile: Self.root + "/Sources/gauge-on-screen/main.swift", encoding: .utf8)
        let source = program.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var lines = article.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        var blocks = 0
        while let open = lines.firstIndex(of: "```swift") {
            let close = try #require(lines[(open + 1)...].firstIndex(of: "```"))
            let block = Array(lines[(open + 1)..<close])
            let quoted = source.indices.contains { start in
                start + block.count <= source.count && Array(source[start..<(start + block.count)]) == block
            }
            #expect(quoted, "not in main.swift: \(block.first ?? "")")
            blocks += 1
            lines = lines[(close + 1)...]
        }
        #expect(blocks >= 2)
    }
}
