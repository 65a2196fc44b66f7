import Glibc

/// An error number from a failed system call, with the call's name for context.
package struct Errno: Error, Equatable, CustomStringConvertible {
    var code: Int32
    var call: String

    /// The calling thread's current `errno`.
    package static func current(_ call: String) -> Errno { Errno(code: errno, call: call) }

    var isWouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }
    package var description: String { "\(call): \(String(cString: strerror(code)))" }
}

/// Calls `body` until it does not fail with EINTR: the one place that retries.
@inline(__always)
func retryingOnInterrupt<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(Errno) -> T {
    while true {
        let r = body()
        if r >= 0 { return r }
        if errno != EINTR { throw Errno.current(call) }
    }
}

/// A file descriptor this process owns. Closing is explicit (`close()`), so an
/// owner decides the order in which resources are released.
package struct FileDescriptor: Hashable, Sendable {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// Reads up to `buffer.count` bytes; 0 means end of file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes some of `bytes`; returns how many were taken.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        // MSG_NOSIGNAL semantics come from ignoring SIGPIPE at start-up (see Daemon).
        try retryingOnInterrupt("write") { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    package func setNonBlocking() throws(Errno) {
        let flags = try retryingOnInterrupt("fcntl(F_GETFL)") { fcntl(rawValue, F_GETFL) }
        _ = try retryingOnInterrupt("fcntl(F_SETFL)") { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    package func setCloseOnExec() throws(Errno) {
        _ = try retryingOnInterrupt("fcntl(F_SETFD)") { fcntl(rawValue, F_SETFD, FD_CLOEXEC) }
    }

    package func close() { _ = Glibc.close(rawValue) }
}

/// `poll(2)` event bits.
package struct PollEvents: OptionSet, Sendable {
    package let rawValue: Int16
    package init(rawValue: Int16) { self.rawValue = rawValue }
    package static let input = PollEvents(rawValue: Int16(POLLIN))
    package static let output = PollEvents(rawValue: Int16(POLLOUT))
    package static let error = PollEvents(rawValue: Int16(POLLERR))
    package static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    package static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// Waits for any of `fds`; `timeout` in milliseconds, -1 = no timeout.
/// Returns the revents of each entry, in order. EINTR counts as "nothing ready".
package func pollDescriptors(_ fds: [(FileDescriptor, PollEvents)], timeout: Int32) throws(Errno) -> [PollEvents] {
    var pfds = fds.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
    let r = pfds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
    if r < 0 {
        if errno == EINTR { return Array(repeating: [], count: fds.count) }
        throw Errno.current("poll")
    }
    return pfds.map { PollEvents(rawValue: $0.revents) }
}

/// Monotonic time in milliseconds.
package func monotonicMilliseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
}
