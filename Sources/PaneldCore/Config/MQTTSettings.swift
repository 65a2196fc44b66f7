/// The layout's `"mqtt"` object: which broker paneld subscribes at and how it
/// signs in. Checked by ``read(_:path:fileReadable:)``, so settings that exist
/// are valid. A password is never in the layout: `passwordFile` names a file
/// whose first line is the password.
package struct MQTTSettings: Equatable, Sendable {
    /// `mqtts://` (TLS) rather than `mqtt://`.
    var tls = false
    var host = ""
    var port = 1883
    /// The client id; nil = one the library makes up (`auto-...`).
    var clientID: String?
    var username: String?
    package var passwordFile: String?
    /// CA certificate(s) a `mqtts://` broker's certificate must chain to; nil = the system's.
    var caFile: String?
    /// Client certificate and key (PEM), for brokers that ask for one.
    var certificateFile: String?
    var keyFile: String?
    /// Seconds between keepalive pings when nothing else is sent (5 to 3600).
    var keepalive = 60

    static let keys = ["broker", "clientId", "username", "passwordFile", "ca", "certificate", "key", "keepalive"]
    static let keepaliveRange = 5...3600

    /// `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`, the host a name, an IPv4
    /// address or a bracketed IPv6 one. Pure.
    static func parseBroker(_ text: String) -> (tls: Bool, host: String, port: Int)? {
        let tls: Bool
        let rest: Substring
        if text.hasPrefix("mqtt://") {
            (tls, rest) = (false, text.dropFirst(7))
        } else if text.hasPrefix("mqtts://") {
            (tls, rest) = (true, text.dropFirst(8))
        } else {
            return nil
        }
        var host = rest
        var port = tls ? 8883 : 1883
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()) else { return nil }
                port = p
            }
            guard host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            guard let p = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = p
        }
        let hostBytes = host.utf8
        guard (1...253).contains(hostBytes.count), (1...65535).contains(port),
            rest.hasPrefix("[")
                || hostBytes.allSatisfy({
                    ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                        || $0 == 0x2D || $0 == 0x2E
                })
        else { return nil }
        return (tls, String(host), port)
    }

    /// The settings in `v`, or the issues found (paths under `path`). `fileReadable`
    /// checks each named file without opening it.
    static func read(_ v: JSONValue, path: String, fileReadable: (String) -> Bool) -> (MQTTSettings?, [LayoutIssue]) {
        var issues: [LayoutIssue] = []
        func fail(_ at: JSONValue, _ key: String, _ message: String) {
            issues.append(LayoutIssue(line: at.line, path: key.isEmpty ? path : path + "." + key, message: message))
        }
        guard case .object(let members) = v.kind else {
            fail(v, "", "expected an object {\"broker\": \"mqtt://HOST:PORT\", ...}")
            return (nil, issues)
        }
        var m: [String: JSONValue] = [:]
        for member in members {
            let (k, value) = (member.key, member.value)
            if keys.contains(k) {
                m[k] = value
            } else {
                fail(value, k, "unknown key (expected one of: \(keys.joined(separator: ", ")))")
            }
        }
        func string(_ key: String) -> String? {
            guard let value = m[key] else { return nil }
            guard case .string(let s) = value.kind, !s.isEmpty, s.utf8.count <= 4096,
                s.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            else {
                fail(value, key, "expected a non-empty string without control characters")
                return nil
            }
            return s
        }
        func file(_ key: String) -> String? {
            guard let f = string(key) else { return nil }
            if !f.hasPrefix("/") || !fileReadable(f) {
                fail(m[key]!, key, "cannot read \(f) (it must be an absolute path to a readable regular file)")
            }
            return f
        }
        var s = MQTTSettings()
        if let b = string("broker") {
            if let (tls, host, port) = parseBroker(b) {
                (s.tls, s.host, s.port) = (tls, host, port)
            } else {
                fail(m["broker"]!, "broker", "'\(LineError.clip(b))' is not mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
            }
        } else if m["broker"] == nil {
            fail(v, "broker", "missing (e.g. \"mqtt://127.0.0.1:1883\")")
        }
        s.clientID = string("clientId")
        if let id = s.clientID, id.utf8.count > 128 { fail(m["clientId"]!, "clientId", "at most 128 bytes") }
        s.username = string("username")
        s.passwordFile = file("passwordFile")
        if s.passwordFile != nil, s.username == nil {
            fail(m["passwordFile"]!, "passwordFile", "needs a \"username\" too")
        }
        s.caFile = file("ca")
        s.certificateFile = file("certificate")
        s.keyFile = file("key")
        if (s.certificateFile == nil) != (s.keyFile == nil), let at = m["certificate"] ?? m["key"] {
            fail(at, m["certificate"] == nil ? "key" : "certificate", "give both \"certificate\" and \"key\"")
        }
        if !s.tls, let key = ["ca", "certificate", "key"].first(where: { m[$0] != nil }) {
            fail(m[key]!, key, "TLS files need an mqtts:// broker")
        }
        if let k = m["keepalive"] {
            if case .number(let d) = k.kind, let n = Int(exactly: d), keepaliveRange.contains(n) {
                s.keepalive = n
            } else {
                fail(k, "keepalive", "must be whole seconds from 5 to 3600")
            }
        }
        return issues.isEmpty ? (s, []) : (nil, issues)
    }
}

