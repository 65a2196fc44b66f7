import PanelGauge
import PanelDisplayFakes
import Testing

@testable import PanelDisplay
@testable import PaneldCore
@testable import paneld

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct FBDevLayoutTests {
    let fix = FBFixInfo(id: "t", memoryLength: 3200 * 960, type: 0, visual: 2, ypanstep: 1, lineLength: 3200)

    func info(_ bpp: UInt32, _ r: (UInt32, UInt32), _ g: (UInt32, UInt32), _ b: (UInt32, UInt32)) -> FBVarInfo {
        FBVarInfo(
            xres: 800, yres: 480, xresVirtual: 800, yresVirtual: 480, bitsPerPixel: bpp,
            red: FBBitfield(offset: r.0, length: r.1), green: FBBitfield(offset: g.0, length: g.1),
            blue: FBBitfield(offset: b.0, length: b.1))
    }

    @Test func acceptsRGB565AndXRGBAndARGB() throws {
        #expect(try FBLayout.pixelFormat(of: info(16, (11, 5), (5, 6), (0, 5)), fix: fix) == .rgb565)
        #expect(try FBLayout.pixelFormat(of: info(32, (16, 8), (8, 8), (0, 8)), fix: fix) == .xrgb8888)
        var argb = info(32, (16, 8), (8, 8), (0, 8))
        argb.transp = FBBitfield(offset: 24, length: 8)
        #expect(try FBLayout.pixelFormat(of: argb, fix: fix) == .xrgb8888)
    }

    @Test func refusesOtherLayoutsNamingThem() {
        #expect(
            throws: DRMError.notFound(
                "framebuffer t has 32 bpp with red 8@0, green 8@8, blue 8@16 (length@offset); drawing supports 16 bpp RGB565 and 32 bpp XRGB8888/ARGB8888 only"
            )
        ) { try FBLayout.pixelFormat(of: info(32, (0, 8), (8, 8), (16, 8)), fix: fix) }
        #expect(throws: DRMError.self) { try FBLayout.pixelFormat(of: info(24, (16, 8), (8, 8), (0, 8)), fix: fix) }
        #expect(throws: DRMError.self) { try FBLayout.pixelFormat(of: info(16, (10, 5), (5, 5), (0, 5)), fix: fix) }
        var palette = fix
        palette.visual = 3
        #expect(throws: DRMError.self) { try FBLayout.pixelFormat(of: info(16, (11, 5), (5, 6), (0, 5)), fix: palette) }
    }

    @Test func flushRangeCoversTheRectAndNeverExactlyOneWholeLine() {
        // 10 pixels of 4 bytes per line, no padding: a whole line is 40 bytes.
        func range(_ r: IntRect, page: Int = 0, memory: Int = 800) -> Range<Int> {
            FBLayout.flushRange(r, pageOffset: page, stride: 40, bytesPerPixel: 4, memoryLength: memory)
        }
        #expect(range(IntRect(x: 2, y: 1, width: 3, height: 2)) == 48..<100)
        #expect(range(IntRect(x: 2, y: 1, width: 3, height: 1)) == 48..<60)
        #expect(range(IntRect(x: 0, y: 3, width: 10, height: 2)) == 120..<200)
        // One whole line: widened onto the next line, or the previous one at the end.
        #expect(range(IntRect(x: 0, y: 3, width: 10, height: 1)) == 120..<164)
        #expect(range(IntRect(x: 4, y: 3, width: 6, height: 1)) == 136..<164)
        #expect(range(IntRect(x: 0, y: 19, width: 10, height: 1)) == 756..<800)
        #expect(range(IntRect(x: 0, y: 9, width: 10, height: 1), page: 400, memory: 1000) == 760..<804)
    }

    @Test func twoPagesNeedVirtualHeightPanningAndMemory() {
        var v = info(32, (16, 8), (8, 8), (0, 8))
        #expect(FBLayout.pageCount(v, fix) == 1)
        v.yresVirtual = 960
        #expect(FBLayout.pageCount(v, fix) == 2)
        var noPan = fix
        noPan.ypanstep = 0
        #expect(FBLayout.pageCount(v, noPan) == 1)
        var small = fix
        small.memoryLength = 3200 * 960 - 1
        #expect(FBLayout.pageCount(v, small) == 1)
        var drmEmulation = fix
        drmEmulation.id = "bochs-drmdrmfb"
        #expect(FBLayout.pageCount(v, drmEmulation) == 1)
    }
}

