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

/// A daemon for one part alone: it shows `layout`'s page `page`, hands out the
/// gauges `touched` and keeps what the part said.
final class FakeContext: DaemonContext {
    var store = GaugeStore(names: ["a"], defaultGauge: "a", initial: [:])
    var layout: Layout
    var history: HistoryBook
    var page = 0
    var touched: Set<String> = []
    private(set) var pagesShown: [Int] = []
    private(set) var stale: Set<String>?
    private(set) var clocks: [String: String]?

    init(_ layout: Layout) {
        self.layout = layout
        history = HistoryBook(layout: layout)
    }

    func apply(_ command: Command) -> Result<String, LineError> { store.apply(command) }
    func reply(to line: [UInt8]) -> String { "" }
    func requestStop() {}
    func reload() {}
    func terminalSwitched(shown: Bool) {}
    func displaysChanged() {}
    func inputsChanged() {}
    var screenWidth = 800
    var screenHeight = 480
    private(set) var pageTurns: [Int] = []
    private(set) var holds: [Bool] = []
    func turnPage(by offset: Int) { pageTurns.append(offset) }
    func holdPage(_ hold: Bool) { holds.append(hold) }
    private(set) var taps: [(x: Double, y: Double)] = []
    var tapsAreGauges = false
    func tapped(x: Double, y: Double) -> Bool {
        taps.append((x, y))
        return tapsAreGauges
    }
    private(set) var screen: [Bool] = []
    func setScreenOn(_ on: Bool) { screen.append(on) }
    var wakesOnTouch = false
    func screenTouched() -> Bool { wakesOnTouch }
    func displayAppeared(_ new: FrameOutput) {}
    func outputEventsHandled() throws {}
    func showPage(_ index: Int) {
        page = index
        pagesShown.append(index)
    }
    func takeTouched() -> Set<String> {
        defer { touched = [] }
        return touched
    }
    func showStale(_ names: Set<String>) { stale = names }
    func showClocks(_ texts: [String: String]) { clocks = texts }
}

/// The parts that look at the time: staleness, pages, clocks, each driven alone.
@Suite struct TimePartTests {
    static let layout = """
        {"pageInterval": 1,
         "pages": [{"name": "one", "gauges": [{"name": "a", "style": "linearCapacity"},
                                              {"name": "s", "kind": "clock", "format": "%S"}]},
                   {"name": "two", "gauges": [{"name": "m", "kind": "clock"}]},
                   {"name": "three", "gauges": [{"name": "b", "style": "linearCapacity"}]}]}
        """

    func context() throws -> FakeContext { FakeContext(try LayoutReader.parse(Array(Self.layout.utf8))) }

    @Test func theStalenessPartWakesWhenTheNextGaugeGoesStaleAndCountsFromInputs() throws {
        let ctx = try context()
        let part = StalenessPart(rules: ["a": .init(after: 300), "b": .init(after: 1000)], restored: [], now: 1000)
        #expect(part.interest(now: 1000).deadline == 1300)
        ctx.touched = ["b"]
        part.turn([], now: 1200, daemon: ctx)
        #expect(ctx.stale == [] && ctx.touched.isEmpty, "the inputs taken")
        #expect(part.interest(now: 1200).deadline == 1300)
        part.turn([], now: 1300, daemon: ctx)
        #expect(ctx.stale == ["a"])
        #expect(part.interest(now: 1300).deadline == 2200, "b counts from its input at 1200")
        ctx.touched = ["a"]
        part.turn([], now: 1400, daemon: ctx)
        #expect(ctx.stale == [])
        #expect(part.interest(now: 1400).deadline == 1700)
        // A reload keeps a's input at 1400: a shorter staleAfter counts from it.
        part.reload(rules: ["a": .init(after: 100)], now: 1450)
        #expect(part.interest(now: 1450).deadline == 1500)
        part.turn([], now: 1500, daemon: ctx)
        #expect(ctx.stale == ["a"])
        #expect(part.interest(now: 1500).deadline == nil, "nothing left to go stale")
    }

    @Test func thePagePartTurnsToTheNextPageWhenDueAndGoesOnFromAChosenOne() throws {
        let ctx = try context()
        let part = PagePart(ctx.layout, now: 0)
        #expect(part.interest(now: 0).deadline == 1000)
        part.turn([], now: 999, daemon: ctx)
        #expect(ctx.pagesShown.isEmpty)
        part.turn([], now: 1000, daemon: ctx)
        #expect(ctx.pagesShown == [1])
        part.turn([], now: 1500, daemon: ctx)
        #expect(ctx.pagesShown == [1], "the page shown is not shown again")
        part.choose(2, now: 1500)
        ctx.showPage(2)  // as `page three` does
        #expect(part.interest(now: 1500).deadline == 2500, "a whole interval after the choice")
        part.turn([], now: 2500, daemon: ctx)
        #expect(ctx.pagesShown == [1, 2, 0], "after the last page, the first")
        part.reload(ctx.layout, page: 1, now: 3000)
        part.turn([], now: 3000, daemon: ctx)
        #expect(ctx.pagesShown == [1, 2, 0, 1])
        #expect(part.interest(now: 3000).deadline == 4000)
    }

    @Test func theClockPartShowsTheClocksOfThePageShownUntilTheirNextChange() throws {
        let ctx = try context()
        let part = ClockPart()
        #expect(part.interest(now: 0).deadline == nil, "no clock known before the first turn")
        // 2000-09-27 20:58:58.500 UTC: %S changes at the next whole second.
        let wall: Int64 = 970_088_338_500
        part.turn(wall: wall, daemon: ctx)
        #expect(ctx.clocks == ["s": ClockFormat.text("%S", at: 970_088_338)], "page one's clock alone")
        #expect(part.nextChange == 970_088_339_000)
        ctx.page = 1
        part.turn(wall: wall, daemon: ctx)
        let minute = try #require(part.nextChange)
        let shown = ClockFormat.text("%H:%M", at: 970_088_338)
        #expect(ctx.clocks == ["m": shown])
        #expect(minute > wall && minute - wall <= 60_000 && minute % 1000 == 0)
        #expect(ClockFormat.text("%H:%M", at: Int(minute / 1000) - 1) == shown, "the same text until then")
        #expect(ClockFormat.text("%H:%M", at: Int(minute / 1000)) != shown, "another from then on")
        ctx.page = 2
        part.turn(wall: wall, daemon: ctx)
        #expect(ctx.clocks == [:] && part.nextChange == nil && part.interest(now: 0).deadline == nil)
        // Asked at the wall clock's time: the deadline is the next second, a margin after it.
        ctx.page = 0
        part.turn([], now: 0, daemon: ctx)
        let deadline = try #require(part.interest(now: 0).deadline)
        #expect((0...1000 + ClockPart.margin).contains(deadline), "\(deadline) ms")
    }
}
