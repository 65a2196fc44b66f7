import Foundation
import Testing

/// No unused imports between the package's modules: a source file that
/// imports one of them names at least one of its top-level declarations (a
/// type, function or constant; for CDRM, a libdrm, framebuffer or console name
/// or one of the shim's constants). An import that names nothing is a
/// dependency no code needs.
@Suite struct ModuleImportTests {
    static let modules = ["PanelGauge", "PanelScene", "PanelDisplay", "PanelDisplayFakes", "PaneldCore", "PaneldFuzz"]

    /// The names `text` declares at its top level (column 0), whatever their kind.
    static func topLevelNames(_ text: String) -> Set<Substring> {
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "actor", "func", "let", "var"]
        let modifiers: Set<Substring> = [
            "public", "package", "internal", "private", "fileprivate", "final", "indirect", "nonisolated",
        ]
        var names: Set<Substring> = []
        for line in text.split(separator: "\n") where line.first?.isLetter == true {
            let words = line.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" })
            var k = 0
            while k < words.count && modifiers.contains(words[k]) { k += 1 }
            if k + 1 < words.count && kinds.contains(words[k]) { names.insert(words[k + 1]) }
        }
        return names
    }

    /// Whether an identifier comes from CDRM (libdrm, the framebuffer and
    /// console headers, the shim's constants).
    static func isCDRMName(_ s: Substring) -> Bool {
        ["drm", "DRM_", "CDRM_", "CFB_", "fb_", "FB", "KD", "VT_"].contains { s.hasPrefix($0) }
    }

    /// `file: module` for each import of a package module that the file's code does not use.
    static func unusedImports() throws -> [String] {
        let sources = FolderCycleTests.root + "/Sources"
        let fm = FileManager.default
        var declared: [String: Set<Substring>] = [:]
        var files: [(path: String, text: String)] = []
        for target in try fm.contentsOfDirectory(atPath: sources).sorted() {
            for file in (fm.enumerator(atPath: "\(sources)/\(target)")?.allObjects as? [String] ?? []).sorted()
            where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: "\(sources)/\(target)/\(file)", encoding: .utf8)
                declared[target, default: []].formUnion(topLevelNames(text))
                files.append(("\(target)/\(file)", text))
            }
        }
        var unused: [String] = []
        for (path, text) in files {
            let imports = text.split(separator: "\n").compactMap { line -> Substring? in
                let words = line.split(separator: " ")
                guard let i = words.firstIndex(of: "import"), i + 1 < words.count, i <= 1 else { return nil }
                return words[i + 1]
            }
            let used = FolderCycleTests.identifiers(
                text.split(separator: "\n").filter { !$0.contains("import ") }.joined(separator: "\n"))
            for module in imports {
                if module == "CDRM" {
                    if !used.contains(where: isCDRMName) { unused.append("\(path): CDRM") }
                } else if modules.contains(String(module)), used.isDisjoint(with: declared[String(module)] ?? []) {
                    unused.append("\(path): \(module)")
                }
            }
        }
        return unused
    }

    @Test func everyImportOfAPackageModuleIsUsed() throws {
        let unused = try Self.unusedImports()
        #expect(unused.isEmpty, "imports that name nothing of their module: \(unused)")
    }

    /// The check sees an unused import: a file that names nothing of a module it imports.
    @Test func anImportThatNamesNothingIsFound() {
        let names = Self.topLevelNames("public struct Gauge {}\npublic func draw() {}\n    var nested = 1\n")
        #expect(names == ["Gauge", "draw"])
        let uses = FolderCycleTests.identifiers("let x = 1\n// Gauge in a comment\n")
        #expect(uses.isDisjoint(with: names))
        #expect(Self.isCDRMName("drmModeGetResources") && !Self.isCDRMName("open"))
    }
}
