import Glibc

/// Unix-domain sockets: the control socket (stream) and its clients, and the
/// statsd datagram socket.
package enum UnixSocket {
    /// The longest path `sockaddr_un` can hold (without the terminating NUL).
    package static let maxPathLength = MemoryLayout<sockaddr_un>.size - MemoryLayout<sa_family_t>.size - 1

    /// What is at a socket path before we bind it.
    package enum Existing: Equatable {
        case nothing
        /// A socket file (perhaps stale).
        case socket
        /// Something else (a regular file, a directory, a symlink...): never removed.
        case other(String)
    }

    /// Looks at `path` without following a symlink.
    package static func inspect(_ path: String) throws(Errno) -> Existing {
        var st = stat()
        if lstat(path, &st) != 0 {
            if errno == ENOENT { return .nothing }
            throw Errno.current("lstat \(path)")
        }
        switch st.st_mode & S_IFMT {
        case S_IFSOCK: return .socket
        case S_IFLNK: return .other("a symbolic link")
        case S_IFDIR: return .other("a directory")
        case S_IFREG: return .other("a regular file")
        default: return .other("not a socket")
        }
    }

    /// Removes the socket file paneld created at `path`, only if a socket is still
    /// there (not following a symlink): whatever replaced it is not ours.
    package static func removeOwned(_ path: String) {
        if (try? inspect(path)) == .socket { unlink(path) }
    }

    /// Calls `body` with `path` as a Unix socket address and its length (the
    /// caller checks the length against ``maxPathLength``).
    package static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (k, b) in bytes.enumerated() { raw[k] = b }
        }
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1))
            }
        }
    }

    /// Connects to `path` (blocking); used by `paneld send` and the stale-socket check.
    package static func connect(_ path: String, type: __socket_type = SOCK_STREAM) throws(Errno) -> FileDescriptor {
        guard path.utf8.count <= maxPathLength else { throw Errno(code: ENAMETOOLONG, call: "connect \(path)") }
        let fd = try retryingOnInterrupt("socket") {
            socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        let r = withAddress(path) { Glibc.connect(fd, $0, $1) }
        if r != 0 {
            let e = Errno.current("connect \(path)")
            Glibc.close(fd)
            throw e
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Creates, binds and listens on `path`, non-blocking and close-on-exec.
    ///
    /// A socket file already there is replaced only if no daemon answers on it
    /// (a stale one from a crash); anything that is not a socket, or a symlink,
    /// is left alone and reported. `mode` is applied to the new socket file.
    package static func listen(_ path: String, mode: mode_t = 0o660, backlog: Int32 = 4096) throws -> FileDescriptor {
        let fd = try bind(path, type: SOCK_STREAM, mode: mode)
        guard Glibc.listen(fd.rawValue, backlog) == 0 else {
            let e = Errno.current("listen \(path)")
            fd.close()
            unlink(path)
            throw e
        }
        return fd
    }

    /// Creates a socket of `type` bound to `path`, non-blocking and close-on-exec,
    /// with the rules of ``listen(_:mode:backlog:)`` for what is already there.
    static func bind(_ path: String, type: __socket_type, mode: mode_t = 0o660) throws -> FileDescriptor {
        guard !path.isEmpty, path.utf8.count <= maxPathLength else {
            throw DaemonError("socket path '\(path)' is empty or longer than \(maxPathLength) bytes")
        }
        switch try inspect(path) {
        case .nothing: break
        case .other(let what):
            throw DaemonError(
                "\(path) exists and is \(what); refusing to replace it (remove it yourself if it is safe)")
        case .socket:
            if let live = try? connect(path, type: type) {
                live.close()
                throw DaemonError("another paneld is already listening on \(path)")
            }
            // Stale: nobody answers. Check again right before unlinking, without following links.
            guard try inspect(path) == .socket else { throw DaemonError("\(path) changed while being checked") }
            guard unlink(path) == 0 || errno == ENOENT else { throw Errno.current("unlink \(path)") }
            Log.notice("removed stale socket \(path)")
        }
        let fd = try retryingOnInterrupt("socket") {
            socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
        let old = umask(0o777 & ~mode)
        let r = withAddress(path) { Glibc.bind(fd, $0, $1) }
        let bindErr = Errno.current("bind \(path)")
        umask(old)
        if r != 0 {
            Glibc.close(fd)
            if bindErr.code == EACCES || bindErr.code == ENOENT {
                throw DaemonError(
                    "cannot create the socket \(path): \(String(cString: strerror(bindErr.code))) (choose another path)"
                )
            }
            throw bindErr
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Accepts one pending connection as a non-blocking, close-on-exec descriptor;
    /// nil when none is pending. (`accept4` is not imported into Swift, hence fcntl.)
    static func accept(_ listener: FileDescriptor) throws(Errno) -> FileDescriptor? {
        while true {
            let fd = Glibc.accept(listener.rawValue, nil, nil)
            if fd >= 0 {
                let c = FileDescriptor(rawValue: fd)
                do {
                    try c.setCloseOnExec()
                    try c.setNonBlocking()
                } catch {
                    c.close()
                    throw error
                }
                return c
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO: return nil
            default: throw Errno.current("accept")
            }
        }
    }
}
