import PanelGauge

#if canImport(Glibc)
    import Glibc
#endif

/// What the user chose for the fbdev output.
public struct FBDevOutputOptions: Equatable, Sendable {
    /// A node such as `/dev/fb1`; nil picks the first `/dev/fb*`.
    public var devicePath: String? = nil
    /// nil takes the framebuffer's own format; else paneld asks the driver for it.
    public var format: PixelFormat? = nil
    /// How the logical picture is turned on the panel.
    public var rotation: PanelRotation = .none

    /// Options; every one defaults to the automatic choice.
    public init(devicePath: String? = nil, format: PixelFormat? = nil, rotation: PanelRotation = .none) {
        self.devicePath = devicePath
        self.format = format
        self.rotation = rotation
    }
}

/// A legacy framebuffer (`/dev/fb*`): for panels without KMS (fbtft SPI displays,
/// vendor kernels, DRM drivers that only offer their fbdev emulation).
///
/// Life: ``init(options:)`` reads the screen info, asks for a virtual
/// height of two screens (double buffering by panning) and keeps one page if the
/// driver refuses, maps the memory, unblanks, and puts the console into graphics
/// mode with the cursor hidden so fbcon stops drawing over the gauges. With two
/// pages, each ``present(damage:draw:)`` draws the back page (its damage plus the
/// previous frame's, as in ``DRMOutput``), pans to it and waits for one vertical
/// blank where the driver supports `FBIO_WAITFORVSYNC` (at most one refresh: the
/// socket loop is never held for long). With one page, damage is drawn in place.
/// Either way the drawn rectangles are then written back with `pwrite` (see
/// `writeBack(_:page:)`: DRM's fbdev emulation shows nothing else).
/// ``close()`` restores the pan offset, the screen info, the console mode and the cursor.
///
/// The console is watched while the output is open: a getty (re)started on the
/// foreground terminal sets it back to text mode and clears it (systemd's `TTYReset=`,
/// `TTYVTDisallocate=`) through the terminal's node, which it opens, closes and opens
/// again as the getty's input. ``pollDescriptor`` is an inotify watch on `/dev` for
/// those opens and closes (any node's wakes paneld; only a `ttyN` one is looked at);
/// ``handleEvents()`` then finds the console in text mode, takes it again, and the next
/// frame is drawn whole. A change to text mode seen no other way is found at the next
/// ``present(damage:draw:)``.
public final class FBDevOutput: FrameOutput {
    /// The device node in use, such as `/dev/fb0`.
    public let path: String
    /// The logical width frames are drawn at, in pixels (after rotation).
    public let width: Int
    /// The logical height frames are drawn at, in pixels (after rotation).
    public let height: Int
    /// The framebuffer's pixel format, which is also the format of the surface passed to `draw`.
    public let format: PixelFormat
    /// How the logical picture is turned on the panel.
    public let rotation: PanelRotation
    /// 2 when double-buffered by panning, else 1.
    package let pages: Int
    package let fix: FBFixInfo

    private let sys: FBSyscalls
    private let fd: Int32
    private let originalVar: FBVarInfo
    private let changedVar: Bool
    private let mapping: UnsafeMutableRawPointer
    private let mappingSize: Int
    private let panelWidth: Int
    private let panelHeight: Int
    private let shadow: Image?
    /// The console's descriptor and the mode it had before paneld took it (restored at close).
    private var console: (fd: Int32, mode: ConsoleMode)?
    /// The inotify watch on the terminals' nodes while paneld holds the console.
    private var terminalWatch: Int32?
    private var backPage: Int
    private var staleInBack: [IntRect] = []
    private var drewFirstFrame = false
    private var vsyncUnsupported = false
    private var closed = false
    /// Between ``setBlanked(_:)`` on and off: the framebuffer powered down, no frames.
    private var blanked = false

    /// Escape sequences for the console cursor (VT100 DECTCEM), as `setterm -cursor` writes them.
    package static let hideCursor = "\u{1B}[?25l"
    package static let showCursor = "\u{1B}[?25h"

    /// Opens the framebuffer and blanks the console (see above); throws a
    /// ``DRMError`` naming the call that failed and why.
    public convenience init(options: FBDevOutputOptions) throws {
        try self.init(options: options, syscalls: LiveFBSyscalls())
    }

