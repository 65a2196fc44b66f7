import PanelGauge

/// One request on the control socket, as parsed from one line.
///
/// The line grammar (one command per line, `\n` or `\r\n` ended):
///
///     73               set the default gauge
///     cpu 73           set gauge `cpu`           (also `cpu=73`)
///     cpu:73|g         statsd gauge: set         (also `cpu:73|g|@0.5|#host:pi`: DogStatsD's
///                      sample rate, tags, container and timestamp fields are checked and ignored)
///     cpu:+5|g         statsd gauge: adjust by +5 (`-5` adjusts down; from 0 without a value)
///     cpu -            clear gauge `cpu`: no value, drawn as "no data" (also `cpu=-`)
///     get cpu          reply `cpu <value>` (`cpu -` when it has no value)
///     get              reply with the default gauge
///     list             reply one `name value` line per gauge, one `name text`
///                      line per text widget, then `END`
///     reload           re-read the layout file; reply `OK ...` or `ERR <why>`
///                      (the control socket only; `paneld reload` and the unit's
///                      ExecReload send it, so a rejected layout fails the reload)
///     status Pump 2 on set text widget `status` to `Pump 2 on` (the rest of the
///                      line after the name and its blanks; the name alone
///                      clears it); only for a layout's text widgets
///     page system      show page `system`; reply `OK page system` (the control socket only)
///     page             reply `page <name>`, the page shown
///     screen off       turn the screen off (the CRTC off, the backlight off); `screen on`
///                      turns it on; `screen 40` sets the backlight to 40 % until
///                      `screen auto` (the layout's schedule); `screen` alone replies
///                      `screen on, brightness 40 %` (the control socket only)
///
/// A statsd `:` line whose value has no sign sets; `+`/`-` adjusts, as statsd does.
/// (This is why `cpu:-5|g` lowers the value rather than setting -5: to set a
/// negative value use `cpu -5` or `cpu=-5`.)
package enum Command: Equatable, Sendable {
    /// Set a gauge; `nil` names the default gauge.
    case set(gauge: String?, value: Double)
    /// Take a gauge's value away ("no data").
    case clear(gauge: String)
    /// Add `delta` to a gauge's current value.
    case adjust(gauge: String, delta: Double)
    /// Ask for one gauge's value; `nil` names the default gauge.
    case get(gauge: String?)
    /// Ask for every gauge and value.
    case list
    /// Re-read the layout file (answered by the daemon, not the store).
    case reload
    /// Set a text widget's text.
    case setText(widget: String, text: String)
    /// Show a page (answered by the daemon, not the store); nil asks which is shown.
    case page(String?)
    /// The screen's light (answered by the daemon): `on`, `off`, `auto` or a
    /// brightness in percent; nil asks what it is.
    case screen(String?)
}

/// Why a line was rejected. Its `description` is what follows `ERR ` on the wire.
package enum LineError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case tooLong(limit: Int)
    case invalidUTF8
    case controlCharacter
    case badName(String)
    case notANumber(String)
    case notFinite(String)
    case unknownCommand(String)
    case unknownGauge(String)
    case noDefaultGauge
    case unsupportedStatsdType(String)
    case missingValue(String)
    case tooManyFields
    case notOnThisInput(String)
    case badStatsdField(String)
    case textTooLong(widget: String, limit: Int)
    case notAGauge(String)
    case isAClock(String)
    case unknownPage(String, known: [String])

    package var description: String {
        switch self {
        case .empty: "empty line"
        case .tooLong(let limit): "line too long (limit \(limit) bytes)"
        case .invalidUTF8: "invalid UTF-8"
        case .controlCharacter: "control character in line"
        case .badName(let n):
            "bad gauge name '\(LineError.clip(n))' (letters, digits, '_', '-', '.'; at most \(GaugeName.maxLength))"
        case .notANumber(let s): "not a number: '\(LineError.clip(s))'"
        case .notFinite(let s): "value is not finite: '\(LineError.clip(s))'"
        case .unknownCommand(let s): "unknown command '\(LineError.clip(s))'"
        case .unknownGauge(let n): "unknown gauge '\(LineError.clip(n))'"
        case .noDefaultGauge: "this layout has no default gauge; name one, e.g. 'cpu 73'"
        case .unsupportedStatsdType(let t): "unsupported statsd type '\(LineError.clip(t))' (only g)"
        case .missingValue(let n): "missing value for '\(LineError.clip(n))'"
        case .tooManyFields: "too many fields (expected 'NAME VALUE')"
        case .badStatsdField(let f):
            "bad statsd field '\(LineError.clip(f))' (expected @RATE, #TAGS, c:CONTAINER or TTIMESTAMP after the type)"
        case .notOnThisInput(let c): "'\(c)' is accepted on the control socket only"
        case .textTooLong(let w, let limit):
            "text for '\(LineError.clip(w))' too long (limit \(limit) bytes)"
        case .notAGauge(let w):
            "'\(LineError.clip(w))' is a text widget, not a gauge: send its text, e.g. '\(LineError.clip(w)) Pump 2 running'"
        case .isAClock(let w): "'\(LineError.clip(w))' is a clock: it shows the time and cannot be set"
        case .unknownPage(let p, let known):
            "unknown page '\(LineError.clip(p))' (pages: \(known.joined(separator: ", ")))"
        }
    }

    /// Keeps echoed input short so a reply stays bounded whatever was sent, and
    /// visible (``IssueText/clip(_:)``, as the layout's messages do).
    package static func clip(_ s: String) -> String { IssueText.clip(s) }

    /// Echoed input with every character that does not show as itself escaped
    /// (``IssueText/escaped(_:)``).
    static func escaped(_ s: String) -> String { IssueText.escaped(s) }
}

/// The gauge-name rule, shared by the protocol and the layout file.
package enum GaugeName {
    static let maxLength = 64

    /// Words that are commands and so can never be gauge names.
    package static let reserved: Set<String> = ["get", "list", "reload", "page", "screen"]

    /// A name starts with a letter or `_` (so it never looks like a number) and
    /// continues with letters, digits, `_`, `-` or `.`; 1 to ``maxLength`` bytes.
    package static func isValid<S: Collection>(_ bytes: S) -> Bool where S.Element == UInt8 {
        guard let first = bytes.first, bytes.count <= maxLength else { return false }
        guard (first >= 0x41 && first <= 0x5A) || (first >= 0x61 && first <= 0x7A) || first == 0x5F else {
            return false
        }
        return bytes.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == 0x5F || b == 0x2D || b == 0x2E
        }
    }
}
