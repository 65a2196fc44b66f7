import Glibc
import PanelGauge

@testable import PaneldCore

/// A mosquitto broker of the test's own (Debian's `mosquitto` package): its
/// configuration, password file, certificates and log in a temp directory, a
/// free port on 127.0.0.1, never the system's broker or /etc/mosquitto.
/// Stopped when the test lets go of it.
final class Broker {
    static let binary = "/usr/sbin/mosquitto"
    static var isInstalled: Bool { access(binary, X_OK) == 0 && access("/usr/bin/mosquitto_pub", X_OK) == 0 }

    let dir: TempDirectory
    let port: UInt16
    let configPath: String
    let logPath: String
    private(set) var pid: pid_t = 0

    /// Writes the configuration (`extra` lines after the listener's) and starts the broker.
    init(_ dir: TempDirectory, extra: [String] = [], start: Bool = true) throws {
        self.dir = dir
        port = freeTCPPort()
        configPath = dir.file("mosquitto-\(port).conf")
        logPath = dir.file("mosquitto-\(port).log")
        let hasAuth = extra.contains { $0.hasPrefix("password_file") }
        let lines =
            [
                // Started as root, mosquitto would switch to the mosquitto user, which cannot read the test's files.
                "user root",
                "persistence false",
                "log_dest stderr",
                "log_type all",
                "listener \(port) 127.0.0.1",
                "allow_anonymous \(hasAuth ? "false" : "true")",
            ] + extra
        try FileIO.writeAtomically(Array((lines.joined(separator: "\n") + "\n").utf8), to: configPath)
        if start { try self.start() }
    }

    deinit { stop(signal: SIGKILL) }

    /// Starts mosquitto and waits until its port accepts connections.
    func start() throws {
        markAllDescriptorsCloseOnExec()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        let argv = [Broker.binary, "-c", configPath]
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var p: pid_t = 0
        guard posix_spawn(&p, argv[0], &actions, nil, cArgs, cEnv) == 0 else { throw TestFailure("spawn mosquitto") }
        pid = p
        let deadline = monotonicMilliseconds() + 10_000
        while !tcpPortAnswers(port) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                throw TestFailure("mosquitto exited (\(status)): \(log())")
            }
            if monotonicMilliseconds() > deadline { throw TestFailure("mosquitto did not listen: \(log())") }
            usleep(20_000)
        }
    }

    /// Stops the broker (by default SIGTERM, which mosquitto takes a second or
    /// two to act on; SIGKILL after 5 s) and waits for it.
    func stop(signal: Int32 = SIGTERM) {
        guard pid > 0 else { return }
        kill(pid, signal)
        var status: Int32 = 0
        let deadline = monotonicMilliseconds() + 5_000
        while waitpid(pid, &status, WNOHANG) != pid {
            if monotonicMilliseconds() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(10_000)
        }
        pid = 0
    }

    func log() -> String { String(decoding: (try? FileIO.read(logPath)) ?? [], as: UTF8.self) }

    /// `mosquitto_pub` to this broker: `-t topic -m message` plus `options` (`-r`, `-q 1`, TLS and credentials).
    func publish(_ topic: String, _ message: String, _ options: [String] = []) throws {
        let r = try runCommand(
            ["/usr/bin/mosquitto_pub", "-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-m", message] + options,
            in: TempDirectory())
        guard r.status == 0 else { throw TestFailure("mosquitto_pub -t \(topic) -m \(message): \(r.err)") }
    }

    /// `mosquitto_sub -C count -W 10 -v -t topic` on this broker, started and
    /// not waited for: ``Subscriber/output()`` reads what it printed once it exited.
    func subscribe(_ topic: String, count: Int) throws -> Subscriber {
        let dir = TempDirectory()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, dir.file("out"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, dir.file("out"), O_WRONLY | O_APPEND, 0)
        let argv = [
            "/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-C", "\(count)", "-W", "10", "-v", "-t",
            topic,
        ]
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        markAllDescriptorsCloseOnExec()
        var p: pid_t = 0
        guard posix_spawn(&p, argv[0], &actions, nil, cArgs, cEnv) == 0 else {
            throw TestFailure("spawn mosquitto_sub")
        }
        return Subscriber(pid: p, dir: dir)
    }

    final class Subscriber {
        private var pid: pid_t
        let dir: TempDirectory

        init(pid: pid_t, dir: TempDirectory) {
            self.pid = pid
            self.dir = dir
        }

        deinit {
            if pid > 0 {
                kill(pid, SIGKILL)
                waitpid(pid, nil, 0)
            }
        }

        /// What it printed, once it has exited; nil while it runs.
        func output() -> String? {
            var status: Int32 = 0
            guard pid > 0, waitpid(pid, &status, WNOHANG) == pid else {
                return pid > 0 ? nil : String(decoding: (try? FileIO.read(dir.file("out"))) ?? [], as: UTF8.self)
            }
            pid = 0
            return String(decoding: (try? FileIO.read(dir.file("out"))) ?? [], as: UTF8.self)
        }
    }
}
