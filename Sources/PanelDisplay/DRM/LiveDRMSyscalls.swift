import CDRM
import PanelGauge

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The real ``DRMSyscalls``: libdrm, `open`, `mmap`, `poll` and `read`.
///
/// The only file in paneld that imports libdrm. Each method converts C structs to
/// the Swift values of `DRMTypes.swift` and turns a failure into a ``DRMError``
/// with the errno. libdrm's own `drmIoctl` already retries EINTR and EAGAIN;
/// the plain syscalls here retry EINTR through ``retryingEINTR(_:)``.
package final class LiveDRMSyscalls: DRMSyscalls {
    package init() {}

    package func listCards() -> [String] {
        let numbers = DeviceNode.names(in: "/dev/dri").compactMap { $0.hasPrefix("card") ? Int($0.dropFirst(4)) : nil }
        return numbers.sorted().map { "/dev/dri/card\($0)" }
    }

    package func resolvedPath(_ path: String) -> String? { LiveDRMSyscalls.realPath(path) }

    package func sysfsDevice(ofCard path: String) -> String? {
        guard let name = path.split(separator: "/").last else { return nil }
        return LiveDRMSyscalls.realPath("/sys/class/drm/\(name)/device")
    }

    /// `realpath(3)`, nil when the path does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    package func open(_ path: String) throws -> Int32 {
        // Non-blocking, so reading events after a spurious wakeup (POLLERR, POLLHUP) returns
        // EAGAIN instead of stalling the daemon's loop; ioctls ignore the flag.
        try DeviceNode.open(path, flags: O_RDWR | O_NONBLOCK) { e in
            e == EACCES ? "run as a member of the 'video' group, or as root" : nil
        }
    }

    package func close(_ fd: Int32) { _ = Glibc.close(fd) }

    package func version(_ fd: Int32) throws -> DriverVersion {
        guard let v = drmGetVersion(fd) else { throw DRMError("drmGetVersion", errno: errno) }
        defer { drmFreeVersion(v) }
        func text(_ p: UnsafeMutablePointer<CChar>?, _ n: Int32) -> String {
            guard let p, n > 0 else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: p, count: Int(n)), as: UTF8.self)
        }
        return DriverVersion(
            name: text(v.pointee.name, v.pointee.name_len), description: text(v.pointee.desc, v.pointee.desc_len),
            date: text(v.pointee.date, v.pointee.date_len), major: v.pointee.version_major,
            minor: v.pointee.version_minor, patch: v.pointee.version_patchlevel)
    }

    package func capability(_ fd: Int32, _ cap: DRMCapability) throws -> UInt64 {
        var value: UInt64 = 0
        if drmGetCap(fd, cap.rawValue, &value) != 0 { throw DRMError("drmGetCap(\(cap.name))", errno: errno) }
        return value
    }

    package func resources(_ fd: Int32) throws -> CardResources {
        guard let r = drmModeGetResources(fd) else {
            throw DRMError("drmModeGetResources", errno: errno, hint: "the device has no KMS (render-only?)")
        }
        defer { drmModeFreeResources(r) }
        let p = r.pointee
        return CardResources(
            crtcIDs: array(p.crtcs, p.count_crtcs), connectorIDs: array(p.connectors, p.count_connectors),
            encoderIDs: array(p.encoders, p.count_encoders), framebufferIDs: array(p.fbs, p.count_fbs),
            minWidth: p.min_width, maxWidth: p.max_width, minHeight: p.min_height, maxHeight: p.max_height)
    }

    package func connector(_ fd: Int32, id: UInt32) throws -> ConnectorInfo {
        guard let c = drmModeGetConnector(fd, id) else { throw DRMError("drmModeGetConnector(\(id))", errno: errno) }
        defer { drmModeFreeConnector(c) }
        let p = c.pointee
        let modes = (0..<Int(max(0, p.count_modes))).map { LiveDRMSyscalls.mode(p.modes[$0]) }
        return ConnectorInfo(
            id: p.connector_id, type: p.connector_type, typeIndex: p.connector_type_id,
            status: ConnectionStatus(raw: p.connection.rawValue), widthMM: p.mmWidth, heightMM: p.mmHeight,
            modes: modes, encoderID: p.encoder_id, encoderIDs: array(p.encoders, p.count_encoders))
    }

    package func encoder(_ fd: Int32, id: UInt32) throws -> EncoderInfo {
        guard let e = drmModeGetEncoder(fd, id) else { throw DRMError("drmModeGetEncoder(\(id))", errno: errno) }
        defer { drmModeFreeEncoder(e) }
        return EncoderInfo(id: e.pointee.encoder_id, crtcID: e.pointee.crtc_id, possibleCrtcs: e.pointee.possible_crtcs)
    }

    package func crtc(_ fd: Int32, id: UInt32) throws -> CrtcState {
        guard let c = drmModeGetCrtc(fd, id) else { throw DRMError("drmModeGetCrtc(\(id))", errno: errno) }
        defer { drmModeFreeCrtc(c) }
        let p = c.pointee
        return CrtcState(
            id: p.crtc_id, bufferID: p.buffer_id, x: p.x, y: p.y,
            mode: p.mode_valid != 0 ? LiveDRMSyscalls.mode(p.mode) : nil)
    }

    package func setClientCapability(_ fd: Int32, _ cap: DRMClientCapability, _ value: UInt64) throws {
        if drmSetClientCap(fd, cap.rawValue, value) != 0 { throw DRMError("drmSetClientCap(\(cap))", errno: errno) }
    }

    package func planeIDs(_ fd: Int32) throws -> [UInt32] {
        guard let r = drmModeGetPlaneResources(fd) else { throw DRMError("drmModeGetPlaneResources", errno: errno) }
        defer { drmModeFreePlaneResources(r) }
        return array(r.pointee.planes, Int32(r.pointee.count_planes))
    }

    package func plane(_ fd: Int32, id: UInt32) throws -> PlaneInfo {
        guard let p = drmModeGetPlane(fd, id) else { throw DRMError("drmModeGetPlane(\(id))", errno: errno) }
        defer { drmModeFreePlane(p) }
        var kind: PlaneInfo.Kind? = nil
        if let props = drmModeObjectGetProperties(fd, id, UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_PLANE)) {
            defer { drmModeFreeObjectProperties(props) }
            for i in 0..<Int(props.pointee.count_props) {
                guard let prop = drmModeGetProperty(fd, props.pointee.props[i]) else { continue }
                let name = withUnsafeBytes(of: prop.pointee.name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                drmModeFreeProperty(prop)
                if name == "type" { kind = PlaneInfo.Kind(rawValue: props.pointee.prop_values[i]) }
            }
        }
        return PlaneInfo(
            id: p.pointee.plane_id, kind: kind, crtcID: p.pointee.crtc_id, framebufferID: p.pointee.fb_id,
            possibleCrtcs: p.pointee.possible_crtcs, formats: array(p.pointee.formats, Int32(p.pointee.count_formats)))
    }

    package func createDumb(_ fd: Int32, width: UInt32, height: UInt32, bitsPerPixel: UInt32) throws -> DumbBufferInfo {
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        let rc = drmModeCreateDumbBuffer(fd, width, height, bitsPerPixel, 0, &handle, &pitch, &size)
        if rc != 0 { throw DRMError("create dumb buffer \(width)x\(height) \(bitsPerPixel) bpp", errno: -rc) }
        return DumbBufferInfo(handle: handle, pitch: pitch, size: size)
    }

    package func addFramebuffer(
        _ fd: Int32, width: UInt32, height: UInt32, fourcc: UInt32, handle: UInt32, pitch: UInt32
    ) throws -> UInt32 {
        var id: UInt32 = 0
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        let rc = withUnsafeMutablePointer(to: &handles) { h in
            withUnsafeMutablePointer(to: &pitches) { p in
                withUnsafeMutablePointer(to: &offsets) { o in
                    drmModeAddFB2(
                        fd, width, height, fourcc, UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                        UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                        UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &id, 0)
                }
            }
        }
        if rc != 0 { throw DRMError("drmModeAddFB2(handle \(handle))", errno: errno) }
        return id
    }

    package func mapDumbOffset(_ fd: Int32, handle: UInt32) throws -> UInt64 {
        var offset: UInt64 = 0
        let rc = drmModeMapDumbBuffer(fd, handle, &offset)
        if rc != 0 { throw DRMError("map dumb buffer \(handle)", errno: -rc) }
        return offset
    }

    package func mmap(_ fd: Int32, size: Int, offset: UInt64) throws -> UnsafeMutableRawPointer {
        let p = Glibc.mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(bitPattern: UInt(offset)))
        guard let p, p != MAP_FAILED else { throw DRMError("mmap(\(size) bytes)", errno: errno) }
        return p
    }

    package func munmap(_ address: UnsafeMutableRawPointer, size: Int) throws {
        if Glibc.munmap(address, size) != 0 { throw DRMError("munmap", errno: errno) }
    }

    package func removeFramebuffer(_ fd: Int32, id: UInt32) throws {
        if drmModeRmFB(fd, id) != 0 { throw DRMError("drmModeRmFB(\(id))", errno: errno) }
    }

    package func destroyDumb(_ fd: Int32, handle: UInt32) throws {
        let rc = drmModeDestroyDumbBuffer(fd, handle)
        if rc != 0 { throw DRMError("destroy dumb buffer \(handle)", errno: -rc) }
    }

    package func acquireMaster(_ fd: Int32) throws {
        if drmSetMaster(fd) != 0 { throw DRMError("drmSetMaster", errno: errno) }
    }

    package func dropMaster(_ fd: Int32) throws {
        if drmDropMaster(fd) != 0 { throw DRMError("drmDropMaster", errno: errno) }
    }

    package func setCrtc(
        _ fd: Int32, crtcID: UInt32, framebufferID: UInt32, x: UInt32, y: UInt32,
        connectorIDs: [UInt32], mode: ModeInfo?
    ) throws {
        var connectors = connectorIDs
        var raw = mode.map(LiveDRMSyscalls.raw)
        let rc = connectors.withUnsafeMutableBufferPointer { ids in
            if raw != nil {
                return drmModeSetCrtc(fd, crtcID, framebufferID, x, y, ids.baseAddress, Int32(ids.count), &raw!)
            }
            return drmModeSetCrtc(fd, crtcID, framebufferID, x, y, ids.baseAddress, Int32(ids.count), nil)
        }
        if rc != 0 { throw DRMError("drmModeSetCrtc(crtc \(crtcID), fb \(framebufferID))", errno: errno) }
    }

    package func pageFlip(_ fd: Int32, crtcID: UInt32, framebufferID: UInt32, userData: UInt64) throws {
        let rc = drmModePageFlip(
            fd, crtcID, framebufferID, UInt32(DRM_MODE_PAGE_FLIP_EVENT),
            UnsafeMutableRawPointer(bitPattern: UInt(userData)))
        if rc != 0 { throw DRMError("drmModePageFlip(crtc \(crtcID), fb \(framebufferID))", errno: errno) }
    }

    package func dirtyFramebuffer(_ fd: Int32, id: UInt32, clips: [IntRect]) throws {
        var rects = clips.map {
            drmModeClip(
                x1: UInt16(clamping: $0.minX), y1: UInt16(clamping: $0.minY), x2: UInt16(clamping: $0.maxX),
                y2: UInt16(clamping: $0.maxY))
        }
        let rc = rects.withUnsafeMutableBufferPointer { drmModeDirtyFB(fd, id, $0.baseAddress, UInt32($0.count)) }
        // libdrm returns -errno here rather than setting errno.
        if rc != 0 { throw DRMError("drmModeDirtyFB(fb \(id))", errno: rc < 0 ? -rc : errno) }
    }

    package func readEvents(_ fd: Int32) throws -> [DRMEvent] {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = try buffer.withUnsafeMutableBytes { raw in
            try retryingEINTR { Glibc.read(fd, raw.baseAddress, raw.count) }
        }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return [] }
        if n < 0 { throw DRMError("read(DRM events)", errno: errno) }
        return DRMEventParser.parse(Array(buffer[0..<n]))
    }

    package func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let n = try retryingEINTR { poll(&p, 1, timeoutMilliseconds) }
        if n < 0 { throw DRMError("poll(DRM fd)", errno: errno) }
        return n > 0
    }

    // MARK: - conversions

    private func array(_ p: UnsafeMutablePointer<UInt32>?, _ n: Int32) -> [UInt32] {
        guard let p, n > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: p, count: Int(n)))
    }

    package static func mode(_ m: drmModeModeInfo) -> ModeInfo {
        let name = withUnsafeBytes(of: m.name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return ModeInfo(
            clock: m.clock, hdisplay: m.hdisplay, hsyncStart: m.hsync_start, hsyncEnd: m.hsync_end, htotal: m.htotal,
            hskew: m.hskew, vdisplay: m.vdisplay, vsyncStart: m.vsync_start, vsyncEnd: m.vsync_end, vtotal: m.vtotal,
            vscan: m.vscan, vrefresh: m.vrefresh, flags: m.flags, type: m.type, name: name)
    }

    package static func raw(_ m: ModeInfo) -> drmModeModeInfo {
        var r = drmModeModeInfo()
        r.clock = m.clock
        r.hdisplay = m.hdisplay
        r.hsync_start = m.hsyncStart
        r.hsync_end = m.hsyncEnd
        r.htotal = m.htotal
        r.hskew = m.hskew
        r.vdisplay = m.vdisplay
        r.vsync_start = m.vsyncStart
        r.vsync_end = m.vsyncEnd
        r.vtotal = m.vtotal
        r.vscan = m.vscan
        r.vrefresh = m.vrefresh
        r.flags = m.flags
        r.type = m.type
        withUnsafeMutableBytes(of: &r.name) { dst in
            for (i, b) in m.name.utf8.prefix(dst.count - 1).enumerated() { dst[i] = b }
        }
        return r
    }
}

