import PanelGauge

/// Pure decisions for bringing up a display: which card, connector, mode and CRTC.
///
/// The policy follows kmscube and drm_info: a user's explicit choice wins, else
/// the first thing that can work. None of these functions does I/O; the probing
/// that feeds them lives in `DRMDevice.swift`.

/// What probing one `/dev/dri/card*` found.
package struct DeviceProbe: Equatable, Sendable {
    package var path: String
    package var driver: String
    /// The card has CRTCs and connectors (`drmModeGetResources` worked and is non-empty).
    package var hasKMS: Bool
    /// `DRM_CAP_DUMB_BUFFER` is 1.
    package var hasDumbBuffers: Bool
    /// Why probing failed (open or ioctl error), if it did.
    package var failure: String? = nil

    package var isUsable: Bool { failure == nil && hasKMS && hasDumbBuffers }

    /// Why this card cannot drive a display, or nil when it can.
    package var rejection: String? {
        if let failure { return failure }
        if !hasKMS { return "\(driver) has no KMS outputs (render-only device)" }
        if !hasDumbBuffers { return "\(driver) has no dumb buffers" }
        return nil
    }
}

/// The first usable card in probe order. On a Raspberry Pi 4/5, card0 can be the
/// render-only v3d and the display controller (vc4) another card: it is skipped.
package func chooseDevice(_ probes: [DeviceProbe]) throws -> DeviceProbe {
    if let found = probes.first(where: \.isUsable) { return found }
    if probes.isEmpty {
        throw DRMError.notFound("no DRM device: /dev/dri/card* does not exist (is the display driver loaded?)")
    }
    let reasons = probes.map { "\($0.path): \($0.rejection ?? "unusable")" }.joined(separator: "; ")
    throw DRMError.notFound("no DRM device can drive a display: \(reasons)")
}

/// The connector named `name` (e.g. `HDMI-A-1`, case-insensitive), which must be
/// connected; or, without a name, the first connected one that has modes.
package func chooseConnector(_ connectors: [ConnectorInfo], named name: String?) throws -> ConnectorInfo {
    let summary = connectors.map { "\($0.name) (\($0.status))" }.joined(separator: ", ")
    if let name {
        guard let c = connectors.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw DRMError.notFound("no connector named \(name); this card has: \(summary.isEmpty ? "none" : summary)")
        }
        guard c.status != .disconnected else { throw DRMError.notFound("connector \(c.name) is disconnected") }
        guard !c.modes.isEmpty else { throw DRMError.notFound("connector \(c.name) offers no modes") }
        return c
    }
    if let c = connectors.first(where: { $0.status == .connected && !$0.modes.isEmpty }) { return c }
    throw DRMError.notFound("no connected connector with modes; this card has: \(summary.isEmpty ? "none" : summary)")
}

/// A mode the user asked for (in the layout or on the command line):
/// `WIDTHxHEIGHT` with an optional `@HZ`.
public struct ModeRequest: Equatable, Sendable, CustomStringConvertible {
    /// Horizontal pixels.
    public var width: Int
    /// Vertical pixels.
    public var height: Int
    /// Refresh rate in Hz; nil takes the best the connector offers at that size.
    public var refresh: Int?

    /// A mode of `width` x `height`, optionally at `refresh` Hz.
    public init(width: Int, height: Int, refresh: Int? = nil) {
        self.width = width
        self.height = height
        self.refresh = refresh
    }

    /// The largest side a display can have here: 8192 (DRM drivers' framebuffer
    /// limits are 8192 or less on the hardware paneld runs on, 16384 on a few
    /// desktop GPUs; beyond 8K UHD nothing is a panel).
    package static let maxSide = 8192
    /// The most pixels a display can have: 8K UHD, 7680x4320 (a 127 MiB XRGB8888 frame).
    package static let maxPixels = 7680 * 4320
    /// The caps, in words, for error messages.
    package static let limits = "at most \(maxSide) pixels a side and \(maxPixels) pixels in all (7680x4320)"

