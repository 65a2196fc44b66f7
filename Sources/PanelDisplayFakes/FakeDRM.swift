import PanelGauge

import PanelDisplay

#if canImport(Glibc)
    import Glibc
#endif

/// A scripted DRM device for tests: answers from tables, records every call as
/// one line of `trace`, and fails the calls a test tells it to.
package final class FakeDRM: DRMSyscalls {
    package struct Card {
        package var driver: String
        package var resources: CardResources?
        package var dumb: UInt64 = 1
        package var connectors: [ConnectorInfo] = []
        package var encoders: [EncoderInfo] = []
        package var crtcs: [CrtcState] = []
        package var planes: [PlaneInfo] = []

        package init(
            driver: String, resources: CardResources?, dumb: UInt64 = 1, connectors: [ConnectorInfo] = [],
            encoders: [EncoderInfo] = [], crtcs: [CrtcState] = [], planes: [PlaneInfo] = []
        ) {
            self.driver = driver
            self.resources = resources
            self.dumb = dumb
            self.connectors = connectors
            self.encoders = encoders
            self.crtcs = crtcs
            self.planes = planes
        }
    }

    package init() {}

    package var cards: [String: Card] = [:]
    package var trace: [String] = []
    /// errnos to fail calls with, by call name (`setCrtc`, `pageFlip`...), consumed first to last.
    package var failures: [String: [Int32]] = [:]
    /// How many calls of a name succeed before `failures` for it apply.
    package var successesBeforeFailure: [String: Int] = [:]
    /// Events the next `readEvents` returns.
    package var pendingEvents: [DRMEvent] = []
    /// Extra bytes per row the fake adds to dumb buffers' pitch, to catch stride bugs.
    package var pitchPadding: UInt32 = 64

    private var fds: [Int32: String] = [:]
    private var nextFD: Int32 = 3
    private var nextID: UInt32 = 100
    private var dumbs: [UInt32: (size: Int, memory: UnsafeMutableRawPointer)] = [:]
    private var mapped: Set<UnsafeMutableRawPointer> = []
    package private(set) var framebuffers: [UInt32: UInt32] = [:]  // fb id -> handle
    package private(set) var openDescriptors: Set<Int32> = []

    /// The memory behind the framebuffer `id`, as the display would scan it out.
    package func scanout(_ id: UInt32, width: Int, height: Int, format: PixelFormat) -> Surface {
        let handle = framebuffers[id]!
        let pitch = width * format.bytesPerPixel + Int(pitchPadding)
        return Surface(base: dumbs[handle]!.memory, width: width, height: height, stride: pitch, format: format)
    }

    package var leakedResources: Int { dumbs.count + mapped.count + framebuffers.count + openDescriptors.count }

    private func fail(_ call: String) throws {
        if let n = successesBeforeFailure[call], n > 0 {
            successesBeforeFailure[call] = n - 1
            return
        }
        if var list = failures[call], !list.isEmpty {
            let e = list.removeFirst()
            failures[call] = list
            trace.append("\(call) -> \(DRMError.errnoName(e))")
            throw DRMError(call, errno: e)
        }
    }

    private func card(_ fd: Int32) -> Card { cards[fds[fd]!]! }

    package func listCards() -> [String] { cards.keys.sorted() }
    /// Links such as `/dev/dri/by-path/...` to card paths, for `resolvedPath`.
    package var links: [String: String] = [:]
    package func resolvedPath(_ path: String) -> String? { links[path] ?? (cards[path] != nil ? path : nil) }
    package func sysfsDevice(ofCard path: String) -> String? { nil }

    package func open(_ path: String) throws -> Int32 {
        trace.append("open \(path)")
        try fail("open")
        guard cards[path] != nil else { throw DRMError("open(\(path))", errno: ENOENT) }
        let fd = nextFD
        nextFD += 1
        fds[fd] = path
        openDescriptors.insert(fd)
        return fd
    }

    package func close(_ fd: Int32) {
        trace.append("close \(fds[fd] ?? "?")")
        openDescriptors.remove(fd)
    }

    package func version(_ fd: Int32) throws -> DriverVersion {
        DriverVersion(name: card(fd).driver, description: "fake")
    }

    package func capability(_ fd: Int32, _ cap: DRMCapability) throws -> UInt64 {
        try fail("capability")
        return cap == .dumbBuffer ? card(fd).dumb : 0
    }

    package func resources(_ fd: Int32) throws -> CardResources {
        guard let r = card(fd).resources else { throw DRMError("drmModeGetResources", errno: EOPNOTSUPP) }
        return r
    }

    package func connector(_ fd: Int32, id: UInt32) throws -> ConnectorInfo {
        card(fd).connectors.first { $0.id == id }!
    }
    package func encoder(_ fd: Int32, id: UInt32) throws -> EncoderInfo { card(fd).encoders.first { $0.id == id }! }
    package func crtc(_ fd: Int32, id: UInt32) throws -> CrtcState {
        trace.append("getCrtc \(id)")
        return card(fd).crtcs.first { $0.id == id }!
    }

    package func setClientCapability(_ fd: Int32, _ cap: DRMClientCapability, _ value: UInt64) throws {}

    package func planeIDs(_ fd: Int32) throws -> [UInt32] {
        try fail("planeIDs")
        return card(fd).planes.map(\.id)
    }

    package func plane(_ fd: Int32, id: UInt32) throws -> PlaneInfo { card(fd).planes.first { $0.id == id }! }

    package func createDumb(_ fd: Int32, width: UInt32, height: UInt32, bitsPerPixel: UInt32) throws -> DumbBufferInfo {
        try fail("createDumb")
        let handle = nextID
        nextID += 1
        let pitch = width * bitsPerPixel / 8 + pitchPadding
        let size = Int(pitch * height)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0xEE, count: size)
        dumbs[handle] = (size, memory)
        trace.append("createDumb \(width)x\(height)x\(bitsPerPixel) -> handle \(handle)")
        return DumbBufferInfo(handle: handle, pitch: pitch, size: UInt64(size))
    }

    package func addFramebuffer(
        _ fd: Int32, width: UInt32, height: UInt32, fourcc: UInt32, handle: UInt32, pitch: UInt32
    ) throws -> UInt32 {
        try fail("addFramebuffer")
        let id = nextID
        nextID += 1
        framebuffers[id] = handle
        let format = fourcc == DRMFourCC.xrgb8888 ? "XR24" : fourcc == DRMFourCC.rgb565 ? "RG16" : "?"
        trace.append("addFB handle \(handle) \(format) -> fb \(id)")
        return id
    }

    package func mapDumbOffset(_ fd: Int32, handle: UInt32) throws -> UInt64 {
        try fail("mapDumb")
        return UInt64(handle) << 12
    }

    package func mmap(_ fd: Int32, size: Int, offset: UInt64) throws -> UnsafeMutableRawPointer {
        try fail("mmap")
        let handle = UInt32(offset >> 12)
        trace.append("mmap handle \(handle)")
        let memory = dumbs[handle]!.memory
        mapped.insert(memory)
        return memory
    }

    package func munmap(_ address: UnsafeMutableRawPointer, size: Int) throws {
        let handle = dumbs.first { $0.value.memory == address }!.key
        trace.append("munmap handle \(handle)")
        mapped.remove(address)
    }

    package func removeFramebuffer(_ fd: Int32, id: UInt32) throws {
        trace.append("rmFB \(id)")
        framebuffers[id] = nil
    }

    package func destroyDumb(_ fd: Int32, handle: UInt32) throws {
        trace.append("destroyDumb \(handle)")
        if mapped.contains(dumbs[handle]!.memory) { trace.append("BUG: destroyed while mapped") }
        dumbs[handle]!.memory.deallocate()
        dumbs[handle] = nil
    }

    package func dropMaster(_ fd: Int32) throws {
        trace.append("dropMaster")
        try fail("dropMaster")
    }

    package func acquireMaster(_ fd: Int32) throws {
        trace.append("setMaster")
        try fail("setMaster")
    }

    package func setCrtc(
        _ fd: Int32, crtcID: UInt32, framebufferID: UInt32, x: UInt32, y: UInt32,
        connectorIDs: [UInt32], mode: ModeInfo?
    ) throws {
        trace.append(
            "setCrtc \(crtcID) fb \(framebufferID) \(connectorIDs) \(mode.map { "\($0.hdisplay)x\($0.vdisplay)" } ?? "off")"
        )
        try fail("setCrtc")
    }

    package func pageFlip(_ fd: Int32, crtcID: UInt32, framebufferID: UInt32, userData: UInt64) throws {
        trace.append("pageFlip \(crtcID) fb \(framebufferID)")
        try fail("pageFlip")
        pendingEvents.append(.flipComplete(crtcID: crtcID, userData: userData))
    }

    package func dirtyFramebuffer(_ fd: Int32, id: UInt32, clips: [IntRect]) throws {
        trace.append("dirtyFB \(id) \(clips)")
        try fail("dirtyFB")
    }

    package func readEvents(_ fd: Int32) throws -> [DRMEvent] {
        trace.append("readEvents")
        defer { pendingEvents.removeAll() }
        return pendingEvents
    }

    package func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws -> Bool {
        trace.append("waitReadable")
        return !pendingEvents.isEmpty
    }
}

