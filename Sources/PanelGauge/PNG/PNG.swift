import CZlib

/// Reading and writing PNG files through zlib (Debian's zlib1g): we build the
/// chunks, zlib does the deflate and the CRCs.
public enum PNG {
    /// The error thrown when a PNG file cannot be read, decoded, encoded or written.
    public struct Error: Swift.Error, CustomStringConvertible {
        /// A sentence saying what failed, with the path where there is one.
        public let description: String
        /// The `errno` of the failed call; 0 when no call failed (a refused file type).
        public let code: Int32

        /// Creates an error.
        ///
        /// - Parameters:
        ///   - description: A sentence saying what failed.
        ///   - code: The `errno` of the failed call, or 0 when no call failed.
        public init(description: String, code: Int32 = 0) {
            self.description = description
            self.code = code
        }
    }

    /// Encodes 8-bit RGB triples (`width * height * 3` bytes) as a PNG file.
    public static func encode(rgb: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        precondition(rgb.count == width * height * 3)
        // Each row: filter byte 0 (None), then the pixels.
        var raw = [UInt8](repeating: 0, count: height * (1 + width * 3))
        for y in 0..<height {
            let src = y * width * 3, dst = y * (1 + width * 3) + 1
            raw.withUnsafeMutableBufferPointer { r in
                rgb.withUnsafeBufferPointer { s in
                    (r.baseAddress! + dst).update(from: s.baseAddress! + src, count: width * 3)
                }
            }
        }
        var zlen = compressBound(uLong(raw.count))
        var z = [UInt8](repeating: 0, count: Int(zlen))
        let rc = compress2(&z, &zlen, raw, uLong(raw.count), 6)
        guard rc == Z_OK else { throw Error(description: "zlib compress2 failed (\(rc))") }
        z.removeSubrange(Int(zlen)...)

        var out: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        var ihdr = [UInt8]()
        ihdr.appendBigEndian(UInt32(width))
        ihdr.appendBigEndian(UInt32(height))
        ihdr += [8, 2, 0, 0, 0]  // 8-bit, truecolour, deflate, adaptive filters, no interlace
        appendChunk(&out, "IHDR", ihdr)
        appendChunk(&out, "IDAT", z)
        appendChunk(&out, "IEND", [])
        return out
    }

    /// Encodes a surface's pixels (see ``Surface/rgbBytes()``).
    public static func encode(_ surface: Surface) throws -> [UInt8] {
        try encode(rgb: surface.rgbBytes(), width: surface.width, height: surface.height)
    }

    /// Decodes an 8-bit, non-interlaced RGB or RGBA PNG into RGB triples (alpha dropped).
    public static func decode(_ data: [UInt8]) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        guard data.count > 8, Array(data[0..<8]) == [137, 80, 78, 71, 13, 10, 26, 10] else {
            throw Error(description: "not a PNG file")
        }
        var pos = 8
        var width = 0, height = 0, channels = 0
        var idat = [UInt8]()
        while pos + 8 <= data.count {
            let n = Int(data.readBigEndian(at: pos))
            let type = String(decoding: data[(pos + 4)..<(pos + 8)], as: UTF8.self)
            guard pos + 12 + n <= data.count else { throw Error(description: "truncated \(type) chunk") }
            let body = data[(pos + 8)..<(pos + 8 + n)]
            switch type {
            case "IHDR":
                width = Int(data.readBigEndian(at: pos + 8))
                height = Int(data.readBigEndian(at: pos + 12))
                let depth = body[body.startIndex + 8], ctype = body[body.startIndex + 9]
                let interlace = body[body.startIndex + 12]
                guard depth == 8, ctype == 2 || ctype == 6, interlace == 0 else {
                    throw Error(
                        description: "unsupported PNG (depth \(depth), colour type \(ctype), interlace \(interlace))")
                }
                channels = ctype == 2 ? 3 : 4
            case "IDAT": idat += body
            default: break
            }
            pos += 12 + n
        }
        guard width > 0, height > 0, channels > 0 else { throw Error(description: "PNG without IHDR") }
        let rowBytes = width * channels
        var raw = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        var rawLen = uLong(raw.count)
        let rc = uncompress(&raw, &rawLen, idat, uLong(idat.count))
        guard rc == Z_OK, Int(rawLen) == raw.count else { throw Error(description: "bad PNG image data (zlib \(rc))") }

