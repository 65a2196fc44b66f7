import Glibc
import PanelDisplayFakes
import Testing

@testable import PanelDisplay
@testable import PaneldCore

/// A part with two descriptors (pipes) and a deadline, keeping a trail of what
/// the loop handed it.
final class TwoPipePart: DaemonPart {
    let pipes: [(read: FileDescriptor, write: Int32)]
    var deadline: Int64?
    private(set) var turns: [[PollEvents]] = []
    private(set) var stopped = false

    init() {
        pipes = (0..<2).map { _ in
            var fds: [Int32] = [0, 0]
            pipe(&fds)
            return (FileDescriptor(rawValue: fds[0]), fds[1])
        }
    }

    func send(_ text: String, on k: Int) { _ = write(pipes[k].write, text, text.utf8.count) }

    func interest(now: Int64) -> PartInterest {
        PartInterest(pipes.map { ($0.read, .input) }, deadline: deadline)
    }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        turns.append(ready)
        for (k, events) in ready.enumerated() where events.contains(.input) {
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = read(pipes[k].read.rawValue, &buffer, 64)
            let text = String(decoding: buffer[0..<max(0, n)], as: UTF8.self)
            if text == "stop" {
                daemon.requestStop()
            } else if case .success(let command) = LineParser.parse(Array(text.utf8), texts: []) {
                _ = daemon.apply(command)
            }
        }
        if let d = deadline, now >= d { deadline = nil }
    }

    func stop() { stopped = true }

    func close() {
        for p in pipes {
            p.read.close()
            Glibc.close(p.write)
        }
    }
}

/// The loop over parts: each part's descriptors polled with the rest, its own
/// events handed back in its order, its deadline a wake-up, `stop` on the way out.
@Suite struct DaemonPartTests {
    func makeDaemon(_ dir: TempDirectory, part: TwoPipePart) throws -> (Daemon, () -> Void) {
        let layout = try LayoutReader.parse(
            Array(##"{"gauges": [{"name": "a", "style": "linearCapacity", "rect": [0, 0, 32, 32]}]}"##.utf8))
        let output = FakeFlipOutput()
        let signals = try SignalPipe(signals: [SIGHUP])
        let listener = try UnixSocket.listen(dir.file("s.sock"))
        let daemon = Daemon(
            layout: layout, output: OutputSlot(output), listener: listener, signals: signals, inputs: [],
            notifier: nil, store: GaugeStore(names: ["a"], defaultGauge: "a", initial: [:]),
            settings: Daemon.Settings(), parts: [part])
        return (
            daemon,
            {
                listener.close()
                signals.close()
                output.close()
            }
        )
    }

    @Test func aPartGetsTheEventsOfItsOwnDescriptorsInItsOrder() throws {
        let dir = TempDirectory()
        let part = TwoPipePart()
        defer { part.close() }
        let (daemon, close) = try makeDaemon(dir, part: part)
        defer { close() }
        part.send("a 42", on: 1)
        try daemon.turn()
        #expect(part.turns.last?.count == 2)
        #expect(part.turns.last?[0].isEmpty == true)
        #expect(part.turns.last?[1].contains(.input) == true)
        #expect(daemon.store.values["a"] == 42)
    }

    @Test func aPartsDeadlineWakesTheLoop() throws {
        let dir = TempDirectory()
        let part = TwoPipePart()
        defer { part.close() }
        let (daemon, close) = try makeDaemon(dir, part: part)
        defer { close() }
        try daemon.turn()  // the first frame: a flip pending from now on, no frame deadline
        let now = monotonicMilliseconds()
        part.deadline = now + 5000
        #expect((4900...5000).contains(daemon.timeout(now: now)))
    }

    @Test func aPartMayStopTheDaemonAndIsStopped() throws {
        let dir = TempDirectory()
        let part = TwoPipePart()
        defer { part.close() }
        let (daemon, close) = try makeDaemon(dir, part: part)
        defer { close() }
        part.send("stop", on: 0)
        try daemon.run()
        #expect(part.stopped)
    }
}
