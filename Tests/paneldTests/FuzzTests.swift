import Testing

@testable import PaneldCore

/// A small deterministic generator (SplitMix64), so a failing case can be replayed by seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Builds fuzz lines: random bytes, mutated valid lines, and random token soup.
struct LineFuzzer {
    var rng: SplitMix64
    static let seeds: [String] = [
        "73", "cpu 73", "cpu=73", "cpu:73|g", "cpu:+5|g", "cpu:-5|g", "get cpu", "get", "list", "mem -1.5e3",
        "cpu:1|g|@0.1", "value 0.000001", "  cpu\t=\t.5 ", "disk.root-used_pct 99.9",
    ]
    static let tokens: [String] = [
        "cpu", "mem", "value", "get", "list", "nan", "inf", "-", "+", ".", "e", "E", "1", "0", "9", "=", ":", "|", "g",
        "c",
        "@", " ", "\t", "\r", "é", "\u{0}", "1e308", "1e309", "-0", "0x1p3", "😀", "\u{7F}", "%", "\\",
    ]

    mutating func line() -> [UInt8] {
        switch rng.next() % 4 {
        case 0:  // random bytes, biased to ASCII
            let n = Int(rng.next() % 40)
            return (0..<n).map { _ in
                rng.next() % 4 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : UInt8(0x20 + rng.next() % 0x5F)
            }
        case 1, 2:  // a valid line, mutated a few times
            var b = Array(LineFuzzer.seeds[Int(rng.next() % UInt64(LineFuzzer.seeds.count))].utf8)
            for _ in 0..<Int(rng.next() % 4) {
                let pos = b.isEmpty ? 0 : Int(rng.next() % UInt64(b.count))
                switch rng.next() % 5 {
                case 0 where !b.isEmpty: b[pos] ^= UInt8(1 << (rng.next() % 8))
                case 1: b.insert(UInt8(truncatingIfNeeded: rng.next()), at: pos)
                case 2 where !b.isEmpty: b.remove(at: pos)
                case 3:
                    b.insert(
                        contentsOf: Array(LineFuzzer.tokens[Int(rng.next() % UInt64(LineFuzzer.tokens.count))].utf8),
                        at: pos)
                default: if !b.isEmpty { b[pos] = b[Int(rng.next() % UInt64(b.count))] }
                }
            }
            return b
        default:  // token soup
            var b: [UInt8] = []
            for _ in 0..<Int(1 + rng.next() % 6) {
                b += Array(LineFuzzer.tokens[Int(rng.next() % UInt64(LineFuzzer.tokens.count))].utf8)
            }
            return b
        }
    }
}

/// The text a command would be sent as; parsing it must give the command back.
func canonical(_ c: Command) -> String {
    switch c {
    case .set(let g?, let v): "\(g) \(v)"
    case .set(nil, let v): "\(v)"
    case .adjust(let g, let d): "\(g):\(d < 0 ? "" : "+")\(d)|g"
    case .clear(let g): "\(g) -"
    case .get(let g?): "get \(g)"
    case .get(nil): "get"
    case .list: "list"
    case .reload: "reload"
    case .setText(let w, let t): "\(w) \(t)"
    case .page(let p?): "page \(p)"
    case .page(nil): "page"
    case .screen(let a?): "screen \(a)"
    case .screen(nil): "screen"
    }
}

@Suite struct LineParserFuzzTests {
    /// 1 M generated lines through the parser and the store: no crash; every
    /// accepted line is a valid command that survives a round trip; every rejected
    /// line yields a one-line ERR reply and leaves the store untouched.
    @Test func oneMillionLines() {
        let count = 1_000_000
        var fuzz = LineFuzzer(rng: SplitMix64(state: 0x5EED))
        var store = GaugeStore(names: ["cpu", "mem", "value"], defaultGauge: "value", initial: [:])
        var accepted = 0, rejected = 0, storeRejected = 0
        for k in 0..<count {
            let line = fuzz.line()
            switch LineParser.parse(line) {
            case .success(let cmd):
                accepted += 1
                if case .set(_, let v) = cmd, !v.isFinite { Issue.record("non-finite value accepted: \(line)") }
                if case .adjust(_, let d) = cmd, !d.isFinite { Issue.record("non-finite delta accepted: \(line)") }
                let again = LineParser.parse(Array(canonical(cmd).utf8))
                if again != .success(cmd) { Issue.record("round trip of \(cmd) gave \(again) (case \(k))") }
                let before = store
                if case .failure(let e) = store.apply(cmd) {
                    storeRejected += 1
                    if store != before { Issue.record("rejected command \(cmd) changed the store") }
                    let reply = "ERR \(e)"
                    if reply.contains("\n") { Issue.record("multi-line reply for \(line)") }
                }
            case .failure(let e):
                rejected += 1
                let reply = "ERR \(e)"
                if reply.contains("\n") || reply.contains("\r") || reply.utf8.count > 200 {
                    Issue.record("bad reply \(reply.debugDescription) for \(line) (case \(k))")
                }
            }
        }
        print(
            "parser fuzz: \(count) lines, \(accepted) accepted, \(rejected) answered ERR, \(storeRejected) accepted by the parser but refused by the store"
        )
        #expect(accepted + rejected == count)
        // The generator must exercise both outcomes, or the test proves nothing.
        #expect(accepted > count / 20 && rejected > count / 5, "accepted \(accepted), rejected \(rejected)")
        #expect(storeRejected > 0)
    }
}
