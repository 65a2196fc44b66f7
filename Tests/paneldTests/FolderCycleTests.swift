import Foundation
import Testing

/// Each library's folders are stages that depend one way: no folders of a
/// module use each other's types around a cycle of any length. A folder uses another's type when one of
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

    /// Cycles among the folders of `module`, each as the folders in order
    /// with a type each one uses from the next.
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
        // folder -> folder it uses -> a type it uses from there
        var graph: [String: [String: String]] = [:]
        for (type, owner) in declared.sorted(by: { $0.key < $1.key }) {
            for (folder, names) in uses where folder != owner && names.contains(Substring(type)) {
                if graph[folder, default: [:]][owner] == nil { graph[folder, default: [:]][owner] = type }
            }
        }
        return cycles(of: graph)
    }

    /// The cycles of a dependency graph (`graph[a][b]`: a type `a` uses from
    /// `b`), of any length: one per strongly connected component of more than
    /// one folder, as a path through it back to its start.
    static func cycles(of graph: [String: [String: String]]) -> [String] {
        // Tarjan's strongly connected components.
        var index: [String: Int] = [:], low: [String: Int] = [:], onStack: Set<String> = []
        var stack: [String] = [], components: [[String]] = [], next = 0
        func visit(_ v: String) {
            index[v] = next
            low[v] = next
            next += 1
            stack.append(v)
            onStack.insert(v)
            for w in (graph[v] ?? [:]).keys.sorted() {
                if index[w] == nil {
                    visit(w)
                    low[v] = min(low[v]!, low[w]!)
                } else if onStack.contains(w) {
                    low[v] = min(low[v]!, index[w]!)
                }
            }
            if low[v] == index[v] {
                var component: [String] = []
                while let w = stack.popLast() {
                    onStack.remove(w)
                    component.append(w)
                    if w == v { break }
                }
                if component.count > 1 { components.append(component.sorted()) }
            }
        }
        let nodes = Set(graph.keys).union(graph.values.flatMap(\.keys))
        for v in nodes.sorted() where index[v] == nil { visit(v) }
        // A path around each component: from its first folder, a shortest way
        // back to it through the component.
        return components.map { component in
            let members = Set(component), start = component[0]
            var previous: [String: String] = [:], queue = [start], found: String? = nil
            search: while !queue.isEmpty {
                let v = queue.removeFirst()
                for w in (graph[v] ?? [:]).keys.sorted() where members.contains(w) {
                    if w == start {
                        found = v
                        break search
                    }
                    if previous[w] == nil {
                        previous[w] = v
                        queue.append(w)
                    }
                }
            }
            var path = [start]
            var v = found
            while let at = v, at != start {
                path.insert(at, at: 1)
                v = previous[at]
            }
            path.append(start)
            return zip(path, path.dropFirst()).map { "\($0) uses \($1)'s \(graph[$0]![$1]!)" }.joined(separator: ", ")
        }
    }

    @Test(arguments: ["PanelGauge", "PanelScene", "PanelDisplay", "PaneldCore"])
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

    /// Cycles of any length are found, each once; a chain is none.
    @Test func cyclesOfAnyLengthAreFound() {
        let three = ["A": ["B": "Bee"], "B": ["C": "Sea"], "C": ["A": "Ay"], "D": ["A": "Ay"]]
        #expect(Self.cycles(of: three) == ["A uses B's Bee, B uses C's Sea, C uses A's Ay"])
        #expect(Self.cycles(of: ["A": ["B": "Bee"], "B": ["A": "Ay"]]) == ["A uses B's Bee, B uses A's Ay"])
        #expect(Self.cycles(of: ["A": ["B": "Bee"], "B": ["C": "Sea"], "C": [:]]).isEmpty)
    }
}
