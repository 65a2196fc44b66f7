import CDRM

#if canImport(Glibc)
    import Glibc
#endif

/// The real ``FBSyscalls``: `open`, `ioctl` on /dev/fb* and /dev/tty0, `mmap`.
package final class LiveFBSyscalls: FBSyscalls {
    package init() {}

    package func listFramebuffers() -> [String] {
        let numbers = DeviceNode.names(in: "/dev").compactMap { $0.hasPrefix("fb") ? Int($0.dropFirst(2)) : nil }
        return numbers.sorted().map { "/dev/fb\($0)" }
    }

    package func describeFramebuffers() -> [FramebufferDescription] {
        listFramebuffers().map { path in
            let node = "/sys/class/graphics/" + (path.split(separator: "/").last.map(String.init) ?? path)
            var name = ""
            if let f = fopen(node + "/name", "re") {
                defer { fclose(f) }
                var line = [CChar](repeating: 0, count: 64)
                if fgets(&line, Int32(line.count), f) != nil {
                    name = String(
                        decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
            }
            return FramebufferDescription(path: path, name: name, device: LiveDRMSyscalls.realPath(node + "/device"))
        }
    }

    package func open(_ path: String) throws -> Int32 {
        try DeviceNode.open(path, flags: O_RDWR)
    }

    package func close(_ fd: Int32) { _ = Glibc.close(fd) }

    private func rawVar(_ fd: Int32) throws -> fb_var_screeninfo {
        var v = fb_var_screeninfo()
        if ioctl(fd, UInt(FBIOGET_VSCREENINFO), &v) != 0 { throw DRMError("FBIOGET_VSCREENINFO", errno: errno) }
        return v
    }

    private static func info(_ v: fb_var_screeninfo) -> FBVarInfo {
        func f(_ b: fb_bitfield) -> FBBitfield { FBBitfield(offset: b.offset, length: b.length) }
        return FBVarInfo(
            xres: v.xres, yres: v.yres, xresVirtual: v.xres_virtual, yresVirtual: v.yres_virtual, xoffset: v.xoffset,
            yoffset: v.yoffset, bitsPerPixel: v.bits_per_pixel, red: f(v.red), green: f(v.green), blue: f(v.blue),
            transp: f(v.transp))
    }

    package func variableInfo(_ fd: Int32) throws -> FBVarInfo { LiveFBSyscalls.info(try rawVar(fd)) }

    package func setVariableInfo(_ fd: Int32, _ info: FBVarInfo) throws -> FBVarInfo {
        // Start from the driver's current values so the fields paneld does not model
        // (timings, margins) are passed back unchanged.
        var v = try rawVar(fd)
        v.xres = info.xres
        v.yres = info.yres
        v.xres_virtual = info.xresVirtual
        v.yres_virtual = info.yresVirtual
        v.xoffset = info.xoffset
        v.yoffset = info.yoffset
        v.bits_per_pixel = info.bitsPerPixel
        v.activate = UInt32(FB_ACTIVATE_NOW)
        if ioctl(fd, UInt(FBIOPUT_VSCREENINFO), &v) != 0 { throw DRMError("FBIOPUT_VSCREENINFO", errno: errno) }
        return LiveFBSyscalls.info(v)
    }

    package func fixedInfo(_ fd: Int32) throws -> FBFixInfo {
        var f = fb_fix_screeninfo()
        if ioctl(fd, UInt(FBIOGET_FSCREENINFO), &f) != 0 { throw DRMError("FBIOGET_FSCREENINFO", errno: errno) }
        let id = withUnsafeBytes(of: f.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return FBFixInfo(
            id: id, memoryLength: f.smem_len, type: f.type, visual: f.visual, ypanstep: f.ypanstep,
            lineLength: f.line_length)
    }

    package func pan(_ fd: Int32, xoffset: UInt32, yoffset: UInt32) throws {
        var v = try rawVar(fd)
        v.xoffset = xoffset
        v.yoffset = yoffset
        if ioctl(fd, UInt(FBIOPAN_DISPLAY), &v) != 0 { throw DRMError("FBIOPAN_DISPLAY(y \(yoffset))", errno: errno) }
    }

    package func waitForVsync(_ fd: Int32) throws {
        var crtc: UInt32 = 0
        if ioctl(fd, CFB_FBIO_WAITFORVSYNC, &crtc) != 0 { throw DRMError("FBIO_WAITFORVSYNC", errno: errno) }
    }

    package func unblank(_ fd: Int32) throws {
        if ioctl(fd, UInt(FBIOBLANK), CInt(0)) != 0 { throw DRMError("FBIOBLANK(unblank)", errno: errno) }
    }

    package func powerDown(_ fd: Int32) throws {
        if ioctl(fd, UInt(FBIOBLANK), CInt(4)) != 0 { throw DRMError("FBIOBLANK(powerdown)", errno: errno) }
    }

    package func pwrite(_ fd: Int32, _ bytes: UnsafeRawPointer, count: Int, offset: Int) throws {
        var done = 0
        while done < count {
            let n = try retryingEINTR { Glibc.pwrite(fd, bytes + done, count - done, off_t(offset + done)) }
            if n < 0 { throw DRMError("pwrite(framebuffer, \(count) bytes at \(offset))", errno: errno) }
            if n == 0 { throw DRMError("pwrite(framebuffer) wrote nothing at \(offset + done)", errno: EIO) }
            done += n
        }
    }

    package func mmap(_ fd: Int32, size: Int) throws -> UnsafeMutableRawPointer {
        let p = Glibc.mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let p, p != MAP_FAILED else { throw DRMError("mmap(framebuffer, \(size) bytes)", errno: errno) }
        return p
    }

    package func munmap(_ address: UnsafeMutableRawPointer, size: Int) throws {
        if Glibc.munmap(address, size) != 0 { throw DRMError("munmap(framebuffer)", errno: errno) }
    }

    /// Write-only: the console's mode ioctls and the cursor escape need no more,
    /// and a service in group tty may open it so (the device is crw--w----).
    package func openConsole() throws -> Int32 {
        try DeviceNode.open("/dev/tty0", flags: O_WRONLY)
    }

    package func consoleMode(_ fd: Int32) throws -> ConsoleMode {
        var mode: UInt32 = 0
        if ioctl(fd, UInt(KDGETMODE), &mode) != 0 { throw DRMError("KDGETMODE", errno: errno) }
        return ConsoleMode(rawValue: mode) ?? .text
    }

    package func setConsoleMode(_ fd: Int32, _ mode: ConsoleMode) throws {
        if ioctl(fd, UInt(KDSETMODE), CInt(mode.rawValue)) != 0 { throw DRMError("KDSETMODE(\(mode))", errno: errno) }
    }

    package func watchTerminals() throws -> Int32 {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if fd < 0 { throw DRMError("inotify_init1", errno: errno) }
        if inotify_add_watch(fd, "/dev", UInt32(IN_OPEN | IN_CLOSE_WRITE | IN_ATTRIB)) < 0 {
            let e = errno
            Glibc.close(fd)
            throw DRMError("inotify_add_watch(/dev)", errno: e)
        }
        return fd
    }

    package func drainTerminalWatch(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var terminal = false
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then the name.
            var at = 0
            while n - at >= 16 {
                let len =
                    Int(buffer[at + 12]) | Int(buffer[at + 13]) << 8 | Int(buffer[at + 14]) << 16
                    | Int(buffer[at + 15]) << 24
                guard n - at - 16 >= len else { break }
                let name = buffer[(at + 16)..<(at + 16 + len)].prefix { $0 != 0 }
                if name.count > 3, name.starts(with: Array("tty".utf8)),
                    name.dropFirst(3).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                {
                    terminal = true
                }
                at += 16 + len
            }
        }
        return terminal
    }

    package func write(_ fd: Int32, _ text: String) throws {
        var bytes = Array(text.utf8)
        let n = try retryingEINTR { Glibc.write(fd, &bytes, bytes.count) }
        if n < 0 { throw DRMError("write(console)", errno: errno) }
    }
}
