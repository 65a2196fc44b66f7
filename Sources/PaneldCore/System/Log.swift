import Glibc

/// Logging to stderr. Under systemd (stderr is the `JOURNAL_STREAM`) each line carries the
/// `<N>` syslog priority prefix that journald understands; otherwise a plain
/// `paneld: ` prefix.
package enum Log {
    package enum Priority: Int32 {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    }

    /// Decided once at start-up; a process's stderr does not change under it.
    nonisolated(unsafe) static var journal: Bool = stderrIsJournal()

    /// systemd sets `JOURNAL_STREAM=DEVICE:INODE` for the stream it connects to
    /// stderr; the variable can be inherited by a process whose stderr was
    /// redirected, so it counts only if stderr is that very stream.
    static func stderrIsJournal() -> Bool {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }), let id = parseJournalStream(value)
        else { return false }
        var st = stat()
        guard fstat(2, &st) == 0 else { return false }
        return UInt64(st.st_dev) == id.device && UInt64(st.st_ino) == id.inode
    }

    /// `"DEVICE:INODE"` in decimal, as systemd writes it. Pure.
    static func parseJournalStream(_ value: String) -> (device: UInt64, inode: UInt64)? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let d = UInt64(parts[0]), let i = UInt64(parts[1]) else { return nil }
        return (d, i)
    }
    /// Lines below this priority (numerically greater) are dropped.
    package nonisolated(unsafe) static var threshold: Priority = .info

    /// The line as written, without the trailing newline: a pure function for tests.
    static func format(_ priority: Priority, _ message: String, journal: Bool) -> String {
        // One record per line: embedded newlines would split it in the journal.
        let flat = message.replacingNewlines()
        return journal ? "<\(priority.rawValue)>\(flat)" : "paneld: \(flat)"
    }

    package static func write(_ priority: Priority, _ message: String) {
        guard priority.rawValue <= threshold.rawValue else { return }
        writeStderr(format(priority, message, journal: journal) + "\n")
    }

    /// `text` to stderr as it is, all of it (a write cut short or
    /// interrupted goes on with the rest).
    static func writeStderr(_ text: String) {
        var bytes = Array(text.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + off, $0.count - off) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            off += n
        }
        bytes = []
    }

    package static func error(_ m: String) { write(.error, m) }
    package static func warning(_ m: String) { write(.warning, m) }
    package static func notice(_ m: String) { write(.notice, m) }
    package static func info(_ m: String) { write(.info, m) }
    static func debug(_ m: String) { write(.debug, m) }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        guard contains(where: { $0 == "\n" || $0 == "\r" }) else { return self }
        return String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

/// One log line per kind of failure until it clears, and one when it does: a
/// failure that repeats (every frame on a full disk, every accept while out of
/// descriptors) is not logged again, a different one is.
struct FailureLatch {
    private var current: String?

    /// Records a failure; true when it differs from the one already recorded (log it).
    mutating func failed(_ kind: String) -> Bool {
        defer { current = kind }
        return kind != current
    }

    /// Records a success; true when it ends a failure (log the recovery).
    mutating func recovered() -> Bool {
        defer { current = nil }
        return current != nil
    }
}

/// One log line when a repeated condition starts (a full client table, bad
/// datagrams, a broker's refusals), a count of its occurrences while it lasts,
/// and one line when it ends: `quiet` milliseconds without an occurrence.
/// The loop wakes once at ``endsAt`` to say so; an idle daemon has no episode.
struct LogEpisode {
    let quiet: Int64
    private(set) var count = 0
    private(set) var startedAt: Int64?
    private var lastAt: Int64 = 0

    init(quiet: Int64 = 10_000) { self.quiet = quiet }

    /// Records an occurrence at `now`; true when it starts an episode (log its first line).
    mutating func occurred(now: Int64) -> Bool {
        defer {
            count += 1
            lastAt = now
        }
        guard startedAt == nil else { return false }
        startedAt = now
        count = 0
        return true
    }

    /// When the running episode ends if nothing more occurs; nil when none runs.
    var endsAt: Int64? { startedAt == nil ? nil : lastAt + quiet }

    /// The episode that has ended by `now`: how many occurrences it had and how
    /// long it lasted (first to last, in milliseconds); nil while it runs or when none does.
    mutating func ended(now: Int64) -> (count: Int, milliseconds: Int64)? {
        guard let start = startedAt, now >= lastAt + quiet else { return nil }
        startedAt = nil
        return (count, lastAt - start)
    }
}
