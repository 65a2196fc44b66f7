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

/// One card as probing saw it, for ``chooseDisplay(_:request:)``: what it can do
/// and, when it can drive a display, its connectors with their modes.
package struct CardDescription: Equatable, Sendable {
    package var probe: DeviceProbe
    /// Empty when the card is not usable or its connectors could not be read.
    package var connectors: [ConnectorInfo] = []

    package init(probe: DeviceProbe, connectors: [ConnectorInfo] = []) {
        self.probe = probe
        self.connectors = connectors
    }

    /// `card1 (bochs-drm)`: how logs name the card.
    package var label: String {
        let name = probe.path.split(separator: "/").last.map(String.init) ?? probe.path
        return "\(name) (\(probe.driver))"
    }
}

/// What the user asked for: every field may be left to the choice.
package struct DisplayRequest: Equatable, Sendable {
    /// A card path (`/dev/dri/card1`), already resolved when given as a `/dev/dri/by-path/` link.
    package var devicePath: String? = nil
    /// A connector name (`HDMI-A-1`, `DSI-1`), searched across the cards, case-insensitive.
    package var connector: String? = nil
    /// The layout's mode.
    package var mode: ModeRequest? = nil

    package init(devicePath: String? = nil, connector: String? = nil, mode: ModeRequest? = nil) {
        self.devicePath = devicePath
        self.connector = connector
        self.mode = mode
    }
}

/// The card, connector and mode to show frames on, and why.
package struct DisplayChoice: Equatable, Sendable {
    package var devicePath: String
    package var connector: ConnectorInfo
    package var mode: ModeInfo
    /// Set when the request's mode is not offered by the chosen connector: one
    /// warning naming the mode shown instead and the modes offered.
    package var modeWarning: String?
    /// Why each other card or connector was not taken, one line each.
    package var passedOver: [String]
}

/// Chooses a display among all cards: pure, over what probing found.
///
/// The order of preference: a connected connector that offers the requested
/// mode, then any connected connector (at the mode the request names if
/// offered, else the connector's preferred mode, with ``DisplayChoice/modeWarning``
/// set). Cards come in the order given, connectors in the card's order. A request
/// for a card or a connector limits the search to it; a named connector may be in
/// the `unknown` state (some panels never report `connected`) but not
/// `disconnected`. A card that cannot drive a display, or a connector that is
/// disconnected or offers no modes, is never chosen: the error lists why each was
/// passed over.
package func chooseDisplay(_ cards: [CardDescription], request: DisplayRequest) throws -> DisplayChoice {
    if cards.isEmpty {
        throw DRMError.notFound("no DRM device: /dev/dri/card* does not exist (is the display driver loaded?)")
    }
    var passedOver: [String] = []
    // Candidates in preference order within each tier: (card, connector).
    var offeringMode: [(CardDescription, ConnectorInfo)] = []
    var connected: [(CardDescription, ConnectorInfo)] = []
    for card in cards {
        if let path = request.devicePath, card.probe.path != path {
            passedOver.append("\(card.label): not the display asked for (\(path))")
            continue
        }
        if let why = card.probe.rejection {
            passedOver.append("\(card.probe.path): \(why)")
            continue
        }
        var any = false
        for c in card.connectors {
            if let name = request.connector, c.name.lowercased() != name.lowercased() { continue }
            any = true
            let usable = request.connector == nil ? c.status == .connected : c.status != .disconnected
            if !usable {
                passedOver.append("\(card.label) \(c.name): \(c.status)")
            } else if c.modes.isEmpty {
                passedOver.append("\(card.label) \(c.name): offers no modes")
            } else if let r = request.mode, !c.modes.contains(where: { r.matches($0) }) {
                connected.append((card, c))
            } else {
                offeringMode.append((card, c))
            }
        }
        if !any {
            let names = card.connectors.map { "\($0.name) (\($0.status))" }.joined(separator: ", ")
            let what = request.connector.map { "no connector named \($0)" } ?? "no connectors"
            passedOver.append("\(card.label): \(what); it has: \(names.isEmpty ? "none" : names)")
        }
    }
    if let (card, c) = offeringMode.first {
        for (other, oc) in offeringMode.dropFirst() + connected {
            passedOver.append("\(other.label) \(oc.name): connected, but \(card.label) \(c.name) comes first")
        }
        return DisplayChoice(
            devicePath: card.probe.path, connector: c, mode: try chooseMode(c.modes, requested: request.mode),
            modeWarning: nil, passedOver: passedOver)
    }
    if let (card, c) = connected.first {
        for (other, oc) in connected.dropFirst() {
            passedOver.append("\(other.label) \(oc.name): connected, but \(card.label) \(c.name) comes first")
        }
        let mode = try chooseMode(c.modes, requested: nil)
        let offered = c.modes.map { "\($0.hdisplay)x\($0.vdisplay)@\($0.vrefresh)" }.joined(separator: ", ")
        let warning =
            "no connected display offers the layout's mode \(request.mode!); showing it at \(c.name)'s "
            + "mode \(mode.hdisplay)x\(mode.vdisplay)@\(mode.vrefresh) (offered: \(offered))"
        return DisplayChoice(
            devicePath: card.probe.path, connector: c, mode: mode, modeWarning: warning, passedOver: passedOver)
    }
    throw DRMError.notFound("no DRM display is connected: \(passedOver.joined(separator: "; "))")
}

extension ModeRequest {
    /// True when `mode` has this size (and this refresh rate, when one is asked for).
    package func matches(_ mode: ModeInfo) -> Bool {
        mode.width == width && mode.height == height && (refresh == nil || Int(mode.vrefresh) == refresh)
    }
}

/// A framebuffer device as sysfs describes it, for ``chooseFallbackFramebuffer(_:rejectedCardDevices:)``.
package struct FramebufferDescription: Equatable, Sendable {
    /// `/dev/fb0`.
    package var path: String
    /// `/sys/class/graphics/fbN/name`, e.g. `bochs-drmfb`, `simple`, `fb_ili9341`.
    package var name: String
    /// Where `/sys/class/graphics/fbN/device` leads (resolved), nil when it has no device link.
    package var device: String?

    package init(path: String, name: String, device: String?) {
        self.path = path
        self.name = name
        self.device = device
    }
}

/// The framebuffer to fall back to when no DRM display was chosen: the first one
/// that is not the fbdev emulation of a card just passed over. A DRM card's
/// emulation shares the card's device (`/sys/class/drm/cardN/device`); one
/// without a device link is recognised by its name (`*drmfb`) while any card was
/// passed over. `rejectedCardDevices` holds those cards' resolved device paths
/// (nil where sysfs had none).
package func chooseFallbackFramebuffer(
    _ framebuffers: [FramebufferDescription], rejectedCardDevices: [String?]
) -> FramebufferDescription? {
    framebuffers.first { fb in
        if let device = fb.device, rejectedCardDevices.contains(device) { return false }
        if fb.device == nil, fb.name.hasSuffix("drmfb"), !rejectedCardDevices.isEmpty { return false }
        return true
    }
}
