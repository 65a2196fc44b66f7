import PanelGauge
import Testing

@testable import PanelDisplay
import PanelDisplayFakes

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct DRMOutputTests {
    /// The framebuffer a trace line `setCrtc`/`pageFlip ... fb N` last showed.
    func lastShownFB(_ fake: FakeDRM) -> UInt32 {
        let line = fake.trace.last { $0.hasPrefix("setCrtc 38") || $0.hasPrefix("pageFlip") }!
        let words = line.split(separator: " ")
        return UInt32(words[words.firstIndex(of: "fb")! + 1])!
    }

    func expectShown(
        _ fake: FakeDRM, _ out: DRMOutput, _ model: PictureModel, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let scan = fake.scanout(lastShownFB(fake), width: out.mode.width, height: out.mode.height, format: out.format)
        var wrong = 0
        for y in 0..<model.image.height {
            for x in 0..<model.image.width {
                let (px, py): (Int, Int) =
                    switch out.rotation {
                    case .none: (x, y)
                    case .clockwise90: (model.image.height - 1 - y, x)
                    case .upsideDown: (model.image.width - 1 - x, model.image.height - 1 - y)
                    case .clockwise270: (y, model.image.width - 1 - x)
                    }
                let e = model.image.surface.pixel(x: x, y: y)
                let expected = out.format == .rgb565 ? RGB565.expand(RGB565.pack(e.red, e.green, e.blue)) : e
                if scan.pixel(x: px, y: py) != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "pixels differing from the model", sourceLocation: sourceLocation)
    }

    @Test func firstFrameSetsTheCrtcThenFlipsAlternateBuffers() throws {
        let fake = FakeDRM.bochs()
        let out = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        #expect((out.width, out.height) == (32, 16))
        #expect(out.needsFullRedraw)
        #expect(
            fake.trace == [
                "open /dev/dri/card0", "close /dev/dri/card0", "open /dev/dri/card0", "getCrtc 38",
                "createDumb 32x16x32 -> handle 100", "addFB handle 100 XR24 -> fb 101", "mmap handle 100",
                "createDumb 32x16x32 -> handle 102", "addFB handle 102 XR24 -> fb 103", "mmap handle 102",
            ])
        fake.trace.removeAll()
        let model = PictureModel(width: 32, height: 16)
        _ = model.fill(IntRect(x: 0, y: 0, width: 32, height: 16), 0xFF10_2030)
        try out.present(damage: []) { model.draw($0, $1) }
        #expect(model.drawCalls == [[IntRect(x: 0, y: 0, width: 32, height: 16)]])
        #expect(fake.trace == ["dirtyFB 101 [32x16+0+0]", "setCrtc 38 fb 101 [36] 32x16"])
        #expect(!out.isBusy && !out.needsFullRedraw)
        expectShown(fake, out, model)

        fake.trace.removeAll()
        let d = model.fill(IntRect(x: 4, y: 4, width: 3, height: 2), 0xFFFF_0000)
        try out.present(damage: d) { model.draw($0, $1) }
        // The second buffer has never been drawn: it gets everything, then flips.
        #expect(model.drawCalls.last == [IntRect(x: 0, y: 0, width: 32, height: 16)])
        #expect(fake.trace == ["dirtyFB 103 [32x16+0+0]", "pageFlip 38 fb 103"])
        #expect(out.isBusy)
        #expect(throws: DRMError.self) { try out.present(damage: d) { model.draw($0, $1) } }
        try out.handleEvents()
        #expect(!out.isBusy)
        expectShown(fake, out, model)

        fake.trace.removeAll()
        let d2 = model.fill(IntRect(x: 20, y: 10, width: 5, height: 5), 0xFF00_FF00)
        try out.present(damage: d2) { model.draw($0, $1) }
        // Buffer 101 still shows frame 1: it needs frame 2's damage as well as frame 3's.
        #expect(
            model.drawCalls.last == [
                IntRect(x: 20, y: 10, width: 5, height: 5), IntRect(x: 4, y: 4, width: 3, height: 2),
            ])
        #expect(fake.trace == ["dirtyFB 101 [5x5+20+10, 3x2+4+4]", "pageFlip 38 fb 101"])
        try out.handleEvents()
        expectShown(fake, out, model)
        out.close()
        #expect(fake.leakedResources == 0)
    }

    @Test func aLongRunOfRandomDamageKeepsBothBuffersInSync() throws {
        let fake = FakeDRM.bochs(width: 40, height: 24)
        let out = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        let model = PictureModel(width: 40, height: 24)
        var rng = SystemRandomNumberGenerator()
        try out.present(damage: []) { model.draw($0, $1) }
        for frame in 0..<60 {
            var damage: [IntRect] = []
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let r = IntRect(
                    x: Int.random(in: -5..<40, using: &rng), y: Int.random(in: -5..<24, using: &rng),
                    width: Int.random(in: 1...15, using: &rng), height: Int.random(in: 1...10, using: &rng))
                damage += model.fill(r.intersection(model.image.surface.bounds), 0xFF00_0000 | UInt32(frame * 4001))
            }
            try out.present(damage: damage) { model.draw($0, $1) }
            if out.isBusy { try out.handleEvents() }
            expectShown(fake, out, model)
        }
        out.close()
        #expect(fake.leakedResources == 0)
    }

    @Test(arguments: [PanelRotation.clockwise90, .upsideDown, .clockwise270])
    func rotatedOutputDrawsLogicalLandscapeIntoAShadow(rotation: PanelRotation) throws {
        let fake = FakeDRM.bochs(width: 16, height: 32)
        let out = try DRMOutput(options: DRMOutputOptions(rotation: rotation), syscalls: fake)
        let model = PictureModel(width: out.width, height: out.height)
        #expect((out.width, out.height) == (rotation.swapsAxes ? (32, 16) : (16, 32)))
        _ = model.fill(IntRect(x: 0, y: 0, width: out.width, height: out.height), 0xFF20_2020)
        _ = model.fill(IntRect(x: 0, y: 0, width: 4, height: 2), 0xFFFF_FFFF)  // marks the logical top-left
        try out.present(damage: []) { model.draw($0, $1) }
        expectShown(fake, out, model)
        fake.trace.removeAll()
        let d = model.fill(IntRect(x: 10, y: 3, width: 6, height: 4), 0xFF00_00FF)
        try out.present(damage: d) { model.draw($0, $1) }
        try out.handleEvents()
        expectShown(fake, out, model)
        // The shadow is drawn by damage only; the flip's buffer is filled by copying.
        #expect(model.drawCalls.last == d)
        let clip = rotation.panelRect(out.bounds, logicalWidth: out.width, logicalHeight: out.height)
        #expect(fake.trace.first == "dirtyFB 103 [\(clip)]")
        let d2 = model.fill(IntRect(x: 1, y: 1, width: 2, height: 2), 0xFF00_FF00)
        try out.present(damage: d2) { model.draw($0, $1) }
        try out.handleEvents()
        expectShown(fake, out, model)
        let clips = (d2 + d).map { rotation.panelRect($0, logicalWidth: out.width, logicalHeight: out.height) }
        #expect(fake.trace.contains("dirtyFB 101 \(clips)"))
        out.close()
    }

    @Test func rgb565UsesSixteenBitBuffers() throws {
        let fake = FakeDRM.bochs()
        let out = try DRMOutput(options: DRMOutputOptions(format: .rgb565), syscalls: fake)
        #expect(fake.trace.contains("createDumb 32x16x16 -> handle 100"))
        #expect(fake.trace.contains("addFB handle 100 RG16 -> fb 101"))
        let model = PictureModel(width: 32, height: 16)
        _ = model.fill(IntRect(x: 3, y: 3, width: 10, height: 5), 0xFF80_4020)
        try out.present(damage: []) { model.draw($0, $1) }
        expectShown(fake, out, model)
        out.close()
    }

    @Test func dirtyFBIsNotRetriedOnceTheDriverSaysENOSYS() throws {
        let fake = FakeDRM.bochs()
        fake.failures["dirtyFB"] = [ENOSYS]
        let out = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        let model = PictureModel(width: 32, height: 16)
        try out.present(damage: []) { model.draw($0, $1) }
        try out.present(damage: model.fill(IntRect(x: 0, y: 0, width: 1, height: 1), 0xFFFF_FFFF)) {
            model.draw($0, $1)
        }
        #expect(fake.trace.filter { $0.hasPrefix("dirtyFB 1") }.count == 1)
        #expect(fake.trace.last == "pageFlip 38 fb 103")
        try out.handleEvents()
        out.close()
    }

    @Test func losingMasterKeepsRunningAndRedrawsFullyWhenItReturns() throws {
        let fake = FakeDRM.bochs()
        let out = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        let model = PictureModel(width: 32, height: 16)
        try out.present(damage: []) { model.draw($0, $1) }
        // A VT switch: the flip is refused.
        fake.failures["pageFlip"] = [EACCES]
        fake.failures["setCrtc"] = [EPERM]
        try out.present(damage: model.fill(IntRect(x: 1, y: 1, width: 2, height: 2), 0xFFFF_0000)) {
            model.draw($0, $1)
        }
        #expect(!out.isBusy)
        #expect(out.hasLostMaster && out.needsFullRedraw)
        // Still not master: taking it back and SetCrtc are refused, nothing thrown.
        fake.failures["setMaster"] = [EBUSY]
        fake.trace.removeAll()
        try out.present(damage: model.fill(IntRect(x: 5, y: 5, width: 2, height: 2), 0xFF00_FF00)) {
            model.draw($0, $1)
        }
        #expect(out.hasLostMaster)
        #expect(
            fake.trace.filter { !$0.hasPrefix("dirtyFB") } == [
                "setMaster", "setMaster -> EBUSY", "setCrtc 38 fb 103 [36] 32x16", "setCrtc -> EPERM",
            ])
        // Master is back: the next frame is drawn whole and set with SetCrtc.
        fake.trace.removeAll()
        try out.present(damage: model.fill(IntRect(x: 9, y: 9, width: 2, height: 2), 0xFF00_00FF)) {
            model.draw($0, $1)
        }
        #expect(!out.hasLostMaster && !out.needsFullRedraw)
        #expect(model.drawCalls.last == [IntRect(x: 0, y: 0, width: 32, height: 16)])
        #expect(fake.trace.last?.hasPrefix("setCrtc 38 fb") == true)
        #expect(fake.trace.contains("setMaster"))
        expectShown(fake, out, model)
        // And flips work again afterwards.
        try out.present(damage: model.fill(IntRect(x: 0, y: 0, width: 2, height: 2), 0xFF00_FFFF)) {
            model.draw($0, $1)
        }
        try out.handleEvents()
        expectShown(fake, out, model)
        out.close()
        #expect(fake.leakedResources == 0)
    }

    /// The console switches away (``DRMOutput/releaseDisplay()``): the pending flip
    /// completes, master is dropped, no frame is shown meanwhile; on return master is
    /// taken and the whole picture, with what changed meanwhile, is set with SetCrtc.
    @Test func releasedDisplayWaitsThenRedrawsWhole() throws {
        let fake = FakeDRM.bochs()
        let out = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        let model = PictureModel(width: 32, height: 16)
        try out.present(damage: []) { model.draw($0, $1) }
        try out.present(damage: model.fill(IntRect(x: 1, y: 1, width: 2, height: 2), 0xFFFF_0000)) {
            model.draw($0, $1)
        }
        #expect(out.isBusy)  // the flip is pending
        fake.trace.removeAll()
        out.releaseDisplay()
        #expect(fake.trace.contains("dropMaster"))
        #expect(out.isBusy && out.needsFullRedraw, "no present while released")
        _ = model.fill(IntRect(x: 5, y: 5, width: 2, height: 2), 0xFF00_FF00)  // a value changed meanwhile
        fake.trace.removeAll()
        out.acquireDisplay()
        #expect(fake.trace == ["setMaster"])
        #expect(!out.isBusy)
        try out.present(damage: []) { model.draw($0, $1) }
        #expect(model.drawCalls.last == [IntRect(x: 0, y: 0, width: 32, height: 16)])
        #expect(fake.trace.last?.hasPrefix("setCrtc 38 fb") == true)
        expectShown(fake, out, model)
        out.close()
        #expect(fake.leakedResources == 0)
    }

    @Test func otherFlipErrorsAreThrown() throws {
        let fake = FakeDRM.bochs()
        let out = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        let model = PictureModel(width: 32, height: 16)
        try out.present(damage: []) { model.draw($0, $1) }
        fake.failures["pageFlip"] = [EINVAL]
        #expect(throws: DRMError("pageFlip", errno: EINVAL)) {
            try out.present(damage: model.fill(IntRect(x: 1, y: 1, width: 2, height: 2), 0xFFFF_0000)) {
                model.draw($0, $1)
            }
        }
        out.close()
    }

    @Test func teardownWaitsForTheFlipRestoresTheCrtcAndReleasesInReverse() throws {
        let fake = FakeDRM.bochs()
        let out = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        let model = PictureModel(width: 32, height: 16)
        try out.present(damage: []) { model.draw($0, $1) }
        try out.present(damage: model.fill(IntRect(x: 1, y: 1, width: 2, height: 2), 0xFFFF_0000)) {
            model.draw($0, $1)
        }
        #expect(out.isBusy)
        fake.trace.removeAll()
        out.close()
        #expect(
            fake.trace == [
                "waitReadable", "readEvents", "setCrtc 38 fb 7 [36] 1024x768",
                "rmFB 103", "munmap handle 102", "destroyDumb 102",
                "rmFB 101", "munmap handle 100", "destroyDumb 100", "close /dev/dri/card0",
            ])
        #expect(fake.leakedResources == 0)
        out.close()
        #expect(fake.trace.count == 10)
        #expect(out.pollDescriptor == nil)
    }

    @Test func teardownBeforeAnyFrameLeavesTheCrtcAlone() throws {
        let fake = FakeDRM.bochs()
        let out = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        fake.trace.removeAll()
        out.close()
        #expect(!fake.trace.contains { $0.hasPrefix("setCrtc") })
        #expect(fake.leakedResources == 0)
    }

    @Test(arguments: ["createDumb", "addFramebuffer", "mapDumb", "mmap"])
    func aFailedSecondBufferUnwindsEverything(call: String) throws {
        let fake = FakeDRM.bochs()
        fake.failures[call] = [ENOMEM]
        fake.successesBeforeFailure[call] = 1  // the first buffer is made, the second fails
        #expect(throws: DRMError(call, errno: ENOMEM)) { try DRMOutput(options: DRMOutputOptions(), syscalls: fake) }
        #expect(fake.leakedResources == 0)
        #expect(fake.trace.last == "close /dev/dri/card0")
        #expect(fake.trace.contains("destroyDumb 100"))
    }

    @Test func reportsANamedConnectorThatDoesNotExistAndClosesTheDevice() {
        let fake = FakeDRM.bochs()
        #expect(
            throws: DRMError.notFound(
                "no DRM display is connected: card0 (bochs-drm): no connector named HDMI-A-1; it has: Virtual-1 (connected)"
            )
        ) {
            try DRMOutput(options: DRMOutputOptions(connector: "HDMI-A-1"), syscalls: fake)
        }
        #expect(fake.leakedResources == 0)
    }
}

