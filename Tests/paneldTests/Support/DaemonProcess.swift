import Glibc
import PanelGauge
import Testing

@testable import PaneldCore

/// A temporary directory, removed (with its files) when the test ends.
final class TempDirectory {
    let path: String
    init() {
        var template = Array("/tmp/paneld-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }
    deinit {
        if let d = opendir(path) {
            while let e = readdir(d) {
                let name = withUnsafeBytes(of: e.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(d)
        }
        rmdir(path)
    }
    func file(_ name: String) -> String { path + "/" + name }
    func write(_ name: String, _ text: String) throws {
        try FileIO.writeAtomically(Array(text.utf8), to: file(name))
    }
}

/// Sets close-on-exec on every descriptor of the test process (other tests'
/// pipes and sockets included), so a spawned paneld inherits only what its
/// spawn actions give it.
func markAllDescriptorsCloseOnExec() {
    guard let d = opendir("/proc/self/fd") else { return }
    defer { closedir(d) }
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let fd = Int32(name), fd > 2 { _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC) }
    }
}

/// The `paneld` binary built next to the test bundle.
func paneldBinary() -> String { builtProduct("paneld") }

/// The executable product `name` (`paneld`, `paneld-bench`) built next to the test bundle.
func builtProduct(_ name: String) -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    var dir = n > 0 ? String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    // .../debug/paneldPackageTests.xctest (a file on Linux): the products are its siblings.
    while !dir.isEmpty, dir != "/" {
        dir = String(dir[..<(dir.lastIndex(of: "/") ?? dir.startIndex)])
        if access(dir + "/" + name, X_OK) == 0 { return dir + "/" + name }
    }
    return ".build/debug/" + name
}

/// Whether the PNG at `path` comes to hold `want`'s pixels, size included,
/// within `timeout` ms, read every `interval` µs: a daemon writes its frame a
/// frame interval or more after the input that changed it.
func pngComesToShow(
    _ path: String, _ want: (width: Int, height: Int, rgb: [UInt8]), timeout: Int64 = 2_000,
    interval: UInt32 = 10_000
) -> Bool {
    let deadline = monotonicMilliseconds() + timeout
    repeat {
        if let got = try? PNG.read(path), got.width == want.width, got.height == want.height, got.rgb == want.rgb {
            return true
        }
        usleep(interval)
    } while monotonicMilliseconds() < deadline
    return false
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A paneld started for one test, with its stderr captured to a file.
final class DaemonProcess {
    let pid: pid_t
    let socketPath: String
    let logPath: String
    private var exited: Int32? = nil

    /// Starts `paneld run ARGS --socket SOCKET` and waits until the socket answers.
    /// With `passSocket`, that descriptor becomes fd 3 and paneld is started the way
    /// systemd's socket activation does it (LISTEN_FDS=1, LISTEN_PID = its own pid).
    init(
        _ dir: TempDirectory, args: [String], socket: String? = nil, environment: [String: String] = [:],
        waitForSocket: Bool = true, passSocket: FileDescriptor? = nil, fileLimit: Int? = nil
    ) throws {
        socketPath = socket ?? dir.file("paneld.sock")
        logPath = dir.file("stderr-\(UInt32.random(in: 0...UInt32.max)).log")
        var argv = [paneldBinary(), "run", "--socket", socketPath] + args
        if let n = fileLimit {
            argv = ["/bin/sh", "-c", "ulimit -n \(n) && exec \"$0\" \"$@\""] + argv
        }
        markAllDescriptorsCloseOnExec()
        if passSocket != nil {
            // `exec` keeps the shell's pid, so $$ is paneld's pid.
            argv = ["/bin/sh", "-c", "export LISTEN_PID=$$ LISTEN_FDS=1; exec \"$0\" \"$@\""] + argv
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let fd = passSocket { posix_spawn_file_actions_adddup2(&actions, fd.rawValue, 3) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        var env = ["PATH=/usr/bin:/bin"]
        for (k, v) in environment {
            if k == "JOURNAL_STREAM" && v == "STDERR" {
                // Stand in for journald: the stream paneld's stderr goes to, as DEVICE:INODE.
                let fd = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                var st = stat()
                fstat(fd, &st)
                close(fd)
                env.append("JOURNAL_STREAM=\(st.st_dev):\(st.st_ino)")
            } else {
                env.append("\(k)=\(v)")
            }
        }
        var p: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        let r = posix_spawn(&p, argv[0], &actions, nil, cArgs, cEnv)
        guard r == 0 else { throw TestFailure("posix_spawn \(argv[0]): \(r)") }
        pid = p
        if waitForSocket {
            let deadline = monotonicMilliseconds() + 10_000
            while true {
                if let fd = try? UnixSocket.connect(socketPath) {
                    fd.close()
                    break
                }
                if let status = poll(), monotonicMilliseconds() >= 0 {
                    throw TestFailure("paneld exited (\(status)) before listening: \(log())")
                }
                if monotonicMilliseconds() > deadline {
                    throw TestFailure("paneld did not listen within 10 s: \(log())")
                }
                usleep(10_000)
            }
        }
    }

    deinit {
        if exited == nil {
            kill(pid, SIGKILL)
            _ = wait(timeout: 5000)
        }
    }

    func log() -> String { (try? FileIO.read(logPath)).map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// The exit status if it has exited (non-blocking).
    func poll() -> Int32? {
        if let e = exited { return e }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = status }
        return exited
    }

    /// Waits for exit; the raw wait status, or nil on timeout.
    func wait(timeout: Int64) -> Int32? {
        let deadline = monotonicMilliseconds() + timeout
        while monotonicMilliseconds() < deadline {
            if let s = poll() { return s }
            usleep(5_000)
        }
        return nil
    }

    func signal(_ s: Int32) { kill(pid, s) }

    /// User plus system CPU time so far, in clock ticks (/proc/PID/stat fields 14 and 15).
    func cpuTicks() -> Int? {
        guard let text = try? FileIO.read("/proc/\(pid)/stat") else { return nil }
        let s = String(decoding: text, as: UTF8.self)
        guard let close = s.lastIndex(of: ")") else { return nil }
        let fields = s[s.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let u = Int(fields[11]), let k = Int(fields[12]) else { return nil }
        return u + k
    }

    /// A field of /proc/PID/status in kB (e.g. VmRSS, VmHWM) or as a count.
    /// How many times the daemon was woken (its voluntary context switches)
    /// while the test sleeps `microseconds`; nil when /proc does not say.
    func wakeUps(during microseconds: UInt32) -> Int? {
        guard let before = status("voluntary_ctxt_switches") else { return nil }
        usleep(microseconds)
        guard let after = status("voluntary_ctxt_switches") else { return nil }
        return after - before
    }

    func status(_ field: String) -> Int? {
        guard let text = try? FileIO.read("/proc/\(pid)/status") else { return nil }
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}

/// A test-side connection to the control socket.
final class TestClient {
    let fd: FileDescriptor
    private var inbox: [UInt8] = []

    init(_ path: String) throws {
        fd = try UnixSocket.connect(path)
        try fd.setNonBlocking()
    }
    deinit { fd.close() }

    /// Sends everything, waiting for the socket to drain as needed.
    func send(_ text: String, timeout: Int64 = 10_000) throws { try send(Array(text.utf8), timeout: timeout) }

    func send(_ bytes: [UInt8], timeout: Int64 = 10_000) throws {
        var off = 0
        let deadline = monotonicMilliseconds() + timeout
        while off < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd.rawValue, $0.baseAddress! + off, $0.count - off, Int32(MSG_NOSIGNAL))
            }
            if n > 0 { off += n; continue }
            if n < 0 && errno != EAGAIN && errno != EINTR { throw Errno.current("send") }
            if monotonicMilliseconds() > deadline { throw TestFailure("send timed out") }
            _ = try pollDescriptors([(fd, .output)], timeout: 100)
        }
    }

    /// Reads whatever is available now (nil = the daemon closed the connection).
    func readAvailable() -> [UInt8]? {
        var buf = [UInt8](repeating: 0, count: 65536)
        var got: [UInt8] = []
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd.rawValue, $0.baseAddress, $0.count, 0) }
            if n > 0 { got += buf[0..<n]; continue }
            if n == 0 || (errno != EAGAIN && errno != EINTR) { return got.isEmpty ? nil : got }
            return got
        }
    }

