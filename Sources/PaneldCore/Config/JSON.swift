import PanelGauge

/// A parsed JSON value that remembers the line it started on, so that layout
/// errors can point at the file: PanelGauge's tree, which its gauge reader
/// takes as it is (object members in file order; duplicate keys are rejected
/// by the reader).
typealias JSONValue = GaugeJSON

/// A syntax error in a JSON document, with its 1-based line and column.
struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    var line: Int
    var column: Int
    var message: String
    var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 JSON reader over bytes.
///
/// Strict on purpose: no comments, no trailing commas, no NaN, no duplicate
/// keys, no control characters in strings, valid UTF-8 only. Nesting is limited
/// to ``maxDepth`` so a hostile file cannot exhaust the stack.
struct JSONReader {
    static let maxDepth = 64

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0

    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var r = JSONReader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { r.i = 3 }  // tolerate a UTF-8 byte-order mark
        r.skipSpace()
        let v = try r.value(depth: 0)
        r.skipSpace()
        if r.i < bytes.count { throw r.error("unexpected '\(r.printable(bytes[r.i]))' after the document") }
        return v
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: i - lineStart + 1, message: message)
    }

    private func printable(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "\\u{\(String(b, radix: 16))}"
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A:
                i += 1
                line += 1
                lineStart = i
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONReader.maxDepth else { throw error("nested deeper than \(JSONReader.maxDepth) levels") }
        guard i < bytes.count else { throw error("unexpected end of file") }
        let startLine = line
        switch bytes[i] {
        case 0x7B: return JSONValue(try object(depth: depth), line: startLine)
        case 0x5B: return JSONValue(try array(depth: depth), line: startLine)
        case 0x22: return JSONValue(.string(try string()), line: startLine)
        case 0x74: try literal("true"); return JSONValue(.bool(true), line: startLine)
        case 0x66: try literal("false"); return JSONValue(.bool(false), line: startLine)
        case 0x6E: try literal("null"); return JSONValue(.null, line: startLine)
        case 0x2D, 0x30...0x39: return JSONValue(.number(try number()), line: startLine)
        default: throw error("unexpected '\(printable(bytes[i]))'")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for b in word.utf8 {
            guard i < bytes.count, bytes[i] == b else { throw error("invalid literal (expected '\(word)')") }
            i += 1
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue.Kind {
        i += 1  // {
        var members: [JSONValue.Member] = []
        var seen: Set<String> = []
        skipSpace()
        if i < bytes.count, bytes[i] == 0x7D { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x22 else { throw error("expected a \"key\" in an object") }
            let key = try string()
            guard seen.insert(key).inserted else { throw error("duplicate key \"\(key)\"") }
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x3A else { throw error("expected ':' after \"\(key)\"") }
            i += 1
            skipSpace()
            members.append(JSONValue.Member(key: key, value: try value(depth: depth + 1)))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file in an object") }
            if bytes[i] == 0x2C { i += 1; continue }
            if bytes[i] == 0x7D { i += 1; return .object(members) }
            throw error("expected ',' or '}' in an object")
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue.Kind {
        i += 1  // [
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == 0x5D { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file in an array") }
            if bytes[i] == 0x2C { i += 1; continue }
            if bytes[i] == 0x5D { i += 1; return .array(items) }
            throw error("expected ',' or ']' in an array")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw error("bad hex digit in \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        i += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            if b == 0x22 { i += 1; break }
            if b < 0x20 {
                throw error(b == 0x0A ? "unterminated string (newline inside)" : "control character in string")
            }
            if b != 0x5C { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw error("unterminated escape") }
            let e = bytes[i]
            i += 1
            switch e {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x2F: out.append(0x2F)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("unpaired surrogate in \\u escape")
                }
                out.append(contentsOf: String(Character(UnicodeScalar(scalar)!)).utf8)
            default: throw error("unknown escape '\\\(printable(e))'")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
        return s
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = i
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - s
        }
        if bytes[i] == 0x2D { i += 1 }
        let intStart = i
        let n = digits()
        guard n > 0 else { throw error("expected digits in a number") }
        if n > 1, bytes[intStart] == 0x30 { throw error("leading zero in a number") }
        if i < bytes.count, bytes[i] == 0x2E {
            i += 1
            guard digits() > 0 else { throw error("expected digits after '.'") }
        }
        if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
            i += 1
            if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
            guard digits() > 0 else { throw error("expected digits in an exponent") }
        }
        guard let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)), v.isFinite else {
            throw error("number out of range")
        }
        return v
    }
}
