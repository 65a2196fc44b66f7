import Testing

@testable import PanelDisplay
import PanelDisplayFakes

/// ``chooseDisplay(_:request:)``: every card's connectors and modes are weighed before any fallback.
@Suite struct DRMDisplayChoiceTests {
    static func card(
        _ n: Int, _ driver: String, _ connectors: [ConnectorInfo], kms: Bool = true, dumb: Bool = true
    ) -> CardDescription {
        CardDescription(
            probe: DeviceProbe(path: "/dev/dri/card\(n)", driver: driver, hasKMS: kms, hasDumbBuffers: dumb),
            connectors: connectors)
    }
    static func virtual(_ id: UInt32, _ status: ConnectionStatus, _ modes: [ModeInfo]) -> ConnectorInfo {
        ConnectorInfo(id: id, type: 15, typeIndex: 1, status: status, modes: modes)
    }
    /// QEMU's virtio-gpu at 1024x768 and bochs-display at 800x480, as the e2e case `twocards` boots them.
    static let virtio = card(0, "virtio_gpu", [virtual(35, .connected, [FakeDRM.mode(1024, 768, preferred: true)])])
    static let bochs = card(
        1, "bochs-drm", [virtual(36, .connected, [FakeDRM.mode(800, 480, preferred: true), FakeDRM.mode(1024, 768)])])
    static let panel = ModeRequest(width: 800, height: 480)

    @Test func skipsRenderOnlyCardLikeThePisV3D() throws {
        let v3d = DRMDisplayChoiceTests.card(0, "v3d", [], kms: false)
        let vc4 = DRMDisplayChoiceTests.card(
            1, "vc4",
            [ConnectorInfo(id: 2, type: 11, typeIndex: 1, status: .connected, modes: [FakeDRM.mode(1920, 1080)])])
        let choice = try chooseDisplay([v3d, vc4], request: DisplayRequest())
        #expect(choice.devicePath == "/dev/dri/card1" && choice.connector.name == "HDMI-A-1")
        #expect(choice.passedOver == ["/dev/dri/card0: v3d has no KMS outputs (render-only device)"])
    }

    @Test func aDisconnectedFirstCardIsPassedOverInBothOrders() throws {
        var off = DRMDisplayChoiceTests.virtio
        off.connectors[0].status = .disconnected
        let first = try chooseDisplay([off, DRMDisplayChoiceTests.bochs], request: DisplayRequest())
        #expect(first.devicePath == "/dev/dri/card1" && first.mode.width == 800)
        #expect(first.passedOver == ["card0 (virtio_gpu) Virtual-1: disconnected"])
        var bochsOff = DRMDisplayChoiceTests.bochs
        bochsOff.connectors[0].status = .disconnected
        bochsOff.probe.path = "/dev/dri/card0"
        var virtio = DRMDisplayChoiceTests.virtio
        virtio.probe.path = "/dev/dri/card1"
        let second = try chooseDisplay([bochsOff, virtio], request: DisplayRequest(mode: DRMDisplayChoiceTests.panel))
        #expect(second.devicePath == "/dev/dri/card1" && second.mode.width == 1024)
    }

