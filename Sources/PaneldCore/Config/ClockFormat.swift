import Glibc

/// A clock widget's text and when it next changes: pure functions of its
/// `strftime` format and a time, so the daemon sleeps until the text changes
/// (each second when the format shows seconds, else at each minute) and tests
/// need no clock.
package enum ClockFormat {
    /// The longest format, in bytes.
    static let maxLength = 64
    /// The conversions a format may use (glibc's `strftime`, less `%n` and
    /// `%t`, which would break the line).
    static let conversions = Set("aAbBcCdDeFgGhHIjklmMpPrRsStTuUVwWxXyYzZ%")
    /// The conversions that show seconds.
    static let secondConversions = Set("cSsTrX")

    /// Why `format` cannot be a clock's, or nil.
    static func problem(_ format: String) -> String? {
        if format.isEmpty { return "must not be empty" }
        if format.utf8.count > maxLength { return "longer than \(maxLength) bytes" }
        if format.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "must be one line without control characters"
        }
        guard let letters = conversionLetters(format) else {
            return "'\(LineError.clip(format))' ends in a lone '%' (write '%%' for a percent sign)"
        }
        if let bad = letters.first(where: { !conversions.contains($0) }) {
            return "'%\(bad)' is not a strftime conversion paneld shows (e.g. %H:%M, %H:%M:%S, %a %d %b)"
        }
        return nil
    }

    /// The conversion letters of `format` in order (flags, widths and the
    /// `E`/`O` modifiers skipped); nil when it ends inside a conversion.
    static func conversionLetters(_ format: String) -> [Character]? {
        var out: [Character] = []
        var i = format.startIndex
        while i < format.endIndex {
            let c = format[i]
            i = format.index(after: i)
            guard c == "%" else { continue }
            while i < format.endIndex, "_-0^#".contains(format[i]) || format[i].isASCII && format[i].isNumber {
                i = format.index(after: i)
            }
            while i < format.endIndex, format[i] == "E" || format[i] == "O" { i = format.index(after: i) }
            guard i < format.endIndex else { return nil }
            out.append(format[i])
            i = format.index(after: i)
        }
        return out
    }

    /// Whether the text changes every second.
    static func showsSeconds(_ format: String) -> Bool {
        conversionLetters(format)?.contains(where: { secondConversions.contains($0) }) ?? false
    }

    /// When the text shown at `now` (milliseconds since the epoch) may next
    /// change: the next whole second when it shows seconds, else the next
    /// whole minute of local time (`utcOffset` seconds east of UTC).
    static func nextChange(_ format: String, after now: Int64, utcOffset: Int = 0) -> Int64 {
        let step: Int64 = showsSeconds(format) ? 1000 : 60_000
        let local = now + Int64(utcOffset) * 1000
        let next = (local >= 0 ? local / step : (local - step + 1) / step) + 1
        return next * step - Int64(utcOffset) * 1000
    }

    /// `format` at `seconds` since the epoch in the local time zone (`TZ`, else /etc/localtime).
    package static func text(_ format: String, at seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 512)
        let n = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Seconds east of UTC of local time at `seconds` since the epoch.
    static func utcOffset(at seconds: Int) -> Int {
        var t = time_t(seconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// A time whose text is about the widest a format shows: a Wednesday in
    /// September (the longest English names), two-digit fields at 20 and more
    /// (2000-09-27 20:58:58 UTC).
    static let widestSample = 970_088_338

    /// The wall clock, in milliseconds since the epoch.
    package static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
