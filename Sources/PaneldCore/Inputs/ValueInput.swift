/// A source of values besides the control socket (statsd over UDP or a Unix
/// datagram socket, an MQTT broker): at most one descriptor the loop polls, a
/// `receive` that applies what arrived, and an optional deadline at which the
/// loop calls `tick` (a keepalive, a reconnection). The daemon turns each into
/// a part (``ValueInputPart``), so a new kind of input is a new conformer and one
/// line in ``Run``; an input with a listener and many connections is a
/// ``DaemonPart`` of its own. An input without a deadline adds no wake-ups to an
/// idle daemon.
package protocol ValueInput: AnyObject {
    /// What the logs call it, e.g. `statsd udp 127.0.0.1:8125`.
    var label: String { get }
    /// The descriptor to poll now and the events wanted; nil = nothing to poll at
    /// the moment (an input between two connections). Asked before every poll.
    var interest: (fd: FileDescriptor, events: PollEvents)? { get }
    /// When `tick` is next due (monotonic milliseconds); nil = never. Asked before every poll.
    var nextDeadline: Int64? { get }
    /// Handles what poll reported for ``interest`` (a bounded amount of work per
    /// call, so one busy input cannot starve the loop) and hands each command to
    /// `apply`, which changes the store or says why not.
    func receive(_ events: PollEvents, _ apply: (Command) -> Result<String, LineError>)
    /// Runs what was due at ``nextDeadline``; the loop calls it once `now` has reached it.
    func tick(now: Int64, _ apply: (Command) -> Result<String, LineError>)
    func close()
}

extension ValueInput {
    package var nextDeadline: Int64? { nil }
    package func tick(now: Int64, _ apply: (Command) -> Result<String, LineError>) {}
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
