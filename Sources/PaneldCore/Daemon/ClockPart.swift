/// The clocks of the page shown as a part: each turn, their texts at the wall
/// clock's time (``DaemonContext/showClocks(_:)``); its deadline is the moment
/// the first of them changes (``ClockFormat/nextChange(_:after:utcOffset:)``:
/// each second or each minute), so the loop wakes for it and repaints the
/// clock's frame alone. It comes after the pages (``PagePart``), so a page
/// turned to shows its own clocks in the same frame.
final class ClockPart: DaemonPart {
    /// When the first clock shown next changes its text (wall-clock milliseconds
    /// since the epoch); nil without clocks on the page shown.
    private(set) var nextChange: Int64?

    /// How long after a clock's change the daemon wakes for it, in milliseconds,
    /// so that the text has changed when it wakes.
    static let margin: Int64 = 2

    func interest(now: Int64) -> PartInterest {
        .atWall(nextChange, now: now, margin: ClockPart.margin)
    }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        turn(wall: ClockFormat.now(), daemon: daemon)
    }

    /// The clocks' texts at `wall` (milliseconds since the epoch), and when they next change.
    func turn(wall: Int64, daemon: any DaemonContext) {
        let page = daemon.page
        let clocks = daemon.layout.gauges.compactMap { g in
            g.page == page ? g.widget?.clockFormat.map { (name: g.name, format: $0) } : nil
        }
        let seconds = Int(wall / 1000)
        var texts: [String: String] = [:]
        for c in clocks { texts[c.name] = ClockFormat.text(c.format, at: seconds) }
        if clocks.isEmpty {
            nextChange = nil
        } else {
            let offset = ClockFormat.utcOffset(at: seconds)
            nextChange = clocks.map { ClockFormat.nextChange($0.format, after: wall, utcOffset: offset) }.min()
        }
        daemon.showClocks(texts)
    }
}
