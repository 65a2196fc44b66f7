/// The coverage-guided fuzz targets: each feeds arbitrary bytes to one reader of
/// untrusted input and checks what must hold whatever the bytes. A broken
/// promise, like any trap, ends the process, which libFuzzer reports with the
/// input. `Tests/tools/fuzz.sh` builds them with `--sanitize=fuzzer` and runs
/// each for a bounded time over its kept corpus (`Tests/fuzz/corpus/NAME`);
/// `FuzzCorpusTests` replays every kept input in `swift test`.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// The control socket: a byte stream framed into lines, parsed and applied to a store.
    case line
    /// statsd and DogStatsD datagrams: newline-separated `name:value|g|...` lines.
    case statsd
    /// The layout reader: a layout file, with every file it names taken as readable.
    case layout
    /// The MQTT payload reader: the first line a field path (`a.b.0`, empty for a
    /// plain number), the rest the payload.
    case mqtt

    /// Feeds `bytes` to the target.
    package func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .line: FuzzTarget.line(bytes)
        case .statsd: FuzzTarget.statsd(bytes)
        case .layout: FuzzTarget.layout(bytes)
        case .mqtt: FuzzTarget.mqtt(bytes)
        }
    }

    /// Three gauges (one with a statsd alias) and a text widget, for the inputs to set.
    static let gauges = try! LayoutReader.parse(
        Array(
            #"{"gauges": [{"name": "cpu", "metric": "host.cpu"}, {"name": "mem"}, {"name": "t", "kind": "text", "rect": [0, 0, 8, 8]}]}"#
                .utf8))

    static func check(_ store: GaugeStore) {
        for (name, v) in store.values { precondition(v.isFinite, "\(name) holds \(v)") }
        for (name, t) in store.texts {
            precondition(t.utf8.count <= GaugeStore.maxTextLength, "\(name): text too long")
        }
    }

    static func line(_ bytes: UnsafeRawBufferPointer) {
        var store = gauges.store()
        var framer = LineFramer()
        framer.feed(bytes) { event in
            if case .line(let l) = event {
                precondition(l.count <= LineParser.maxLineLength + 1, "a line of \(l.count) bytes")
                if case .success(let command) = LineParser.parse(l, texts: store.textNames) {
                    _ = store.apply(command)
                }
            }
            return true
        }
        check(store)
    }

    static func statsd(_ bytes: UnsafeRawBufferPointer) {
        var store = gauges.store()
        for l in bytes.split(separator: 0x0A) {
            if case .success(let command) = LineParser.parse(l) { _ = store.apply(command) }
        }
        check(store)
    }

    static func layout(_ bytes: UnsafeRawBufferPointer) {
        guard let layout = try? LayoutReader.parse(Array(bytes), fileReadable: { _ in true }) else { return }
        precondition(!layout.gauges.isEmpty, "a layout without gauges was accepted")
        check(layout.store())
    }

    static func mqtt(_ bytes: UnsafeRawBufferPointer) {
        let nl = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let path = String(decoding: bytes[..<nl], as: UTF8.self)
        var s = MQTTSubscription(topic: "t")
        if !path.isEmpty { s.field = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[min(nl + 1, bytes.count)...])
        if case .success(let v?) = MQTTPayload.value(payload, s) { precondition(v.isFinite, "payload gave \(v)") }
    }
}
