import Foundation
import Testing

/// Each library's folders are stages that depend one way: no two folders of a
/// module use each other's types. A folder uses another's type when one of
/// its files names a type declared at the top level of the other's files
/// (comments aside).
@Suite struct FolderCycleTests {
    static let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
        .joined(separator: "/")

    /// The names of the types a file declares at its top level.
    static func declaredTypes(_ text: String) -> [String] {
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "actor"]
        let modifiers: Set<Substring> = [
            "public", "package", "internal", "private", "fileprivate", "final", "indirect",
        ]
        var names: [String] = []
        for line in text.split(separator: "\n") where line.first?.isLetter == true {
            let words = line.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" })
            var k = 0
            while k < words.count && modifiers.contains(words[k]) { k += 1 }
            if k + 1 < words.count && kinds.contains(words[k]) && words[k + 1].first?.isUppercase == true {
                names.append(String(words[k + 1]))
            }
        }
        return names
    }

    /// The identifiers a file's code uses, comment lines left out.
    static func identifiers(_ text: String) -> Set<Substring> {
        var out: Set<Substring> = []
        for line in text.split(separator: "\n") {
            let code = line.drop(while: { $0 == " " })
            if code.hasPrefix("//") { continue }
            out.formUnion(code.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }))
        }
        return out
    }

    /// Pairs of folders of `module` that use each other's types, with a type each way.
    static func cycles(in module: String) throws -> [String] {
        let dir = "\(root)/Sources/\(module)"
        let fm = FileManager.default
        var declared: [String: String] = [:]  // type -> folder
        var uses: [String: Set<Substring>] = [:]  // folder -> identifiers
        for folder in try fm.contentsOfDirectory(atPath: dir).sorted() {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: "\(dir)/\(folder)", isDirectory: &isDirectory), isDirectory.boolValue,
                let files = fm.enumerator(atPath: "\(dir)/\(folder)")?.allObjects as? [String]
            else { continue }
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: "\(dir)/\(folder)/\(file)", encoding: .utf8)
                for name in declaredTypes(text) { declared[name] = folder }
                uses[folder, default: []].formUnion(identifiers(text))
            }
        }
        func used(by a: String, from b: String) -> String? {
            declared.first { $0.value == b && uses[a]?.contains(Substring($0.key)) == true }?.key
        }
        var found: [String] = []
        let folders = uses.keys.sorted()
        for (i, a) in folders.enumerated() {
            for b in folders[(i + 1)...] {
                if let ab = used(by: a, from: b), let ba = used(by: b, from: a) {
                    found.append("\(a) uses \(b)'s \(ab), \(b) uses \(a)'s \(ba)")
                }
            }
        }
        return found
    }

    @Test(arguments: ["PanelGauge", "PanelDisplay", "PaneldCore"])
    func foldersDependOneWay(module: String) throws {
        let found = try Self.cycles(in: module)
        #expect(found.isEmpty, "\(module): \(found)")
    }

    /// The check sees a cycle: the declarations and uses it reads are real.
    @Test func aTypeNamedBothWaysIsACycle() {
        let a = "struct Alpha {}\nlet b: Beta? = nil\n", b = "enum Beta {}\n// Alpha in a comment\n"
        #expect(Self.declaredTypes(a) == ["Alpha"] && Self.declaredTypes(b) == ["Beta"])
        #expect(Self.identifiers(a).contains("Beta") && !Self.identifiers(b).contains("Alpha"))
        #expect(Self.declaredTypes("    struct Nested {}\npackage final class Top {}") == ["Top"])
    }
}
