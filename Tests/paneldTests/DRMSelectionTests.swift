import Testing

@testable import PanelDisplay
@testable import PaneldCore

@Suite struct DRMDeviceChoiceTests {
    @Test func skipsRenderOnlyCardLikeThePisV3D() throws {
        let probes = [
            DeviceProbe(path: "/dev/dri/card0", driver: "v3d", hasKMS: false, hasDumbBuffers: true),
            DeviceProbe(path: "/dev/dri/card1", driver: "vc4", hasKMS: true, hasDumbBuffers: true),
        ]
        #expect(try chooseDevice(probes).driver == "vc4")
    }

    @Test func skipsCardWithoutDumbBuffersAndCardsThatFailedToOpen() throws {
        let probes = [
            DeviceProbe(path: "/dev/dri/card0", driver: "?", hasKMS: false, hasDumbBuffers: false, failure: "EACCES"),
            DeviceProbe(path: "/dev/dri/card1", driver: "odd", hasKMS: true, hasDumbBuffers: false),
            DeviceProbe(path: "/dev/dri/card2", driver: "bochs-drm", hasKMS: true, hasDumbBuffers: true),
        ]
        #expect(try chooseDevice(probes).path == "/dev/dri/card2")
    }

    @Test func explainsWhyNoCardWorks() {
        let probes = [DeviceProbe(path: "/dev/dri/card0", driver: "v3d", hasKMS: false, hasDumbBuffers: true)]
        #expect(
            throws: DRMError.notFound(
                "no DRM device can drive a display: /dev/dri/card0: v3d has no KMS outputs (render-only device)")
        ) {
            try chooseDevice(probes)
        }
        #expect(throws: DRMError.self) { try chooseDevice([]) }
    }

    @Test func openDisplayProbesEveryCardAndKeepsOnlyTheChosenOneOpen() throws {
        let fake = FakeDRM.bochs()
        fake.cards["/dev/dri/card0"]!.driver = "v3d"
        fake.cards["/dev/dri/card0"]!.resources = nil
        fake.cards["/dev/dri/card1"] = FakeDRM.bochs().cards["/dev/dri/card0"]!
        let device = try DRMDevice.openDisplay(sys: fake, path: nil)
        #expect(device.path == "/dev/dri/card1")
        #expect(fake.openDescriptors == [device.fd])
        device.close()
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func refusesAUserPathThatCannotDisplay() {
        let fake = FakeDRM.bochs()
        fake.cards["/dev/dri/card0"]!.dumb = 0
        #expect(throws: DRMError.notFound("/dev/dri/card0 cannot drive a display: bochs-drm has no dumb buffers")) {
            try DRMDevice.openDisplay(sys: fake, path: "/dev/dri/card0")
        }
        #expect(fake.openDescriptors.isEmpty)
    }
}

@Suite struct DRMConnectorChoiceTests {
    let connectors = [
        ConnectorInfo(id: 1, type: 11, typeIndex: 1, status: .disconnected, modes: []),
        ConnectorInfo(id: 2, type: 11, typeIndex: 2, status: .connected, modes: [FakeDRM.mode(1920, 1080)]),
        ConnectorInfo(id: 3, type: 16, typeIndex: 1, status: .connected, modes: [FakeDRM.mode(800, 480)]),
    ]

    @Test func namesFollowTheKernel() {
        #expect(connectors.map(\.name) == ["HDMI-A-1", "HDMI-A-2", "DSI-1"])
        #expect(ConnectorInfo(id: 9, type: 99, typeIndex: 1, status: .unknown, modes: []).name == "Unknown99-1")
    }

    @Test func firstConnectedWithoutAName() throws {
        #expect(try chooseConnector(connectors, named: nil).id == 2)
    }

    @Test func byNameIgnoringCase() throws {
        #expect(try chooseConnector(connectors, named: "dsi-1").id == 3)
    }

    @Test func namedButDisconnectedOrMissingIsAnError() {
        #expect(throws: DRMError.notFound("connector HDMI-A-1 is disconnected")) {
            try chooseConnector(connectors, named: "HDMI-A-1")
        }
        #expect(
            throws: DRMError.notFound(
                "no connector named DP-1; this card has: HDMI-A-1 (disconnected), HDMI-A-2 (connected), DSI-1 (connected)"
            )
        ) { try chooseConnector(connectors, named: "DP-1") }
    }

    @Test func noneConnected() {
        #expect(throws: DRMError.self) { try chooseConnector([connectors[0]], named: nil) }
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