    /// Opens the framebuffer through `sys` (a fake in tests).
    package init(options: FBDevOutputOptions, syscalls sys: FBSyscalls) throws {
        self.sys = sys
        guard let path = options.devicePath ?? sys.listFramebuffers().first else {
            throw DRMError.notFound("no framebuffer device: /dev/fb* does not exist")
        }
        self.path = path
        fd = try sys.open(path)
        do {
            let original = try sys.variableInfo(fd)
            var fix = try sys.fixedInfo(fd)
            var v = original
            var changed = false
            if let wanted = options.format, try FBLayout.pixelFormat(of: v, fix: fix) != wanted {
                v.bitsPerPixel = UInt32(wanted.bytesPerPixel * 8)
                v = try sys.setVariableInfo(fd, v)
                changed = true
                fix = try sys.fixedInfo(fd)
                let got = try FBLayout.pixelFormat(of: v, fix: fix)
                if got != wanted {
                    throw DRMError.notFound("framebuffer \(fix.id) stays \(got) when asked for \(wanted)")
                }
            }
            format = try FBLayout.pixelFormat(of: v, fix: fix)
            // Double buffering needs a virtual height of two screens; ask, and accept a no.
            if v.yresVirtual < 2 * v.yres && fix.ypanstep > 0 && FBLayout.pansReliably(fix) {
                var two = v
                two.yresVirtual = 2 * v.yres
                two.yoffset = 0
                if let got = try? sys.setVariableInfo(fd, two), got.yresVirtual >= 2 * v.yres {
                    v = got
                    changed = true
                    fix = try sys.fixedInfo(fd)
                }
            }
            pages = FBLayout.pageCount(v, fix)
            self.fix = fix
            originalVar = original
            changedVar = changed
            panelWidth = Int(v.xres)
            panelHeight = Int(v.yres)
            mappingSize = Int(fix.memoryLength)
            guard Int(fix.lineLength) >= panelWidth * format.bytesPerPixel,
                Int(fix.lineLength) * panelHeight * pages <= mappingSize
            else {
                throw DRMError.notFound(
                    "framebuffer \(fix.id): \(fix.lineLength) bytes per line and \(fix.memoryLength) bytes do not hold "
                        + "\(pages) page(s) of \(panelWidth)x\(panelHeight)")
            }
            mapping = try sys.mmap(fd, size: mappingSize)
        } catch {
            sys.close(fd)
            throw error
        }
        rotation = options.rotation
        (width, height) = rotation.logicalSize(panelWidth: panelWidth, panelHeight: panelHeight)
        shadow = rotation == .none ? nil : Image(width: width, height: height, format: format)
        // Shown page: 0 after our pan; draw first into the other one when there are two.
        backPage = pages == 2 ? 1 : 0
        do { try sys.unblank(fd) } catch { DRMLog.warning("\(error)") }
        takeConsole()
        if console != nil {
            do { terminalWatch = try sys.watchTerminals() } catch {
                DRMLog.warning("a getty starting on the console will not be noticed until the next frame: \(error)")
            }
        }
    }

    /// Graphics mode and no cursor, so the text console does not draw over the frame.
    /// Without a console (no VT, or not allowed) paneld still draws; it says so once.
    /// `restoring` is the mode to give back at close when the console is taken again.
    private func takeConsole(restoring: ConsoleMode? = nil) {
        do {
            let tty = try sys.openConsole()
            do {
                let mode = try sys.consoleMode(tty)
                try sys.write(tty, FBDevOutput.hideCursor)
                try sys.setConsoleMode(tty, .graphics)
                console = (tty, restoring ?? mode)
            } catch {
                sys.close(tty)
                throw error
            }
        } catch {
            DRMLog.warning("console left as it is (\(error)); its text may draw over the gauges")
        }
    }

    /// The console was taken from the frame (`why`): a new descriptor, graphics mode
    /// and no cursor again, and the next frame drawn whole.
    private func retakeConsole(_ why: String) {
        guard let (tty, mode) = console else { return }
        sys.close(tty)
        console = nil
        takeConsole(restoring: mode)
        drewFirstFrame = false
        DisplayLog.notice("fbdev: \(why); console set to graphics mode again and the frame redrawn")
    }

    /// The watch on the terminals' device nodes while paneld holds the console.
    public var pollDescriptor: Int32? { closed ? nil : terminalWatch }
    /// Always false: ``present(damage:draw:)`` returns when the frame is shown.
    public var isBusy: Bool { blanked }

    /// Powers the framebuffer down (`FBIOBLANK`, `FB_BLANK_POWERDOWN`: the
    /// panel and its backlight off where the driver supports it) or up again;
    /// the next `present` after it redraws everything.
    public func setBlanked(_ blanked: Bool) {
        guard !closed, blanked != self.blanked else { return }
        self.blanked = blanked
        do {
            if blanked { try sys.powerDown(fd) } else { try sys.unblank(fd) }
        } catch {
            DRMLog.warning("\(error)")
        }
        drewFirstFrame = false
    }
    /// True until the first frame is drawn.
    public var needsFullRedraw: Bool { !drewFirstFrame }
    package var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// Page `i` of the framebuffer as a surface (rows at the line length).
    package func page(_ i: Int) -> Surface {
        Surface(
            base: mapping + i * Int(fix.lineLength) * panelHeight, width: panelWidth, height: panelHeight,
            stride: Int(fix.lineLength), format: format)
    }

