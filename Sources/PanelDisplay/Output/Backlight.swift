#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A panel's backlight, as the kernel's backlight class offers it in sysfs:
/// `/sys/class/backlight/NAME/` with `max_brightness` (read), `brightness`
/// (0 to that maximum, written) and, on most drivers, `bl_power` (0 on,
/// 4 off: `FB_BLANK_POWERDOWN`). The Pi 7" display's is `10-0045` (or
/// `rpi_backlight` on older kernels); a PWM-driven SPI panel's is `backlight`.
///
/// Only those files are opened, never created (no `O_CREAT`), and only as
/// regular files: a name with a `/` or a dot first is refused, so nothing
/// outside the class folder is reached. Writing needs the files' group
/// (the package's udev rule gives them to `video` with group write).
public struct Backlight: Sendable, Equatable {
    /// The device's name in the class folder.
    public let name: String
    /// The class folder (`/sys/class/backlight`; another in tests).
    public let folder: String
    /// `max_brightness`.
    public let maximum: Int

    /// The sysfs class folder.
    public static let classFolder = "/sys/class/backlight"

    /// The backlight `name`, or the only one when `name` is nil; nil when
    /// there is none (or several and no name). Throws when the named one
    /// does not exist or its `max_brightness` cannot be read.
    public static func find(named name: String?, in folder: String = classFolder) throws(BacklightError) -> Backlight? {
        if let name {
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else { throw .badName(name) }
            return try Backlight(name: name, folder: folder)
        }
        let names = entries(folder)
        guard names.count == 1 else { return nil }
        return try Backlight(name: names[0], folder: folder)
    }

    /// The names in `folder`, sorted.
    public static func entries(_ folder: String = classFolder) -> [String] {
        DeviceNode.names(in: folder).filter { !$0.hasPrefix(".") }.sorted()
    }

    init(name: String, folder: String) throws(BacklightError) {
        self.name = name
        self.folder = folder
        guard let text = try Self.read(folder + "/" + name + "/max_brightness"), let m = Int(text), m > 0,
            m <= 1 << 24
        else { throw .unreadable(folder + "/" + name + "/max_brightness") }
        maximum = m
    }

    /// The `brightness` level for `percent` of the maximum: rounded, and at
    /// least 1 for any percent above 0 (0 turns many backlights off).
    public func level(percent: Double) -> Int {
        let p = min(max(percent, 0), 100)
        guard p > 0 else { return 0 }
        return max(1, Int((p / 100 * Double(maximum)).rounded()))
    }

    /// Writes `brightness`.
    public func setBrightness(percent: Double) throws(BacklightError) {
        try write("brightness", "\(level(percent: percent))")
    }

    /// The `brightness` now.
    public func brightness() throws(BacklightError) -> Int {
        let path = folder + "/" + name + "/brightness"
        guard let text = try Self.read(path), let v = Int(text) else { throw .unreadable(path) }
        return v
    }

    /// Writes `bl_power` (0 on, 4 off) where the driver has it; nothing where it has not.
    public func setPower(on: Bool) throws(BacklightError) {
        let path = folder + "/" + name + "/bl_power"
        guard access(path, F_OK) == 0 else { return }
        try write("bl_power", on ? "0" : "4")
    }

    private func write(_ file: String, _ text: String) throws(BacklightError) {
        let path = folder + "/" + name + "/" + file
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)
        guard fd >= 0 else { throw .cannotWrite(path, errno) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { throw .cannotWrite(path, EINVAL) }
        let bytes = Array((text + "\n").utf8)
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw .cannotWrite(path, n < 0 ? errno : EIO) }
    }

    /// The first line of a small regular file; nil when it does not exist.
    static func read(_ path: String) throws(BacklightError) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { throw .unreadable(path) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { throw .unreadable(path) }
        let line = String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n").first ?? ""
        return String(line.filter { $0 != " " })
    }
}

/// Why a backlight could not be used.
public enum BacklightError: Error, Equatable, CustomStringConvertible {
    /// A name that is not one of the class folder's (a `/`, a dot first, empty).
    case badName(String)
    /// A file that cannot be read (the path): no such backlight, or not a regular file.
    case unreadable(String)
    /// A file that cannot be written (the path and the errno).
    case cannotWrite(String, Int32)

    /// The reason, with what to do where there is something to do.
    public var description: String {
        switch self {
        case .badName(let n): "'\(n)' is not a backlight's name (a name in \(Backlight.classFolder))"
        case .unreadable(let p): "cannot read \(p) (no such backlight?)"
        case .cannotWrite(let p, let e):
            "cannot write \(p): \(String(cString: strerror(e)))"
                + (e == EACCES
                    ? " (the file's group must be paneld's and writable: the package's udev rule does that)" : "")
        }
    }
}
