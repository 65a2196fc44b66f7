import Testing

@testable import PaneldCore

@Suite struct LayoutFuzzTests {
    /// 20 000 mutations of a valid layout: the reader never crashes, and every
    /// rejection names at least one issue whose line is within the file.
    @Test func mutatedLayoutsAreAcceptedOrExplained() {
        let seed = Array(LayoutReaderTests.full.utf8)
        var rng = SplitMix64(state: 7)
        let alphabet = Array("{}[]\",:0123456789.-eE \n\\ua#tfn".utf8)
        var accepted = 0, rejected = 0
        for _ in 0..<20_000 {
            var b = seed
            for _ in 0..<Int(1 + rng.next() % 4) {
                let pos = Int(rng.next() % UInt64(b.count))
                switch rng.next() % 4 {
                case 0: b[pos] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: b.remove(at: pos)
                case 2: b.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: pos)
                default: b[pos] = UInt8(truncatingIfNeeded: rng.next())
                }
            }
            let lines = b.filter { $0 == 0x0A }.count + 1
            do {
                _ = try LayoutReader.parse(b, fileReadable: { _ in true })
                accepted += 1
            } catch {
                rejected += 1
                if error.issues.isEmpty { Issue.record("rejected without an issue") }
                for i in error.issues where i.line.map({ $0 < 1 || $0 > lines }) ?? false {
                    Issue.record("issue on line \(i.line!) of a \(lines)-line file: \(i)")
                }
            }
        }
        #expect(accepted > 100 && rejected > 10_000, "accepted \(accepted), rejected \(rejected)")
    }
}

@Suite struct JSONRoundTripTests {
    /// Random documents, written out with random whitespace and escapes, read back equal.
    @Test func randomDocumentsReadBackEqual() throws {
        var rng = SplitMix64(state: 99)
        for _ in 0..<3_000 {
            let value = randomValue(&rng, depth: 0)
            var text = ""
            write(value, into: &text, &rng)
            let back = try JSONReader.parse(Array(text.utf8))
            #expect(strip(back) == strip(value), "\(text)")
        }
    }

    func randomValue(_ rng: inout SplitMix64, depth: Int) -> JSONValue {
        let pick = depth > 4 ? rng.next() % 4 : rng.next() % 6
        switch pick {
        case 0: return JSONValue(.null, line: 0)
        case 1: return JSONValue(.bool(rng.next() % 2 == 0), line: 0)
        case 2:
            let n = Double(Int64(bitPattern: rng.next()) % 1_000_000) / Double(1 + rng.next() % 1000)
            return JSONValue(.number(n), line: 0)
        case 3:
            let scalars = (0..<Int(rng.next() % 8)).map { _ -> Character in
                let choices: [UInt32] = [0x41, 0x22, 0x5C, 0x0A, 0x09, 0xE9, 0x1F600, 0x2F, 0x01]
                return Character(UnicodeScalar(choices[Int(rng.next() % UInt64(choices.count))])!)
            }
            return JSONValue(.string(String(scalars)), line: 0)
        case 4:
            return JSONValue(
                .array((0..<Int(rng.next() % 4)).map { _ in randomValue(&rng, depth: depth + 1) }), line: 0)
        default:
            var members: [JSONValue.Member] = []
            for k in 0..<Int(rng.next() % 4) {
                members.append(JSONValue.Member(key: "k\(k)", value: randomValue(&rng, depth: depth + 1)))
            }
            return JSONValue(.object(members), line: 0)
        }
    }

    func space(_ rng: inout SplitMix64) -> String { ["", " ", "\n", "\t", "\r\n  "][Int(rng.next() % 5)] }

    func write(_ v: JSONValue, into out: inout String, _ rng: inout SplitMix64) {
        out += space(&rng)
        switch v.kind {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += "\(d)"
        case .string(let s):
            out += "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += rng.next() % 2 == 0 ? "\\\\" : "\\u005C"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "/": out += rng.next() % 2 == 0 ? "/" : "\\/"
                case "\u{01}": out += "\\u0001"
                case "\u{1F600}": out += rng.next() % 2 == 0 ? "😀" : "\\uD83D\\uDE00"
                default: out.unicodeScalars.append(u)
                }
            }
            out += "\""
        case .array(let items):
            out += "["
            for (k, i) in items.enumerated() {
                if k > 0 { out += "," }
                write(i, into: &out, &rng)
            }
            out += space(&rng) + "]"
        case .object(let members):
            out += "{"
            for (k, m) in members.enumerated() {
                if k > 0 { out += "," }
                out += space(&rng) + "\"\(m.key)\"" + space(&rng) + ":"
                write(m.value, into: &out, &rng)
            }
            out += space(&rng) + "}"
        }
        out += space(&rng)
    }

    /// The value without line numbers.
    func strip(_ v: JSONValue) -> JSONValue {
        switch v.kind {
        case .array(let items): return JSONValue(.array(items.map(strip)), line: 0)
        case .object(let m):
            return JSONValue(.object(m.map { JSONValue.Member(key: $0.key, value: strip($0.value)) }), line: 0)
        default: return JSONValue(v.kind, line: 0)
        }
    }
}
