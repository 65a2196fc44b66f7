import PanelGauge

#if canImport(Glibc)
    import Glibc
#endif

/// What the user chose for the DRM output; every field may be left to discovery.
public struct DRMOutputOptions: Equatable, Sendable {
    /// A card such as `/dev/dri/card1` or a link to one (`/dev/dri/by-path/...`); nil searches every card.
    public var devicePath: String? = nil
    /// A connector name such as `HDMI-A-1`, searched across the cards; nil picks a connected one.
    public var connector: String? = nil
    /// The layout's mode: a connected connector that offers it comes first; when none does, the
    /// chosen connector's preferred mode is shown instead. nil picks the preferred mode, else the largest.
    public var mode: ModeRequest? = nil
    /// The scanout format: XRGB8888, or RGB565 where the driver offers it.
    public var format: PixelFormat = .xrgb8888
    /// How the logical picture is turned on the panel.
    public var rotation: PanelRotation = .none

    /// Options; every one defaults to the automatic choice.
    public init(
        devicePath: String? = nil, connector: String? = nil, mode: ModeRequest? = nil,
        format: PixelFormat = .xrgb8888, rotation: PanelRotation = .none
    ) {
        self.devicePath = devicePath
        self.connector = connector
        self.mode = mode
        self.format = format
        self.rotation = rotation
    }
}

/// A DRM/KMS display: two dumb buffers flipped by the kernel, drawn by damage.
///
/// Life: discovery and modeset state are read at ``init(options:)``; the
/// first ``present(damage:draw:)`` shows its frame with SetCrtc, later ones with a
/// page flip whose completion arrives on ``pollDescriptor`` (the daemon calls
/// ``handleEvents()``; nothing here blocks but ``close()``). Each frame repaints its
/// own damage plus the previous frame's, because the back buffer still shows the
/// frame before that (double buffering: drm-howto's modeset-double-buffered).
/// With a rotation, the daemon draws into a logical shadow surface and the
/// damaged rectangles are copied turned into the scanout buffer.
/// Losing DRM master (EACCES/EPERM on SetCrtc, page flip or DirtyFB) is not an
/// error: frames keep being drawn, and the next ``present(damage:draw:)`` redraws everything and
/// sets the CRTC again, which succeeds once master is back.
/// Giving the display up on purpose (the console switched to another virtual
/// terminal, ``releaseDisplay()``) drops master and holds frames back until
/// ``acquireDisplay()``, which takes master again and redraws everything.
public final class DRMOutput: FrameOutput {
    /// The logical width frames are drawn at, in pixels: the mode's width, or its height when the rotation is a quarter
    /// turn.
    public let width: Int
    /// The logical height frames are drawn at, in pixels: the mode's height, or its width when the rotation is a
    /// quarter turn.
    public let height: Int
    /// The format of the dumb buffers and of the surface passed to `draw`.
    public let format: PixelFormat
    /// How the logical picture is turned on the panel.
    public let rotation: PanelRotation
    package let connector: ConnectorInfo
    package let mode: ModeInfo
    package let crtcID: UInt32
    package let device: DRMDevice
    /// Why this card, connector and mode, and why not the others (for the log).
    package let choice: DisplayChoice

    private let sys: DRMSyscalls
    private var buffers: [DumbFramebuffer]
    /// The logical picture when rotated; nil at 0 degrees (the daemon draws straight into the buffer).
    private let shadow: Image?
    private let savedCrtc: CrtcState
    private var backIndex = 0
    /// Logical rectangles the back buffer lacks: what the last frame changed in the other buffer.
    private var staleInBack: [IntRect] = []
    /// False until a SetCrtc succeeded, and again after master was lost.
    private var crtcIsSet = false
    private var flipPending = false
    private var masterLost = false
    /// Between ``releaseDisplay()`` and ``acquireDisplay()``: no frames, no master.
    private var released = false
    /// Between ``setBlanked(_:)`` on and off: the CRTC off, no frames.
    private var blanked = false
    private var dirtyFBUnsupported = false
    private var frameNumber: UInt64 = 0
    private var closed = false

    /// Opens the device and prepares both buffers; the screen changes only at the
    /// first ``present(damage:draw:)``. Throws a ``DRMError`` naming the call that
    /// failed and why (no card with KMS, no connected connector, no such mode, ...).
    public convenience init(options: DRMOutputOptions) throws {
        try self.init(options: options, syscalls: LiveDRMSyscalls())
    }

