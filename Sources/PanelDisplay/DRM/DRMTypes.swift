import PanelGauge

/// Swift values for the DRM/KMS objects paneld reads, independent of libdrm.
///
/// The live seam (`LiveDRMSyscalls`) converts libdrm's structs into these; tests
/// build them directly. Names follow the kernel's (`drm_mode.h`).

/// One display mode (`struct drm_mode_modeinfo`): timings in pixels and lines,
/// `clock` in kHz, `vrefresh` in Hz.
package struct ModeInfo: Equatable, Sendable, CustomStringConvertible {
    package var clock: UInt32 = 0
    package var hdisplay: UInt16
    package var hsyncStart: UInt16 = 0
    package var hsyncEnd: UInt16 = 0
    package var htotal: UInt16 = 0
    package var hskew: UInt16 = 0
    package var vdisplay: UInt16
    package var vsyncStart: UInt16 = 0
    package var vsyncEnd: UInt16 = 0
    package var vtotal: UInt16 = 0
    package var vscan: UInt16 = 0
    package var vrefresh: UInt32
    package var flags: UInt32 = 0
    /// `DRM_MODE_TYPE_*` bits; ``isPreferred`` reads the one that matters here.
    package var type: UInt32 = 0
    package var name: String = ""

    /// `DRM_MODE_TYPE_PREFERRED` (1 << 3): the mode the sink says it wants.
    package static let typePreferred: UInt32 = 1 << 3
    /// `DRM_MODE_TYPE_DRIVER` (1 << 6).
    package static let typeDriver: UInt32 = 1 << 6

    package var isPreferred: Bool { type & ModeInfo.typePreferred != 0 }
    package var width: Int { Int(hdisplay) }
    package var height: Int { Int(vdisplay) }

    /// `800x480@60`, plus ` preferred` when flagged.
    package var description: String {
        "\(hdisplay)x\(vdisplay)@\(vrefresh)" + (isPreferred ? " preferred" : "")
    }

    /// Every stored field, as the memberwise initializer (which is internal) takes them.
    package init(
        clock: UInt32 = 0, hdisplay: UInt16, hsyncStart: UInt16 = 0, hsyncEnd: UInt16 = 0, htotal: UInt16 = 0,
        hskew: UInt16 = 0, vdisplay: UInt16, vsyncStart: UInt16 = 0, vsyncEnd: UInt16 = 0, vtotal: UInt16 = 0,
        vscan: UInt16 = 0, vrefresh: UInt32, flags: UInt32 = 0, type: UInt32 = 0, name: String = ""
    ) {
        self.clock = clock
        self.hdisplay = hdisplay
        self.hsyncStart = hsyncStart
        self.hsyncEnd = hsyncEnd
        self.htotal = htotal
        self.hskew = hskew
        self.vdisplay = vdisplay
        self.vsyncStart = vsyncStart
        self.vsyncEnd = vsyncEnd
        self.vtotal = vtotal
        self.vscan = vscan
        self.vrefresh = vrefresh
        self.flags = flags
        self.type = type
        self.name = name
    }
}

/// `DRM_MODE_CONNECTED` and friends.
package enum ConnectionStatus: UInt32, Sendable {
    case connected = 1
    case disconnected = 2
    case unknown = 3

    package init(raw: UInt32) { self = ConnectionStatus(rawValue: raw) ?? .unknown }
}

/// A connector (`drmModeConnector`): the port a panel is attached to.
package struct ConnectorInfo: Equatable, Sendable {
    package var id: UInt32
    /// `DRM_MODE_CONNECTOR_*`; see ``ConnectorType``.
    package var type: UInt32
    /// The 1-based index among connectors of the same type (the `1` in `HDMI-A-1`).
    package var typeIndex: UInt32
    package var status: ConnectionStatus
    package var widthMM: UInt32 = 0
    package var heightMM: UInt32 = 0
    package var modes: [ModeInfo]
    /// The encoder currently driving this connector, 0 if none.
    package var encoderID: UInt32 = 0
    package var encoderIDs: [UInt32] = []

    /// The kernel's name for it, e.g. `HDMI-A-1`, `DSI-1`, `Virtual-1`.
    package var name: String { "\(ConnectorType.name(of: type))-\(typeIndex)" }

    /// Every stored field, as the memberwise initializer (which is internal) takes them.
    package init(
        id: UInt32, type: UInt32, typeIndex: UInt32, status: ConnectionStatus, widthMM: UInt32 = 0,
        heightMM: UInt32 = 0, modes: [ModeInfo], encoderID: UInt32 = 0, encoderIDs: [UInt32] = []
    ) {
        self.id = id
        self.type = type
        self.typeIndex = typeIndex
        self.status = status
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.modes = modes
        self.encoderID = encoderID
        self.encoderIDs = encoderIDs
    }
}

