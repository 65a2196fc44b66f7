import PanelDisplay
import Glibc
import PanelGauge

/// The running daemon: one poll loop over the control socket, its clients, the
/// display's events, the value inputs (statsd, MQTT) and the signal pipe.
///
/// It owns none of the resources it is given; ``Run`` opens them in order and
/// releases them in reverse after ``run()`` returns (the display through its
/// ``OutputSlot``, which holds whichever output is current). With no input and no
/// pending frame, animation or save, `poll` sleeps until the nearest client
/// deadline, or with no timeout when there is none. The only periodic wake-ups:
/// the watchdog ping when systemd asks for one, a full frame once a second
/// while the display has lost its picture (DRM master taken), and an input's
/// own deadlines (``ValueInput/nextDeadline``: an MQTT keepalive or reconnection),
/// the moment the next gauge's value goes stale (``Staleness``), which
/// repaints that gauge's frame alone, the moment a clock's text changes
/// (``ClockFormat/nextChange(_:after:utcOffset:)``: each second or each
/// minute), which repaints the clock's frame alone, and the next page of a
/// rotation (``PageRotation``), a full frame.
///
/// Clients are bounded in time as in memory: a line must be finished within
/// `lineTimeout` of its first byte, a client that sends nothing for `idleTimeout`
/// is closed, one that does not read its replies for `stuckClientTimeout` too;
/// and when every slot is taken a new connection makes room only by evicting a
/// client that is not feeding values (``Eviction``), else it waits in the listen
/// queue until a slot frees: connections that trickle bytes or sit idle never
/// lock others out, and never push out a client that sends whole lines.
package final class Daemon {
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

    private var layout: Layout
    private let slot: OutputSlot
    private var output: FrameOutput { slot.current }
    /// Set while the output is a fallback and a display may still appear.
    private var lateDisplay: LateDisplay?
    /// When the DRM display goes away (its card answers ENODEV: the driver was unbound,
    /// a USB or SPI panel's module unloaded): the fallback to show frames on meanwhile,
    /// and the watch that brings the display back when a card appears again.
    private let displayLost: (() -> (fallback: FrameOutput, late: LateDisplay?))?
    /// The kernel's uevents: a DRM card added or removed, a monitor plugged in or out.
    /// A connector that becomes connected changes nothing in /dev; a removed card is
    /// noticed at once, not only at the next frame.
    private let uevents: UeventSocket?
    /// The virtual terminal whose switches the DRM display follows, when paneld could take it.
    private var terminal: VirtualTerminal?
    private var renderer: LayoutScene
    private let listener: FileDescriptor
    private let signals: SignalPipe
    /// Values from elsewhere than the control socket, polled in this order.
    private let inputs: [any ValueInput]
    private let notifier: Notifier?
    private var settings: Settings

    package private(set) var store: GaugeStore
    private var animator: Animator
    private var clients: [Int32: Client] = [:]
    private var nextClientID = 0
    private var pendingNames: Set<String> = []
    /// The values the last presented frame was drawn with (what a value change's damage starts from).
    private var shownValues: [String: Double] = [:]
    /// When each gauge's value goes stale, from the times of the inputs.
    private var staleness: Staleness
    /// The gauges stale as of the last turn, and as the last presented frame drew them.
    private(set) var stale: Set<String> = []
    private var shownStale: Set<String> = []
    /// Which page is shown when (pages in turn, or the one `page NAME` chose).
    private var rotation: PageRotation
    /// The page the renderer draws.
    private(set) var page: Int
    /// The widgets' texts the last presented frame showed (clocks of the page shown included).
    private(set) var shownTexts: [String: String] = [:]
    /// The text widgets' names (lines starting with one are its text).
    private var textNames: Set<String>
    private var fullRedraw = true
    private var lastFrameAt: Int64 = .min / 2
    private var saveDue: Int64?
    private var lastSaveAt: Int64 = .min / 2
    private var nextWatchdogAt: Int64?
    private var stopping = false
    private var frameFailure = FailureLatch()
    private var saveFailure = FailureLatch()
    private var acceptFailure = FailureLatch()
    /// Episodes of a full client table, with what happened in the running one.
    private var tableFull = LogEpisode()
    private var evictedInEpisode = 0
    private var waitsInEpisode = 0
    /// Set while the table is full and no client may be evicted yet: the listener is
    /// left out of `poll` until then (`Int64.max`: until a client leaves).
    private var waitingForRoom: Int64?
    private var repaintAllNextFrame = false
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    /// Set after a failed accept: the listener is left out of `poll` until then.
    private var acceptPausedUntil: Int64?
    static let acceptPause: Int64 = 250

    package init(
        layout: Layout, output slot: OutputSlot, listener: FileDescriptor, signals: SignalPipe,
        inputs: [any ValueInput], notifier: Notifier?, store: GaugeStore, settings: Settings,
        restored: Set<String> = [], lateDisplay: LateDisplay? = nil,
        displayLost: (() -> (fallback: FrameOutput, late: LateDisplay?))? = nil, uevents: UeventSocket? = nil
    ) {
        self.uevents = uevents
        self.layout = layout
        self.slot = slot
        self.lateDisplay = lateDisplay
        self.displayLost = displayLost
        self.renderer = Daemon.makeRenderer(layout, for: slot.current, page: 0, settings: settings)
        self.listener = listener
        self.signals = signals
        self.inputs = inputs
        self.notifier = notifier
        self.store = store
        self.settings = settings
        self.animator = Animator(duration: Int64(layout.animation), values: store.values)
        let now = monotonicMilliseconds()
        self.staleness = Staleness(rules: layout.staleRules, restored: restored, now: now)
        self.stale = staleness.staleNames(at: now)
        self.rotation = PageRotation(count: layout.pages.count, interval: layout.pageInterval, now: now)
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
    package func run() throws {
        notifier?.send("READY=1\nSTATUS=showing \(store.names.count) gauge(s)")
        if let w = settings.watchdogInterval { nextWatchdogAt = monotonicMilliseconds() + w / 2 }
        while !stopping {
            try turn()
        }
        notifier?.send("STOPPING=1")
        save()
        for c in clients.values { drop(c, reason: nil) }
        lateDisplay?.close()
        lateDisplay = nil
        terminal?.close()
        terminal = nil
    }

    /// One poll and everything it reported. (Internal so tests can drive the loop
    /// one step at a time.)
    package func turn() throws {
        // Fixed entries first: signals, the control socket, the display if it polls, the
        // display watcher, then the value inputs and the clients.
        if let until = acceptPausedUntil, monotonicMilliseconds() >= until { acceptPausedUntil = nil }
        if let until = waitingForRoom, monotonicMilliseconds() >= until { waitingForRoom = nil }
        // A full table accepts when a client may be evicted (``acceptClients``).
        let accepting = acceptPausedUntil == nil && waitingForRoom == nil
        var entries: [(FileDescriptor, PollEvents)] = [(signals.readEnd, .input), (listener, accepting ? .input : [])]
        var outputIndex: Int? = nil
        if let o = output.pollDescriptor {
            outputIndex = entries.count
            entries.append((FileDescriptor(rawValue: o), .input))
        }
        var watcherIndex: Int? = nil
        var ueventIndex: Int? = nil
        if let late = lateDisplay {
            watcherIndex = entries.count
            entries.append((late.watcher.fd, .input))
        }
        if let u = uevents {
            ueventIndex = entries.count
            entries.append((u.fd, .input))
        }
        // Each input's entry, when it has one to poll now.
        var inputIndices: [Int?] = []
        for input in inputs {
            if let (fd, events) = input.interest {
                inputIndices.append(entries.count)
                entries.append((fd, events))
            } else {
                inputIndices.append(nil)
            }
        }
        let fixed = entries.count
        let order = Array(clients.values)
        for c in order {
            var ev: PollEvents = c.wantsRead ? .input : []
            if c.wantsWrite { ev.insert(.output) }
            entries.append((c.fd, ev))
        }

        let ready = try pollDescriptors(entries, timeout: timeout(now: monotonicMilliseconds()))

        if ready[0].contains(.input) {
            for s in signals.drain() {
                if s == SIGTERM || s == SIGINT {
                    Log.notice("received signal \(s); stopping")
                    stopping = true
                } else if s == SIGHUP {
                    reloadLayout()
                } else if s == VirtualTerminal.releaseSignal, let vt = terminal {
                    (output as? DRMOutput)?.releaseDisplay()
                    vt.allowRelease()
                    Log.notice("tty\(vt.number) switched away: display given up until it comes back")
                } else if s == VirtualTerminal.acquireSignal, let vt = terminal {
                    vt.acknowledgeAcquire()
                    (output as? DRMOutput)?.acquireDisplay()
                    fullRedraw = true
                    Log.notice("tty\(vt.number) is shown again: display taken back and redrawn")
                }
            }
        }
        if let k = outputIndex, !ready[k].isEmpty {
            let hadPicture = !output.needsFullRedraw
            try output.handleEvents()
            // The output lost its picture (a framebuffer's console taken by a getty): now.
            if hadPicture && output.needsFullRedraw { fullRedraw = true }
        }
        if let k = watcherIndex, !ready[k].isEmpty, let late = lateDisplay, late.watcher.drain() {
            late.scheduleAttempt(now: monotonicMilliseconds())
        }
        if let k = ueventIndex, !ready[k].isEmpty, uevents?.drain() == true { displaysChanged() }
        for (input, k) in zip(inputs, inputIndices) {
            if let k, !ready[k].isEmpty { input.receive(ready[k]) { store.apply($0) } }
        }
        let inputTime = monotonicMilliseconds()
        for input in inputs {
            if let due = input.nextDeadline, inputTime >= due { input.tick(now: inputTime) { store.apply($0) } }
        }
        for (c, ev) in zip(order, ready[fixed...]) where !ev.isEmpty {
            service(c, ev)
        }
        if ready[1].contains(.input) { acceptClients() }
        markChanged()

        let now = monotonicMilliseconds()
        stale = staleness.staleNames(at: now)
        pendingNames.formUnion(stale.symmetricDifference(shownStale))
        let shownPage = rotation.page(at: now)
        if shownPage != page { show(page: shownPage) }
        for (name, text) in widgetTexts(wall: ClockFormat.now()) where shownTexts[name] != text {
            pendingNames.insert(name)
        }
        dropExpiredClients(now: now)
        if let ended = tableFull.ended(now: now) {
            Log.notice(
                "client table has had free slots for \(tableFull.quiet / 1000) s: \(evictedInEpisode) connection(s) evicted, \(waitsInEpisode) wait(s) for a slot over \(ended.milliseconds / 1000) s"
            )
        }
        if let late = lateDisplay, let at = late.attemptAt, now >= at { tryLateDisplay(late, now: now) }
        let recovering = recoveryDue.map { now >= $0 } ?? false  // `present` then redraws everything
        if frameWanted || recovering, !output.isBusy, now >= lastFrameAt + frameInterval {
            do {
                try present(now: now)
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
        if let due = saveDue, now >= due {
            save()
            lastSaveAt = now
            saveDue = nil
        }
        if let w = settings.watchdogInterval, let at = nextWatchdogAt, now >= at {
            notifier?.send("WATCHDOG=1")
            nextWatchdogAt = now + w / 2
        }
    }

    /// How long poll may sleep: forever unless a frame, a save, a watchdog ping, a
    /// display attempt, an input's deadline, a gauge going stale or a client's
    /// deadline is due. (Internal for tests.)
    func timeout(now: Int64) -> Int32 {
        var deadlines: [Int64] = []
        if frameWanted, !output.isBusy { deadlines.append(lastFrameAt + frameInterval) }
        if let due = recoveryDue, !output.isBusy { deadlines.append(due) }
        if let d = saveDue { deadlines.append(d) }
        if let w = nextWatchdogAt { deadlines.append(w) }
        if let a = acceptPausedUntil { deadlines.append(a) }
        if let w = waitingForRoom, w != .max { deadlines.append(w) }
        if let e = tableFull.endsAt { deadlines.append(e) }
        if let a = lateDisplay?.attemptAt { deadlines.append(a) }
        deadlines += inputs.compactMap(\.nextDeadline)
        if let s = staleness.nextChange(after: now) { deadlines.append(s) }
        if let p = rotation.nextChange(after: now) { deadlines.append(p) }
        if let c = nextClockChange(now: now) { deadlines.append(c) }
        if let c = clients.values.lazy.map({ self.deadline(of: $0) }).min() { deadlines.append(c) }
        guard let first = deadlines.min() else { return -1 }
        return Int32(clamping: max(0, first - now))
    }

    /// The monotonic time at which a clock of the page shown next changes its
    /// text (a few milliseconds after, so that the text has changed when the
    /// daemon wakes); nil without clocks.
    private func nextClockChange(now: Int64) -> Int64? {
        let formats = layout.gauges.compactMap { $0.page == page ? $0.widget?.clockFormat : nil }
        guard !formats.isEmpty else { return nil }
        let wall = ClockFormat.now()
        let offset = ClockFormat.utcOffset(at: Int(wall / 1000))
        let next = formats.map { ClockFormat.nextChange($0, after: wall, utcOffset: offset) }.min()!
        return now + (next - wall) + Daemon.clockMargin
    }

    /// How long after a clock's change the daemon wakes for it, in milliseconds.
    static let clockMargin: Int64 = 2

    /// Each text widget's text and, for the page shown, each clock's text at
    /// `wall` (milliseconds since the epoch).
    func widgetTexts(wall: Int64) -> [String: String] {
        var texts = store.texts
        for g in layout.gauges where g.page == page {
            if let format = g.widget?.clockFormat { texts[g.name] = ClockFormat.text(format, at: Int(wall / 1000)) }
        }
        return texts
    }

    /// Shows page `index` from the next frame on, in one full frame.
    private func show(page index: Int) {
        page = index
        renderer = Daemon.makeRenderer(layout, for: output, page: index, settings: settings)
        fullRedraw = true
    }

    /// `page NAME` on the socket: shows that page (the rotation goes on from it).
    private func choosePage(_ name: String?) -> String {
        guard let name else { return "page \(layout.pages[page].name)\n" }
        guard let index = layout.pageNames.firstIndex(of: name) else {
            return "ERR \(LineError.unknownPage(name, known: layout.pageNames))\n"
        }
        rotation.choose(index, now: monotonicMilliseconds())
        if index != page { show(page: index) }
        return "OK page \(name)\n"
    }

    /// When `c` is next due to be closed if nothing changes: its idle limit, its
    /// unfinished line's limit, or its unread replies' limit, whichever comes first.
    private func deadline(of c: Client) -> Int64 {
        var d = c.lastActivity + settings.idleTimeout
        if let p = c.partialSince { d = min(d, p + settings.lineTimeout) }
        if let b = c.blockedSince { d = min(d, b + settings.stuckClientTimeout) }
        return d
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
        staleness = staleness.reloaded(rules: new.staleRules, now: monotonicMilliseconds())
        animator = Animator(duration: Int64(new.animation), values: store.values)
        let pageName = layout.pages[page].name
        layout = new
        page = new.pageNames.firstIndex(of: pageName) ?? 0
        rotation = PageRotation(
            count: new.pages.count, interval: new.pageInterval, page: page, now: monotonicMilliseconds())
        textNames = store.textNames
        renderer = Daemon.makeRenderer(new, for: output, page: page, settings: settings)
        pendingNames = []
        fullRedraw = true
        if settings.statePath != nil, saveDue == nil { saveDue = monotonicMilliseconds() }
        Log.notice("reload: layout \(path) reloaded, \(new.gauges.count) gauge(s)")
        return .success("layout \(path) reloaded, \(new.gauges.count) gauge(s)")
    }

    /// The renderer for `layout` on `output` (a new one whenever either changes:
    /// its cached pictures are for one layout at one size and format).
    private static func makeRenderer(_ layout: Layout, for output: FrameOutput, page: Int, settings: Settings)
        -> LayoutScene
    {
        LayoutScene(
            layout: layout, width: output.width, height: output.height, page: page,
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

    /// Writes the state file; a failure is logged when it first happens (and when it clears).
    private func save() {
        guard let path = settings.statePath else { return }
        do {
            try StateFile.save(store, to: path)
            if saveFailure.recovered() { Log.notice("values are being saved again") }
        } catch {
            if saveFailure.failed("\(error)") { Log.warning("cannot save values: \(error)") }
        }
    }

    /// A display appeared (or changed) while the output is a fallback: open it, and
    /// on success move to it for good. A failure is retried a few times with
    /// growing pauses (a driver may still be probing its connectors), then waits
    /// for the next change in /dev/dri.
    private func tryLateDisplay(_ late: LateDisplay, now: Int64) {
        late.attemptAt = nil
        let new: FrameOutput
        do {
            new = try late.open()
        } catch {
            late.failed(error, now: now)
            return
        }
        late.close()
        lateDisplay = nil
        slot.replace(with: new)
        for issue in layout.placement(screen: (new.width, new.height)).issues {
            Log.error("the layout does not fit the new \(new.width)x\(new.height) display: \(issue)")
        }
        renderer = Daemon.makeRenderer(layout, for: new, page: page, settings: settings)
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
    private func displaysChanged() {
        if let late = lateDisplay {
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
        lateDisplay?.close()
        lateDisplay = late
        renderer = Daemon.makeRenderer(layout, for: fallback, page: page, settings: settings)
        shownValues = [:]
        fullRedraw = true
    }

    private func markChanged() {
        let touched = store.takeTouched()
        if !touched.isEmpty { staleness.noteInput(touched, now: monotonicMilliseconds()) }
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
        if settings.statePath != nil, saveDue == nil {
            saveDue = max(monotonicMilliseconds(), lastSaveAt + settings.saveInterval)
        }
    }

    private func present(now: Int64) throws {
        let full = fullRedraw || repaintAllNextFrame || output.needsFullRedraw
        let values = animator.shown(at: now)
        let moving = animator.advance(to: now)
        let stale = self.stale
        let texts = widgetTexts(wall: ClockFormat.now())
        let damage =
            full
            ? [IntRect(x: 0, y: 0, width: output.width, height: output.height)]
            : renderer.damage(
                for: pendingNames.union(moving), from: shownValues, to: values, stale: (shownStale, stale))
        if !full && damage.isEmpty {
            // Only slots of hidden pages changed: nothing to show.
            shownValues = values
            shownStale = stale
            shownTexts = texts
            pendingNames = []
            return
        }
        try output.present(damage: damage) { surface, rects in
            renderer.draw(surface, rects: rects, values: values, stale: stale, texts: texts)
        }
        shownValues = values
        shownTexts = texts
        shownStale = stale
        if Log.threshold == .debug {
            Log.debug("frame: \(damage.count) rectangle(s), \(pendingNames.count) gauge(s) changed")
        }
        pendingNames = []
        fullRedraw = false
        repaintAllNextFrame = false
        lastFrameAt = now
    }

    private func acceptClients() {
        for _ in 0..<64 {
            var victim: Client?
            if clients.count >= settings.maxClients {
                let now = monotonicMilliseconds()
                noteTableFull(now: now)
                let byID = Dictionary(uniqueKeysWithValues: clients.values.map { ($0.id, $0) })
                let choice = Eviction.choose(
                    clients.values.map(\.evictionCandidate), now: now, grace: settings.evictionGrace,
                    idleAfter: settings.evictableIdle, isSending: { byID[$0]?.hasUnreadInput ?? false })
                guard let id = choice.victim, let c = clients.values.first(where: { $0.id == id }) else {
                    // Nobody may be evicted yet: new connections wait in the listen queue.
                    waitsInEpisode += 1
                    waitingForRoom = choice.nextChance ?? .max
                    return
                }
                victim = c
            }
            let fd: FileDescriptor?
            do { fd = try UnixSocket.accept(listener) } catch {
                // Out of descriptors (EMFILE/ENFILE) or another failure: the pending
                // connection stays queued and the listener stays readable, so stop
                // polling it for a moment instead of spinning on it. One line until it clears.
                if acceptFailure.failed("\(error)") {
                    Log.warning("\(error); not accepting connections (retrying every \(Daemon.acceptPause) ms)")
                }
                acceptPausedUntil = monotonicMilliseconds() + Daemon.acceptPause
                return
            }
            guard let fd else { return }
            if acceptFailure.recovered() { Log.notice("accepting connections again") }
            if let victim {
                evictedInEpisode += 1
                Log.debug("client \(victim.id): evicted to make room")
                drop(victim, reason: nil)
            }
            nextClientID += 1
            clients[fd.rawValue] = Client(fd: fd, id: nextClientID, now: monotonicMilliseconds())
        }
    }

    /// The table is full at `now`: one line when an episode starts, counted until it ends.
    private func noteTableFull(now: Int64) {
        guard tableFull.occurred(now: now) else { return }
        evictedInEpisode = 0
        waitsInEpisode = 0
        Log.warning(
            "client table full (\(settings.maxClients)): new connections wait for a slot; a client that holds an unfinished line for \(settings.evictionGrace) ms, finishes none in its first \(settings.evictionGrace) ms or is idle for \(settings.evictableIdle / 1000) s makes room; one line when this ends"
        )
    }

    private func service(_ c: Client, _ ev: PollEvents) {
        if ev.contains(.invalid) {
            drop(c, reason: "invalid descriptor")
            return
        }
        guard flush(c), drainStash(c) else { return }
        if ev.contains(.input) || ev.contains(.hangUp), c.wantsRead {
            guard readFrom(c), flush(c), drainStash(c) else { return }
        }
        if c.readClosed && !c.wantsWrite && c.stash.isEmpty {
            drop(c, reason: nil)
        } else if ev.contains(.error) || (ev.contains(.hangUp) && c.readClosed) {
            drop(c, reason: nil)
        }
    }

    /// Processes requests held back while the client was over the high-water mark,
    /// for as long as its replies keep draining. Every round consumes at least one
    /// line, so this ends. (Without it a client whose replies drained at once would
    /// keep a stash that no poll event ever brings back.) False if dropped.
    private func drainStash(_ c: Client) -> Bool {
        while !c.stash.isEmpty && !c.isBlocked {
            let stash = c.stash
            c.stash = []
            guard stash.withUnsafeBytes({ process(c, $0, count: stash.count) }), flush(c) else { return false }
        }
        return true
    }

    /// Writes what the socket takes; false if the client was dropped.
    private func flush(_ c: Client) -> Bool {
        do {
            try c.flush()
        } catch {
            drop(c, reason: nil)  // the peer went away; nothing to tell it
            return false
        }
        c.blockedSince = c.isBlocked ? (c.blockedSince ?? monotonicMilliseconds()) : nil
        return true
    }

    /// Reads up to `readsPerTurn` chunks of requests; false if the client was dropped.
    private func readFrom(_ c: Client) -> Bool {
        for _ in 0..<settings.readsPerTurn {
            let n: Int
            let result = readBuffer.withUnsafeMutableBytes { b in
                Result { () throws(Errno) -> Int in try c.fd.read(into: b) }
            }
            switch result {
            case .success(let count): n = count
            case .failure(let e) where e.isWouldBlock: return true
            case .failure:
                drop(c, reason: nil)
                return false
            }
            if n == 0 {
                c.readClosed = true
                var ok = true
                c.framer.finish { event in
                    ok = handle(event, from: c)
                    return ok
                }
                if !ok { drop(c, reason: "reply larger than \(Client.maxPendingOutput) bytes unsent") }
                return ok
            }
            let chunk = readBuffer  // `process` must not see the buffer change under it
            let now = monotonicMilliseconds()
            c.lastActivity = now
            guard chunk.withUnsafeBytes({ process(c, $0, count: n) }) else { return false }
            c.notePartialLine(now: now)
            if !c.stash.isEmpty || n < readBuffer.count { return true }
        }
        return true
    }

    /// Frames and applies `bytes[0..<count]`. Stops when the client's unsent replies
    /// pass the high-water mark and keeps the rest in its stash. False if dropped.
    private func process(_ c: Client, _ bytes: UnsafeRawBufferPointer, count: Int) -> Bool {
        var overflow = false
        let used = c.framer.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { event in
            if !handle(event, from: c) {
                overflow = true
                return false
            }
            if c.isBlocked { try? c.flush() }
            return !c.isBlocked
        }
        if overflow {
            drop(c, reason: "not reading its replies (more than \(Client.maxPendingOutput) bytes unsent)")
            return false
        }
        if used < count { c.stash = Array(bytes[used..<count]) }
        return true
    }

    /// Applies one framed line; false when the reply does not fit the client's output bound.
    private func handle(_ event: LineFramer.Event, from c: Client) -> Bool {
        c.linesFramed += 1
        let reply: String
        switch event {
        case .tooLong:
            reply = "ERR \(LineError.tooLong(limit: LineParser.maxLineLength))\n"
        case .line(let bytes):
            switch LineParser.parse(bytes, texts: textNames) {
            case .success(.page(let name)):
                reply = choosePage(name)
            case .success(.reload):
                switch reloadLayout() {
                case .success(let text): reply = "OK \(text)\n"
                case .failure(let e): reply = "ERR \(e)\n"
                }
            case .success(let command):
                switch store.apply(command) {
                case .success(let text): reply = text
                case .failure(let e): reply = "ERR \(e)\n"
                }
            case .failure(let e): reply = "ERR \(e)\n"
            }
        }
        return reply.isEmpty || c.queue(reply)
    }

    /// Closes clients past a deadline (``deadline(of:)``), saying which.
    private func dropExpiredClients(now: Int64) {
        for c in clients.values where now >= deadline(of: c) {
            if let since = c.blockedSince, now - since >= settings.stuckClientTimeout {
                drop(c, reason: "not reading its replies for \(settings.stuckClientTimeout) ms")
            } else if let since = c.partialSince, now - since >= settings.lineTimeout {
                // Bytes of it wait in the kernel: paneld, busy, has not read them yet.
                // The line is late by paneld's pace, not the client's: it goes on.
                if c.hasUnreadInput {
                    c.partialSince = now
                    continue
                }
                drop(c, reason: "line not finished within \(settings.lineTimeout) ms", priority: .info)
            } else {
                drop(c, reason: "nothing sent for \(settings.idleTimeout / 1000) s", priority: .info)
            }
        }
    }

    private func drop(_ c: Client, reason: String?, priority: Log.Priority = .warning) {
        if let reason { Log.write(priority, "client \(c.id): disconnected: \(reason)") }
        clients[c.fd.rawValue] = nil
        c.fd.close()
        waitingForRoom = nil  // a slot is free: accept again
    }
}
