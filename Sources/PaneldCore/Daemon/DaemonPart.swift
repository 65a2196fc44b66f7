import Glibc
import PanelDisplay

/// One piece of the running daemon: the control socket and its clients, the
/// signal pipe, a value input, the gauges' staleness, the pages, the clocks.
/// The daemon keeps its parts in a list; each turn of the loop asks every part
/// for its ``PartInterest``, polls all their descriptors at once until the
/// earliest deadline, and hands each part what poll said about its own
/// descriptors. A part may own any number of descriptors (a listener and its
/// connections) or none (a deadline alone), so a new kind of input is a new
/// conformer and one line of wiring in ``Run``.
package protocol DaemonPart: AnyObject {
    /// The descriptors to poll now and the part's next deadline. Asked before every poll.
    func interest(now: Int64) -> PartInterest
    /// Handles what poll reported for the descriptors of the last ``interest(now:)``
    /// (one entry each, in that order, with the events that occurred, often none)
    /// and whatever was due by `now`. Called every turn, in the order of the list.
    /// An error thrown ends the loop (``Daemon/run()`` throws it).
    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) throws
    /// The loop has ended, by a stop or an error: let go of what the part holds
    /// (its clients, the descriptors it opened).
    func stop()
}

extension DaemonPart {
    package func stop() {}
}

/// What a part wants from the next poll: descriptors with the events wanted, and
/// when it must run again even if none of them is ready (monotonic milliseconds;
/// nil = only when a descriptor is ready). A part with neither adds no wake-ups.
package struct PartInterest {
    package var descriptors: [(fd: FileDescriptor, events: PollEvents)]
    package var deadline: Int64?

    package init(_ descriptors: [(fd: FileDescriptor, events: PollEvents)] = [], deadline: Int64? = nil) {
        self.descriptors = descriptors
        self.deadline = deadline
    }
}

extension PartInterest {
    /// A deadline at a wall-clock moment: `wall` (milliseconds since the
    /// epoch) as a deadline on the monotonic clock that reads `now`, `margin`
    /// milliseconds after it, so that what changes at `wall` has changed
    /// when the loop wakes; none without `wall`.
    static func atWall(_ wall: Int64?, now: Int64, margin: Int64) -> PartInterest {
        PartInterest(deadline: wall.map { now + ($0 - ClockFormat.now()) + margin })
    }
}

/// What a part may ask of the daemon.
package protocol DaemonContext: AnyObject {
    /// The gauges' values and texts.
    var store: GaugeStore { get }
    /// The charts' histories.
    var history: HistoryBook { get }
    /// Applies one command to the gauges (the caller's reply, or why not).
    func apply(_ command: Command) -> Result<String, LineError>
    /// The reply to one line from the control socket, without its newline (empty: no reply).
    func reply(to line: [UInt8]) -> String
    /// Ends the loop after this turn.
    func requestStop()
    /// Reads the layout file again (SIGHUP).
    func reload()
    /// The virtual terminal was switched away from (`shown` false) or back to.
    func terminalSwitched(shown: Bool)
    /// A DRM card was added or removed, or a connector changed.
    func displaysChanged()
    /// An input device was added: touch screens are looked for again.
    func inputsChanged()
    /// The display awaited while the output was a fallback has opened.
    func displayAppeared(_ new: FrameOutput)
    /// The output's descriptor was ready: let the output handle its events.
    func outputEventsHandled() throws
    /// The layout shown.
    var layout: Layout { get }
    /// The page shown (an index into the layout's pages).
    var page: Int { get }
    /// Shows page `index` from the next frame on, in one full frame.
    func showPage(_ index: Int)
    /// Shows the page `offset` pages on from the one shown (negative: back),
    /// counting round; the rotation goes on from it.
    func turnPage(by offset: Int)
    /// Holds the page shown (the rotation pauses), or lets the rotation go on.
    func holdPage(_ hold: Bool)
    /// A tap at a logical point: true when it was on the page indicator (its
    /// page is shown) or on a gauge with a `"tap"` action (done), false when
    /// it is the page's (it holds the page).
    func tapped(x: Double, y: Double) -> Bool
    /// Turns the screen off (no frames; the CRTC or framebuffer off) or on
    /// again with a full frame.
    func setScreenOn(_ on: Bool)
    /// A finger touched the screen: the idle count starts again. True when the
    /// touch turned the screen on (it then does nothing else).
    func screenTouched() -> Bool
    /// The logical size frames are drawn at (after the panel's rotation).
    var screenWidth: Int { get }
    var screenHeight: Int { get }
    /// The gauges that had input (a value, the same value again, or a clear)
    /// since the last call.
    func takeTouched() -> Set<String>
    /// The gauges to draw stale; the next frame repaints those drawn otherwise.
    func showStale(_ names: Set<String>)
    /// The texts of the clocks of the page shown; the next frame repaints those
    /// drawn with another text.
    func showClocks(_ texts: [String: String])
}