    /// The next reply line (without newline), waiting up to `timeout` ms.
    func readLine(timeout: Int64 = 10_000) throws -> String {
        let deadline = monotonicMilliseconds() + timeout
        while true {
            if let nl = inbox.firstIndex(of: 0x0A) {
                let line = String(decoding: inbox[..<nl], as: UTF8.self)
                inbox.removeSubrange(...nl)
                return line
            }
            let left = deadline - monotonicMilliseconds()
            if left <= 0 { throw TestFailure("no reply within \(timeout) ms") }
            _ = try pollDescriptors([(fd, .input)], timeout: Int32(min(left, 1000)))
            guard let more = readAvailable() else { throw TestFailure("connection closed") }
            inbox += more
        }
    }

    /// Sends `line` and returns the first reply line.
    func ask(_ line: String, timeout: Int64 = 10_000) throws -> String {
        try send(line + "\n")
        return try readLine(timeout: timeout)
    }

    /// `list` as a dictionary, each line within `timeout` ms.
    func list(timeout: Int64 = 10_000) throws -> [String: String] {
        try send("list\n")
        var out: [String: String] = [:]
        while true {
            let l = try readLine(timeout: timeout)
            if l == "END" { return out }
            let parts = l.split(separator: " ")
            out[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
    }
}