/// A gauge's `"mqtt"`: the topic that sets it and how its payload is read.
/// `"mqtt": "TOPIC"` is a topic whose payload is a plain number.
package struct MQTTSubscription: Equatable, Sendable {
    /// One topic name (no `+` or `#` wildcards).
    var topic: String
    /// Where the number is in a JSON payload, e.g. `["state", "cpu", "load"]`
    /// (`state.cpu.load`; a component that is a whole number indexes an array);
    /// nil = the payload is a plain number.
    var field: [String]?
    /// The value shown is `number * scale + offset`.
    var scale = 1.0
    var offset = 0.0
    /// 0 or 1.
    var qos = 0
    /// Payloads (or JSON field values) that mean the gauge has no value:
    /// Home Assistant's `unavailable` and `unknown`, an `offline`, an empty
    /// payload; compared after trimming blanks, ignoring ASCII case. A JSON
    /// `null` field also means none.
    var noData = MQTTSubscription.defaultNoData

    /// The subscription sets a text widget: the payload (or the JSON field)
    /// is its text, as it is (``MQTTPayload/text(_:_:)``).
    var isText = false

    static let defaultNoData = ["unavailable", "unknown", "offline", ""]
    static let keys = ["topic", "field", "scale", "offset", "qos", "noData"]
    static let maxTopicLength = 1024
    static let maxFieldDepth = 16

    static func read(_ v: JSONValue, path: String) -> (MQTTSubscription?, [LayoutIssue]) {
        var issues: [LayoutIssue] = []
        func fail(_ at: JSONValue, _ key: String, _ message: String) {
            issues.append(LayoutIssue(line: at.line, path: key.isEmpty ? path : path + "." + key, message: message))
        }
        var m: [String: JSONValue] = [:]
        var shorthand = false
        switch v.kind {
        case .string:
            m["topic"] = v
            shorthand = true
        case .object(let members):
            for member in members {
                let (k, value) = (member.key, member.value)
                if keys.contains(k) {
                    m[k] = value
                } else {
                    fail(value, k, "unknown key (expected one of: \(keys.joined(separator: ", ")))")
                }
            }
        default:
            fail(
                v, "", "expected a topic \"TOPIC\" or {\"topic\": ..., \"field\": ..., \"scale\": ..., \"offset\": ...}"
            )
            return (nil, issues)
        }
        var s = MQTTSubscription(topic: "")
        let topicKey = shorthand ? "" : "topic"
        if let t = m["topic"] {
            if case .string(let text) = t.kind, (1...maxTopicLength).contains(text.utf8.count),
                !text.unicodeScalars.contains(where: { $0 == "+" || $0 == "#" || $0.value == 0 })
            {
                s.topic = text
            } else {
                fail(t, topicKey, "expected a topic name of 1 to \(maxTopicLength) bytes without the wildcards + and #")
            }
        } else {
            fail(v, "topic", "missing")
        }
        if let f = m["field"] {
            let parts = (f.kind.stringValue ?? "").split(separator: ".", omittingEmptySubsequences: false)
            if f.kind.stringValue != nil, !parts.contains(where: \.isEmpty), parts.count <= maxFieldDepth {
                s.field = parts.map(String.init)
            } else {
                fail(
                    f, "field",
                    "expected a path such as \"temperature\" or \"state.cpu.load\" (at most \(maxFieldDepth) parts)")
            }
        }
        for key in ["scale", "offset"] {
            guard let n = m[key] else { continue }
            if case .number(let d) = n.kind {
                if key == "scale" { s.scale = d } else { s.offset = d }
            } else {
                fail(n, key, "expected a number")
            }
        }
        if let n = m["noData"] {
            if case .array(let items) = n.kind, items.count <= 64,
                let words = Optional(items.compactMap(\.kind.stringValue)), words.count == items.count,
                words.allSatisfy({ $0.utf8.count <= 64 })
            {
                s.noData = words.map { $0.lowercased() }
            } else {
                fail(n, "noData", "expected an array of at most 64 payloads, e.g. [\"unavailable\", \"\"]")
            }
        }
        if let q = m["qos"] {
            if case .number(let d) = q.kind, d == 0 || d == 1 {
                s.qos = Int(d)
            } else {
                fail(q, "qos", "must be 0 or 1")
            }
        }
        return issues.isEmpty ? (s, []) : (nil, issues)
    }
}

