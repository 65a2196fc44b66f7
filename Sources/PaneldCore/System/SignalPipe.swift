import Glibc

/// The write end the signal handler uses; set once before handlers are installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns signals into readable bytes for the poll loop (the self-pipe trick;
/// `signalfd` is not imported into Swift). The handler only calls `write(2)`,
/// which is async-signal-safe, and preserves `errno`.
package final class SignalPipe {
    let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor
    private let signals: [Int32]

    package init(signals: [Int32]) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Errno.current("pipe") }
        readEnd = FileDescriptor(rawValue: fds[0])
        writeEnd = FileDescriptor(rawValue: fds[1])
        self.signals = signals
        for fd in [readEnd, writeEnd] {
            try fd.setNonBlocking()
            try fd.setCloseOnExec()
        }
        signalPipeWriteEnd = fds[1]
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signo in
                let saved = errno
                var b = UInt8(truncatingIfNeeded: signo)
                _ = write(signalPipeWriteEnd, &b, 1)  // a full pipe already means "signalled"
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(s, &action, nil)
        }
        // A parent may have left these blocked (the mask is inherited across exec).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for s in signals { sigaddset(&unblock, s) }
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Signal numbers received since the last call.
    func drain() -> [Int32] {
        var out: [Int32] = []
        var buf = [UInt8](repeating: 0, count: 64)
        while true {
            let n = (try? buf.withUnsafeMutableBytes { try readEnd.read(into: $0) }) ?? 0
            if n <= 0 { break }
            out += buf[0..<n].map { Int32($0) }
        }
        return out
    }

    /// Restores default handlers, then closes the pipe.
    package func close() {
        for s in signals { signal(s, SIG_DFL) }
        signalPipeWriteEnd = -1
        readEnd.close()
        writeEnd.close()
    }
}