    /// Opens the display through `sys` (a fake in tests).
    package init(options: DRMOutputOptions, syscalls sys: DRMSyscalls) throws {
        self.sys = sys
        let (device, choice) = try DRMDevice.openDisplay(
            sys: sys,
            request: DisplayRequest(devicePath: options.devicePath, connector: options.connector, mode: options.mode))
        self.device = device
        self.choice = choice
        do {
            let fd = device.fd
            let res = try sys.resources(fd)
            connector = choice.connector
            mode = choice.mode
            let encoders = try res.encoderIDs.map { try sys.encoder(fd, id: $0) }
            crtcID = try chooseCrtc(connector: connector, encoders: encoders, crtcIDs: res.crtcIDs)
            // Planes are optional knowledge: a driver that lists none still gets its chance at AddFB2.
            try? sys.setClientCapability(fd, .universalPlanes, 1)  // so primary planes are listed
            if let planeIDs = try? sys.planeIDs(fd) {
                let planes = planeIDs.compactMap { try? sys.plane(fd, id: $0) }
                try checkScanoutFormat(
                    options.format, planes: planes, crtcIndex: res.crtcIDs.firstIndex(of: crtcID) ?? 0)
            }
            savedCrtc = try sys.crtc(fd, id: crtcID)
            var made: [DumbFramebuffer] = []
            do {
                for _ in 0..<2 {
                    made.append(
                        try DumbFramebuffer(
                            sys: sys, fd: fd, width: mode.width, height: mode.height, format: options.format))
                }
            } catch {
                for b in made.reversed() { b.release() }
                throw error
            }
            buffers = made
        } catch {
            device.close()
            throw error
        }
        format = options.format
        rotation = options.rotation
        (width, height) = rotation.logicalSize(panelWidth: mode.width, panelHeight: mode.height)
        shadow = rotation == .none ? nil : Image(width: width, height: height, format: format)
    }

    /// The DRM device's descriptor, readable when an event such as a page-flip completion is waiting; nil after
    /// ``close()``.
    public var pollDescriptor: Int32? { closed ? nil : device.fd }
    /// A pending flip, or the display given up to another terminal: no `present` now.
    public var isBusy: Bool { flipPending || released || blanked }
    /// True until a frame has set the CRTC: for the first frame, and again after DRM master was lost or the display was
    /// released.
    public var needsFullRedraw: Bool { !crtcIsSet }
    /// True between a refused SetCrtc/flip (another process is master) and the next successful SetCrtc.
    package var hasLostMaster: Bool { masterLost }

    package var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// Draws a frame into the back buffer and shows it.
    ///
    /// The first frame, and the first after master is regained, is drawn whole and shown
    /// with SetCrtc; later frames repaint their damage plus the previous frame's and are
    /// shown with a page flip, after which ``isBusy`` is true until ``handleEvents()``
    /// reads its completion. Empty damage shows nothing. With a rotation, `draw` gets the
    /// logical shadow surface and only this frame's damage.
    ///
    /// - Parameters:
    ///   - damage: What changed since the previous frame, in logical pixels.
    ///   - draw: Paints the given rectangles (and nothing else differently) on the surface.
    /// - Throws: ``DRMError`` after ``close()`` or while a flip is pending, for a failed
    ///   SetCrtc or page flip other than a loss of master, or whatever `draw` throws.
    public func present(damage: [IntRect], draw: (Surface, [IntRect]) throws -> Void) throws {
        guard !closed else { throw DRMError("present after close", errno: EBADF) }
        guard !flipPending else {
            throw DRMError("present while a page flip is pending", errno: EBUSY, hint: "wait for isBusy to clear")
        }
        let full = !crtcIsSet
        let damaged = full ? [bounds] : Damage.repaint(damage, in: bounds)
        if damaged.isEmpty { return }
        let back = buffers[backIndex]
        // What the back buffer must receive: this frame's damage and what it missed last frame.
        let repaint = full ? [bounds] : Damage.repaint(damaged + staleInBack, in: bounds)
        if let shadow {
            // The shadow always holds the latest logical picture: draw only the new damage.
            try draw(shadow.surface, damaged)
            for r in repaint { rotation.copy(r, from: shadow.surface, to: back.surface) }
        } else {
            try draw(back.surface, repaint)
        }
        let clips = Damage.normalize(repaint, in: bounds).map {
            rotation.panelRect($0, logicalWidth: width, logicalHeight: height)
        }
        markDirty(back, clips: clips)
        try show(back)
        if crtcIsSet {
            // The other buffer is the new back; it lacks this frame's damage (all of it after a modeset).
            staleInBack = full ? [bounds] : damaged
        }
    }

    /// Tells drivers that need it (virtio-gpu, SPI panels) which parts changed.
    private func markDirty(_ buffer: DumbFramebuffer, clips: [IntRect]) {
        guard !dirtyFBUnsupported else { return }
        do {
            try sys.dirtyFramebuffer(device.fd, id: buffer.framebufferID, clips: clips)
        } catch let e as DRMError where e.errno == ENOSYS {
            dirtyFBUnsupported = true  // bochs and most scanout-from-memory drivers: not needed
        } catch let e as DRMError where e.isPermissionLoss {
            loseMaster(e)
        } catch {
            DRMLog.warning("\(error)")
        }
    }