extension JSONValue.Kind {
    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}

/// Why a payload did not give a value.
enum MQTTPayloadError: Error, Equatable, CustomStringConvertible {
    case tooLarge(Int)
    case notANumber
    case notJSON(String)
    case noField(String)
    case fieldNotANumber(String)
    case notFinite
    case fieldNotText(String)
    case notText

    var description: String {
        switch self {
        case .tooLarge(let n): "payload of \(n) bytes is larger than \(MQTTPayload.maxSize)"
        case .notANumber: "payload is not a number"
        case .notJSON(let why): "payload is not JSON (\(why))"
        case .noField(let f): "no field '\(LineError.clip(f))' in the payload"
        case .fieldNotANumber(let f): "field '\(LineError.clip(f))' is not a number"
        case .notFinite: "value is not finite after scale and offset"
        case .fieldNotText(let f): "field '\(LineError.clip(f))' is not a string, number or boolean"
        case .notText: "payload is not one line of UTF-8 text of at most \(GaugeStore.maxTextLength) bytes"
        }
    }
}

/// Reads a gauge's value out of an MQTT payload. Pure; bounded: a payload over
/// ``maxSize`` bytes is refused before it is looked at, and JSON nesting is
/// bounded by ``JSONReader/maxDepth``.
enum MQTTPayload {
    static let maxSize = 65536

    /// The gauge's value in `payload`; nil when the payload says there is none
    /// (``MQTTSubscription/noData``).
    static func value(_ payload: UnsafeRawBufferPointer, _ s: MQTTSubscription) -> Result<Double?, MQTTPayloadError> {
        guard payload.count <= maxSize else { return .failure(.tooLarge(payload.count)) }
        if s.field == nil || payload.allSatisfy(isSpace) {
            if meansNoData(payload, s) { return .success(nil) }
        }
        let raw: Double
        if let field = s.field {
            let node: JSONValue
            switch fieldValue(payload, field) {
            case .success(let v): node = v
            case .failure(let e): return .failure(e)
            }
            switch node.kind {
            case .number(let d): raw = d
            case .null: return .success(nil)
            case .string(let text) where meansNoData(text.utf8, s): return .success(nil)
            case .string(let text):
                guard let d = number(text.utf8) else { return .failure(.fieldNotANumber(field.joined(separator: "."))) }
                raw = d
            default: return .failure(.fieldNotANumber(field.joined(separator: ".")))
            }
        } else {
            guard let d = number(payload) else { return .failure(.notANumber) }
            raw = d
        }
        let v = raw * s.scale + s.offset
        return v.isFinite ? .success(v) : .failure(.notFinite)
    }