        var pixels = [UInt8](repeating: 0, count: height * rowBytes)
        var prev = [Int](repeating: 0, count: rowBytes)
        var cur = [Int](repeating: 0, count: rowBytes)
        for y in 0..<height {
            let filter = raw[y * (rowBytes + 1)]
            let line = y * (rowBytes + 1) + 1
            for i in 0..<rowBytes {
                let x = Int(raw[line + i])
                let a = i >= channels ? cur[i - channels] : 0
                let b = prev[i]
                let c = i >= channels ? prev[i - channels] : 0
                let p: Int
                switch filter {
                case 0: p = 0
                case 1: p = a
                case 2: p = b
                case 3: p = (a + b) >> 1
                case 4:
                    let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
                    p = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
                default: throw Error(description: "bad PNG filter \(filter)")
                }
                cur[i] = (x + p) & 255
                pixels[y * rowBytes + i] = UInt8(cur[i])
            }
            swap(&prev, &cur)
        }
        if channels == 3 { return (width, height, pixels) }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            rgb[3 * i] = pixels[4 * i]
            rgb[3 * i + 1] = pixels[4 * i + 1]
            rgb[3 * i + 2] = pixels[4 * i + 2]
        }
        return (width, height, rgb)
    }

    private static func appendChunk(_ out: inout [UInt8], _ type: String, _ body: [UInt8]) {
        let t = Array(type.utf8)
        out.appendBigEndian(UInt32(body.count))
        out += t
        out += body
        var crc = crc32(0, t, 4)
        if !body.isEmpty { crc = crc32(crc, body, uInt(body.count)) }
        out.appendBigEndian(UInt32(truncatingIfNeeded: crc))
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(truncatingIfNeeded: v >> 24))
        append(UInt8(truncatingIfNeeded: v >> 16))
        append(UInt8(truncatingIfNeeded: v >> 8))
        append(UInt8(truncatingIfNeeded: v))
    }
    fileprivate func readBigEndian(at i: Int) -> UInt32 {
        UInt32(self[i]) << 24 | UInt32(self[i + 1]) << 16 | UInt32(self[i + 2]) << 8 | UInt32(self[i + 3])
    }
}

#if canImport(Glibc)
    import Glibc
#endif

extension PNG {
    /// Writes `surface` to `path` as a PNG (replacing the file atomically via a
    /// temporary file in the same directory and rename).
    /// `durable` as in ``FileIO/writeAtomically(_:to:mode:durable:)``.
    public static func write(_ surface: Surface, to path: String, durable: Bool = true) throws {
        try FileIO.writeAtomically(try encode(surface), to: path, durable: durable)
    }

    /// Reads and decodes a PNG file.
    public static func read(_ path: String) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        try decode(try FileIO.read(path))
    }
}

/// Minimal file I/O on top of the C library (PanelGauge does not need Foundation).
public enum FileIO {
    /// The error thrown when a file cannot be opened, read or written, or is not a regular file.
    public struct Error: Swift.Error, CustomStringConvertible {
        /// A sentence saying what failed, starting with the path.
        public let description: String
        /// The `errno` of the failed call; 0 when no call failed (a refused file type).
        public let code: Int32

        /// Creates an error.
        ///
        /// - Parameters:
        ///   - description: A sentence saying what failed.
        ///   - code: The `errno` of the failed call, or 0 when no call failed.
        public init(description: String, code: Int32 = 0) {
            self.description = description
            self.code = code
        }
    }

