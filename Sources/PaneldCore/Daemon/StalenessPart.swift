/// Staleness as a part: notes the inputs of each turn (``DaemonContext/takeTouched()``),
/// tells the daemon which gauges are stale (``DaemonContext/showStale(_:)``), and
/// wakes the loop the moment the next gauge goes stale, so that gauge's frame is
/// repainted alone without polling. It comes after every part that feeds values,
/// so a stale gauge revived in a turn is drawn fresh in that turn's frame.
final class StalenessPart: DaemonPart {
    /// When each gauge's value goes stale, from the times of the inputs.
    private(set) var staleness: Staleness

    init(rules: [String: Staleness.Rule], restored: Set<String>, now: Int64) {
        staleness = Staleness(rules: rules, restored: restored, now: now)
    }

    /// A new layout's rules; gauges that keep their name keep the time of their
    /// last input (``Staleness/reloaded(rules:now:)``).
    func reload(rules: [String: Staleness.Rule], now: Int64) {
        staleness = staleness.reloaded(rules: rules, now: now)
    }

    func interest(now: Int64) -> PartInterest { PartInterest(deadline: staleness.nextChange(after: now)) }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        let touched = daemon.takeTouched()
        if !touched.isEmpty { staleness.noteInput(touched, now: now) }
        daemon.showStale(staleness.staleNames(at: now))
    }
}
