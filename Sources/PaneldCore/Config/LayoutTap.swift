/// What a tap on a gauge does (the gauge key `"tap"`; off by default): an
/// MQTT message published to the layout's broker, a line written to the
/// program the layout names in `"tapCommand"`, or the gauge shown alone.
package enum TapAction: Sendable, Equatable {
    /// `"zoom"`: the gauge alone in the whole screen, until the next tap, a
    /// swipe or a page change.
    case zoom
    /// `{ "publish": TOPIC, "payload": TEXT }`.
    case publish(topic: String, payload: String)
    /// `{ "line": TEXT }`: the line, with its newline, to `tapCommand`'s standard input.
    case line(String)

    /// The longest topic, payload or line, in bytes.
    static let maxLength = 256
}

extension Checker {
    /// The top-level `"tapCommand"` at `path`: an absolute path of at most 4096
    /// bytes; a file that is not there (a layout drawn on another machine) is a warning.
    mutating func tapCommand(_ v: JSONValue, _ path: String) -> String? {
        guard let s = string(v, path) else { return nil }
        guard s.hasPrefix("/"), s.utf8.count <= 4096, !s.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            fail(v, path, "expected the absolute path of a program (\"/usr/local/bin/panel-tap\")")
            return nil
        }
        if !fileReadable(s) { warn(v, path, "\(s) is not there (yet): taps that need it are dropped until it is") }
        return s
    }

    /// A gauge's `"tap"` at `path`.
    mutating func tap(_ v: JSONValue?, _ path: String) -> TapAction? {
        guard let v else { return nil }
        if case .string(let s) = v.kind {
            guard s == "zoom" else {
                fail(v, path, "expected \"zoom\", { \"publish\": TOPIC, \"payload\": TEXT } or { \"line\": TEXT }")
                return nil
            }
            return .zoom
        }
        guard let m = members(v, path, known: LayoutKeys.tap) else { return nil }
        func text(_ key: String) -> String? {
            guard let t = m[key] else { return nil }
            guard let s = string(t, path + "." + key) else { return nil }
            guard !s.isEmpty, s.utf8.count <= TapAction.maxLength,
                !s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else {
                fail(t, path + "." + key, "must be 1 to \(TapAction.maxLength) bytes without control characters")
                return nil
            }
            return s
        }
        switch (m["publish"], m["line"]) {
        case (_?, nil):
            guard let topic = text("publish") else { return nil }
            guard !topic.contains("+"), !topic.contains("#") else {
                fail(m["publish"], path + ".publish", "a topic to publish to has no wildcards (+ or #)")
                return nil
            }
            if m["payload"] != nil, text("payload") == nil { return nil }
            return .publish(topic: topic, payload: text("payload") ?? "tap")
        case (nil, _?):
            if m["payload"] != nil { fail(m["payload"], path + ".payload", "only with \"publish\"") }
            return text("line").map(TapAction.line)
        default:
            fail(v, path, "expected \"zoom\", { \"publish\": TOPIC, \"payload\": TEXT } or { \"line\": TEXT }")
            return nil
        }
    }
}