/// An encoder (`drmModeEncoder`): which CRTCs can feed it.
package struct EncoderInfo: Equatable, Sendable {
    package var id: UInt32
    /// The CRTC currently attached, 0 if none.
    package var crtcID: UInt32
    /// Bit `i` set means the CRTC at index `i` of ``CardResources/crtcIDs`` can drive it.
    package var possibleCrtcs: UInt32

    /// Every stored field, as the memberwise initializer (which is internal) takes them.
    package init(id: UInt32, crtcID: UInt32, possibleCrtcs: UInt32) {
        self.id = id
        self.crtcID = crtcID
        self.possibleCrtcs = possibleCrtcs
    }
}

/// A CRTC's current state (`drmModeCrtc`), saved at start and restored at exit.
package struct CrtcState: Equatable, Sendable {
    package var id: UInt32
    /// The framebuffer being scanned out, 0 if none.
    package var bufferID: UInt32
    package var x: UInt32
    package var y: UInt32
    /// The mode set on it, nil when the CRTC is off.
    package var mode: ModeInfo?

    /// Every stored field, as the memberwise initializer (which is internal) takes them.
    package init(id: UInt32, bufferID: UInt32, x: UInt32, y: UInt32, mode: ModeInfo? = nil) {
        self.id = id
        self.bufferID = bufferID
        self.x = x
        self.y = y
        self.mode = mode
    }
}

/// The KMS objects of one card (`drmModeRes`).
package struct CardResources: Equatable, Sendable {
    package var crtcIDs: [UInt32]
    package var connectorIDs: [UInt32]
    package var encoderIDs: [UInt32]
    package var framebufferIDs: [UInt32] = []
    package var minWidth: UInt32 = 0
    package var maxWidth: UInt32 = 0
    package var minHeight: UInt32 = 0
    package var maxHeight: UInt32 = 0

    /// Every stored field, as the memberwise initializer (which is internal) takes them.
    package init(
        crtcIDs: [UInt32], connectorIDs: [UInt32], encoderIDs: [UInt32], framebufferIDs: [UInt32] = [],
        minWidth: UInt32 = 0, maxWidth: UInt32 = 0, minHeight: UInt32 = 0, maxHeight: UInt32 = 0
    ) {
        self.crtcIDs = crtcIDs
        self.connectorIDs = connectorIDs
        self.encoderIDs = encoderIDs
        self.framebufferIDs = framebufferIDs
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.minHeight = minHeight
        self.maxHeight = maxHeight
    }
}

/// What `DRM_IOCTL_VERSION` says about the driver.
package struct DriverVersion: Equatable, Sendable {
    package var name: String
    package var description: String
    package var date: String = ""
    package var major: Int32 = 0
    package var minor: Int32 = 0
    package var patch: Int32 = 0

    /// Every stored field, as the memberwise initializer (which is internal) takes them.
    package init(
        name: String, description: String, date: String = "", major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
    ) {
        self.name = name
        self.description = description
        self.date = date
        self.major = major
        self.minor = minor
        self.patch = patch
    }
}

/// A dumb buffer the kernel created: its handle, row pitch and total size in bytes.
package struct DumbBufferInfo: Equatable, Sendable {
    package var handle: UInt32
    package var pitch: UInt32
    package var size: UInt64

    /// Every stored field, as the memberwise initializer (which is internal) takes them.
    package init(handle: UInt32, pitch: UInt32, size: UInt64) {
        self.handle = handle
        self.pitch = pitch
        self.size = size
    }
}

/// An event read from the DRM file descriptor.
package enum DRMEvent: Equatable, Sendable {
    /// `DRM_EVENT_FLIP_COMPLETE` for the CRTC, with the user data passed to the flip.
    case flipComplete(crtcID: UInt32, userData: UInt64)
    /// `DRM_EVENT_VBLANK` or any event paneld does not ask for.
    case other(type: UInt32)
}