@Suite struct FBDevOutputTests {
    func expectShown(
        _ fake: FakeFB, _ model: PictureModel, rotation: PanelRotation = .none, format: PixelFormat = .xrgb8888,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let shown = fake.shown(format: format)
        var wrong = 0
        let (w, h) = (model.image.width, model.image.height)
        for y in 0..<h {
            for x in 0..<w {
                let (px, py): (Int, Int) =
                    switch rotation {
                    case .none: (x, y)
                    case .clockwise90: (h - 1 - y, x)
                    case .upsideDown: (w - 1 - x, h - 1 - y)
                    case .clockwise270: (y, w - 1 - x)
                    }
                let e = model.image.surface.pixel(x: x, y: y)
                let expected = format == .rgb565 ? RGB565.expand(RGB565.pack(e.red, e.green, e.blue)) : e
                if shown.pixel(x: px, y: py) != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "pixels differing from the model", sourceLocation: sourceLocation)
    }

    @Test func blankingPowersTheFramebufferDownAndTheNextFrameIsWhole() throws {
        let fake = FakeFB()
        let out = try FBDevOutput(options: FBDevOutputOptions(), syscalls: fake)
        let model = PictureModel(width: 24, height: 10)
        try out.present(damage: []) { model.draw($0, $1) }
        fake.trace.removeAll()
        out.setBlanked(true)
        #expect(fake.trace == ["powerDown"] && out.isBusy)
        out.setBlanked(false)
        #expect(fake.trace == ["powerDown", "unblank"] && !out.isBusy && out.needsFullRedraw)
        out.close()
    }

    @Test func doubleBuffersByPanningAndKeepsPagesInSync() throws {
        let fake = FakeFB()
        let out = try FBDevOutput(options: FBDevOutputOptions(), syscalls: fake)
        #expect(out.pages == 2 && out.format == .xrgb8888 && (out.width, out.height) == (24, 10))
        #expect(
            fake.trace == [
                "open /dev/fb0", "putVar 24x10 virtual 20 32bpp", "mmap \(112 * 20)", "unblank", "open /dev/tty0",
                "hide cursor", "console graphics", "open inotify /dev",
            ])
        fake.trace.removeAll()
        let model = PictureModel(width: 24, height: 10)
        _ = model.fill(IntRect(x: 0, y: 0, width: 24, height: 10), 0xFF11_2233)
        try out.present(damage: []) { model.draw($0, $1) }
        #expect(fake.trace == ["pwrite 1120 1104", "pan 10", "vsync"])
        expectShown(fake, model)
        for i in 0..<20 {
            let d = model.fill(IntRect(x: i % 20, y: i % 7, width: 4, height: 3), 0xFF00_0000 | UInt32(i * 7919))
            try out.present(damage: d) { model.draw($0, $1) }
            expectShown(fake, model)
        }
        // After the first two frames, each draws only its damage and the previous
        // frame's (not merged into their box).
        #expect(
            model.drawCalls.last == [
                IntRect(x: 19, y: 5, width: 4, height: 3), IntRect(x: 18, y: 4, width: 4, height: 3),
            ])
        fake.trace.removeAll()
        out.close()
        #expect(
            fake.trace == [
                "pan 0", "putVar 24x10 virtual 10 32bpp", "munmap", "close fb", "close watch", "console text",
                "show cursor", "close tty",
            ])
        #expect(fake.openDescriptors.isEmpty)
        out.close()
        #expect(fake.trace.count == 8)
    }

    @Test func onePageWhenTheDriverCannotGrowDrawsInPlace() throws {
        let fake = FakeFB()
        fake.allowsTwoPages = false
        fake.fixInfo.memoryLength = fake.fixInfo.lineLength * 10
        let out = try FBDevOutput(options: FBDevOutputOptions(), syscalls: fake)
        #expect(out.pages == 1)
        let model = PictureModel(width: 24, height: 10)
        try out.present(damage: []) { model.draw($0, $1) }
        let d = model.fill(IntRect(x: 3, y: 3, width: 2, height: 2), 0xFFFF_0000)
        fake.trace.removeAll()
        try out.present(damage: d) { model.draw($0, $1) }
        #expect(model.drawCalls.last == d)
        #expect(fake.trace == ["pwrite 348 120"])  // written back; no pan, no vsync wait
        expectShown(fake, model)
        out.close()
        #expect(!fake.trace.contains { $0.hasPrefix("pan") })
    }

    @Test func drawsReachAScreenThatShowsOnlyWrittenBytesLikeDRMFbdevEmulation() throws {
        for rotation in [PanelRotation.none, .clockwise90] {
            let fake = rotation == .none ? FakeFB() : FakeFB(width: 10, height: 24)
            fake.showsOnlyWrites = true
            fake.allowsTwoPages = false
            let out = try FBDevOutput(options: FBDevOutputOptions(rotation: rotation), syscalls: fake)
            let model = PictureModel(width: 24, height: 10)
            _ = model.fill(IntRect(x: 0, y: 0, width: 24, height: 10), 0xFF30_3030)
            try out.present(damage: []) { model.draw($0, $1) }
            expectShown(fake, model, rotation: rotation)
            for i in 0..<12 {
                let d = model.fill(
                    IntRect(x: (i * 5) % 22, y: i % 9, width: 1 + i % 3, height: 1 + i % 2),
                    0xFF00_1000 &* UInt32(i + 1))
                try out.present(damage: d) { model.draw($0, $1) }
                expectShown(fake, model, rotation: rotation)
            }
            out.close()
        }
    }

    @Test func drmFbdevEmulationKeepsOnePageAndDoesNotAskForMore() throws {
        let fake = FakeFB()
        fake.fixInfo.id = "virtio_gpudrmfb"
        fake.varInfo.yresVirtual = 20  // room for two pages, as with drm_fbdev_overalloc=200
        let out = try FBDevOutput(options: FBDevOutputOptions(), syscalls: fake)
        #expect(out.pages == 1)
        #expect(!fake.trace.contains { $0.hasPrefix("putVar") })
        let model = PictureModel(width: 24, height: 10)
        try out.present(damage: []) { model.draw($0, $1) }
        try out.present(damage: model.fill(IntRect(x: 2, y: 2, width: 3, height: 3), 0xFFFF_0000)) {
            model.draw($0, $1)
        }
        #expect(!fake.trace.contains { $0.hasPrefix("pan") })
        expectShown(fake, model)
        out.close()
    }

    @Test func vsyncIsNotAskedAgainOnceUnsupported() throws {
        let fake = FakeFB()
        fake.vsyncErrno = EINVAL
        let out = try FBDevOutput(options: FBDevOutputOptions(), syscalls: fake)
        let model = PictureModel(width: 24, height: 10)
        try out.present(damage: []) { model.draw($0, $1) }
        try out.present(damage: model.fill(IntRect(x: 0, y: 0, width: 1, height: 1), 0xFFFF_FFFF)) {
            model.draw($0, $1)
        }
        #expect(fake.trace.filter { $0 == "vsync" }.count == 1)
        expectShown(fake, model)
        out.close()
    }

    @Test func rgb565AndRotation() throws {
        let fake = FakeFB(width: 10, height: 24, bpp: 16)
        let out = try FBDevOutput(options: FBDevOutputOptions(rotation: .clockwise90), syscalls: fake)
        #expect(out.format == .rgb565 && (out.width, out.height) == (24, 10))
        let model = PictureModel(width: 24, height: 10)
        _ = model.fill(IntRect(x: 0, y: 0, width: 5, height: 2), 0xFFFF_8040)
        try out.present(damage: []) { model.draw($0, $1) }
        expectShown(fake, model, rotation: .clockwise90, format: .rgb565)
        try out.present(damage: model.fill(IntRect(x: 20, y: 7, width: 3, height: 3), 0xFF40_80FF)) {
            model.draw($0, $1)
        }
        expectShown(fake, model, rotation: .clockwise90, format: .rgb565)
        out.close()
    }

    @Test func aFormatTheDriverWillNotTakeIsRefusedAndEverythingIsReleased() {
        let fake = FakeFB()
        #expect(throws: DRMError.notFound("framebuffer fakefb stays XRGB8888 when asked for RGB565")) {
            try FBDevOutput(options: FBDevOutputOptions(format: .rgb565), syscalls: fake)
        }
        #expect(fake.openDescriptors.isEmpty)
    }

    /// A getty started on the console sets it to text mode and clears it (systemd's
    /// TTYReset, TTYVTDisallocate), then changes the terminal node's owner and mode:
    /// the watch on /dev reports it, the console is taken again, and the next frame
    /// is drawn whole; close gives back the mode the console had first.
    @Test func aGettyTakingTheConsoleIsNoticedAndTheWholeFrameRedrawn() throws {
        let fake = FakeFB()
        let out = try FBDevOutput(options: FBDevOutputOptions(), syscalls: fake)
        let watch = try #require(out.pollDescriptor, "nothing watches the console")
        #expect(watch == fake.watchFD)
        // A change that leaves the console in graphics mode takes nothing.
        fake.terminalChanged = true
        fake.trace.removeAll()
        try out.handleEvents()
        #expect(fake.trace.isEmpty)
        let model = PictureModel(width: 24, height: 10)
        _ = model.fill(IntRect(x: 0, y: 0, width: 24, height: 10), 0xFF11_2233)
        try out.present(damage: []) { model.draw($0, $1) }
        try out.present(damage: model.fill(IntRect(x: 2, y: 2, width: 3, height: 3), 0xFF44_5566)) {
            model.draw($0, $1)
        }
        #expect(!out.needsFullRedraw)

        // The getty: text mode, the console's text drawn over the shown page, the node's change.
        fake.mode = .text
        fake.terminalChanged = true
        let shown = fake.shown(format: .xrgb8888)
        memset(shown.base, 0x55, shown.stride * shown.height)
        fake.trace.removeAll()
        try out.handleEvents()
        #expect(fake.trace == ["close tty", "open /dev/tty0", "hide cursor", "console graphics"])
        #expect(out.pollDescriptor == watch)
        #expect(out.needsFullRedraw)
        try out.present(damage: []) { model.draw($0, $1) }
        #expect(model.drawCalls.last == [IntRect(x: 0, y: 0, width: 24, height: 10)])
        expectShown(fake, model)

        fake.trace.removeAll()
        out.close()
        #expect(Array(fake.trace.suffix(4)) == ["close watch", "console text", "show cursor", "close tty"])
        #expect(fake.openDescriptors.isEmpty)
    }

    /// Text mode set without a hang-up is found at the next frame, which is drawn whole.
    @Test func textModeSetBySomeoneElseIsFoundAtTheNextFrame() throws {
        let fake = FakeFB()
        let out = try FBDevOutput(options: FBDevOutputOptions(), syscalls: fake)
        let model = PictureModel(width: 24, height: 10)
        try out.present(damage: []) { model.draw($0, $1) }
        fake.mode = .text
        fake.trace.removeAll()
        try out.present(damage: model.fill(IntRect(x: 1, y: 1, width: 2, height: 2), 0xFF00_FF00)) {
            model.draw($0, $1)
        }
        #expect(Array(fake.trace.prefix(4)) == ["close tty", "open /dev/tty0", "hide cursor", "console graphics"])
        #expect(model.drawCalls.last == [IntRect(x: 0, y: 0, width: 24, height: 10)])
        expectShown(fake, model)
        out.close()
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func withoutAConsoleItStillDraws() throws {
        let fake = FakeFB()
        fake.consoleErrno = EACCES
        let out = try FBDevOutput(options: FBDevOutputOptions(), syscalls: fake)
        let model = PictureModel(width: 24, height: 10)
        try out.present(damage: []) { model.draw($0, $1) }
        expectShown(fake, model)
        out.close()
        #expect(!fake.trace.contains { $0.hasPrefix("console") })
        #expect(fake.openDescriptors.isEmpty)
    }
}

@Suite struct FBDevOutputChoiceTests {
    @Test func parsesFbdevWithAndWithoutADevice() {
        #expect(Run.splitPath("/dev/fb1") == ("/dev", "fb1"))
        #expect(Run.splitPath("/fb1") == ("/", "fb1"))
        #expect(OutputChoice("fbdev") == .fbdev(nil))
        #expect(OutputChoice("fbdev:/dev/fb1") == .fbdev("/dev/fb1"))
        #expect(OutputChoice("fbdev:") == nil)
        #expect(OutputChoice("fb") == nil)
    }
}