    /// Parses `800x480` or `800x480@60` within the caps above, refresh 1...1000;
    /// nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), (1...ModeRequest.maxSide).contains(w),
            (1...ModeRequest.maxSide).contains(h), w * h <= ModeRequest.maxPixels
        else { return nil }
        var hz: Int? = nil
        if parts.count == 2 {
            guard let r = Int(parts[1]), (1...1000).contains(r) else { return nil }
            hz = r
        }
        self.init(width: w, height: h, refresh: hz)
    }

    /// `800x480` or `800x480@60`.
    public var description: String { "\(width)x\(height)" + (refresh.map { "@\($0)" } ?? "") }
}

/// The user's mode if given (the first listed match, which drivers sort best
/// first), else the connector's preferred mode, else the largest (ties: the
/// higher refresh rate).
package func chooseMode(_ modes: [ModeInfo], requested: ModeRequest?) throws -> ModeInfo {
    guard !modes.isEmpty else { throw DRMError.notFound("the connector offers no modes") }
    if let r = requested {
        if let m = modes.first(where: {
            $0.width == r.width && $0.height == r.height && (r.refresh == nil || Int($0.vrefresh) == r.refresh)
        }) {
            return m
        }
        let offered = modes.map { "\($0.hdisplay)x\($0.vdisplay)@\($0.vrefresh)" }.joined(separator: ", ")
        throw DRMError.notFound("mode \(r) is not offered; the connector offers: \(offered)")
    }
    if let preferred = modes.first(where: \.isPreferred) { return preferred }
    return modes.max { a, b in
        (a.width * a.height, a.vrefresh) < (b.width * b.height, b.vrefresh)
    }!
}

/// The CRTC to drive a connector: the one its current encoder already uses, else
/// the first CRTC (by index in `crtcIDs`) that one of its encoders can use.
package func chooseCrtc(connector: ConnectorInfo, encoders: [EncoderInfo], crtcIDs: [UInt32]) throws -> UInt32 {
    if let current = encoders.first(where: { $0.id == connector.encoderID }), current.crtcID != 0,
        crtcIDs.contains(current.crtcID)
    {
        return current.crtcID
    }
    for encoderID in connector.encoderIDs {
        guard let e = encoders.first(where: { $0.id == encoderID }) else { continue }
        for (index, crtc) in crtcIDs.enumerated() where index < 32 && e.possibleCrtcs & (1 << UInt32(index)) != 0 {
            return crtc
        }
    }
    throw DRMError.notFound("no CRTC can drive connector \(connector.name)")
}

/// Checks that the CRTC at `crtcIndex` can scan out `format`, on its primary plane
/// when the driver says which plane that is (else on any plane it can use). bochs
/// and virtio-gpu, for example, take only 32-bit formats, so RGB565 must fail here
/// with the list of what would work, not later with a bare EINVAL from AddFB2.
/// An empty plane list (the driver told nothing) passes.
package func checkScanoutFormat(_ format: PixelFormat, planes: [PlaneInfo], crtcIndex: Int) throws {
    let usable = planes.filter { crtcIndex < 32 && $0.possibleCrtcs & (1 << UInt32(crtcIndex)) != 0 }
    let primaries = usable.filter { $0.kind == .primary }
    let candidates = primaries.isEmpty ? usable : primaries
    guard !candidates.isEmpty else { return }
    let code = DRMFourCC.code(of: format)
    if candidates.contains(where: { $0.formats.contains(code) }) { return }
    var offered: [String] = []
    for f in candidates.flatMap(\.formats).map(DRMFourCC.name) where !offered.contains(f) { offered.append(f) }
    throw DRMError.notFound(
        "the display cannot scan out \(format) (\(DRMFourCC.name(code))); its plane takes: \(offered.joined(separator: ", "))"
    )
}
