#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where the display library's messages go: the few things it reports without
/// failing a call (a lost master regained, a buffer that could not be freed, a
/// terminal whose switches are not coordinated).
///
/// By default each message is one line on standard error. A program with its own
/// log sets ``handler`` once at start, before it opens a display; paneld sends
/// them to the journal with their priority.
public enum DisplayLog {
    /// How much a message matters, as syslog's priorities of the same names.
    public enum Level: Sendable {
        /// Something failed and was worked around.
        case warning
        /// A normal but significant change, such as the display coming back.
        case notice
        /// Context for a reader of the log.
        case info
    }

    /// Receives every message; replace it before opening a display.
    nonisolated(unsafe) public static var handler: (Level, String) -> Void = { _, message in
        var line = message + "\n"
        _ = line.withUTF8 { write(2, $0.baseAddress, $0.count) }
    }

    static func warning(_ message: String) { handler(.warning, message) }
    static func notice(_ message: String) { handler(.notice, message) }
    static func info(_ message: String) { handler(.info, message) }
}
