import Foundation
import Testing

@testable import PaneldCore

/// docs/layout.md documents every key the layout reader accepts, and no other:
/// each object's table follows a `<!-- keys: OBJECT -->` line and lists one key
/// per row, `` | `key` | ... ``, up to the next heading. The reader's lists are
/// ``LayoutKeys``, the ones its unknown-key check uses.
@Suite struct LayoutDocsTests {
    static let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
        .joined(separator: "/")

    static func document() throws -> String {
        try String(contentsOfFile: root + "/docs/layout.md", encoding: .utf8)
    }

    /// Each object the document has a key table for, with the keys in its rows, in order.
    static func documentedKeys(_ text: String) -> [(object: String, keys: [String])] {
        var out: [(object: String, keys: [String])] = []
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<!-- keys: "), line.hasSuffix(" -->") {
                out.append((String(line.dropFirst(11).dropLast(4)), []))
                inTable = true
            } else if line.hasPrefix("#") {
                inTable = false
            } else if inTable, line.hasPrefix("| `") {
                let cell = line.dropFirst(3)
                if let end = cell.firstIndex(of: "`") { out[out.count - 1].keys.append(String(cell[..<end])) }
            }
        }
        return out
    }

    @Test func everyObjectsKeysAreDocumentedAndNoOthers() throws {
        let documented = Self.documentedKeys(try Self.document())
        let names = documented.map(\.object)
        #expect(names.count == Set(names).count, "an object has two key tables: \(names)")
        #expect(
            Set(names) == Set(LayoutKeys.objects.map(\.name)),
            "objects in docs/layout.md: \(names.sorted()); in LayoutKeys: \(LayoutKeys.objects.map(\.name).sorted())")
        for (object, keys) in LayoutKeys.objects {
            guard let doc = documented.first(where: { $0.object == object }) else { continue }
            let undocumented = keys.filter { !doc.keys.contains($0) }
            let unknown = doc.keys.filter { !keys.contains($0) }
            #expect(undocumented.isEmpty, "\(object): accepted by the reader, not in docs/layout.md: \(undocumented)")
            #expect(unknown.isEmpty, "\(object): in docs/layout.md, not accepted by the reader: \(unknown)")
            #expect(doc.keys.count == Set(doc.keys).count, "\(object): a key documented twice: \(doc.keys)")
        }
    }

    /// The dial's own keys are gauge keys, and each is refused on another style.
    @Test func theDialsKeysAreGaugeKeysOnlyADialAccepts() {
        #expect(LayoutKeys.dialOnly.allSatisfy(LayoutKeys.gauge.contains))
        for key in LayoutKeys.dialOnly {
            let found = issues(##"{"gauges": [{"name": "a", "style": "ring", "\##(key)": {}}]}"##)
            #expect(
                found.contains { $0.path == "gauges[0].\(key)" && $0.message.hasPrefix("only a 'dial'") }, "\(found)")
        }
    }

    /// The linear styles' own keys are gauge keys, each refused on another style and read on each linear style.
    @Test func theLinearKeysAreGaugeKeysOnlyALinearGaugeAccepts() {
        #expect(LayoutKeys.linearOnly.allSatisfy(LayoutKeys.gauge.contains))
        for key in LayoutKeys.linearOnly {
            for style in ["ring", "dial", "stepped", "accessoryCircular"] {
                let found = issues(##"{"gauges": [{"name": "a", "style": "\##(style)", "\##(key)": "vertical"}]}"##)
                #expect(
                    found.contains { $0.path == "gauges[0].\(key)" && $0.message.hasPrefix("only a linear gauge") },
                    "\(style): \(found)")
            }
            for style in ["linearCapacity", "accessoryLinear", "accessoryLinearCapacity"] {
                let found = issues(##"{"gauges": [{"name": "a", "style": "\##(style)", "\##(key)": "vertical"}]}"##)
                #expect(found.isEmpty, "\(style): \(found)")
            }
        }
    }

    /// The reader refuses a key of no list: what the document's tables are checked against is what it accepts.
    @Test func theReaderRefusesAKeyOutsideItsLists() throws {
        let probes: [(json: String, path: String)] = [
            (##"{"zz": 1, "gauges": [{"name": "a"}]}"##, "zz"),
            (##"{"pages": [{"name": "p", "zz": 1, "gauges": [{"name": "a"}]}]}"##, "pages[0].zz"),
            (##"{"gauges": [{"name": "a", "kind": "text", "zz": 1}]}"##, "gauges[0].zz"),
            (##"{"gauges": [{"name": "a", "kind": "clock", "zz": 1}]}"##, "gauges[0].zz"),
            (##"{"grid": {"zz": 1}, "gauges": [{"name": "a"}]}"##, "grid.zz"),
            (##"{"gauges": [{"name": "a", "zz": 1}]}"##, "gauges[0].zz"),
            (##"{"gauges": [{"name": "a", "cell": {"row": 0, "column": 0, "zz": 1}}]}"##, "gauges[0].cell.zz"),
            (##"{"gauges": [{"name": "a", "format": {"kind": "number", "zz": 1}}]}"##, "gauges[0].format.zz"),
            (
                ##"{"gauges": [{"name": "a", "format": {"kind": "number", "mappings": [{"value": 0, "text": "off", "zz": 1}]}}]}"##,
                "gauges[0].format.mappings[0].zz"
            ),
            (
                ##"{"gauges": [{"name": "a", "thresholds": [{"above": 1, "color": "#FFF", "zz": 1}]}]}"##,
                "gauges[0].thresholds[0].zz"
            ),
            (##"{"gauges": [{"name": "a", "style": "dial", "scale": {"zz": 1}}]}"##, "gauges[0].scale.zz"),
            (
                ##"{"gauges": [{"name": "a", "style": "dial", "scale": {"majorTicks": {"zz": 1}}}]}"##,
                "gauges[0].scale.majorTicks.zz"
            ),
            (
                ##"{"gauges": [{"name": "a", "style": "dial", "scale": {"labels": {"zz": 1}}}]}"##,
                "gauges[0].scale.labels.zz"
            ),
            (
                ##"{"gauges": [{"name": "a", "style": "dial", "sections": [{"from": 0, "to": 1, "color": "#FFF", "zz": 1}]}]}"##,
                "gauges[0].sections[0].zz"
            ),
            (##"{"gauges": [{"name": "a", "style": "dial", "needle": {"zz": 1}}]}"##, "gauges[0].needle.zz"),
            (
                ##"{"gauges": [{"name": "a", "style": "dial", "markedLabels": [{"value": 1, "label": "x", "zz": 1}]}]}"##,
                "gauges[0].markedLabels[0].zz"
            ),
            (
                ##"{"mqtt": {"broker": "mqtt://127.0.0.1", "zz": 1}, "gauges": [{"name": "a", "mqtt": "t"}]}"##,
                "mqtt.zz"
            ),
            (
                ##"{"mqtt": {"broker": "mqtt://127.0.0.1"}, "gauges": [{"name": "a", "mqtt": {"topic": "t", "zz": 1}}]}"##,
                "gauges[0].mqtt.zz"
            ),
            (
                ##"{"gauges": [{"name": "a"}, {"name": "c", "kind": "chart", "gauges": ["a"], "zz": 1}]}"##,
                "gauges[1].zz"
            ),
            (##"{"gauges": [{"name": "a", "sparkline": {"zz": 1}}]}"##, "gauges[0].sparkline.zz"),
            (##"{"gauges": [{"name": "a", "peaks": {"zz": 1}}]}"##, "gauges[0].peaks.zz"),
            (##"{"touch": {"zz": 1}, "gauges": [{"name": "a"}]}"##, "touch.zz"),
            (##"{"light": {"zz": 1}, "gauges": [{"name": "a"}]}"##, "light.zz"),
            (##"{"gauges": [{"name": "a", "tap": {"zz": 1}}]}"##, "gauges[0].tap.zz"),
            (
                ##"{"light": {"night": {"from": "22:00", "to": "07:00", "zz": 1}}, "gauges": [{"name": "a"}]}"##,
                "light.night.zz"
            ),
        ]
        #expect(probes.count == LayoutKeys.objects.count)
        for (json, path) in probes {
            let found = issues(json)
            #expect(found.contains { $0.path == path && $0.message.hasPrefix("unknown key") }, "\(path): \(found)")
        }
    }

    /// The document's first example is docs/examples/small.json, which reads without a warning.
    @Test func theDocumentsExampleIsTheCheckedFile() throws {
        let lines = try Self.document().split(separator: "\n", omittingEmptySubsequences: false)
        let open = try #require(lines.firstIndex(of: "```json"))
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"))
        let block = lines[(open + 1)..<close].joined(separator: "\n") + "\n"
        let file = try String(contentsOfFile: Self.root + "/docs/examples/small.json", encoding: .utf8)
        #expect(block == file)
        let layout = try LayoutReader.parse(Array(file.utf8))
        #expect(layout.warnings.isEmpty)
    }
}