extension FakeDRM {
    package static func mode(_ w: UInt16, _ h: UInt16, _ hz: UInt32 = 60, preferred: Bool = false) -> ModeInfo {
        ModeInfo(hdisplay: w, vdisplay: h, vrefresh: hz, type: preferred ? ModeInfo.typePreferred : 0)
    }

    /// One card like QEMU's bochs-display: one Virtual connector, one encoder, one
    /// CRTC showing fbcon's framebuffer 7.
    package static func bochs(width: UInt16 = 32, height: UInt16 = 16) -> FakeDRM {
        let fake = FakeDRM()
        let mode = FakeDRM.mode(width, height, preferred: true)
        fake.cards["/dev/dri/card0"] = Card(
            driver: "bochs-drm",
            resources: CardResources(crtcIDs: [38], connectorIDs: [36], encoderIDs: [37]),
            connectors: [
                ConnectorInfo(
                    id: 36, type: 15, typeIndex: 1, status: .connected,
                    modes: [FakeDRM.mode(1024, 768), mode], encoderID: 37, encoderIDs: [37])
            ],
            encoders: [EncoderInfo(id: 37, crtcID: 38, possibleCrtcs: 1)],
            crtcs: [CrtcState(id: 38, bufferID: 7, x: 0, y: 0, mode: FakeDRM.mode(1024, 768))],
            planes: [
                PlaneInfo(
                    id: 34, kind: .primary, crtcID: 38, framebufferID: 7, possibleCrtcs: 1,
                    formats: [DRMFourCC.xrgb8888, DRMFourCC.rgb565])
            ])
        return fake
    }
}
