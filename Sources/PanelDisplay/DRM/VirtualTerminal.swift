import CDRM

#if canImport(Glibc)
    import Glibc
#endif

/// The virtual terminal paneld's display belongs to, switched cooperatively.
///
/// With the terminal in `VT_PROCESS` mode the kernel asks paneld before switching
/// away from it (``releaseSignal``) and tells it when the switch comes back
/// (``acquireSignal``): paneld then drops DRM master so the program on the other
/// terminal (a console, a compositor started by logind) can show its picture, and
/// takes master back and redraws on return. No timer is involved: while the
/// display is away paneld sleeps.
///
/// The terminal is reached through `/dev/tty0`, which the kernel binds at open
/// to the terminal in the foreground, opened write-only (all its ioctls need;
/// under the unit paneld is in group tty and may open only that node, so).
/// Setting the mode needs the terminal to be paneld's controlling terminal or
/// `CAP_SYS_TTY_CONFIG` (the kernel's rule for VT_SETMODE; the unit grants the
/// capability); without either, or when another program already controls the
/// terminal's switching (a second paneld on the same terminal, a display
/// server), ``take()`` returns nil and says why, and paneld runs as before.
package final class VirtualTerminal {
    package static let releaseSignal = SIGUSR1
    package static let acquireSignal = SIGUSR2

    package let number: Int32
    private var fd: Int32
    private var saved: vt_mode

    private init(number: Int32, fd: Int32, saved: vt_mode) {
        self.number = number
        self.fd = fd
        self.saved = saved
    }

    /// Takes switching control of the foreground terminal; nil (with the reason
    /// logged at info) when it cannot.
    package static func take() -> VirtualTerminal? {
        do {
            return try open()
        } catch {
            DisplayLog.info("virtual terminal switches are not coordinated: \(error)")
            return nil
        }
    }

    private static func open() throws -> VirtualTerminal {
        let fd = try DeviceNode.open("/dev/tty0", flags: O_WRONLY)
        var state = vt_stat()
        guard ioctl(fd, UInt(VT_GETSTATE), &state) == 0 else {
            let err = DRMError("VT_GETSTATE", errno: errno)
            Glibc.close(fd)
            throw err
        }
        let number = Int32(state.v_active)
        var saved = vt_mode()
        guard ioctl(fd, UInt(VT_GETMODE), &saved) == 0 else {
            let err = DRMError("VT_GETMODE", errno: errno)
            Glibc.close(fd)
            throw err
        }
        guard saved.mode != CChar(VT_PROCESS) else {
            Glibc.close(fd)
            throw DRMError.notFound("another program controls switching on tty\(number)")
        }
        var mode = vt_mode()
        mode.mode = CChar(VT_PROCESS)
        mode.relsig = Int16(releaseSignal)
        mode.acqsig = Int16(acquireSignal)
        guard ioctl(fd, UInt(VT_SETMODE), &mode) == 0 else {
            let err = DRMError("VT_SETMODE on tty\(number)", errno: errno)
            Glibc.close(fd)
            throw err
        }
        DisplayLog.info("tty\(number): the display is given up while another terminal is shown")
        return VirtualTerminal(number: number, fd: fd, saved: saved)
    }

    /// Lets the pending switch away go ahead (after master was dropped).
    package func allowRelease() {
        if ioctl(fd, UInt(VT_RELDISP), CInt(1)) != 0 { DisplayLog.warning("\(DRMError("VT_RELDISP", errno: errno))") }
    }

    /// Acknowledges the switch back to this terminal.
    package func acknowledgeAcquire() {
        if ioctl(fd, UInt(VT_RELDISP), CInt(VT_ACKACQ)) != 0 {
            DisplayLog.warning("\(DRMError("VT_RELDISP(VT_ACKACQ)", errno: errno))")
        }
    }

    /// Hands switching back to the kernel as it was.
    package func close() {
        guard fd >= 0 else { return }
        if saved.mode == CChar(VT_PROCESS) { saved.mode = CChar(VT_AUTO) }
        _ = ioctl(fd, UInt(VT_SETMODE), &saved)
        Glibc.close(fd)
        fd = -1
    }
}