/// The DRM capabilities (`DRM_CAP_*`) paneld reads, with their kernel values.
package enum DRMCapability: UInt64, CaseIterable, Sendable {
    case dumbBuffer = 0x1
    case vblankHighCrtc = 0x2
    case dumbPreferredDepth = 0x3
    case dumbPreferShadow = 0x4
    case prime = 0x5
    case timestampMonotonic = 0x6
    case asyncPageFlip = 0x7
    case cursorWidth = 0x8
    case cursorHeight = 0x9
    case addFB2Modifiers = 0x10
    case pageFlipTarget = 0x11
    case crtcInVblankEvent = 0x12
    case syncobj = 0x13
    case syncobjTimeline = 0x14

    /// The macro name, as drm_info prints it.
    package var name: String {
        switch self {
        case .dumbBuffer: "DRM_CAP_DUMB_BUFFER"
        case .vblankHighCrtc: "DRM_CAP_VBLANK_HIGH_CRTC"
        case .dumbPreferredDepth: "DRM_CAP_DUMB_PREFERRED_DEPTH"
        case .dumbPreferShadow: "DRM_CAP_DUMB_PREFER_SHADOW"
        case .prime: "DRM_CAP_PRIME"
        case .timestampMonotonic: "DRM_CAP_TIMESTAMP_MONOTONIC"
        case .asyncPageFlip: "DRM_CAP_ASYNC_PAGE_FLIP"
        case .cursorWidth: "DRM_CAP_CURSOR_WIDTH"
        case .cursorHeight: "DRM_CAP_CURSOR_HEIGHT"
        case .addFB2Modifiers: "DRM_CAP_ADDFB2_MODIFIERS"
        case .pageFlipTarget: "DRM_CAP_PAGE_FLIP_TARGET"
        case .crtcInVblankEvent: "DRM_CAP_CRTC_IN_VBLANK_EVENT"
        case .syncobj: "DRM_CAP_SYNCOBJ"
        case .syncobjTimeline: "DRM_CAP_SYNCOBJ_TIMELINE"
        }
    }
}

/// The client capabilities (`DRM_CLIENT_CAP_*`) paneld sets.
package enum DRMClientCapability: UInt64, Sendable {
    /// Lists primary and cursor planes too, so their formats can be checked.
    case universalPlanes = 2
}

/// Names of `DRM_MODE_CONNECTOR_*`, as the kernel spells them in sysfs
/// (`drm_connector_enum_list` in drivers/gpu/drm/drm_connector.c).
package enum ConnectorType {
    package static let names: [UInt32: String] = [
        0: "Unknown", 1: "VGA", 2: "DVI-I", 3: "DVI-D", 4: "DVI-A", 5: "Composite",
        6: "SVIDEO", 7: "LVDS", 8: "Component", 9: "DIN", 10: "DP", 11: "HDMI-A",
        12: "HDMI-B", 13: "TV", 14: "eDP", 15: "Virtual", 16: "DSI", 17: "DPI",
        18: "Writeback", 19: "SPI", 20: "USB",
    ]

    package static func name(of type: UInt32) -> String { names[type] ?? "Unknown\(type)" }
}

/// A plane (`drmModePlane`): a layer a CRTC blends, and the formats it scans out.
package struct PlaneInfo: Equatable, Sendable {
    /// The `type` property of a plane (`DRM_PLANE_TYPE_*`).
    package enum Kind: UInt64, Sendable {
        case overlay = 0
        case primary = 1
        case cursor = 2
    }

    package var id: UInt32
    /// nil when the driver did not say (no `type` property).
    package var kind: Kind?
    package var crtcID: UInt32 = 0
    package var framebufferID: UInt32 = 0
    /// Bit `i` set means the CRTC at index `i` of ``CardResources/crtcIDs`` can use it.
    package var possibleCrtcs: UInt32
    /// DRM fourcc codes.
    package var formats: [UInt32]

    /// Every stored field, as the memberwise initializer (which is internal) takes them.
    package init(
        id: UInt32, kind: Kind? = nil, crtcID: UInt32 = 0, framebufferID: UInt32 = 0, possibleCrtcs: UInt32,
        formats: [UInt32]
    ) {
        self.id = id
        self.kind = kind
        self.crtcID = crtcID
        self.framebufferID = framebufferID
        self.possibleCrtcs = possibleCrtcs
        self.formats = formats
    }
}

/// A DRM fourcc pixel format code for the formats paneld scans out.
package enum DRMFourCC {
    /// `fourcc_code('X', 'R', '2', '4')`.
    package static let xrgb8888: UInt32 = fourcc("XR24")
    /// `fourcc_code('R', 'G', '1', '6')`.
    package static let rgb565: UInt32 = fourcc("RG16")

    /// The four characters of a code, e.g. `XR24`; unprintable bytes as `?`.
    package static func name(_ code: UInt32) -> String {
        String(
            (0..<4).map { i -> Character in
                let b = UInt8(truncatingIfNeeded: code >> (8 * UInt32(i)))
                return (0x20..<0x7F).contains(b) ? Character(UnicodeScalar(b)) : "?"
            })
    }

    package static func code(of format: PixelFormat) -> UInt32 {
        switch format {
        case .xrgb8888: xrgb8888
        case .rgb565: rgb565
        }
    }

    package static func fourcc(_ s: StaticString) -> UInt32 {
        precondition(s.utf8CodeUnitCount == 4)
        let p = s.utf8Start
        return UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }
}
