import Glibc

/// The parts of the systemd service protocol paneld speaks, without libsystemd:
/// socket activation (`LISTEN_FDS`), readiness and watchdog (`NOTIFY_SOCKET`).
package enum Systemd {
    /// The first passed descriptor, by the socket-activation convention.
    static let listenFDsStart: Int32 = 3

    /// How many sockets systemd passed to *this* process: `LISTEN_PID` must be
    /// our pid, else the variables were inherited by accident and are ignored.
    /// A pure function of the environment values.
    static func passedDescriptorCount(listenPID: String?, listenFDs: String?, pid: Int32) -> Int {
        guard let p = listenPID, let n = listenFDs, Int32(p) == pid, let count = Int(n), count > 0, count < 64 else {
            return 0
        }
        return count
    }

    /// The listening socket systemd passed, if any; clears the variables so child
    /// processes do not inherit them.
    package static func takeListenSocket() throws -> FileDescriptor? {
        let count = passedDescriptorCount(
            listenPID: env("LISTEN_PID"), listenFDs: env("LISTEN_FDS"), pid: getpid())
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        guard count > 0 else { return nil }
        if count > 1 { Log.warning("systemd passed \(count) sockets; using the first and closing the rest") }
        for extra in 1..<count { Glibc.close(listenFDsStart + Int32(extra)) }
        let fd = FileDescriptor(rawValue: listenFDsStart)
        var type: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd.rawValue, SOL_SOCKET, SO_TYPE, &type, &len) == 0, type == Int32(SOCK_STREAM.rawValue) else {
            throw DaemonError("the socket passed by systemd (fd 3) is not a stream socket; use ListenStream=")
        }
        try fd.setCloseOnExec()
        try fd.setNonBlocking()
        return fd
    }

    /// The watchdog interval in milliseconds if systemd asked for pings
    /// (`WATCHDOG_USEC`, and `WATCHDOG_PID` if set must be ours). Pure.
    package static func watchdogInterval(usec: String?, watchdogPID: String?, pid: Int32) -> Int64? {
        guard let u = usec, let v = Int64(u), v > 0 else { return nil }
        if let p = watchdogPID, Int32(p) != pid { return nil }
        return max(1, v / 1000)
    }

    package static func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}

/// Sends `sd_notify`-style datagrams to `NOTIFY_SOCKET`; a no-op when unset.
package final class Notifier {
    private let fd: Int32
    private let address: [UInt8]

    package init?(socketPath: String? = Systemd.env("NOTIFY_SOCKET")) {
        guard let p = socketPath, !p.isEmpty, p.hasPrefix("/") || p.hasPrefix("@"),
            p.utf8.count <= UnixSocket.maxPathLength
        else { return nil }
        var a = Array(p.utf8)
        if a[0] == UInt8(ascii: "@") { a[0] = 0 }  // abstract namespace
        let s = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { return nil }
        fd = s
        address = a
    }

    deinit { Glibc.close(fd) }

    /// Sends e.g. `READY=1`; failures are logged, never fatal.
    func send(_ state: String) {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (k, b) in address.enumerated() { raw[k] = b }
        }
        let len = socklen_t(MemoryLayout<sa_family_t>.size + address.count)
        let msg = Array(state.utf8)
        let r = withUnsafePointer(to: &addr) { ap in
            ap.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                msg.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, len) }
            }
        }
        if r < 0 { Log.warning("notify \(state): \(Errno.current("sendto"))") }
    }
}
