import PanelDisplay
import Glibc
import PanelGauge

/// The running daemon: one poll loop over a list of parts (``DaemonPart``: the
/// output's events, the signal pipe, the kernel's uevents, the late display's
/// watch, systemd's watchdog, the value inputs, the control socket and its
/// clients, the gauges' staleness, the pages, the clocks, the state file), then
/// a frame when one is due.
///
/// It owns none of the resources it is given; ``Run`` opens them in order and
/// releases them in reverse after ``run()`` returns (the display through its
/// ``OutputSlot``, which holds whichever output is current). The daemon owns
/// the frame: what changed since the last one, what it showed, the renderer.
/// Parts change the gauges (``DaemonContext/apply(_:)``) and say what the next
/// frame shows: the gauges drawn stale (``StalenessPart``), the page
/// (``PagePart``), the clocks' texts (``ClockPart``); the daemon repaints what
/// differs from the last frame.
///
/// With no input and no pending frame or animation, `poll` sleeps until the
/// nearest deadline of a part (a client's limits, an input's keepalive or
/// reconnection, a save, the watchdog ping when systemd asks for one, the next
/// gauge going stale, the next page of a rotation, a clock's next text), or
/// with no timeout when there is none. The daemon's own periodic wake-up: a
/// full frame once a second while the display has lost its picture (DRM
/// master taken).
package final class Daemon: DaemonContext {
    package struct Settings {
        /// Shortest time between two frames (PNG output); 0 = paced by the display alone.
        package var minFrameInterval: Int64 = 0
        /// Shortest time between two state-file writes, in milliseconds.
        package var saveInterval: Int64 = 5000
        package var maxClients = 256
        /// With every slot taken, a client that holds an unfinished line this long, or has
        /// not finished one this long after connecting, may be evicted (``Eviction``).
        package var evictionGrace: Int64 = 100
        /// With every slot taken, a client that finished lines but has sent nothing this long may be evicted.
        package var evictableIdle: Int64 = 60_000
        /// Reads per client per loop turn, so one busy client cannot starve the rest.
        var readsPerTurn = 8
        package var statePath: String?
        /// The layout file, re-read on SIGHUP; nil = the built-in layout (nothing to reload).
        package var layoutPath: String?
        /// A client whose unsent replies stay above the high-water mark this long is dropped.
        package var stuckClientTimeout: Int64 = 10_000
        /// A line must be finished this long after its first byte arrived.
        package var lineTimeout: Int64 = 10_000
        /// A client that sends nothing for this long is closed.
        package var idleTimeout: Int64 = 900_000
        package var watchdogInterval: Int64?
        /// Whether a DRM display follows the virtual terminal's switches (``VirtualTerminal``).
        package var followsTerminal = false
        /// Whether the renderer keeps pictures of the gauges' static layers
        /// (off only to measure redraws from scratch).
        package var cachesStaticLayers = true

        package init() {}
    }

    package private(set) var layout: Layout
    private let slot: OutputSlot
    private var output: FrameOutput { slot.current }
    /// The watch for a display that may still appear, while the output is a fallback (one of the parts).
    private let lateDisplay: LateDisplayWatch
    /// When the DRM display goes away (its card answers ENODEV: the driver was unbound,
    /// a USB or SPI panel's module unloaded): the fallback to show frames on meanwhile,
    /// and the watch that brings the display back when a card appears again.
    private let displayLost: (() -> (fallback: FrameOutput, late: LateDisplay?))?
    /// The virtual terminal whose switches the DRM display follows, when paneld could take it.
    private var terminal: VirtualTerminal?
    private var renderer: LayoutScene
    /// The output's events, the signal pipe, the uevents, the late display's
    /// watch, the watchdog, the value inputs, any further parts, the control
    /// socket, the staleness, the pages, the clocks, the state file: polled
    /// together, turned in this order (what feeds values before what looks at
    /// them).
    private let parts: [any DaemonPart]
    private let notifier: Notifier?
    private var settings: Settings

    package private(set) var store: GaugeStore
    /// The charts' and sparklines' histories, fed every value set on their gauges.
    package private(set) var history: HistoryBook
    /// Each chart's frame, in short (``HistoryBook/signatures(_:page:at:)``),
    /// as the last presented frame drew it.
    private var shownCharts: [String: [Int64]] = [:]
    /// The peaks the last presented frame marked (``HistoryBook/peaks(_:page:at:)``).
    private var shownPeaks: [String: GaugePeaks] = [:]
    private var animator: Animator
    private var pendingNames: Set<String> = []
    /// The values the last presented frame was drawn with (what a value change's damage starts from).
    private var shownValues: [String: Double] = [:]
    /// When each gauge's value goes stale (one of the parts).
    private let staleness: StalenessPart
    /// The gauges stale as of the last turn, and as the last presented frame drew them.
    private(set) var stale: Set<String> = []
    private var shownStale: Set<String> = []
    /// Which page is shown when: pages in turn, or the one `page NAME` chose (one of the parts).
    private let pages: PagePart
    /// The touch screens (one of the parts).
    private let touch: TouchPart
    /// The backlight, night dimming, idle blanking (one of the parts).
    private let light: LightPart
    /// The screen is off (``setScreenOn(_:)``): no frames until it is on again.
    private var screenOff = false
    /// The MQTT input, which a gauge's `"tap": { "publish" }` publishes through.
    private let mqtt: MQTTInput?
    /// The program of the layout's `"tapCommand"`, once a tap needed it.
    private var tapCommand: TapCommand?
    /// The page the renderer draws.
    package private(set) var page: Int
    /// The gauge the renderer draws alone after a tap on it (`"tap": "zoom"`);
    /// nil: the page as laid out.
    package private(set) var zoomed: Int?
    /// The texts of the clocks of the page shown, as of the last turn.
    private var clockTexts: [String: String] = [:]
    /// The widgets' texts the last presented frame showed (clocks of the page shown included).
    private(set) var shownTexts: [String: String] = [:]
    /// The text widgets' names (lines starting with one are its text).
    private var textNames: Set<String>
    private var fullRedraw = true
    private var lastFrameAt: Int64 = .min / 2
    /// Writes the state file (one of the parts), when there is one.
    private let saver: StateSaver?
    private var stopping = false
    private var frameFailure = FailureLatch()
    private var repaintAllNextFrame = false

    package init(
        layout: Layout, output slot: OutputSlot, listener: FileDescriptor, signals: SignalPipe,
        inputs: [any ValueInput], notifier: Notifier?, store: GaugeStore, history: HistoryBook? = nil,
        settings: Settings,
        restored: Set<String> = [], lateDisplay: LateDisplay? = nil,
        displayLost: (() -> (fallback: FrameOutput, late: LateDisplay?))? = nil, uevents: UeventSocket? = nil,
        parts: [any DaemonPart] = []
    ) {
        self.layout = layout
        self.slot = slot
        self.lateDisplay = LateDisplayWatch(lateDisplay)
        self.displayLost = displayLost
        self.renderer = Daemon.makeRenderer(layout, for: slot.current, page: 0, settings: settings)
        let now = monotonicMilliseconds()
        staleness = StalenessPart(rules: layout.staleRules, restored: restored, now: now)
        pages = PagePart(layout, now: now)
        touch = TouchPart(layout.touch)
        light = LightPart(layout.light, now: now)
        mqtt = inputs.lazy.compactMap { $0 as? MQTTInput }.first
        saver = settings.statePath.map { StateSaver(path: $0, interval: settings.saveInterval) }
        var all: [any DaemonPart] = [OutputEvents(slot), SignalPart(signals)]
        if let uevents { all.append(UeventPart(uevents)) }
        all.append(self.lateDisplay)
        if let notifier, let w = settings.watchdogInterval { all.append(WatchdogPart(notifier, interval: w)) }
        all += inputs.map(ValueInputPart.init) + parts
        all.append(touch)
        all.append(ControlSocket(listener: listener, settings: settings))
        // After every part that feeds values or chooses a page, so that they see this turn's.
        all += [staleness, pages, ClockPart(), ChartPart(), light]
        if let saver { all.append(saver) }
        self.parts = all
        self.notifier = notifier
        self.store = store
        self.history = history ?? HistoryBook(layout: layout)
        self.settings = settings
        self.animator = Animator(duration: Int64(layout.animation), values: store.values)
        self.stale = staleness.staleness.staleNames(at: now)
        self.page = 0
        self.textNames = store.textNames
        tzset()
        if settings.followsTerminal, slot.current is DRMOutput { terminal = VirtualTerminal.take() }
    }

    /// Memory held by the renderer's static-layer pictures, in bytes.
    package var staticPictureBytes: Int { renderer.pictureBytes }

    /// Frames while an animation runs come at most this often (about 60 per second).
    static let animationFrameInterval: Int64 = 16

    private var frameInterval: Int64 {
        animator.isRunning ? max(settings.minFrameInterval, Daemon.animationFrameInterval) : settings.minFrameInterval
    }

    private var frameWanted: Bool { fullRedraw || !pendingNames.isEmpty || animator.isRunning }

    /// While the display has lost what it showed (DRM master taken by another
    /// process), a full frame is retried this often, so the picture returns within
    /// this time of the display coming back, even if no value changes.
    static let recoveryInterval: Int64 = 1000

    private var recoveryDue: Int64? {
        output.needsFullRedraw && !fullRedraw ? lastFrameAt + Daemon.recoveryInterval : nil
    }

    /// Runs until SIGTERM or SIGINT; then saves the values and disconnects clients.
    /// Every part is stopped on the way out, however the loop ends.
    package func run() throws {
        notifier?.send("READY=1\nSTATUS=showing \(store.names.count) gauge(s)")
        Log.info("ready: showing \(store.names.count) gauge(s) on a \(output.width)x\(output.height) screen")
        defer {
            for part in parts { part.stop() }
            tapCommand?.stopProgram()
            terminal?.close()
            terminal = nil
        }
        while !stopping {
            try turn()
        }
        notifier?.send("STOPPING=1")
        saver?.save(store, history: history)
    }

    /// One poll and everything it reported. (Internal so tests can drive the loop
    /// one step at a time.)
    package func turn() throws {
        // Every part's descriptors in one poll; each part gets back as many results as it gave.
        let start = monotonicMilliseconds()
        var entries: [(FileDescriptor, PollEvents)] = []
        let interests = parts.map { $0.interest(now: start) }
        for i in interests { entries += i.descriptors.map { ($0.fd, $0.events) } }

        let ready = try pollDescriptors(
            entries, timeout: timeout(now: monotonicMilliseconds(), parts: interests.compactMap(\.deadline)))

        var offset = 0
        for (part, interest) in zip(parts, interests) {
            let count = interest.descriptors.count
            try part.turn(Array(ready[offset..<offset + count]), now: monotonicMilliseconds(), daemon: self)
            offset += count
        }
        markChanged()

        // What the parts set for the next frame, against what the last one showed.
        pendingNames.formUnion(stale.symmetricDifference(shownStale))
        for (name, text) in texts where shownTexts[name] != text { pendingNames.insert(name) }
        let wall = Self.wallSeconds()
        history.hold(store.values, stale: stale, at: wall)
        let chartSignatures = history.signatures(layout, page: page, at: wall)
        for (name, signature) in chartSignatures where shownCharts[name] != signature {
            pendingNames.insert(name)
        }
        let peaks = history.peaks(layout, page: page, at: wall)
        for name in Set(peaks.keys).union(shownPeaks.keys) where peaks[name] != shownPeaks[name] {
            pendingNames.insert(name)
        }
        let now = monotonicMilliseconds()
        let recovering = recoveryDue.map { now >= $0 } ?? false  // `present` then redraws everything
        if frameWanted || recovering, !output.isBusy, now >= lastFrameAt + frameInterval {
            do {
                try present(now: now, wall: wall, chartSignatures: chartSignatures, peaks: peaks)
                if frameFailure.recovered() { Log.notice("frames are being shown again") }
            } catch let e as DRMError where e.errno == ENODEV && output is DRMOutput && displayLost != nil {
                loseDisplay(e)
            } catch {
                // Keep serving clients; the next change tries again. Log each new failure once.
                if frameFailure.failed("\(error)") { Log.error("cannot show a frame: \(error)") }
                // Drop this frame (no retry loop) but repaint everything with the next change.
                pendingNames = []
                shownStale = stale
                fullRedraw = false
                repaintAllNextFrame = true
                lastFrameAt = now
            }
        }
    }

    /// How long poll may sleep: forever unless a frame, a display attempt or a
    /// part's deadline (a client's limits, an input's keepalive, a save, a
    /// watchdog ping, a gauge going stale, a page, a clock) is due. (Internal for tests.)
    func timeout(now: Int64) -> Int32 {
        timeout(now: now, parts: parts.compactMap { $0.interest(now: now).deadline })
    }

    /// ``timeout(now:)`` with the parts' deadlines already asked.
    private func timeout(now: Int64, parts partDeadlines: [Int64]) -> Int32 {
        var deadlines = partDeadlines
        if frameWanted, !output.isBusy { deadlines.append(lastFrameAt + frameInterval) }
        if let due = recoveryDue, !output.isBusy { deadlines.append(due) }
        guard let first = deadlines.min() else { return -1 }
        return Int32(clamping: max(0, first - now))
    }

    /// Each text widget's text and each clock's of the page shown.
    private var texts: [String: String] { store.texts.merging(clockTexts) { $1 } }

    /// `page NAME` on the socket: shows that page (the rotation goes on from it).
    private func choosePage(_ name: String?) -> String {
        guard let name else { return "page \(layout.pages[page].name)\n" }
        guard let index = layout.pageNames.firstIndex(of: name) else {
            return "ERR \(LineError.unknownPage(name, known: layout.pageNames))\n"
        }
        choosePage(index)
        return "OK page \(name)\n"
    }

    /// SIGHUP or `reload` on the socket: reads the layout file again. A file with
    /// mistakes is reported and changes nothing; so does one that changes the display
    /// settings (card, connector, mode, format, rotation) or statsd, which need a
    /// restart. Otherwise the new gauges are shown at once; gauges that keep their
    /// name keep their value and the time of their last input, so the new
    /// layout's `staleAfter` counts from that input (see ``Staleness/reloaded(rules:now:)``).
    /// Returns what happened, for the socket's reply.
    @discardableResult
    private func reloadLayout() -> Result<String, ReloadError> {
        /// A refused reload: logged (at err, or notice when there is nothing to
        /// reload) and answered with the same reason.
        func refuse(_ reason: String, error: Bool = true) -> Result<String, ReloadError> {
            if error { Log.error("reload: \(reason)") } else { Log.notice("reload: \(reason)") }
            return .failure(ReloadError(reason))
        }
        guard let path = settings.layoutPath else {
            return refuse("no layout file to reload (paneld was started without --config)", error: false)
        }
        let new: Layout
        do {
            new = try LayoutReader.read(file: path)
        } catch let error as LayoutError {
            // Every issue in the journal; the first in the answer.
            for issue in error.issues { Log.error("\(error.file): \(issue)") }
            let first = error.issues.first.map { "\($0)" } ?? "invalid"
            let more = error.issues.count > 1 ? " (and \(error.issues.count - 1) more in the journal)" : ""
            return refuse("layout not reloaded, the old one stays: \(error.file): \(first)\(more)")
        } catch {
            return refuse("layout not reloaded, the old one stays: \(error)")
        }
        new.logWarnings(file: path)
        if let issue = new.placement(screen: (output.width, output.height)).issues.first {
            return refuse(
                "layout not reloaded, the old one stays: it does not fit the \(output.width)x\(output.height) screen: \(path): \(issue)"
            )
        }
        if let change = Daemon.restartOnlyChange(from: layout, to: new) {
            return refuse("layout not reloaded: \(change) changed, which needs a restart")
        }
        let oldTexts = store.texts
        store = new.store(values: store.values)
        for (name, text) in oldTexts { store.setText(name, text) }
        _ = store.takeChanged()
        history = HistoryBook(layout: new, keeping: history)
        staleness.reload(rules: new.staleRules, now: monotonicMilliseconds())
        animator = Animator(duration: Int64(new.animation), values: store.values)
        let pageName = layout.pages[page].name
        layout = new
        page = new.pageNames.firstIndex(of: pageName) ?? 0
        pages.reload(new, page: page, now: monotonicMilliseconds())
        touch.reload(new.touch, now: monotonicMilliseconds())
        light.reload(new.light, now: monotonicMilliseconds())
        textNames = store.textNames
        zoomed = nil
        renderer = Daemon.makeRenderer(new, for: output, page: page, settings: settings)
        pendingNames = []
        fullRedraw = true
        saver?.noteReload(now: monotonicMilliseconds())
        Log.notice("reload: layout \(path) reloaded, \(new.gauges.count) gauge(s)")
        return .success("layout \(path) reloaded, \(new.gauges.count) gauge(s)")
    }

    /// The renderer for `layout` on `output` (a new one whenever either changes:
    /// its cached pictures are for one layout at one size and format).
    private static func makeRenderer(
        _ layout: Layout, for output: FrameOutput, page: Int, zoomed: Int? = nil, settings: Settings
    ) -> LayoutScene {
        LayoutScene(
            layout: layout, width: output.width, height: output.height, page: page, alone: zoomed,
            cachesStaticLayers: settings.cachesStaticLayers)
    }

    struct ReloadError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// The first setting that differs between two layouts and only takes effect at start. Pure.
    static func restartOnlyChange(from a: Layout, to b: Layout) -> String? {
        if a.display != b.display { return "display" }
        if a.connector != b.connector { return "connector" }
        if a.mode != b.mode { return "mode" }
        if a.pixelFormat != b.pixelFormat { return "format" }
        if a.rotation != b.rotation { return "rotation" }
        if a.statsd != b.statsd || a.statsdSocket != b.statsdSocket { return "statsd" }
        if a.mqtt != b.mqtt || !a.mqttSubscriptions.elementsEqual(b.mqttSubscriptions, by: { $0 == $1 }) {
            return "mqtt"
        }
        return nil
    }

    /// The output's descriptor was ready: its events handled (a page flip done).
    package func outputEventsHandled() throws {
        let hadPicture = !output.needsFullRedraw
        try output.handleEvents()
        // The output lost its picture (a framebuffer's console taken by a getty): now.
        if hadPicture && output.needsFullRedraw { fullRedraw = true }
    }

    /// The display awaited while the output was a fallback has opened: move to it for good.
    package func displayAppeared(_ new: FrameOutput) {
        slot.replace(with: new)
        if screenOff { new.setBlanked(true) }
        for issue in layout.placement(screen: (new.width, new.height)).issues {
            Log.error("the layout does not fit the new \(new.width)x\(new.height) display: \(issue)")
        }
        renderer = Daemon.makeRenderer(layout, for: new, page: page, zoomed: zoomed, settings: settings)
        shownValues = [:]
        fullRedraw = true
        settings.minFrameInterval = 0
        Log.notice("a display appeared: showing the gauges on it from now on")
        if settings.followsTerminal, new is DRMOutput, terminal == nil { terminal = VirtualTerminal.take() }
    }

    /// A DRM card was added or removed, or a connector changed: on a fallback, try
    /// the displays again; on a DRM display, check that its card is still there and
    /// show the whole frame again (a monitor plugged back in shows nothing until the
    /// CRTC is set).
    package func displaysChanged() {
        if let late = lateDisplay.late {
            late.scheduleAttempt(now: monotonicMilliseconds())
        } else if let drm = output as? DRMOutput {
            do {
                try drm.checkDevice()
                drm.redisplay()
                fullRedraw = true
                Log.info("the displays changed: the whole frame is shown again")
            } catch let e as DRMError where e.errno == ENODEV {
                loseDisplay(e)
            } catch {
                Log.warning("the displays changed, and the display's card cannot be read: \(error)")
            }
        }
    }

    /// The display's card is gone: move to the fallback and wait for a display to
    /// appear again (the card usually returns under another number).
    private func loseDisplay(_ error: DRMError) {
        guard let lost = displayLost else { return }
        let (fallback, late) = lost()
        Log.warning(
            "the display is gone (\(error)): drawing into the fallback until a display appears again")
        slot.replace(with: fallback)
        if screenOff { fallback.setBlanked(true) }
        lateDisplay.late = late
        renderer = Daemon.makeRenderer(layout, for: fallback, page: page, zoomed: zoomed, settings: settings)
        shownValues = [:]
        fullRedraw = true
    }

    /// The wall clock, in seconds since 1970 (what histories are kept in).
    static func wallSeconds() -> Double { Double(ClockFormat.now()) / 1000 }

    private func markChanged() {
        let samples = store.takeSamples()
        if !samples.isEmpty {
            let wall = Self.wallSeconds()
            for sample in samples { history.record(sample.name, sample.value, at: wall) }
            saver?.noteChange(now: monotonicMilliseconds())
        }
        let changed = store.takeChanged()
        guard !changed.isEmpty else { return }
        let now = monotonicMilliseconds()
        for name in changed {
            if let v = store.values[name] {
                animator.retarget(name, to: v, now: now)
            } else {
                animator.clear(name)
            }
        }
        pendingNames.formUnion(changed)
        saver?.noteChange(now: monotonicMilliseconds())
    }

    /// Shows the next frame: the animator's values at `now`, the charts at
    /// `wall` with the signatures and the peaks this turn took there.
    private func present(
        now: Int64, wall: Double, chartSignatures: [String: [Int64]], peaks: [String: GaugePeaks]
    ) throws {
        let full = fullRedraw || repaintAllNextFrame || output.needsFullRedraw
        let values = animator.shown(at: now)
        let moving = animator.advance(to: now)
        let stale = self.stale
        let texts = self.texts
        let charts = history.frames(layout, page: page, at: wall)
        let damage =
            full
            ? [IntRect(x: 0, y: 0, width: output.width, height: output.height)]
            : renderer.damage(
                for: pendingNames.union(moving), from: shownValues, to: values, stale: (shownStale, stale),
                peaks: (shownPeaks, peaks))
        if !full && damage.isEmpty {
            // Only slots of hidden pages changed: nothing to show.
            shownValues = values
            shownStale = stale
            shownTexts = texts
            shownCharts = chartSignatures
            shownPeaks = peaks
            pendingNames = []
            return
        }
        try output.present(damage: damage) { surface, rects in
            renderer.draw(
                surface, rects: rects, values: values, stale: stale, texts: texts, charts: charts, peaks: peaks)
        }
        shownValues = values
        shownPeaks = peaks
        shownTexts = texts
        shownCharts = chartSignatures
        shownStale = stale
        if Log.threshold == .debug {
            Log.debug("frame: \(damage.count) rectangle(s), \(pendingNames.count) gauge(s) changed")
        }
        pendingNames = []
        fullRedraw = false
        repaintAllNextFrame = false
        lastFrameAt = now
    }

    // MARK: What parts ask of the daemon

    package func apply(_ command: Command) -> Result<String, LineError> { store.apply(command) }

    /// Answers one line from the control socket: a command for the gauges, `page`, or `reload`.
    package func reply(to line: [UInt8]) -> String {
        switch LineParser.parse(line, texts: textNames) {
        case .success(.page(let name)):
            return choosePage(name)
        case .success(.screen(let argument)):
            return light.command(argument, now: monotonicMilliseconds(), daemon: self)
        case .success(.reload):
            switch reloadLayout() {
            case .success(let text): return "OK \(text)\n"
            case .failure(let e): return "ERR \(e)\n"
            }
        case .success(let command):
            switch store.apply(command) {
            case .success(let text): return text
            case .failure(let e): return "ERR \(e)\n"
            }
        case .failure(let e): return "ERR \(e)\n"
        }
    }

    package func requestStop() { stopping = true }

    package func showPage(_ index: Int) {
        page = index
        zoomed = nil
        renderer = Daemon.makeRenderer(layout, for: output, page: index, settings: settings)
        fullRedraw = true
    }

    /// Shows page `index` (when it is not shown) and lets the rotation go on
    /// from it: `page NAME`, a swipe, a tap on the page indicator.
    private func choosePage(_ index: Int) {
        pages.choose(index, now: monotonicMilliseconds())
        if index != page { showPage(index) }
    }

    /// Shows gauge `index` alone in the whole screen (its `"tap": "zoom"`), or
    /// the page again (nil).
    private func zoom(_ index: Int?) {
        zoomed = index
        renderer = Daemon.makeRenderer(layout, for: output, page: page, zoomed: index, settings: settings)
        fullRedraw = true
        Log.info(
            index.map { "touch: \(layout.gauges[$0].name) alone" } ?? "touch: page \(layout.pages[page].name) again")
    }

    package func turnPage(by offset: Int) {
        let count = layout.pages.count
        guard count > 1 else { return }
        let index = ((page + offset) % count + count) % count
        choosePage(index)
        Log.info("touch: page \(layout.pages[index].name)")
    }

    package func holdPage(_ hold: Bool) {
        guard layout.pages.count > 1, layout.pageInterval != nil else { return }
        pages.hold(hold, now: monotonicMilliseconds())
        Log.info(hold ? "touch: page \(layout.pages[page].name) held" : "touch: the pages rotate again")
    }

    package func setScreenOn(_ on: Bool) {
        guard on == screenOff else { return }
        screenOff = !on
        output.setBlanked(!on)
        if on { fullRedraw = true }
    }

    package func tapped(x: Double, y: Double) -> Bool {
        if zoomed != nil {
            zoom(nil)
            return true
        }
        if let p = renderer.indicatedPage(atX: x, y: y) {
            if p != page {
                choosePage(p)
                Log.info("touch: page \(layout.pages[p].name) from the page indicator")
            }
            return true
        }
        guard let i = renderer.gauge(atX: x, y: y), let action = layout.gauges[i].tap else { return false }
        let outcome: String
        switch action {
        case .zoom:
            zoom(i)
            return true
        case .publish(let topic, let payload):
            outcome = mqtt?.publish(topic: topic, payload: payload) ?? "no MQTT broker; nothing published"
        case .line(let text):
            if tapCommand?.path != layout.tapCommand {
                tapCommand?.stopProgram()
                tapCommand = layout.tapCommand.map(TapCommand.init(path:))
            }
            outcome = tapCommand?.send(text, now: monotonicMilliseconds()) ?? "no tapCommand; the line is dropped"
        }
        Log.info("touch: tap on \(layout.gauges[i].name): \(outcome)")
        return true
    }

    package func screenTouched() -> Bool { light.touched(now: monotonicMilliseconds(), daemon: self) }

    package func inputsChanged() { touch.rescan(now: monotonicMilliseconds(), announced: true) }

    package var screenWidth: Int { output.width }
    package var screenHeight: Int { output.height }

    package func takeTouched() -> Set<String> { store.takeTouched() }

    package func showStale(_ names: Set<String>) { stale = names }

    package func showClocks(_ texts: [String: String]) { clockTexts = texts }

    package func reload() { reloadLayout() }

    /// The DRM display follows the virtual terminal: given up when it is switched
    /// away from, taken back and redrawn when it is shown again.
    package func terminalSwitched(shown: Bool) {
        guard let vt = terminal else { return }
        if shown {
            vt.acknowledgeAcquire()
            (output as? DRMOutput)?.acquireDisplay()
            fullRedraw = true
            Log.notice("tty\(vt.number) is shown again: display taken back and redrawn")
        } else {
            (output as? DRMOutput)?.releaseDisplay()
            vt.allowRelease()
            Log.notice("tty\(vt.number) switched away: display given up until it comes back")
        }
    }
}