    /// Draws a frame and shows it.
    ///
    /// The first frame is drawn whole. With two pages, the back page gets its damage plus
    /// the previous frame's, the display pans to it and waits for a vertical blank where
    /// the driver supports it; with one page, the damage is drawn in place. The drawn
    /// rectangles are written back to the device with `pwrite`. Empty damage shows nothing.
    /// With a rotation, `draw` gets the logical shadow surface and only this frame's damage.
    ///
    /// - Parameters:
    ///   - damage: What changed since the previous frame, in logical pixels.
    ///   - draw: Paints the given rectangles (and nothing else differently) on the surface.
    /// - Throws: ``DRMError`` after ``close()`` or when panning or writing back fails, or
    ///   whatever `draw` throws.
    public func present(damage: [IntRect], draw: (Surface, [IntRect]) throws -> Void) throws {
        guard !closed else { throw DRMError("present after close", errno: EBADF) }
        // Text mode set by someone else (fbcon then draws the terminal over the frame).
        if let (tty, _) = console, (try? sys.consoleMode(tty)) != .graphics {
            retakeConsole("the console was set to text mode")
        }
        let full = !drewFirstFrame
        let damaged = full ? [bounds] : Damage.repaint(damage, in: bounds)
        if damaged.isEmpty { return }
        let target = page(backPage)
        let repaint = full || pages == 1 ? damaged : Damage.repaint(damaged + staleInBack, in: bounds)
        if let shadow {
            try draw(shadow.surface, damaged)
            for r in repaint { rotation.copy(r, from: shadow.surface, to: target) }
        } else {
            try draw(target, repaint)
        }
        try writeBack(Damage.normalize(repaint, in: bounds), page: backPage)
        drewFirstFrame = true
        guard pages == 2 else { return }
        try sys.pan(fd, xoffset: 0, yoffset: UInt32(backPage * panelHeight))
        if !vsyncUnsupported {
            // The page just left must not be drawn while it may still be scanned out.
            do { try sys.waitForVsync(fd) } catch {
                vsyncUnsupported = true  // e.g. DRM fbdev emulation on a CRTC without vblank interrupts
            }
        }
        staleInBack = full ? [bounds] : damaged
        backPage ^= 1
    }

    /// Hands the drawn bytes to the driver with `pwrite`, rectangle by rectangle.
    ///
    /// Drawing goes into the mapping, which is all a plain framebuffer needs. But
    /// the DRM fbdev emulation of Linux 6.1 (Debian 12's kernel; measured in QEMU
    /// with bochs-drm and virtio-gpu) never copies what userspace writes through
    /// the mapping from its shadow buffer to the screen: only `write` reaches it.
    /// Writing the same bytes back costs one copy of the damage and works everywhere.
    private func writeBack(_ logicalRects: [IntRect], page: Int) throws {
        let surface = self.page(page)
        let pageOffset = page * Int(fix.lineLength) * panelHeight
        for r in logicalRects {
            let panel = rotation.panelRect(r, logicalWidth: width, logicalHeight: height).intersection(surface.bounds)
            guard !panel.isEmpty else { continue }
            let span = FBLayout.flushRange(
                panel, pageOffset: pageOffset, stride: Int(fix.lineLength), bytesPerPixel: format.bytesPerPixel,
                memoryLength: mappingSize)
            try sys.pwrite(fd, mapping + span.lowerBound, count: span.count, offset: span.lowerBound)
        }
    }

    /// A terminal's node was opened, closed or changed (a getty starting on it sets it to
    /// text mode and clears it): when the console is no longer in graphics mode, or its
    /// descriptor no longer answers, it is taken again and the next frame is drawn whole.
    public func handleEvents() throws {
        guard !closed, let watch = terminalWatch, sys.drainTerminalWatch(watch), let (tty, _) = console else { return }
        if (try? sys.consoleMode(tty)) != .graphics {
            retakeConsole("a getty set the console to text mode")
        }
    }

    /// Pans back, restores the screen info, unmaps, then gives the console back its
    /// mode and cursor. The console goes last although it was taken last: switching
    /// to text mode makes fbcon redraw, and it must redraw the restored geometry.
    public func close() {
        guard !closed else { return }
        closed = true
        if pages == 2 {
            do { try sys.pan(fd, xoffset: originalVar.xoffset, yoffset: originalVar.yoffset) } catch {
                DRMLog.warning("\(error)")
            }
        }
        if changedVar {
            do { _ = try sys.setVariableInfo(fd, originalVar) } catch {
                DRMLog.warning("restoring the screen info: \(error)")
            }
        }
        do { try sys.munmap(mapping, size: mappingSize) } catch { DRMLog.warning("\(error)") }
        sys.close(fd)
        if let watch = terminalWatch {
            sys.close(watch)
            terminalWatch = nil
        }
        if let (tty, mode) = console {
            do {
                try sys.setConsoleMode(tty, mode)
                try sys.write(tty, FBDevOutput.showCursor)
            } catch {
                DRMLog.warning("restoring the console: \(error)")
            }
            sys.close(tty)
            console = nil
        }
    }

    deinit { close() }
}