    @Test func theCardThatOffersTheLayoutsModeWinsOverAnEarlierConnectedOne() throws {
        let cards = [DRMDisplayChoiceTests.virtio, DRMDisplayChoiceTests.bochs]
        let choice = try chooseDisplay(cards, request: DisplayRequest(mode: DRMDisplayChoiceTests.panel))
        #expect(choice.devicePath == "/dev/dri/card1" && choice.mode.width == 800 && choice.modeWarning == nil)
        #expect(
            choice.passedOver == [
                "card0 (virtio_gpu) Virtual-1: connected, but card1 (bochs-drm) Virtual-1 comes first"
            ])
        // Without a mode, the first connected display.
        #expect(try chooseDisplay(cards, request: DisplayRequest()).devicePath == "/dev/dri/card0")
    }

    @Test func aModeNoDisplayOffersIsShownAtThePreferredModeWithOneWarning() throws {
        let hdmi = DRMDisplayChoiceTests.card(
            0, "vc4",
            [
                ConnectorInfo(
                    id: 2, type: 11, typeIndex: 1, status: .connected,
                    modes: [FakeDRM.mode(1920, 1080, preferred: true), FakeDRM.mode(1280, 720)])
            ])
        let choice = try chooseDisplay([hdmi], request: DisplayRequest(mode: DRMDisplayChoiceTests.panel))
        #expect(choice.mode.width == 1920 && choice.mode.height == 1080)
        #expect(
            choice.modeWarning
                == "no connected display offers the layout's mode 800x480; showing it at HDMI-A-1's mode 1920x1080@60 (offered: 1920x1080@60, 1280x720@60)"
        )
    }

    @Test func aConnectorNameIsSearchedAcrossCards() throws {
        let dsi = DRMDisplayChoiceTests.card(
            2, "vc4",
            [ConnectorInfo(id: 9, type: 16, typeIndex: 1, status: .connected, modes: [FakeDRM.mode(800, 480)])])
        let cards = [DRMDisplayChoiceTests.virtio, DRMDisplayChoiceTests.bochs, dsi]
        let choice = try chooseDisplay(cards, request: DisplayRequest(connector: "dsi-1"))
        #expect(choice.devicePath == "/dev/dri/card2" && choice.connector.id == 9)
        #expect(throws: DRMError.self) { try chooseDisplay(cards, request: DisplayRequest(connector: "HDMI-A-1")) }
    }

    @Test func aNamedConnectorMayBeUnknownButNotDisconnected() throws {
        var c = DRMDisplayChoiceTests.bochs
        c.connectors[0].status = .unknown
        #expect(try chooseDisplay([c], request: DisplayRequest(connector: "Virtual-1")).connector.id == 36)
        #expect(throws: DRMError.self) { try chooseDisplay([c], request: DisplayRequest()) }
        c.connectors[0].status = .disconnected
        #expect(
            throws: DRMError.notFound("no DRM display is connected: card1 (bochs-drm) Virtual-1: disconnected")
        ) { try chooseDisplay([c], request: DisplayRequest(connector: "Virtual-1")) }
    }

    @Test func aDevicePathLimitsTheSearch() throws {
        let cards = [DRMDisplayChoiceTests.virtio, DRMDisplayChoiceTests.bochs]
        let choice = try chooseDisplay(cards, request: DisplayRequest(devicePath: "/dev/dri/card0"))
        #expect(choice.devicePath == "/dev/dri/card0")
        #expect(throws: DRMError.self) {
            try chooseDisplay(cards, request: DisplayRequest(devicePath: "/dev/dri/card7"))
        }
    }

    @Test func explainsWhyNoCardWorks() {
        let cards = [
            DRMDisplayChoiceTests.card(0, "v3d", [], kms: false),
            DRMDisplayChoiceTests.card(1, "odd", [], dumb: false),
            DRMDisplayChoiceTests.card(2, "bochs-drm", [DRMDisplayChoiceTests.virtual(3, .disconnected, [])]),
        ]
        #expect(
            throws: DRMError.notFound(
                "no DRM display is connected: /dev/dri/card0: v3d has no KMS outputs (render-only device); "
                    + "/dev/dri/card1: odd has no dumb buffers; card2 (bochs-drm) Virtual-1: disconnected")
        ) { try chooseDisplay(cards, request: DisplayRequest()) }
        #expect(throws: DRMError.self) { try chooseDisplay([], request: DisplayRequest()) }
    }

    @Test func openDisplayProbesEveryCardAndKeepsOnlyTheChosenOneOpen() throws {
        let fake = FakeDRM.bochs()
        fake.cards["/dev/dri/card0"]!.connectors[0].status = .disconnected
        fake.cards["/dev/dri/card1"] = FakeDRM.bochs().cards["/dev/dri/card0"]!
        let (device, choice) = try DRMDevice.openDisplay(sys: fake, request: DisplayRequest())
        #expect(device.path == "/dev/dri/card1" && choice.devicePath == "/dev/dri/card1")
        #expect(fake.openDescriptors == [device.fd])
        device.close()
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func openDisplayResolvesAByPathLink() throws {
        let fake = FakeDRM.bochs()
        fake.cards["/dev/dri/card1"] = FakeDRM.bochs().cards["/dev/dri/card0"]!
        fake.links["/dev/dri/by-path/pci-0000:00:03.0-card"] = "/dev/dri/card1"
        let (device, _) = try DRMDevice.openDisplay(
            sys: fake, request: DisplayRequest(devicePath: "/dev/dri/by-path/pci-0000:00:03.0-card"))
        #expect(device.path == "/dev/dri/card1")
        device.close()
        #expect(throws: DRMError.notFound("/dev/dri/by-path/none does not exist (is the display driver loaded?)")) {
            try DRMDevice.openDisplay(sys: fake, request: DisplayRequest(devicePath: "/dev/dri/by-path/none"))
        }
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func refusesAUserPathThatCannotDisplay() {
        let fake = FakeDRM.bochs()
        fake.cards["/dev/dri/card0"]!.dumb = 0
        #expect(throws: DRMError.notFound("no DRM display is connected: /dev/dri/card0: bochs-drm has no dumb buffers"))
        {
            try DRMDevice.openDisplay(sys: fake, request: DisplayRequest(devicePath: "/dev/dri/card0"))
        }
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func namesFollowTheKernel() {
        let connectors = [
            ConnectorInfo(id: 1, type: 11, typeIndex: 1, status: .disconnected, modes: []),
            ConnectorInfo(id: 3, type: 16, typeIndex: 1, status: .connected, modes: [FakeDRM.mode(800, 480)]),
        ]
        #expect(connectors.map(\.name) == ["HDMI-A-1", "DSI-1"])
        #expect(ConnectorInfo(id: 9, type: 99, typeIndex: 1, status: .unknown, modes: []).name == "Unknown99-1")
    }
}

/// ``chooseFallbackFramebuffer(_:rejectedCardDevices:)``: never the fbdev emulation of a card passed over.
@Suite struct FallbackFramebufferTests {
    let pci2 = "/sys/devices/pci0000:00/0000:00:02.0"
    let pci3 = "/sys/devices/pci0000:00/0000:00:03.0"

    @Test func skipsTheEmulationOfARejectedCard() {
        let fbs = [
            FramebufferDescription(path: "/dev/fb0", name: "virtio_gpudrmfb", device: pci2),
            FramebufferDescription(path: "/dev/fb1", name: "fb_ili9341", device: "/sys/devices/platform/spi0.0"),
        ]
        #expect(chooseFallbackFramebuffer(fbs, rejectedCardDevices: [pci2])?.path == "/dev/fb1")
        #expect(chooseFallbackFramebuffer(Array(fbs.prefix(1)), rejectedCardDevices: [pci2, pci3]) == nil)
    }

    @Test func withoutADeviceLinkTheNameTells() {
        let fbs = [FramebufferDescription(path: "/dev/fb0", name: "bochs-drmfb", device: nil)]
        #expect(chooseFallbackFramebuffer(fbs, rejectedCardDevices: [nil]) == nil)
        // No card was seen (its node is gone): the emulation is all there is.
        #expect(chooseFallbackFramebuffer(fbs, rejectedCardDevices: [])?.path == "/dev/fb0")
    }

    @Test func aPlainFramebufferIsTaken() {
        let fbs = [
            FramebufferDescription(
                path: "/dev/fb0", name: "VESA VGA", device: "/sys/devices/platform/vesa-framebuffer.0")
        ]
        #expect(chooseFallbackFramebuffer(fbs, rejectedCardDevices: [pci2])?.path == "/dev/fb0")
    }
}

@Suite struct DRMModeChoiceTests {
    let modes = [
        FakeDRM.mode(1280, 800, 60), FakeDRM.mode(800, 480, 60, preferred: true), FakeDRM.mode(1920, 1080, 30),
        FakeDRM.mode(1920, 1080, 60), FakeDRM.mode(800, 480, 75),
    ]

    @Test func parsesRequests() {
        #expect(ModeRequest(parsing: "800x480") == ModeRequest(width: 800, height: 480))
        #expect(ModeRequest(parsing: "320x240@60") == ModeRequest(width: 320, height: 240, refresh: 60))
        for bad in ["", "800", "800x", "x480", "0x480", "800x480@", "800x480@0", "800X480", "a x b", "800x480@60@1"] {
            #expect(ModeRequest(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func userChoiceWins() throws {
        #expect(try chooseMode(modes, requested: ModeRequest(width: 1920, height: 1080)) == modes[2])
        #expect(try chooseMode(modes, requested: ModeRequest(width: 800, height: 480, refresh: 75)) == modes[4])
    }

    @Test func unofferedUserModeListsWhatIsOffered() {
        #expect(
            throws: DRMError.notFound(
                "mode 1024x600 is not offered; the connector offers: 1280x800@60, 800x480@60, 1920x1080@30, 1920x1080@60, 800x480@75"
            )
        ) { try chooseMode(modes, requested: ModeRequest(width: 1024, height: 600)) }
    }

    @Test func preferredElseLargestElseHighestRefresh() throws {
        #expect(try chooseMode(modes, requested: nil) == modes[1])
        var unflagged = modes
        unflagged[1].type = 0
        #expect(try chooseMode(unflagged, requested: nil) == modes[3])
        #expect(throws: DRMError.self) { try chooseMode([], requested: nil) }
    }
}

@Suite struct DRMCrtcChoiceTests {
    @Test func keepsTheCrtcTheEncoderAlreadyUses() throws {
        let c = ConnectorInfo(
            id: 1, type: 11, typeIndex: 1, status: .connected, modes: [], encoderID: 5, encoderIDs: [5])
        let e = [EncoderInfo(id: 5, crtcID: 41, possibleCrtcs: 0b11)]
        #expect(try chooseCrtc(connector: c, encoders: e, crtcIDs: [40, 41]) == 41)
    }

    @Test func otherwiseFirstPossibleCrtc() throws {
        let c = ConnectorInfo(
            id: 1, type: 11, typeIndex: 1, status: .connected, modes: [], encoderID: 0, encoderIDs: [5, 6])
        let e = [EncoderInfo(id: 5, crtcID: 0, possibleCrtcs: 0), EncoderInfo(id: 6, crtcID: 0, possibleCrtcs: 0b100)]
        #expect(try chooseCrtc(connector: c, encoders: e, crtcIDs: [40, 41, 42]) == 42)
        #expect(throws: DRMError.self) { try chooseCrtc(connector: c, encoders: e, crtcIDs: [40, 41]) }
    }
}

@Suite struct DRMScanoutFormatTests {
    let bochsLike = [
        PlaneInfo(id: 31, kind: .primary, possibleCrtcs: 0b1, formats: [DRMFourCC.xrgb8888, DRMFourCC.fourcc("BX24")]),
        PlaneInfo(id: 32, kind: .overlay, possibleCrtcs: 0b1, formats: [DRMFourCC.rgb565]),
        PlaneInfo(id: 33, kind: .primary, possibleCrtcs: 0b10, formats: [DRMFourCC.rgb565]),
    ]

    @Test func thePrimaryPlaneOfTheChosenCrtcDecides() throws {
        try checkScanoutFormat(.xrgb8888, planes: bochsLike, crtcIndex: 0)
        // The overlay on CRTC 0 and the primary of CRTC 1 take RGB565; SetCrtc uses CRTC 0's primary.
        #expect(
            throws: DRMError.notFound("the display cannot scan out RGB565 (RG16); its plane takes: XR24, BX24")
        ) { try checkScanoutFormat(.rgb565, planes: bochsLike, crtcIndex: 0) }
        try checkScanoutFormat(.rgb565, planes: bochsLike, crtcIndex: 1)
    }

    @Test func untypedPlanesAllCountAndNoPlanesMeansNoVerdict() throws {
        var untyped = bochsLike
        for i in untyped.indices { untyped[i].kind = nil }
        try checkScanoutFormat(.rgb565, planes: untyped, crtcIndex: 0)
        try checkScanoutFormat(.rgb565, planes: [], crtcIndex: 0)
    }

    @Test func fourccNames() {
        #expect(DRMFourCC.name(DRMFourCC.xrgb8888) == "XR24")
        #expect(DRMFourCC.name(DRMFourCC.rgb565) == "RG16")
        #expect(DRMFourCC.name(0x0000_0001) == "????")
    }

    @Test func drmOutputRefusesAFormatThePlaneCannotShowBeforeAllocating() {
        let fake = FakeDRM.bochs()
        fake.cards["/dev/dri/card0"]!.planes[0].formats = [DRMFourCC.xrgb8888]
        #expect(throws: DRMError.notFound("the display cannot scan out RGB565 (RG16); its plane takes: XR24")) {
            try DRMOutput(options: DRMOutputOptions(format: .rgb565), syscalls: fake)
        }
        #expect(!fake.trace.contains { $0.hasPrefix("createDumb") })
        #expect(fake.leakedResources == 0)
    }
}