    /// What is at `path`, as `stat` says, without opening it (so a FIFO or a device
    /// is named, not waited on): nil if nothing is there.
    public static func fileType(_ path: String) -> FileType? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return FileType(mode: st.st_mode)
    }

    /// The kind of a directory entry, for messages that say why a path is refused.
    public enum FileType: Equatable, Sendable, CustomStringConvertible {
        /// A regular file.
        case regular
        /// A directory.
        case directory
        /// A symbolic link (`fileType(_:)` does not follow links).
        case symbolicLink
        /// A named pipe.
        case fifo
        /// A Unix domain socket.
        case socket
        /// A character device, such as `/dev/fb0`.
        case characterDevice
        /// A block device.
        case blockDevice
        /// Any other kind.
        case other

        /// The kind that `stat`'s `st_mode` names (its `S_IFMT` bits).
        public init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regular
            case S_IFDIR: self = .directory
            case S_IFLNK: self = .symbolicLink
            case S_IFIFO: self = .fifo
            case S_IFSOCK: self = .socket
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            default: self = .other
            }
        }

        /// The kind as a phrase for a message, such as "a directory".
        public var description: String {
            switch self {
            case .regular: "a regular file"
            case .directory: "a directory"
            case .symbolicLink: "a symbolic link"
            case .fifo: "a FIFO"
            case .socket: "a socket"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .other: "not a regular file"
            }
        }
    }

    /// Opens `path` for reading only if it is a regular file (following symlinks).
    /// The open never blocks: `O_NONBLOCK` makes a FIFO's open return at once, and
    /// `fstat` on the open descriptor then refuses it (a FIFO would otherwise block
    /// the caller until a writer appears, forever). Throws with the file's type.
    public static func openRegularFile(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw Error(description: "\(path): \(String(cString: strerror(errno)))", code: errno) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let msg = String(cString: strerror(errno))
            close(fd)
            throw Error(description: "\(path): \(msg)")
        }
        let type = FileType(mode: st.st_mode)
        guard type == .regular else {
            close(fd)
            throw Error(description: "\(path) is \(type), not a regular file")
        }
        return fd
    }

    /// Reads a whole regular file into memory.
    ///
    /// - Parameter path: The file's path.
    /// - Returns: The file's bytes.
    /// - Throws: ``FileIO/Error`` when the path cannot be opened or read, or is not a regular file
    ///   (a FIFO or device is refused without blocking).
    public static func read(_ path: String) throws -> [UInt8] {
        let fd = try openRegularFile(path)
        defer { close(fd) }
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Error(description: "\(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            out += buf[0..<n]
        }
        return out
    }

    /// Why a file written to `path` must not replace what is there, or nil when it
    /// may: nothing is there, or a regular file is. A device node, a FIFO, a
    /// directory, a socket or a symbolic link (not followed: a link planted where a
    /// file is written would redirect the write) is never the writer's own, so it
    /// is never replaced, truncated or written through.
    ///
    /// - Parameter path: Where a file is about to be created or replaced.
    /// - Returns: A sentence naming the path and what is there, or nil.
    public static func replacementRefusal(_ path: String) -> String? {
        guard let type = fileType(path), type != .regular else { return nil }
        return "\(path) is \(type), not a regular file; it is not replaced"
    }

    /// Writes `bytes` to a new, exclusively created temporary file next to
    /// `path` (`mkstemp`: an unpredictable name, never an existing file or a
    /// symlink), gives it `mode` and renames it over `path`, so readers see
    /// either the old or the new file, never a partial one.
    ///
    /// Only a regular file (or nothing) at `path` is replaced: anything else
    /// (``replacementRefusal(_:)``) is refused before the temporary file is made
    /// and checked again right before the rename.
    ///
    /// `durable` fsyncs the file before the rename and the directory after it, so
    /// that after a power cut the new name holds the new contents (values worth keeping); a file that is
    /// rewritten often and can be made again (a frame) passes false and spares the
    /// storage a flush per write. Errors name `path` and the failed call, never the
    /// temporary name, so the same failure reads the same each time.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644, durable: Bool = true)
        throws
    {
        if let refusal = replacementRefusal(path) { throw Error(description: refusal) }
        var template = Array("\(path).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw Error(description: "\(path): creating a temporary file: \(String(cString: strerror(errno)))")
        }
        let tmp = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        func fail(_ call: String) -> Error {
            let msg = String(cString: strerror(errno))
            close(fd)
            unlink(tmp)
            return Error(description: "\(path): \(call): \(msg)")
        }
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + off, $0.count - off) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("write")
            }
            off += n
        }
        guard fchmod(fd, mode) == 0 else { throw fail("fchmod") }
        if durable, fsync(fd) != 0 { throw fail("fsync") }
        // close reports delayed write errors (NFS, a full disk on some file systems).
        guard close(fd) == 0 else {
            let msg = String(cString: strerror(errno))
            unlink(tmp)
            throw Error(description: "\(path): close: \(msg)")
        }
        if let refusal = replacementRefusal(path) {
            unlink(tmp)
            throw Error(description: refusal)
        }
        guard rename(tmp, path) == 0 else {
            let msg = String(cString: strerror(errno))
            unlink(tmp)
            throw Error(description: "\(path): rename: \(msg)")
        }
        // The rename itself is durable only once the directory is on disk too.
        if durable {
            let dir = path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
            let dirFD = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if dirFD >= 0 {
                fsync(dirFD)
                close(dirFD)
            }
        }
    }
}
