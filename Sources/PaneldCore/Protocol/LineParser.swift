/// Parses one protocol line into a ``Command``: a pure function, no I/O, no state.
///
/// `line` is the bytes between two newlines, without the `\n` (a trailing `\r`
/// is allowed and ignored). Anything that is not exactly one well-formed
/// command is a ``LineError``; see ``Command`` for the grammar.
///
/// `texts` names the layout's text widgets: a line that starts with one of
/// them is that widget's text (``Command/setText(widget:text:)``), whatever
/// follows; every other line parses as it would without them.
package enum LineParser {
    /// The longest line accepted, in bytes, excluding the newline.
    static let maxLineLength = 512

    package static func parse<C: Collection>(_ line: C, texts: Set<String> = []) -> Result<Command, LineError>
    where C.Element == UInt8 {
        var bytes = Array(line)
        if bytes.last == 0x0D { bytes.removeLast() }
        if bytes.count > maxLineLength { return .failure(.tooLong(limit: maxLineLength)) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.invalidUTF8) }
        if bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            return .failure(.controlCharacter)
        }
        let trimmed = text.utf8.drop(while: isBlank).reversed().drop(while: isBlank).reversed()
        let body = Array(trimmed)
        if body.isEmpty { return .failure(.empty) }
        if !texts.isEmpty {
            let end = body.firstIndex(where: isBlank) ?? body.endIndex
            let name = string(body[..<end])
            if texts.contains(name) {
                // A tab shows as a space.
                let rest = body[end...].drop(while: isBlank).map { $0 == 0x09 ? 0x20 : $0 }
                return .success(.setText(widget: name, text: string(rest)))
            }
        }
        if body.contains(0x3A) { return parseStatsd(body) }  // ':'
        if let eq = body.firstIndex(of: 0x3D) {  // '='
            let name = trim(body[..<eq]), value = trim(body[(eq + 1)...])
            if value.elementsEqual(noValue) { return parseName(name).map { Command.clear(gauge: $0) } }
            return parseName(name).flatMap { n in
                parseNumber(value).map { Command.set(gauge: n, value: $0) }
            }
        }
        let fields = body.split(whereSeparator: isBlank)
        switch fields.count {
        case 1:
            let word = fields[0]
            if word.elementsEqual("list".utf8) { return .success(.list) }
            if word.elementsEqual("reload".utf8) { return .success(.reload) }
            if word.elementsEqual("get".utf8) { return .success(.get(gauge: nil)) }
            if word.elementsEqual("page".utf8) { return .success(.page(nil)) }
            if word.elementsEqual("screen".utf8) { return .success(.screen(nil)) }
            switch parseNumber(word) {
            case .success(let v): return .success(.set(gauge: nil, value: v))
            case .failure(.notFinite(let s)): return .failure(.notFinite(s))
            case .failure(let e): return .failure(GaugeName.isValid(word) ? .missingValue(string(word)) : e)
            }
        case 2:
            if fields[0].elementsEqual("get".utf8) {
                return parseName(fields[1]).map { Command.get(gauge: $0) }
            }
            if fields[0].elementsEqual("page".utf8) { return .success(.page(string(fields[1]))) }
            if fields[0].elementsEqual("screen".utf8) { return .success(.screen(string(fields[1]))) }
            if fields[0].elementsEqual("list".utf8) || fields[0].elementsEqual("reload".utf8) {
                return .failure(.tooManyFields)
            }
            if fields[1].elementsEqual(noValue) { return parseName(fields[0]).map { Command.clear(gauge: $0) } }
            return parseName(fields[0]).flatMap { n in
                parseNumber(fields[1]).map { Command.set(gauge: n, value: $0) }
            }
        default:
            if GaugeName.isValid(fields[0]) || fields[0].elementsEqual("get".utf8) {
                return .failure(.tooManyFields)
            }
            return .failure(.unknownCommand(string(fields[0])))
        }
    }

    /// `name:value|g[|@rate][|#tags][|c:container][|Ttimestamp]`, statsd with the
    /// DogStatsD extensions; a signed value adjusts, an unsigned one sets. The extra
    /// fields are checked for form and otherwise ignored: a sample rate changes
    /// nothing for a gauge, and tags do not select a gauge (the name does).
    private static func parseStatsd(_ body: [UInt8]) -> Result<Command, LineError> {
        let colon = body.firstIndex(of: 0x3A)!
        let name = body[..<colon]
        let rest = body[(colon + 1)...]
        let parts = rest.split(separator: 0x7C, omittingEmptySubsequences: false)  // '|'
        guard parts.count >= 2 else { return .failure(.unsupportedStatsdType("")) }
        guard parts[1].elementsEqual("g".utf8) else { return .failure(.unsupportedStatsdType(string(parts[1]))) }
        var seen: Set<UInt8> = []
        for field in parts.dropFirst(2) {
            guard let kind = field.first, !seen.contains(kind), statsdFieldIsValid(field) else {
                return .failure(.badStatsdField(string(field)))
            }
            seen.insert(kind)
        }
        let n: String
        switch parseName(name) {
        case .success(let v): n = v
        case .failure(let e): return .failure(e)
        }
        let value = parts[0]
        let signed = value.first == 0x2B || value.first == 0x2D  // '+' or '-'
        return parseNumber(value).map { signed ? .adjust(gauge: n, delta: $0) : .set(gauge: n, value: $0) }
    }

    /// One extra field of a statsd line: `@RATE` (0 < rate <= 1), `#TAG[,TAG...]`,
    /// `c:CONTAINER` or `TUNIXTIME`.
    private static func statsdFieldIsValid(_ field: ArraySlice<UInt8>) -> Bool {
        let body = field.dropFirst()
        switch field.first {
        case 0x40:  // '@'
            guard case .success(let r) = parseNumber(body) else { return false }
            return r > 0 && r <= 1
        case 0x23:  // '#'
            return !body.isEmpty
        case 0x63:  // 'c'
            return body.first == 0x3A && body.count > 1
        case 0x54:  // 'T'
            return !body.isEmpty && body.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        default:
            return false
        }
    }

    private static func parseName<C: Collection>(_ bytes: C) -> Result<String, LineError> where C.Element == UInt8 {
        guard GaugeName.isValid(bytes) else { return .failure(.badName(string(bytes))) }
        let s = string(bytes)
        if GaugeName.reserved.contains(s) { return .failure(.badName(s)) }
        return .success(s)
    }

    /// A decimal number: `[+-] digits [. digits] [e [+-] digits]` (either side of
    /// the point may be empty, not both). No hex, no `nan`/`inf`, no spaces; the
    /// result must be finite (so `1e999` is refused, not stored as infinity).
    static func parseNumber<C: Collection>(_ bytes: C) -> Result<Double, LineError> where C.Element == UInt8 {
        let s = string(bytes)
        var i = bytes.startIndex
        func peek() -> UInt8? { i < bytes.endIndex ? bytes[i] : nil }
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if peek() == 0x2B || peek() == 0x2D { bytes.formIndex(after: &i) }
        var mantissaDigits = 0
        while isDigit(peek()) { bytes.formIndex(after: &i); mantissaDigits += 1 }
        if peek() == 0x2E {
            bytes.formIndex(after: &i)
            while isDigit(peek()) { bytes.formIndex(after: &i); mantissaDigits += 1 }
        }
        var ok = mantissaDigits > 0
        if ok, peek() == 0x65 || peek() == 0x45 {
            bytes.formIndex(after: &i)
            if peek() == 0x2B || peek() == 0x2D { bytes.formIndex(after: &i) }
            var expDigits = 0
            while isDigit(peek()) { bytes.formIndex(after: &i); expDigits += 1 }
            ok = expDigits > 0
        }
        guard ok, i == bytes.endIndex else {
            let lower = s.lowercased()
            let core = lower.hasPrefix("+") || lower.hasPrefix("-") ? String(lower.dropFirst()) : lower
            if core == "nan" || core == "inf" || core == "infinity" { return .failure(.notFinite(s)) }
            return .failure(.notANumber(s))
        }
        guard let v = Double(s) else { return .failure(.notANumber(s)) }
        guard v.isFinite else { return .failure(.notFinite(s)) }
        return .success(v)
    }

    /// The value that clears a gauge (`cpu -`, `cpu=-`).
    private static let noValue = GaugeStore.noValue.utf8

    private static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
    private static func trim(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var t = s
        while let f = t.first, isBlank(f) { t = t.dropFirst() }
        while let l = t.last, isBlank(l) { t = t.dropLast() }
        return t
    }
    private static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        String(decoding: bytes, as: UTF8.self)
    }
}
