import Glibc
import PanelGauge
import Testing

@testable import PanelDisplay
@testable import PaneldCore

/// Stale values: the layout keys and their mistakes, the rules (``Staleness``),
/// the dimmed drawing and its damage, and the daemon's loop: a gauge goes stale
/// at its deadline with one wake-up and one repaint of its frame, a value on
/// the socket revives it, a restored value is stale until fresh input.
/// (Revival by MQTT: ``MQTTInputTests``.)
@Suite(.serialized) struct StaleTests {
    private func layout(_ json: String) throws -> Layout { try LayoutReader.parse(Array(json.utf8)) }

    // MARK: the layout keys

    @Test func theLayoutGivesDefaultsAndGaugesOverrideThem() throws {
        let l = try layout(
            """
            {"staleAfter": 30, "staleOnRestore": true,
             "gauges": [{"name": "a"}, {"name": "b", "staleAfter": 0.5}, {"name": "c", "staleAfter": null},
                        {"name": "d", "staleOnRestore": false}]}
            """)
        let rules = l.staleRules
        #expect(rules["a"] == Staleness.Rule(after: 30_000, onRestore: true))
        #expect(rules["b"] == Staleness.Rule(after: 500, onRestore: true))
        #expect(rules["c"] == Staleness.Rule(after: nil, onRestore: true))
        #expect(rules["d"] == Staleness.Rule(after: 30_000, onRestore: false))
        let none = try layout(#"{"gauges": [{"name": "a"}]}"#)
        #expect(none.staleRules["a"] == Staleness.Rule(after: nil, onRestore: false), "off unless a layout asks")
    }

    @Test(arguments: [
        (##"{"staleAfter": 0, "gauges": [{"name": "a"}]}"##, 1, "staleAfter", "seconds from 0.1 to 604800"),
        (##"{"staleAfter": -5, "gauges": [{"name": "a"}]}"##, 1, "staleAfter", "seconds from 0.1 to 604800"),
        (##"{"staleAfter": 0.05, "gauges": [{"name": "a"}]}"##, 1, "staleAfter", "seconds from 0.1 to 604800"),
        (##"{"staleAfter": 604801, "gauges": [{"name": "a"}]}"##, 1, "staleAfter", "or null for never"),
        (##"{"staleAfter": "30", "gauges": [{"name": "a"}]}"##, 1, "staleAfter", "expected a number"),
        (##"{"staleAfter": 1e999, "gauges": [{"name": "a"}]}"##, 1, "", "number out of range"),
        (##"{"staleOnRestore": 1, "gauges": [{"name": "a"}]}"##, 1, "staleOnRestore", "expected true or false"),
        ("{\"gauges\": [{\"name\": \"a\",\n \"staleAfter\": 0}]}", 2, "gauges[0].staleAfter", "seconds from 0.1"),
        (
            "{\"gauges\": [{\"name\": \"a\"},\n {\"name\": \"b\", \"staleAfter\": 1e6}]}", 2, "gauges[1].staleAfter",
            "a week"
        ),
        ("{\"gauges\": [{\"name\": \"a\",\n \"staleAfter\": true}]}", 2, "gauges[0].staleAfter", "expected a number"),
        (
            "{\"gauges\": [{\"name\": \"a\",\n \"staleOnRestore\": \"yes\"}]}", 2, "gauges[0].staleOnRestore",
            "expected true or false"
        ),
        (##"{"gauges": [{"name": "a", "staleafter": 3}]}"##, 1, "gauges[0].staleafter", "unknown key"),
    ])
    func mistakesAreReportedWithLineAndKey(json: String, line: Int, path: String, message: String) {
        let found = issues(json)
        #expect(found.contains { $0.line == line && $0.path == path && $0.message.contains(message) }, "got \(found)")
    }

    // MARK: the rules

    @Test func staleAfterCountsFromTheLastInput() {
        var s = Staleness(rules: ["a": .init(after: 300), "b": .init(after: 1000), "c": .init()], now: 0)
        #expect(s.staleNames(at: 299).isEmpty)
        #expect(s.staleNames(at: 300) == ["a"])
        #expect(s.nextChange(after: 0) == 300)
        #expect(s.nextChange(after: 300) == 1000, "a stale gauge has no deadline; the next is b's")
        s.noteInput(["a"], now: 400)
        #expect(!s.isStale("a", at: 699) && s.isStale("a", at: 700))
        #expect(s.nextChange(after: 400) == 700)
        s.noteInput(["a", "b", "c", "unknown"], now: 2000)
        #expect(s.staleNames(at: 2000).isEmpty)
        #expect(s.staleNames(at: 1_000_000) == ["a", "b"], "c has no staleAfter: never stale")
    }

    @Test func aRestoredValueIsStaleUntilInputWhenTheRuleSaysSo() {
        var s = Staleness(
            rules: [
                "a": .init(after: nil, onRestore: true), "b": .init(after: 500, onRestore: true),
                "c": .init(after: nil, onRestore: false),
            ],
            restored: ["a", "b", "c"], now: 0)
        #expect(s.staleNames(at: 0) == ["a", "b"])
        #expect(s.nextChange(after: 0) == nil, "stale until input: nothing to wake for")
        s.noteInput(["b"], now: 100)
        #expect(s.staleNames(at: 100) == ["a"])
        #expect(s.nextChange(after: 100) == 600, "then b's own staleAfter counts")
    }

    @Test func aReloadKeepsTheLastInputsAndRestoredValues() {
        var s = Staleness(rules: ["a": .init(after: 10_000), "r": .init(onRestore: true)], restored: ["r"], now: 0)
        s.noteInput(["a"], now: 1000)
        let r = s.reloaded(
            rules: ["a": .init(after: 500), "r": .init(onRestore: true), "n": .init(after: 500)], now: 5000)
        #expect(r.staleNames(at: 5000) == ["a", "r"], "a shorter staleAfter counts from a's last input")
        #expect(r.nextChange(after: 5000) == 5500, "a new gauge counts from the reload")
        let off = s.reloaded(rules: ["a": .init(), "r": .init()], now: 5000)
        #expect(off.staleNames(at: 1_000_000).isEmpty, "rules removed: nothing stale")
    }

    // MARK: drawing

    private static let twoBars = """
        {"staleAfter": 0.3, "background": "#101014",
         "gauges": [{"name": "a", "style": "linearCapacity", "rect": [0, 0, 32, 32], "format": "percent"},
                    {"name": "b", "style": "linearCapacity", "rect": [32, 0, 32, 32], "staleAfter": null}]}
        """

    /// The pixels of `layout` drawn whole, from scratch, with `stale` gauges stale.
    private func picture(_ layout: Layout, values: [String: Double], stale: Set<String>) -> [UInt8] {
        let img = Image(width: 64, height: 32)
        LayoutScene(layout: layout, width: 64, height: 32, cachesStaticLayers: false)
            .drawAll(img.surface, values: values, stale: stale)
        return pixels(img)
    }

    /// How many bytes differ between two pictures (0 = the same; a count keeps a failure's message short).
    private func differing(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.count != b.count ? max(a.count, b.count) : zip(a, b).filter { $0 != $1 }.count
    }

    private func pixels(_ img: Image) -> [UInt8] {
        (0..<img.height).flatMap { y in
            Array(UnsafeRawBufferPointer(start: img.surface.row(y), count: img.width * 4))
        }
    }

    /// Issue 38 item 2: a gauge without a value is drawn as "no data" (or its
    /// layout's `noData` text), unlike a stale one and unlike any value, and
    /// whatever the stale set says.
    @Test func aGaugeWithoutAValueIsNoDataNotStale() throws {
        let l = try layout(Self.twoBars)
        let none = picture(l, values: ["b": 0], stale: [])
        #expect(differing(none, picture(l, values: ["a": 0, "b": 0], stale: [])) > 0)
        #expect(differing(none, picture(l, values: ["a": 0, "b": 0], stale: ["a"])) > 0)
        #expect(differing(none, picture(l, values: ["b": 0], stale: ["a"])) == 0)
        let a = l.gauges[0].gauge(showing: nil)
        #expect(!a.hasValue && a.configuration.currentValueLabel?.text == "no data")
        // A stale value out of range: pinned, in the stale colour, not the out-of-range one.
        #expect(
            differing(
                picture(l, values: ["a": 170, "b": 0], stale: ["a"]),
                picture(l, values: ["a": 100, "b": 0], stale: ["a"])) == 0)
        let offline = try layout(#"{"gauges": [{"name": "a", "noData": "offline"}]}"#)
        #expect(offline.gauges[0].gauge(showing: nil).configuration.currentValueLabel?.text == "offline")
        #expect(throws: (any Error).self) { try layout(#"{"gauges": [{"name": "a", "noData": ""}]}"#) }
    }

    @Test func aStaleGaugeIsDimmedWithADashAndOnlyItsFrameChanges() throws {
        let l = try layout(Self.twoBars)
        let values = ["a": 60.0, "b": 40.0]
        let fresh = picture(l, values: values, stale: [])
        let stale = picture(l, values: values, stale: ["a"])
        // Only pixels of a's frame (columns 0..<32) differ.
        var differing = Set<Int>()
        for i in stride(from: 0, to: fresh.count, by: 4) where fresh[i..<i + 3] != stale[i..<i + 3] {
            differing.insert((i / 4) % 64)
        }
        #expect(!differing.isEmpty && differing.allSatisfy { $0 < 32 })
        // Dimmed: the brightest pixel of the frame is well below the fresh one's.
        func brightest(_ p: [UInt8]) -> Int {
            stride(from: 0, to: p.count, by: 4).filter { ($0 / 4) % 64 < 32 }.map { Int(p[$0..<$0 + 3].max()!) }
                .max()!
        }
        #expect(brightest(stale) < brightest(fresh) * 6 / 10, "\(brightest(stale)) vs \(brightest(fresh))")
        // The value is a dash: the stale gauge equals one whose current value is "—".
        let renderer = LayoutScene(layout: l, width: 64, height: 32)
        #expect(renderer.staleDash == "\u{2014}", "DejaVu Sans has an em dash")
        let g = l.gauges[0].staleGauge(showing: 60, dash: "\u{2014}", tint: l.foreground)
        #expect(g.configuration.currentValueLabel?.text == "\u{2014}")
        #expect(g.thresholds == nil && g.tint == .color(l.foreground))
    }

    @Test func goingStaleOrFreshDamagesTheWholeFrame() throws {
        let l = try layout(Self.twoBars)
        let r = LayoutScene(layout: l, width: 64, height: 32)
        let frameA = IntRect(x: 0, y: 0, width: 32, height: 32)
        let v = ["a": 60.0, "b": 40.0]
        #expect(r.damage(for: ["a"], from: v, to: v, stale: ([], ["a"])) == [frameA])
        #expect(r.damage(for: ["a"], from: v, to: ["a": 70, "b": 40], stale: (["a"], [])) == [frameA])
        // A fresh value change is still the bar's changed part, not the frame.
        let partial = r.damage(for: ["a"], from: v, to: ["a": 70, "b": 40])
        #expect(
            !partial.isEmpty && partial.allSatisfy { frameA.contains($0) }
                && partial.reduce(0) { $0 + $1.area } < frameA.area)
    }

    /// Repaints through the renderer's pictures equal full redraws, into and
    /// out of staleness, for a ring (whose value arc is copied from pictures)
    /// and a bar.
    @Test func repaintsIntoAndOutOfStalenessEqualFullRedraws() throws {
        let l = try layout(
            """
            {"gauges": [{"name": "a", "style": "ring", "rect": [0, 0, 32, 32]},
                        {"name": "b", "style": "linearCapacity", "rect": [32, 0, 32, 32], "format": "percent"}]}
            """)
        let r = LayoutScene(layout: l, width: 64, height: 32)
        let img = Image(width: 64, height: 32)
        var values = ["a": 20.0, "b": 30.0]
        var stale: Set<String> = []
        r.drawAll(img.surface, values: values)
        let steps: [([String: Double], Set<String>)] = [
            (["a": 40, "b": 30], []), (["a": 40, "b": 30], ["a"]), (["a": 40, "b": 30], ["a", "b"]),
            (["a": 55, "b": 30], ["b"]), (["a": 60, "b": 80], []), (["a": 60, "b": 80], ["a"]),
        ]
        for (next, nextStale) in steps {
            let damage = r.damage(for: ["a", "b"], from: values, to: next, stale: (stale, nextStale))
            r.draw(img.surface, rects: damage, values: next, stale: nextStale)
            #expect(
                differing(pixels(img), picture(l, values: next, stale: nextStale)) == 0, "\(next) stale \(nextStale)")
            (values, stale) = (next, nextStale)
        }
    }

    // MARK: the daemon's loop

    @Test func aGaugeGoesStaleAtItsDeadlineWithOneWakeUpAndRevivesOnTheSocket() throws {
        let l = try layout(Self.twoBars)
        let rig = try LoopRig(l)
        let frameA = IntRect(x: 0, y: 0, width: 32, height: 32)
        try rig.turn()  // the first frame
        try rig.turn()  // its flip
        #expect(rig.output.presents.count == 1 && rig.daemon.stale.isEmpty)

        // Idle: poll sleeps until a's deadline (0.3 s after the start), not forever, not less.
        let timeout = rig.daemon.timeout(now: monotonicMilliseconds())
        try #require(timeout > 0 && timeout <= 300, "poll timeout \(timeout) ms")
        let t0 = monotonicMilliseconds()
        var wakeUps = 0
        while rig.output.presents.count == 1 && wakeUps < 5 {
            try rig.turn()
            wakeUps += 1
        }
        let slept = monotonicMilliseconds() - t0
        #expect(wakeUps == 1, "one wake-up for the deadline")
        #expect(slept >= timeout - 1, "\(slept) ms")
        #expect(rig.daemon.stale == ["a"], "b has staleAfter null")
        #expect(rig.output.presents.last == [frameA], "a's frame alone")
        #expect(differing(pixels(rig.output.image), picture(l, values: [:], stale: ["a"])) == 0)
        try rig.turn()  // the flip
        #expect(rig.daemon.timeout(now: monotonicMilliseconds()) == -1, "nothing left to wake for")

        // The same value again on the socket revives it: a's frame again.
        let c = try TestClient(rig.dir.file("s.sock"))
        try rig.turn()  // accept
        try c.send("a 0\n")
        try rig.turn()
        #expect(rig.daemon.stale.isEmpty)
        #expect(rig.output.presents.count == 3 && rig.output.presents.last == [frameA])
        #expect(differing(pixels(rig.output.image), picture(l, values: ["a": 0], stale: [])) == 0)
        let next = rig.daemon.timeout(now: monotonicMilliseconds())
        #expect(next > 100 && next <= 300, "the deadline counts from the new input: \(next) ms")
    }

    @Test func aRestoredValueIsStaleUntilFreshInput() throws {
        let l = try layout(
            """
            {"staleOnRestore": true,
             "gauges": [{"name": "a", "style": "linearCapacity", "rect": [0, 0, 32, 32], "format": "percent"},
                        {"name": "b", "style": "linearCapacity", "rect": [32, 0, 32, 32], "format": "percent"}]}
            """)
        let rig = try LoopRig(l, store: l.store(values: ["a": 70, "b": 20]), restored: ["a"])
        try rig.turn()
        #expect(rig.daemon.stale == ["a"], "b's value was not restored")
        #expect(differing(pixels(rig.output.image), picture(l, values: ["a": 70, "b": 20], stale: ["a"])) == 0)
        try rig.turn()
        #expect(rig.daemon.timeout(now: monotonicMilliseconds()) == -1, "no staleAfter: nothing to wake for")
        let c = try TestClient(rig.dir.file("s.sock"))
        try rig.turn()
        try c.send("a 75\n")
        try rig.turn()
        #expect(rig.daemon.stale.isEmpty)
        #expect(rig.output.presents.last == [IntRect(x: 0, y: 0, width: 32, height: 32)])
        #expect(differing(pixels(rig.output.image), picture(l, values: ["a": 75, "b": 20], stale: [])) == 0)
    }

    /// A reload keeps each gauge's last input: a shorter `staleAfter` counts
    /// from it, and the gauge goes stale at that deadline, its frame alone.
    @Test func aReloadedStaleAfterCountsFromTheLastInput() throws {
        let dir = TempDirectory()
        func layoutText(staleAfter: String) -> String {
            """
            {"gauges": [{"name": "a", "style": "linearCapacity", "rect": [0, 0, 32, 32], "staleAfter": \(staleAfter)},
                        {"name": "b", "style": "linearCapacity", "rect": [32, 0, 32, 32]}]}
            """
        }
        try dir.write("l.json", layoutText(staleAfter: "60"))
        let rig = try LoopRig(try LayoutReader.read(file: dir.file("l.json")), layoutFile: dir.file("l.json"))
        try rig.turn()
        try rig.turn()
        let c = try TestClient(rig.dir.file("s.sock"))
        try rig.turn()  // accept
        try c.send("a 30\n")
        let input = monotonicMilliseconds()
        try rig.turn()
        usleep(150_000)  // so that counting from the reload would differ from counting from the input
        try dir.write("l.json", layoutText(staleAfter: "0.4"))
        try c.send("reload\n")
        try rig.turn()
        #expect(try c.readLine(timeout: 1000).hasPrefix("OK layout"))
        #expect(rig.daemon.stale.isEmpty)
        let timeout = rig.daemon.timeout(now: monotonicMilliseconds())
        // At most 400 ms from the input, 150 ms of which have passed (counted
        // from the reload, it would be nearly 400); 50 ms for the turn that read it.
        try #require(timeout >= 0 && timeout <= 300, "\(timeout) ms")
        let presents = rig.output.presents.count
        var wakeUps = 0
        while rig.daemon.stale.isEmpty && wakeUps < 5 {
            try rig.turn()
            wakeUps += 1
        }
        #expect(rig.daemon.stale == ["a"])
        #expect(monotonicMilliseconds() - input >= 400)
        #expect(rig.output.presents.count == presents + 1)
        #expect(rig.output.presents.last == [IntRect(x: 0, y: 0, width: 32, height: 32)])
    }

    /// paneld as users run it: a gauge with `staleAfter: 1` goes stale a second
    /// after its last value, and the PNG output then shows what `paneld render
    /// --stale` draws; the daemon wakes a handful of times in 2.5 s, not hundreds.
    @Test func theDaemonShowsWhatRenderDrawsAndSleepsBetweenDeadlines() throws {
        let dir = TempDirectory()
        try dir.write(
            "l.json",
            """
            {"staleAfter": 1,
             "gauges": [{"name": "a", "style": "ring", "rect": [0, 0, 64, 64]}]}
            """)
        let d = try DaemonProcess(
            dir,
            args: [
                "--config", dir.file("l.json"), "--output", "png:" + dir.file("f.png"), "--png-interval", "0.05",
                "--size", "64x64",
            ])
        defer {
            d.signal(SIGTERM)
            _ = d.wait(timeout: 5_000)
        }
        let c = try TestClient(d.socketPath)
        try c.send("a 40\n")
        usleep(200_000)
        let wakeUps = try #require(d.wakeUps(during: 2_500_000))
        print("stale: \(wakeUps) wake-ups in 2.5 s, going stale once")
        #expect(wakeUps <= 12, "wake-ups: \(wakeUps)")
        let r = try runPaneld(
            [
                "render", "--config", dir.file("l.json"), "--size", "64x64", "--set", "a=40", "--stale", "a",
                "--output", dir.file("want.png"),
            ], in: dir)
        #expect(r.status == 0, "\(r.err)")
        #expect(try PNG.read(dir.file("f.png")).rgb == PNG.read(dir.file("want.png")).rgb)
        #expect(try c.ask("get a") == "a 40", "a stale value still answers get")
    }

    @Test func renderRefusesAnUnknownStaleGauge() throws {
        let dir = TempDirectory()
        let r = try runPaneld(["render", "--stale", "cpu", "--output", dir.file("x.png")], in: dir)
        #expect(r.status != 0 && r.err.contains("--stale cpu: the layout has no gauge named 'cpu'"), "\(r.err)")
    }
}

/// A daemon over a ``FakeFlipOutput``, its socket in a temporary directory,
/// driven one turn at a time.
final class LoopRig {
    let dir = TempDirectory()
    let output = FakeFlipOutput()
    let signals: SignalPipe
    let listener: FileDescriptor
    let daemon: Daemon

    /// `layoutFile`: the file a `reload` reads (its layout is `layout`).
    init(
        _ layout: Layout, store: GaugeStore? = nil, restored: Set<String> = [], inputs: [any ValueInput] = [],
        layoutFile: String? = nil
    ) throws {
        var settings = Daemon.Settings()
        settings.layoutPath = layoutFile
        signals = try SignalPipe(signals: [])
        listener = try UnixSocket.listen(dir.file("s.sock"))
        daemon = Daemon(
            layout: layout, output: OutputSlot(output), listener: listener, signals: signals, inputs: inputs,
            notifier: nil, store: store ?? layout.store(), settings: settings, restored: restored)
    }

    deinit {
        output.close()
        signals.close()
        listener.close()
    }

    /// One turn, then the display's flip completes (so the next frame may go out).
    func turn() throws {
        try daemon.turn()
        if output.isBusy { output.completeFlip() }
    }
}