/// Runs a syscall again while it fails with EINTR (the swift-system pattern).
package func retryingEINTR<T: FixedWidthInteger>(_ body: () -> T) throws -> T {
    while true {
        let r = body()
        if r == -1 && errno == EINTR { continue }
        return r
    }
}

/// Splits the bytes read from a DRM descriptor into events.
///
/// Layout (`struct drm_event` / `drm_event_vblank` in drm.h, little-endian):
/// `type: u32, length: u32`, then for vblank and flip events `user_data: u64,
/// tv_sec: u32, tv_usec: u32, sequence: u32, crtc_id: u32` (32 bytes in all).
package enum DRMEventParser {
    package static let flipComplete: UInt32 = 0x02

    package static func parse(_ bytes: [UInt8]) -> [DRMEvent] {
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        var events: [DRMEvent] = []
        var i = 0
        while i + 8 <= bytes.count {
            let type = u32(i), length = Int(u32(i + 4))
            guard length >= 8, i + length <= bytes.count else { break }
            if type == flipComplete && length >= 32 {
                let userData = UInt64(u32(i + 8)) | UInt64(u32(i + 12)) << 32
                events.append(.flipComplete(crtcID: u32(i + 28), userData: userData))
            } else {
                events.append(.other(type: type))
            }
            i += length
        }
        return events
    }
}
