import PanelGauge

import PanelDisplay

#if canImport(Glibc)
    import Glibc
#endif

/// A scripted framebuffer for tests: one device, a console, a call trace.
package final class FakeFB: FBSyscalls {
    package var varInfo: FBVarInfo
    package var fixInfo: FBFixInfo
    package var trace: [String] = []
    /// When false, FBIOPUT_VSCREENINFO keeps the virtual height (a driver without room for two pages).
    package var allowsTwoPages = true
    package var vsyncErrno: Int32? = nil
    package var consoleErrno: Int32? = nil
    package var mode: ConsoleMode = .text
    /// A terminal's node changed since the watch was last read.
    package var terminalChanged = false
    package private(set) var memory: UnsafeMutableRawPointer?
    /// Like Linux 6.1's DRM fbdev emulation: the screen shows only bytes that came
    /// through write(2), never what was stored through the mapping.
    package var showsOnlyWrites = false
    private var screen: UnsafeMutableRawPointer?
    package private(set) var openDescriptors: Set<Int32> = []
    private var nextFD: Int32 = 10

    package init(width: UInt32 = 24, height: UInt32 = 10, bpp: UInt32 = 32, linePadding: UInt32 = 16) {
        let rgb565 = bpp == 16
        varInfo = FBVarInfo(
            xres: width, yres: height, xresVirtual: width, yresVirtual: height, bitsPerPixel: bpp,
            red: rgb565 ? FBBitfield(offset: 11, length: 5) : FBBitfield(offset: 16, length: 8),
            green: rgb565 ? FBBitfield(offset: 5, length: 6) : FBBitfield(offset: 8, length: 8),
            blue: rgb565 ? FBBitfield(offset: 0, length: 5) : FBBitfield(offset: 0, length: 8))
        let line = width * bpp / 8 + linePadding
        fixInfo = FBFixInfo(
            id: "fakefb", memoryLength: line * height * 2, type: 0, visual: 2, ypanstep: 1, lineLength: line)
    }

    /// The page the display shows now.
    package func shown(format: PixelFormat) -> Surface {
        Surface(
            base: (showsOnlyWrites ? screen! : memory!) + Int(varInfo.yoffset * fixInfo.lineLength),
            width: Int(varInfo.xres),
            height: Int(varInfo.yres), stride: Int(fixInfo.lineLength), format: format)
    }

    package func listFramebuffers() -> [String] { ["/dev/fb0"] }
    package func describeFramebuffers() -> [FramebufferDescription] {
        [FramebufferDescription(path: "/dev/fb0", name: "fake", device: nil)]
    }

    package func open(_ path: String) throws -> Int32 {
        trace.append("open \(path)")
        nextFD += 1
        openDescriptors.insert(nextFD)
        return nextFD
    }

    package func close(_ fd: Int32) {
        trace.append("close \(fd == 11 ? "fb" : fd == watchFD ? "watch" : "tty")")
        openDescriptors.remove(fd)
    }

    package func variableInfo(_ fd: Int32) throws -> FBVarInfo { varInfo }

    package func setVariableInfo(_ fd: Int32, _ info: FBVarInfo) throws -> FBVarInfo {
        trace.append("putVar \(info.xres)x\(info.yres) virtual \(info.yresVirtual) \(info.bitsPerPixel)bpp")
        var v = info
        if !allowsTwoPages { v.yresVirtual = varInfo.yresVirtual }
        // This driver keeps its depth.
        if v.bitsPerPixel != varInfo.bitsPerPixel { v.bitsPerPixel = varInfo.bitsPerPixel }
        varInfo = v
        return v
    }

    package func fixedInfo(_ fd: Int32) throws -> FBFixInfo { fixInfo }

    package func pan(_ fd: Int32, xoffset: UInt32, yoffset: UInt32) throws {
        trace.append("pan \(yoffset)")
        varInfo.yoffset = yoffset
    }

    package func waitForVsync(_ fd: Int32) throws {
        trace.append("vsync")
        if let e = vsyncErrno { throw DRMError("FBIO_WAITFORVSYNC", errno: e) }
    }

    package func unblank(_ fd: Int32) throws { trace.append("unblank") }
    package func powerDown(_ fd: Int32) throws { trace.append("powerDown") }

    package func pwrite(_ fd: Int32, _ bytes: UnsafeRawPointer, count: Int, offset: Int) throws {
        trace.append("pwrite \(offset) \(count)")
        // Like write(2) on /dev/fb*: copy into framebuffer memory at the offset.
        (memory! + offset).copyMemory(from: bytes, byteCount: count)
        (screen! + offset).copyMemory(from: bytes, byteCount: count)
    }

    package func mmap(_ fd: Int32, size: Int) throws -> UnsafeMutableRawPointer {
        trace.append("mmap \(size)")
        let m = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        m.initializeMemory(as: UInt8.self, repeating: 0xEE, count: size)
        memory = m
        let scr = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        scr.initializeMemory(as: UInt8.self, repeating: 0xEE, count: size)
        screen = scr
        return m
    }

    package func munmap(_ address: UnsafeMutableRawPointer, size: Int) throws {
        trace.append("munmap")
        // Kept allocated so a test can still look at the last picture.
    }

    package func openConsole() throws -> Int32 {
        if let e = consoleErrno { throw DRMError("open(/dev/tty0)", errno: e) }
        return try open("/dev/tty0")
    }

    package private(set) var watchFD: Int32 = -1
    package func watchTerminals() throws -> Int32 {
        watchFD = try open("inotify /dev")
        return watchFD
    }

    package func drainTerminalWatch(_ fd: Int32) -> Bool {
        defer { terminalChanged = false }
        return terminalChanged
    }

    package func consoleMode(_ fd: Int32) throws -> ConsoleMode { mode }

    package func setConsoleMode(_ fd: Int32, _ mode: ConsoleMode) throws {
        trace.append("console \(mode)")
        self.mode = mode
    }

    package func write(_ fd: Int32, _ text: String) throws {
        trace.append(
            text == FBDevOutput.hideCursor ? "hide cursor" : text == FBDevOutput.showCursor ? "show cursor" : "write")
    }

    deinit {
        memory?.deallocate()
        screen?.deallocate()
    }
}
