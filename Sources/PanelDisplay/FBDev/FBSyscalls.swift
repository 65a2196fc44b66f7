/// The one seam between paneld's fbdev output and the kernel: every open, ioctl,
/// mmap and console write goes through it, so setup, page flips and teardown are
/// tested as call traces with a fake (`Tests/paneldTests/FBDevFake.swift`).
/// Methods throw ``DRMError`` (the display side's one error type) with the errno.
package protocol FBSyscalls: AnyObject {
    /// The framebuffer nodes, `/dev/fb*`, sorted by number.
    func listFramebuffers() -> [String]
    /// Each `/dev/fb*` with its sysfs name and resolved device link (`/sys/class/graphics/fbN`).
    func describeFramebuffers() -> [FramebufferDescription]
    func open(_ path: String) throws -> Int32
    func close(_ fd: Int32)
    func variableInfo(_ fd: Int32) throws -> FBVarInfo
    /// `FBIOPUT_VSCREENINFO` with these fields; returns what the driver made of them.
    func setVariableInfo(_ fd: Int32, _ info: FBVarInfo) throws -> FBVarInfo
    func fixedInfo(_ fd: Int32) throws -> FBFixInfo
    /// `FBIOPAN_DISPLAY` to show the lines from `yoffset` on.
    func pan(_ fd: Int32, xoffset: UInt32, yoffset: UInt32) throws
    /// `FBIO_WAITFORVSYNC`: returns after the next vertical blank.
    func waitForVsync(_ fd: Int32) throws
    /// `FBIOBLANK` with `FB_BLANK_UNBLANK` (0).
    func unblank(_ fd: Int32) throws
    /// `FBIOBLANK` with `FB_BLANK_POWERDOWN` (4): the panel and its backlight off.
    func powerDown(_ fd: Int32) throws
    /// `pwrite`: copies `count` bytes to the framebuffer at byte `offset`.
    func pwrite(_ fd: Int32, _ bytes: UnsafeRawPointer, count: Int, offset: Int) throws
    func mmap(_ fd: Int32, size: Int) throws -> UnsafeMutableRawPointer
    func munmap(_ address: UnsafeMutableRawPointer, size: Int) throws

    /// The console paneld draws over (`/dev/tty0`, the foreground VT).
    func openConsole() throws -> Int32
    func consoleMode(_ fd: Int32) throws -> ConsoleMode
    func setConsoleMode(_ fd: Int32, _ mode: ConsoleMode) throws
    /// Writes bytes to the console (the cursor show/hide escape sequences).
    func write(_ fd: Int32, _ text: String) throws
    /// An inotify descriptor (non-blocking) for opens, closes after writing and attribute
    /// changes of the nodes in `/dev` (systemd opens a terminal to reset it for a getty,
    /// closes it, and opens it again as the getty's input).
    func watchTerminals() throws -> Int32
    /// Reads every pending event of `watchTerminals`' descriptor: true when a
    /// terminal's node (`ttyN`) changed.
    func drainTerminalWatch(_ fd: Int32) -> Bool
}
