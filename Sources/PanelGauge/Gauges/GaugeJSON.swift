/// A JSON value as ``GaugeDescription`` reads it, whatever parsed it.
///
/// `JSONDecoder` users never meet it: ``GaugeDescription`` is `Decodable` and
/// decodes one itself. A program with its own JSON parser (paneld reads its
/// layout file without Foundation) builds one from its parse tree and hands
/// it to ``GaugeDescription/init(json:path:alsoAccepted:)``, with each value's
/// line so that the issues point at the file.
public struct GaugeJSON: Sendable, Equatable, Decodable {
    /// One member of an object.
    public struct Member: Sendable, Equatable {
        /// The member's key.
        public var key: String
        /// The member's value.
        public var value: GaugeJSON

        /// A member `key: value`.
        ///
        /// - Parameters:
        ///   - key: The member's key.
        ///   - value: The member's value.
        public init(key: String, value: GaugeJSON) {
            self.key = key
            self.value = value
        }
    }

    /// What a value is.
    public enum Kind: Sendable, Equatable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number.
        case number(Double)
        /// A string.
        case string(String)
        /// An array.
        case array([GaugeJSON])
        /// An object, its members in file order (keys are unique).
        case object([Member])
    }

    /// What the value is.
    public var kind: Kind
    /// The 1-based line of the value's first byte in its file, when known.
    public var line: Int?

    /// A value of `kind`, read from `line` of its file.
    ///
    /// - Parameters:
    ///   - kind: What the value is.
    ///   - line: The 1-based line of the value's first byte, when known.
    public init(_ kind: Kind, line: Int? = nil) {
        self.kind = kind
        self.line = line
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes any JSON value; an object's members in the order of their keys
    /// (a `Decoder` does not keep the file's order).
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` for a value that is not JSON's.
    public init(from decoder: any Decoder) throws {
        line = nil
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [Member] = []
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append(Member(key: key.stringValue, value: try object.decode(GaugeJSON.self, forKey: key)))
            }
            kind = .object(members)
            return
        }
        if var list = try? decoder.unkeyedContainer() {
            var items: [GaugeJSON] = []
            while !list.isAtEnd { items.append(try list.decode(GaugeJSON.self)) }
            kind = .array(items)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            kind = .null
        } else if let b = try? c.decode(Bool.self) {
            kind = .bool(b)
        } else if let d = try? c.decode(Double.self) {
            kind = .number(d)
        } else {
            kind = .string(try c.decode(String.self))
        }
    }
}

/// One mistake (or, in ``GaugeDescription/warnings``, one key that changes
/// nothing) in a gauge object: where and what.
public struct GaugeDescriptionIssue: Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the value, when known.
    public var line: Int?
    /// The key path, such as `range` or `thresholds[1].color`, after the path
    /// given to the reader; the path itself for the object as a whole.
    public var path: String
    /// What is wrong.
    public var message: String

    /// `line 3: gauges[0].range: needs min < max`, the line when known.
    public var description: String {
        let at = line.map { "line \($0): " } ?? ""
        return path.isEmpty ? at + message : at + path + ": " + message
    }
}

/// Every mistake found in a gauge object (the reader reports all, not just the first).
public struct GaugeDescriptionError: Error, Sendable, CustomStringConvertible {
    /// The mistakes, in the order the reader met them.
    public var issues: [GaugeDescriptionIssue]

    /// The issues, one a line.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}

/// How issue messages write values: shared by the gauge reader and paneld's layout reader.
package enum IssueText {
    /// Shortest text that reads back as the same value: `73`, `0.5`, `1e+20`.
    package static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    /// Echoed input kept short (40 bytes, then `...`), so a message stays
    /// bounded whatever was sent, and visible: see ``escaped(_:)``.
    package static func clip(_ s: String) -> String {
        escaped(s.utf8.count <= 40 ? s : String(decoding: s.utf8.prefix(40), as: UTF8.self) + "...")
    }

    /// Echoed input with every character that does not show as itself written
    /// as `\u{XXXX}`: controls, format characters (right-to-left overrides,
    /// byte-order marks, zero-width spaces), spaces other than U+0020
    /// (no-break spaces), line and paragraph separators, private-use and
    /// unassigned code points; and `\` as `\\`, so an escape in a message
    /// always means one. Letters, digits, marks, punctuation and symbols of
    /// any script stay as they are. Pure.
    package static func escaped(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            if u == "\\" {
                out += "\\\\"
            } else if hidden(u) {
                out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    private static func hidden(_ u: Unicode.Scalar) -> Bool {
        if u.isASCII { return u.value < 0x20 || u.value == 0x7F }
        switch u.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned,
            .surrogate:
            return true
        default:
            return false
        }
    }
}
