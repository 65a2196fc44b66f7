import Glibc

/// statsd and DogStatsD datagrams, over UDP or a Unix datagram socket: each
/// datagram holds one or more newline-separated lines, in practice
/// `name:value|g[|@rate][|#tags]`, and any line of the control socket's protocol.
///
/// There is no reply path, so what cannot be applied is counted and logged: a
/// metric of another type (`|c`, `|ms`, `|h`, `|s`, `|d`: a gauge panel shows
/// gauges) at debug, a bad line at debug, each within a ``LogBudget`` (10 lines
/// per 10 s, then a count), so `--verbose` shows every kind of drop without a
/// flood. Bad lines, and datagrams longer than the 64 KiB buffer (detected with
/// `MSG_TRUNC` and dropped whole: a cut line is never applied), are each one
/// warning when they start and one line with their count when none came for
/// 10 s (``LogEpisode``). A client's metric prefix reaches a gauge through the
/// gauge's `"metric"` in the layout.
package final class StatsdInput: ValueInput {
    package let label: String
    let fd: FileDescriptor
    /// The socket file this input created (removed at close), for a Unix socket.
    private let ownedPath: String?
    private(set) var rejected = 0
    private(set) var ignored = 0
    private(set) var oversized = 0
    private var budget = LogBudget()
    private var badLines = LogEpisode()
    private var badLinesCount = 0
    private var tooLong = LogEpisode()
    private var tooLongCount = 0
    private var buffer = [UInt8](repeating: 0, count: StatsdInput.maxDatagram)

    /// The longest datagram applied; a longer one is dropped whole.
    static let maxDatagram = 65536

    /// Metric types that are valid statsd but not gauges: ignored, not errors.
    static let otherTypes: Set<String> = ["c", "ms", "h", "s", "d"]

    /// Binds UDP `address`.
    package init(udp address: StatsdAddress) throws {
        let s: Int32
        do {
            s = try retryingOnInterrupt("socket") {
                socket(
                    AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                    0)
            }
        } catch {
            throw DaemonError("statsd udp: \(NetworkSandbox.explain(error))")
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = address.port.bigEndian
        let o = address.octets
        addr.sin_addr.s_addr = (UInt32(o[0]) << 24 | UInt32(o[1]) << 16 | UInt32(o[2]) << 8 | UInt32(o[3])).bigEndian
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let text = "\(o.map(String.init).joined(separator: ".")):\(address.port)"
        guard r == 0 else {
            let e = Errno.current("bind statsd \(text)")
            Glibc.close(s)
            throw DaemonError(NetworkSandbox.explain(e))
        }
        fd = FileDescriptor(rawValue: s)
        label = "statsd udp \(text)"
        ownedPath = nil
    }

    /// Binds a Unix datagram socket at `path` (DogStatsD's `unix://` transport),
    /// replacing only a stale socket there, never anything else.
    package init(unixPath path: String, mode: mode_t = 0o660) throws {
        fd = try UnixSocket.bind(path, type: SOCK_DGRAM, mode: mode)
        label = "statsd unix \(path)"
        ownedPath = path
    }

    package var interest: (fd: FileDescriptor, events: PollEvents)? { (fd, .input) }

    /// When a running episode of bad lines or over-long datagrams is due to be reported as over.
    package var nextDeadline: Int64? { [badLines.endsAt, tooLong.endsAt].compactMap { $0 }.min() }

    package func tick(now: Int64, _ apply: (Command) -> Result<String, LineError>) {
        if let e = badLines.ended(now: now) {
            Log.notice("\(label): \(badLinesCount) bad line(s) ignored over \(e.milliseconds / 1000) s; none since")
        }
        if let e = tooLong.ended(now: now) {
            Log.notice(
                "\(label): \(tooLongCount) datagram(s) over \(StatsdInput.maxDatagram) bytes dropped over \(e.milliseconds / 1000) s; none since"
            )
        }
    }

    package func receive(_ events: PollEvents, _ apply: (Command) -> Result<String, LineError>) {
        let now = monotonicMilliseconds()
        for _ in 0..<64 {
            // MSG_TRUNC: the datagram's real length, also when it did not fit.
            let n = buffer.withUnsafeMutableBytes {
                recv(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_TRUNC))
            }
            if n <= 0 { return }
            if n > buffer.count {
                oversized += 1
                if tooLong.occurred(now: now) {
                    tooLongCount = 0
                    Log.warning(
                        "\(label): dropped a datagram of \(n) bytes, over \(StatsdInput.maxDatagram) (no line of it applied); one line when they stop"
                    )
                }
                tooLongCount += 1
                continue
            }
            for line in buffer[0..<n].split(separator: 0x0A) {
                switch LineParser.parse(line).flatMap(apply) {
                case .success: break
                case .failure(.unsupportedStatsdType(let t)) where StatsdInput.otherTypes.contains(t):
                    ignored += 1
                    note(line, "ignored: a '\(t)' metric, not a gauge", now: now)
                case .failure(let e):
                    rejected += 1
                    if badLines.occurred(now: now) {
                        badLinesCount = 0
                        Log.warning(
                            "\(label): ignored a bad line (\(e)); --verbose logs each one; one line when they stop")
                    }
                    badLinesCount += 1
                    note(line, "rejected: \(e)", now: now)
                }
            }
        }
    }

    /// One debug line for a dropped line, within the budget.
    private func note(_ line: ArraySlice<UInt8>, _ why: String, now: Int64) {
        guard Log.threshold == .debug else { return }
        let text = LineError.clip(String(decoding: line, as: UTF8.self))
        if budget.allow(now: now, flushed: { Log.debug("\(label): \($0) more dropped line(s) not shown") }) {
            Log.debug("\(label): '\(text)' \(why)")
        }
    }

    package func close() {
        fd.close()
        if let p = ownedPath { UnixSocket.removeOwned(p) }
    }
}
