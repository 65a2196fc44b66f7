#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import PanelGauge

/// Opening a display's device node: the one place PanelDisplay opens a path for writing.
///
/// Only a character device is kept open: a regular file, a FIFO, a directory or
/// anything else named where a display was expected is closed again at once and
/// refused, so pixels are never written through a file that is not a device.
package enum DeviceNode {
    /// The names in `directory` (none when it cannot be read), unsorted, without `.` and `..`.
    package static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Opens `path` with `flags` (plus `O_CLOEXEC`, `O_NOCTTY`), retrying on `EINTR`,
    /// and checks on the open descriptor that it is a character device.
    package static func open(_ path: String, flags: Int32, hint: (Int32) -> String? = { _ in nil }) throws -> Int32 {
        let fd = try retryingEINTR { Glibc.open(path, flags | O_CLOEXEC | O_NOCTTY) }
        if fd < 0 {
            let e = errno
            throw DRMError("open(\(path))", errno: e, hint: hint(e))
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            _ = Glibc.close(fd)
            throw DRMError("fstat(\(path))", errno: e)
        }
        guard st.st_mode & S_IFMT == S_IFCHR else {
            _ = Glibc.close(fd)
            throw DRMError.notFound(
                "\(path) is not a device (\(FileIO.FileType(mode: st.st_mode))); nothing is written to it")
        }
        return fd
    }
}
