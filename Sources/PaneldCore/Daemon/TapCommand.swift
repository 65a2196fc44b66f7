import Glibc

/// The program a layout names in `"tapCommand"`: paneld starts it at the first
/// tap that needs it and writes it one line per tap (a gauge's `"tap": { "line" }`)
/// on its standard input; its output goes where paneld's goes (the journal).
///
/// The program runs as paneld runs (its user, its sandbox under the unit), with
/// no arguments, no shell, and an environment of its own (`PATH` alone): none
/// of paneld's descriptors (all are close-on-exec) and none of systemd's
/// variables for paneld. A line is written without waiting: when the
/// program does not read (the pipe is full), the line is dropped and said, so
/// a slow program never holds the display. A program that exited is started
/// again at the next tap, at most once every ``restartInterval`` milliseconds.
final class TapCommand {
    let path: String
    private var pid: pid_t?
    /// The write end of the program's standard input (non-blocking).
    private var input: Int32 = -1
    private var lastStart: Int64 = .min / 2
    /// Programs whose input was closed, collected once they exit.
    private var exiting: [pid_t] = []
    private let environment: [String]

    static let restartInterval: Int64 = 5000

    init(path: String) {
        self.path = path
        environment = ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]
    }

    /// Writes `line` to the program, starting it when it is not running. The outcome, for the log.
    func send(_ line: String, now: Int64) -> String {
        reap()
        if pid == nil {
            guard now - lastStart >= Self.restartInterval else {
                return "\(path) exited less than \(Self.restartInterval / 1000) s ago; the line is dropped"
            }
            lastStart = now
            if let error = start() { return error }
        }
        let bytes = Array((line + "\n").utf8)
        let n = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
        if n == bytes.count { return "wrote '\(line)' to \(path)" }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return "\(path) does not read; the line is dropped" }
        let why = n < 0 ? String(cString: strerror(errno)) : "a part of the line"
        stopProgram()
        return "\(path): \(why); the line is dropped"
    }

    private func start() -> String? {
        var fds: [Int32] = [-1, -1]
        // (pipe2 does not import into Swift; paneld starts no program on another thread.)
        guard pipe(&fds) == 0 else { return "pipe: \(String(cString: strerror(errno)))" }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        var child: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for a in argv + envp { free(a) } }
        let rc = posix_spawn(&child, path, &actions, nil, argv, envp)
        close(fds[0])
        guard rc == 0 else {
            close(fds[1])
            return "cannot start \(path): \(String(cString: strerror(rc)))"
        }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        pid = child
        input = fds[1]
        Log.info("touch: started \(path) (pid \(child)) for tap lines")
        return nil
    }

    /// Collects the program when it has exited.
    private func reap() {
        exiting.removeAll { p in
            var status: Int32 = 0
            return waitpid(p, &status, WNOHANG) != 0
        }
        guard let p = pid else { return }
        var status: Int32 = 0
        if waitpid(p, &status, WNOHANG) == p {
            Log.notice("touch: \(path) exited (status \(status)); it starts again at the next tap")
            pid = nil
            close(input)
            input = -1
        }
    }

    /// Closes the program's input (it sees the end of its input and exits) and collects it if it has.
    func stopProgram() {
        guard pid != nil else { return }
        close(input)
        input = -1
        if let p = pid { exiting.append(p) }
        pid = nil
        reap()
    }
}
