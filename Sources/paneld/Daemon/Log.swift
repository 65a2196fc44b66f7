import Glibc

/// Logging to stderr. Under systemd (`JOURNAL_STREAM` set) each line carries the
/// `<N>` syslog priority prefix that journald understands; otherwise a plain
/// `paneld: ` prefix.
enum Log {
    enum Priority: Int32 {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    }

    /// Decided once at start-up; a process's stderr does not change under it.
    nonisolated(unsafe) static var journal: Bool = getenv("JOURNAL_STREAM") != nil
    /// Lines below this priority (numerically greater) are dropped.
    nonisolated(unsafe) static var threshold: Priority = .info

    /// The line as written, without the trailing newline: a pure function for tests.
    static func format(_ priority: Priority, _ message: String, journal: Bool) -> String {
        // One record per line: embedded newlines would split it in the journal.
        let flat = message.replacingNewlines()
        return journal ? "<\(priority.rawValue)>\(flat)" : "paneld: \(flat)"
    }

    static func write(_ priority: Priority, _ message: String) {
        guard priority.rawValue <= threshold.rawValue else { return }
        let line = format(priority, message, journal: journal) + "\n"
        var bytes = Array(line.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + off, $0.count - off) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            off += n
        }
        bytes = []
    }

    static func error(_ m: String) { write(.error, m) }
    static func warning(_ m: String) { write(.warning, m) }
    static func notice(_ m: String) { write(.notice, m) }
    static func info(_ m: String) { write(.info, m) }
    static func debug(_ m: String) { write(.debug, m) }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        guard contains(where: { $0 == "\n" || $0 == "\r" }) else { return self }
        return String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