/// Turning the screen off and on (``DRMOutput/setBlanked(_:)``).
@Suite struct DRMBlankTests {
    /// Off: the pending flip completes, the CRTC is set to no framebuffer, no
    /// frame is shown; on: the next present sets the CRTC with the whole picture,
    /// with what changed meanwhile. Closing while off restores the console's CRTC.
    @Test func blankingTurnsTheCrtcOffAndTheNextFrameSetsItWhole() throws {
        let fake = FakeDRM.bochs()
        let out = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        let model = PictureModel(width: 32, height: 16)
        try out.present(damage: []) { model.draw($0, $1) }
        try out.present(damage: model.fill(IntRect(x: 1, y: 1, width: 2, height: 2), 0xFFFF_0000)) {
            model.draw($0, $1)
        }
        fake.trace.removeAll()
        out.setBlanked(true)
        #expect(fake.trace.last == "setCrtc 38 fb 0 [] off", "\(fake.trace)")
        #expect(out.isBusy && out.needsFullRedraw, "no present while off")
        out.setBlanked(true)
        #expect(fake.trace.filter { $0.hasPrefix("setCrtc") }.count == 1, "off once")
        _ = model.fill(IntRect(x: 5, y: 5, width: 2, height: 2), 0xFF00_FF00)
        out.setBlanked(false)
        #expect(!out.isBusy)
        try out.present(damage: []) { model.draw($0, $1) }
        #expect(model.drawCalls.last == [IntRect(x: 0, y: 0, width: 32, height: 16)])
        #expect(fake.trace.last?.hasPrefix("setCrtc 38 fb") == true && fake.trace.last != "setCrtc 38 fb 0 [] off")
        out.setBlanked(true)
        fake.trace.removeAll()
        out.close()
        #expect(fake.trace.first?.hasPrefix("setCrtc") == true, "the saved CRTC is restored: \(fake.trace)")
        #expect(fake.leakedResources == 0)
    }
}