/// A ``ValueInput`` as a part: its one descriptor, `receive` when poll reports
/// it, `tick` once its deadline has passed.
final class ValueInputPart: DaemonPart {
    let input: any ValueInput
    private var polled = false

    init(_ input: any ValueInput) { self.input = input }

    func interest(now: Int64) -> PartInterest {
        let i = input.interest
        polled = i != nil
        return PartInterest(i.map { [$0] } ?? [], deadline: input.nextDeadline)
    }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        if polled, let ev = ready.first, !ev.isEmpty { input.receive(ev) { daemon.apply($0) } }
        let time = monotonicMilliseconds()
        if let due = input.nextDeadline, time >= due { input.tick(now: time) { daemon.apply($0) } }
    }
}

/// The signal pipe: SIGTERM and SIGINT stop the daemon, SIGHUP reloads the
/// layout, the virtual terminal's signals give the display up and take it back.
final class SignalPart: DaemonPart {
    private let signals: SignalPipe

    init(_ signals: SignalPipe) { self.signals = signals }

    func interest(now: Int64) -> PartInterest { PartInterest([(signals.readEnd, .input)]) }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        guard ready.first?.contains(.input) == true else { return }
        for s in signals.drain() {
            if s == SIGTERM || s == SIGINT {
                Log.notice("received signal \(s); stopping")
                daemon.requestStop()
            } else if s == SIGHUP {
                daemon.reload()
            } else if s == VirtualTerminal.releaseSignal {
                daemon.terminalSwitched(shown: false)
            } else if s == VirtualTerminal.acquireSignal {
                daemon.terminalSwitched(shown: true)
            }
        }
    }
}

/// systemd's watchdog: `WATCHDOG=1` every half interval, from the first turn on.
final class WatchdogPart: DaemonPart {
    private let notifier: Notifier
    private let interval: Int64
    private var nextPingAt: Int64?

    init(_ notifier: Notifier, interval: Int64) {
        self.notifier = notifier
        self.interval = interval
    }

    func interest(now: Int64) -> PartInterest {
        if nextPingAt == nil { nextPingAt = now + interval / 2 }
        return PartInterest(deadline: nextPingAt)
    }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        guard let at = nextPingAt, now >= at else { return }
        notifier.send("WATCHDOG=1")
        nextPingAt = now + interval / 2
    }
}

/// The kernel's uevents: a DRM card added or removed, a monitor plugged in or
/// out. A connector that becomes connected changes nothing in /dev; a removed
/// card is noticed at once, not only at the next frame.
final class UeventPart: DaemonPart {
    private let uevents: UeventSocket

    init(_ uevents: UeventSocket) { self.uevents = uevents }

    func interest(now: Int64) -> PartInterest { PartInterest([(uevents.fd, .input)]) }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        guard ready.first?.isEmpty == false else { return }
        let news = uevents.drain()
        if news.contains(.display) { daemon.displaysChanged() }
        if news.contains(.input) { daemon.inputsChanged() }
    }
}

/// The output's descriptor, when it has one (DRM's page-flip events, fbdev's
/// terminal watch), whichever output the slot holds now.
final class OutputEvents: DaemonPart {
    private let slot: OutputSlot

    init(_ slot: OutputSlot) { self.slot = slot }

    func interest(now: Int64) -> PartInterest {
        PartInterest(slot.current.pollDescriptor.map { [(FileDescriptor(rawValue: $0), .input)] } ?? [])
    }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) throws {
        if ready.first?.isEmpty == false { try daemon.outputEventsHandled() }
    }
}
