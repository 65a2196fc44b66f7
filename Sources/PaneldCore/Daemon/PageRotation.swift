/// Which page a layout shows when: pages in turn, each for `interval`
/// milliseconds, counted from the last time a page was chosen.
///
/// A value type with no clock of its own (the daemon passes monotonic
/// milliseconds): the page is a function of the time asked about, so it
/// never drifts with how often it is asked, and the next switch is known in
/// advance (``nextChange(after:)``): the daemon sleeps until then.
struct PageRotation: Equatable, Sendable {
    /// How many pages there are (at least 1).
    let count: Int
    /// Milliseconds per page; nil = no rotation (the chosen page stays).
    let interval: Int64?
    /// The page chosen last, and when.
    private(set) var chosen: Int
    private(set) var since: Int64
    /// Held (a tap on a touch screen): the chosen page stays until resumed.
    private(set) var held = false

    init(count: Int, interval: Int64?, page: Int = 0, now: Int64) {
        self.count = max(1, count)
        self.interval = interval.flatMap { $0 > 0 ? $0 : nil }
        chosen = min(max(0, page), self.count - 1)
        since = now
    }

    /// Shows `page` from `now` on: the rotation goes on from it, a whole interval later.
    mutating func choose(_ page: Int, now: Int64) {
        chosen = min(max(0, page), count - 1)
        since = now
    }

    /// Holds the page shown at `now` (`true`) or lets the rotation go on
    /// from it, a whole interval later (`false`).
    mutating func hold(_ hold: Bool, now: Int64) {
        guard hold != held else { return }
        chosen = page(at: now)
        since = now
        held = hold
    }

    /// The page shown at `now`.
    func page(at now: Int64) -> Int {
        guard let interval, count > 1, !held, now > since else { return chosen }
        return (chosen + Int(((now - since) / interval) % Int64(count))) % count
    }

    /// When the page next changes after `now`; nil when it never does by itself.
    func nextChange(after now: Int64) -> Int64? {
        guard let interval, count > 1, !held else { return nil }
        guard now >= since else { return since + interval }
        return since + ((now - since) / interval + 1) * interval
    }
}

/// The pages as a part: turns to the page the rotation shows (``DaemonContext/showPage(_:)``,
/// a full frame) and wakes the loop when the next one is due; `page NAME` on the
/// socket chooses one (``choose(_:now:)``), and the rotation goes on from it.
final class PagePart: DaemonPart {
    /// Which page is shown when.
    private(set) var rotation: PageRotation

    /// `layout`'s pages from `now` on, starting with `page`.
    init(_ layout: Layout, page: Int = 0, now: Int64) {
        rotation = PageRotation(count: layout.pages.count, interval: layout.pageInterval, page: page, now: now)
    }

    /// After a reload: `layout`'s pages from `now` on, starting with `page`
    /// (the one shown before, found by its name).
    /// A held page stays held.
    func reload(_ layout: Layout, page: Int, now: Int64) {
        let held = rotation.held
        rotation = PageRotation(count: layout.pages.count, interval: layout.pageInterval, page: page, now: now)
        rotation.hold(held, now: now)
    }

    /// Shows `page` from `now` on (the daemon shows it at once).
    func choose(_ page: Int, now: Int64) { rotation.choose(page, now: now) }

    /// Holds the page shown, or lets the rotation go on (``PageRotation/hold(_:now:)``).
    func hold(_ hold: Bool, now: Int64) { rotation.hold(hold, now: now) }

    func interest(now: Int64) -> PartInterest { PartInterest(deadline: rotation.nextChange(after: now)) }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        let page = rotation.page(at: now)
        if page != daemon.page { daemon.showPage(page) }
    }
}
