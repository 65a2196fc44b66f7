import Testing

@testable import paneld

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
