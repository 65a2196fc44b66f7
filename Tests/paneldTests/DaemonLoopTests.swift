import Glibc
import PanelGauge
import PanelDisplayFakes
import Testing

@testable import PanelDisplay
@testable import PaneldCore

/// A display stand-in that keeps the FrameOutput contract's paper trail: every
/// present with its damage, and a "page flip" pending until its descriptor
/// (a pipe) becomes readable and `handleEvents` is called.
final class FakeFlipOutput: FrameOutput {
    let width = 64, height = 32
    let format = PixelFormat.xrgb8888
    let image = Image(width: 64, height: 32)
    let pipeRead: Int32, pipeWrite: Int32
    private(set) var presents: [[IntRect]] = []
    private(set) var events = 0
    private(set) var isBusy = false
    private(set) var closed = false

    init() {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        pipeRead = fds[0]
        pipeWrite = fds[1]
    }

    var pollDescriptor: Int32? { pipeRead }
    /// Set to play "DRM master lost": the next present must redraw everything.
    var lostPicture = false
    var needsFullRedraw: Bool { presents.isEmpty || lostPicture }
    /// Set to play "the event took the picture" (a framebuffer's console taken by a getty).
    var losesPictureOnEvent = false

    func present(damage: [IntRect], draw: (Surface, [IntRect]) throws -> Void) throws {
        precondition(!isBusy, "present while a flip is pending")
        try draw(image.surface, damage)
        presents.append(damage)
        isBusy = true
        lostPicture = false
    }

    /// The kernel's flip-complete event arriving.
    func completeFlip() {
        var b: UInt8 = 1
        write(pipeWrite, &b, 1)
    }

    func handleEvents() throws {
        var b: UInt8 = 0
        read(pipeRead, &b, 1)
        events += 1
        isBusy = false
        if losesPictureOnEvent { lostPicture = true }
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(pipeRead)
        Glibc.close(pipeWrite)
    }
}