    /// The value at `field` in a JSON `payload` (a whole-number component indexes an array).
    private static func fieldValue(_ payload: UnsafeRawBufferPointer, _ field: [String]) -> Result<
        JSONValue, MQTTPayloadError
    > {
        var node: JSONValue
        do { node = try JSONReader.parse(Array(payload)) } catch { return .failure(.notJSON(error.message)) }
        for part in field {
            switch node.kind {
            case .object(let members):
                guard let next = members.first(where: { $0.key == part }) else {
                    return .failure(.noField(field.joined(separator: ".")))
                }
                node = next.value
            case .array(let items):
                guard let k = Int(part), items.indices.contains(k) else {
                    return .failure(.noField(field.joined(separator: ".")))
                }
                node = items[k]
            default: return .failure(.noField(field.joined(separator: ".")))
            }
        }
        return .success(node)
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// A text widget's text in `payload`: the payload itself, or the JSON
    /// field (a string as it is, a number or `true`/`false` as written), without
    /// surrounding blanks; at most ``GaugeStore/maxTextLength`` bytes, one line.
    static func text(_ payload: UnsafeRawBufferPointer, _ s: MQTTSubscription) -> Result<String, MQTTPayloadError> {
        guard payload.count <= maxSize else { return .failure(.tooLarge(payload.count)) }
        var text: String
        if let field = s.field {
            let node: JSONValue
            switch fieldValue(payload, field) {
            case .success(let v): node = v
            case .failure(let e): return .failure(e)
            }
            switch node.kind {
            case .string(let t): text = t
            case .number(let d): text = GaugeStore.format(d)
            case .bool(let b): text = b ? "true" : "false"
            default: return .failure(.fieldNotText(field.joined(separator: ".")))
            }
        } else {
            guard let t = String(validating: Array(payload), as: UTF8.self) else { return .failure(.notText) }
            text = t
        }
        text = String(
            text.unicodeScalars.drop(while: isBlank).reversed().drop(while: isBlank).reversed().map(Character.init))
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failure(.notText)
        }
        guard text.utf8.count <= GaugeStore.maxTextLength else { return .failure(.notText) }
        return .success(text)
    }

    private static func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }

    /// Whether `bytes`, trimmed, is one of the subscription's no-data payloads (ASCII case ignored).
    static func meansNoData<C: Collection>(_ bytes: C, _ s: MQTTSubscription) -> Bool where C.Element == UInt8 {
        let trimmed = bytes.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        guard trimmed.count <= 64 else { return false }
        let word = String(decoding: trimmed, as: UTF8.self).lowercased()
        return s.noData.contains(word)
    }

    /// A decimal number, optionally signed, with surrounding ASCII spaces, tabs
    /// and line ends allowed (`21.5`, ` -3e2\n`); not hex, not `nan` or `inf`. Pure.
    static func number<C: Collection>(_ bytes: C) -> Double? where C.Element == UInt8 {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let trimmed = Array(bytes.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        guard (1...64).contains(trimmed.count),
            trimmed.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x65 || $0 == 0x45
            }),
            trimmed.contains(where: { $0 >= 0x30 && $0 <= 0x39 }),
            let d = Double(String(decoding: trimmed, as: UTF8.self)), d.isFinite
        else { return nil }
        return d
    }
}
