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
    /// A touch screen's events: decoded, mapped, turned into gestures.
    case touch

    /// Feeds `bytes` to the target.
    package func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .line: FuzzTarget.line(bytes)
        case .statsd: FuzzTarget.statsd(bytes)
        case .layout: FuzzTarget.layout(bytes)
        case .mqtt: FuzzTarget.mqtt(bytes)
        case .touch: FuzzTarget.touch(bytes)
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

extension FuzzTarget {
    /// A touch screen: the first 8 bytes give the device's axis ranges, the rest is
    /// read as its events (`struct input_event`), each taken as 10 ms after the one
    /// before; decoded, mapped onto an 800x480 picture turned 90 degrees, and
    /// turned into gestures. What must hold: the slot table stays bounded, every
    /// point lies on the picture, every gesture's point too.
    static func touch(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8 else { return }
        let a = bytes.loadUnaligned(fromByteOffset: 0, as: Int32.self)
        let b = bytes.loadUnaligned(fromByteOffset: 4, as: Int32.self)
        let mapping = TouchMapping(
            x: min(a, b)...max(a, b), y: 0...Int32(bitPattern: UInt32(UInt16(truncatingIfNeeded: b))),
            calibration: TouchCalibration(swapAxes: a & 1 != 0, invertX: a & 2 != 0, invertY: a & 4 != 0),
            rotation: .clockwise90, width: 480, height: 800)
        var decoder = TouchDecoder()
        var recognizer = GestureRecognizer(width: 480, height: 800)
        var last: (x: Double, y: Double)?
        var now: Int64 = 0
        func onPicture(_ x: Double, _ y: Double) -> Bool { x >= 0 && x <= 480 && y >= 0 && y <= 800 }
        func take(_ g: TouchGesture?) {
            switch g {
            case .tap(let x, let y)?, .longPress(let x, let y)?: precondition(onPicture(x, y), "a gesture at \(x),\(y)")
            default: break
            }
        }
        for event in InputEvent.decode(UnsafeRawBufferPointer(rebasing: bytes[8...])) {
            now += 10
            precondition(decoder.slotsHeld <= 65, "\(decoder.slotsHeld) slots held")
            switch decoder.feed(event) {
            case .contact(let x, let y)?:
                let p = mapping.point(x: x, y: y)
                precondition(onPicture(p.x, p.y), "\(x),\(y) mapped to \(p)")
                last = p
                take(recognizer.touch(x: p.x, y: p.y, at: now))
            case .lifted?:
                if let p = last { take(recognizer.lift(x: p.x, y: p.y, at: now)) }
                last = nil
            case .lost?:
                recognizer.cancel()
                last = nil
            case nil:
                take(recognizer.due(now: now))
            }
        }
    }
}
