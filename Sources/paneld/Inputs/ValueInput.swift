/// A source of values besides the control socket (statsd over UDP or a Unix
/// datagram socket; later a broker): one descriptor the loop polls, and a
/// `receive` that applies what arrived. The daemon keeps them in a list and
/// iterates it, so a new kind of input is a new conformer and one line in ``Run``.
protocol ValueInput: AnyObject {
    /// What the logs call it, e.g. `statsd udp 127.0.0.1:8125`.
    var label: String { get }
    /// Polled for reading.
    var fd: FileDescriptor { get }
    /// Reads what is pending (a bounded amount per call, so one busy input cannot
    /// starve the loop) and hands each command to `apply`, which changes the store
    /// or says why not.
    func receive(_ apply: (Command) -> Result<String, LineError>)
    func close()
}

/// At most `burst` log lines per `window` milliseconds, then one line saying how
/// many were left out: a flood of bad input is visible without flooding the log.
struct LogBudget {
    let burst: Int
    let window: Int64
    private var windowStart: Int64 = .min / 2
    private var used = 0
    private var suppressed = 0

    init(burst: Int = 10, window: Int64 = 10_000) {
        self.burst = burst
        self.window = window
    }

    /// Whether a line may be logged at `now`; `flushed` reports, once per window,
    /// how many lines the previous window left out.
    mutating func allow(now: Int64, flushed: (Int) -> Void) -> Bool {
        if now - windowStart >= window {
            if suppressed > 0 { flushed(suppressed) }
            windowStart = now
            used = 0
            suppressed = 0
        }
        if used < burst {
            used += 1
            return true
        }
        suppressed += 1
        return false
    }
}