@Suite(.serialized) struct DaemonLoopTests {
    /// Driven one poll at a time: no present while a flip is pending, the flip
    /// event is handled, and the changes made meanwhile go out in one frame with
    /// only the changed gauge's damage.
    @Test func framesWaitForTheFlipAndCoalesce() throws {
        let dir = TempDirectory()
        let layout = try LayoutReader.parse(
            Array(
                ##"""
                {"gauges": [{"name": "a", "style": "linearCapacity", "rect": [0, 0, 32, 32]},
                            {"name": "b", "style": "linearCapacity", "rect": [32, 0, 32, 32]}]}
                """##.utf8))
        let output = FakeFlipOutput()
        defer { output.close() }
        let signals = try SignalPipe(signals: [SIGHUP])
        defer { signals.close() }
        let listener = try UnixSocket.listen(dir.file("s.sock"))
        defer { listener.close() }
        // Both with values: a gauge's first value redraws its whole frame ("no data" before).
        let store = GaugeStore(names: ["a", "b"], defaultGauge: "a", initial: ["a": 0, "b": 0])
        let daemon = Daemon(
            layout: layout, output: OutputSlot(output), listener: listener, signals: signals, inputs: [],
            notifier: nil,
            store: store, settings: Daemon.Settings())

        try daemon.turn()  // the first frame, whole screen
        #expect(output.presents == [[IntRect(x: 0, y: 0, width: 64, height: 32)]] && output.isBusy)

        let c = try TestClient(dir.file("s.sock"))
        try daemon.turn()  // accept
        try c.send("b 10\nb 20\nb 30\n")
        try daemon.turn()  // read: values change, but the flip is still pending
        #expect(daemon.store.values["b"] == 30)
        #expect(output.presents.count == 1 && output.events == 0)

        output.completeFlip()
        try daemon.turn()  // flip event handled, then the one coalesced frame
        #expect(output.events == 1)
        #expect(output.presents.count == 2)
        // Only b's fill and current value: inside b's frame, not all of it.
        let frameB = IntRect(x: 32, y: 0, width: 32, height: 32)
        let damage = try #require(output.presents.last)
        #expect(damage.count == 1 && frameB.contains(damage[0]) && damage[0] != frameB)
        #expect(output.isBusy)

        try c.send("get b\n")
        try daemon.turn()
        #expect(try c.readLine(timeout: 1000) == "b 30")
        #expect(output.presents.count == 2, "a get changes nothing on screen")

        // The display loses its picture (another DRM master): with no input at all,
        // a full frame follows within the recovery interval, and then paneld sleeps.
        output.completeFlip()
        try daemon.turn()
        output.lostPicture = true
        let t0 = monotonicMilliseconds()
        try daemon.turn()
        let waited = monotonicMilliseconds() - t0
        #expect(output.presents.count == 3)
        #expect(output.presents.last == [IntRect(x: 0, y: 0, width: 64, height: 32)])
        #expect(waited >= Daemon.recoveryInterval / 2 && waited < Daemon.recoveryInterval * 3, "\(waited) ms")
    }

    /// An output whose event takes its picture (a getty hanging up a framebuffer's
    /// console) is drawn whole in the same turn, not a recovery interval later.
    @Test func anEventThatTakesThePictureIsAnsweredWithAFullFrameAtOnce() throws {
        let dir = TempDirectory()
        let layout = try LayoutReader.parse(
            Array(##"{"gauges": [{"name": "a", "style": "linearCapacity", "rect": [0, 0, 32, 32]}]}"##.utf8))
        let output = FakeFlipOutput()
        defer { output.close() }
        let signals = try SignalPipe(signals: [SIGHUP])
        defer { signals.close() }
        let listener = try UnixSocket.listen(dir.file("s.sock"))
        defer { listener.close() }
        let daemon = Daemon(
            layout: layout, output: OutputSlot(output), listener: listener, signals: signals, inputs: [],
            notifier: nil, store: GaugeStore(names: ["a"], defaultGauge: "a", initial: [:]),
            settings: Daemon.Settings())
        try daemon.turn()  // the first frame
        output.completeFlip()
        try daemon.turn()
        #expect(output.presents.count == 1 && !output.isBusy)
        usleep(50_000)
        output.losesPictureOnEvent = true
        output.completeFlip()
        let t0 = monotonicMilliseconds()
        try daemon.turn()
        #expect(output.presents.count == 2, "no frame in the turn that handled the event")
        #expect(output.presents.last == [IntRect(x: 0, y: 0, width: 64, height: 32)])
        #expect(monotonicMilliseconds() - t0 < Daemon.recoveryInterval / 2)
    }
}

/// A display whose card goes away (its driver unbound: every call answers ENODEV).
@Suite(.serialized) struct DisplayLossTests {
    @Test func aCardAnsweringENODEVIsLeftForTheFallback() throws {
        let dir = TempDirectory()
        let layout = try LayoutReader.parse(
            Array(##"{"gauges": [{"name": "a", "style": "linearCapacity", "rect": [0, 0, 16, 16]}]}"##.utf8))
        let fake = FakeDRM.bochs()
        fake.failures["setCrtc"] = [ENODEV]
        let drm = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        let slot = OutputSlot(drm)
        defer { slot.close() }
        let fallback = FakeFlipOutput()
        let signals = try SignalPipe(signals: [SIGHUP])
        defer { signals.close() }
        let listener = try UnixSocket.listen(dir.file("s.sock"))
        defer { listener.close() }
        var losses = 0
        let daemon = Daemon(
            layout: layout, output: slot, listener: listener, signals: signals, inputs: [], notifier: nil,
            store: GaugeStore(names: ["a"], defaultGauge: "a", initial: [:]), settings: Daemon.Settings(),
            displayLost: {
                losses += 1
                return (fallback, nil)
            })
        try daemon.turn()  // the first frame's SetCrtc answers ENODEV: the fallback takes over
        #expect(losses == 1)
        #expect(slot.current === fallback)
        #expect(fake.openDescriptors.isEmpty, "the dead card's descriptor is closed")
        try daemon.turn()  // the whole frame on the fallback
        #expect(fallback.presents == [[IntRect(x: 0, y: 0, width: 64, height: 32)]])
    }
}

/// What the daemon does when the kernel says the displays changed (a uevent).
@Suite struct DisplayChangeTests {
    @Test func redisplaySetsTheCrtcAgainWithTheWholeFrame() throws {
        let fake = FakeDRM.bochs()
        let out = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        defer { out.close() }
        try out.present(damage: []) { _, _ in }
        #expect(!out.needsFullRedraw)
        try out.checkDevice()
        out.redisplay()
        #expect(out.needsFullRedraw)
        fake.trace.removeAll()
        try out.present(damage: []) { _, _ in }
        #expect(fake.trace.contains { $0.hasPrefix("setCrtc 38") })
    }

    @Test func aGoneCardAnswersENODEV() throws {
        let fake = FakeDRM.bochs()
        let out = try DRMOutput(options: DRMOutputOptions(), syscalls: fake)
        defer { out.close() }
        fake.failures["capability"] = [ENODEV]
        #expect(throws: DRMError("capability", errno: ENODEV)) { try out.checkDevice() }
    }
}