    private func show(_ buffer: DumbFramebuffer) throws {
        frameNumber &+= 1
        do {
            if crtcIsSet {
                try sys.pageFlip(device.fd, crtcID: crtcID, framebufferID: buffer.framebufferID, userData: frameNumber)
                flipPending = true
            } else {
                if masterLost {
                    // The program that held the display may have gone: ask for it back. Refused
                    // (EBUSY, EINVAL, EPERM) while another master exists; SetCrtc then says so.
                    try? sys.acquireMaster(device.fd)
                }
                try sys.setCrtc(
                    device.fd, crtcID: crtcID, framebufferID: buffer.framebufferID, x: 0, y: 0,
                    connectorIDs: [connector.id], mode: mode)
                crtcIsSet = true
                if masterLost {
                    masterLost = false
                    DisplayLog.notice("DRM master is back; screen redrawn")
                }
            }
            backIndex ^= 1
        } catch let e as DRMError where e.isPermissionLoss {
            loseMaster(e)
        }
    }

    private func loseMaster(_ error: DRMError) {
        if !masterLost {
            DRMLog.warning(
                "not DRM master (another program has the display: \(error)); "
                    + "still drawing, the whole frame is shown once the display is free")
        }
        masterLost = true
        crtcIsSet = false
    }

    /// Gives the display up (the console is switching away): waits for a pending
    /// flip, drops master, and shows nothing until ``acquireDisplay()``.
    public func releaseDisplay() {
        guard !closed, !released else { return }
        waitForPendingFlip()
        do { try sys.dropMaster(device.fd) } catch { DRMLog.warning("\(error)") }
        released = true
        crtcIsSet = false
    }

    /// Takes the display back (the console switched back): master, then the next
    /// `present` redraws everything and sets the CRTC.
    public func acquireDisplay() {
        guard !closed, released else { return }
        released = false
        do { try sys.acquireMaster(device.fd) } catch { DRMLog.warning("\(error)") }
    }

    /// Turns the CRTC off (SetCrtc with no framebuffer: the connector's
    /// display and, through its driver, the panel's backlight go dark), or
    /// lets the next `present` set it again with the whole frame. A display
    /// given up to another terminal is not touched; it stays dark when it comes back.
    public func setBlanked(_ blanked: Bool) {
        guard !closed, blanked != self.blanked else { return }
        self.blanked = blanked
        crtcIsSet = false
        guard blanked, !released else { return }
        waitForPendingFlip()
        do {
            try sys.setCrtc(device.fd, crtcID: crtcID, framebufferID: 0, x: 0, y: 0, connectorIDs: [], mode: nil)
        } catch {
            DRMLog.warning("turning the display off: \(error)")
        }
    }

    /// The kernel cannot cancel a flip, and freeing or dropping its framebuffer under
    /// it is refused: wait for its completion (at most a second).
    private func waitForPendingFlip() {
        guard flipPending else { return }
        do {
            if try sys.waitReadable(device.fd, timeoutMilliseconds: 1000) {
                for event in try sys.readEvents(device.fd) { if case .flipComplete = event { flipPending = false } }
            }
            if flipPending { DRMLog.warning("page flip did not complete within 1 s") }
        } catch {
            DRMLog.warning("\(error)")
        }
    }

    /// Throws the card's error when it no longer answers (ENODEV: its driver was unbound).
    public func checkDevice() throws {
        guard !closed else { return }
        _ = try sys.capability(device.fd, .dumbBuffer)
    }

    /// Shows the whole frame again with SetCrtc at the next ``present(damage:draw:)``
    /// (a monitor plugged back in has lost the CRTC's configuration).
    public func redisplay() {
        guard !closed, !released else { return }
        crtcIsSet = false
    }

    /// Reads the pending DRM events and clears ``isBusy``'s pending flip when its completion is among them.
    ///
    /// - Throws: ``DRMError`` when reading the device fails.
    public func handleEvents() throws {
        for event in try sys.readEvents(device.fd) {
            if case .flipComplete = event { flipPending = false }
        }
    }

    /// Waits for a pending flip (at most a second), restores the CRTC as it was,
    /// then releases the buffers in reverse order and closes the device.
    public func close() {
        guard !closed else { return }
        waitForPendingFlip()
        closed = true
        let fd = device.fd
        // Blanked, the CRTC was set (to off): the console's state comes back as after a frame.
        if crtcIsSet || (blanked && !released) {
            do {
                if savedCrtc.bufferID != 0, let mode = savedCrtc.mode {
                    try sys.setCrtc(
                        fd, crtcID: savedCrtc.id, framebufferID: savedCrtc.bufferID, x: savedCrtc.x, y: savedCrtc.y,
                        connectorIDs: [connector.id], mode: mode)
                } else {
                    try sys.setCrtc(fd, crtcID: crtcID, framebufferID: 0, x: 0, y: 0, connectorIDs: [], mode: nil)
                }
            } catch {
                DRMLog.teardownWarning(error, doing: "restoring the previous display state")
            }
        }
        for buffer in buffers.reversed() { buffer.release() }
        buffers.removeAll()
        device.close()
    }

    deinit { close() }
}
