/// Which gauges show a stale value: one that no input has updated for the
/// gauge's `staleAfter`, or one restored from the state file that no input has
/// updated since (with `staleOnRestore`).
///
/// A value type with no clock of its own: the daemon passes monotonic
/// milliseconds. Whether a gauge is stale is a function of its rule, the time
/// of its last input (or of when paneld started showing it) and the time asked
/// about, so the answer never depends on how often it is asked, and the next
/// change is known in advance (``nextChange(after:)``): the daemon sleeps until
/// then instead of polling.
struct Staleness: Equatable, Sendable {
    /// A gauge's rule, from its layout.
    struct Rule: Equatable, Sendable {
        /// Milliseconds without input after which the value is stale; nil = never.
        var after: Int64?
        /// Whether a value from the state file is stale until the first input.
        var onRestore = false
    }

    private struct Entry: Equatable, Sendable {
        var rule: Rule
        /// The last input's time, else when the gauge was first shown.
        var since: Int64
        /// The value came from the state file and no input has updated it since.
        var restoredOnly: Bool
    }

    private var entries: [String: Entry]

    /// Gauges shown from `now` on with `rules`; `restored` names those whose
    /// values came from the state file.
    init(rules: [String: Rule], restored: Set<String> = [], now: Int64) {
        entries = rules.mapValues { Entry(rule: $0, since: now, restoredOnly: false) }
        for name in restored where entries[name] != nil { entries[name]!.restoredOnly = true }
    }

    /// After a reload: `rules` for the new layout's gauges. A gauge that keeps
    /// its name keeps the time of its last input (so a shorter `staleAfter`
    /// may make it stale at once) and whether its value is still the restored
    /// one; a new gauge starts at `now`.
    func reloaded(rules: [String: Rule], now: Int64) -> Staleness {
        var next = Staleness(rules: rules, now: now)
        for (name, old) in entries where next.entries[name] != nil {
            next.entries[name]!.since = old.since
            next.entries[name]!.restoredOnly = old.restoredOnly
        }
        return next
    }

    /// Input for `names` arrived at `now` (a new value, or the same value again).
    mutating func noteInput(_ names: some Sequence<String>, now: Int64) {
        for name in names where entries[name] != nil {
            entries[name]!.since = now
            entries[name]!.restoredOnly = false
        }
    }

    func isStale(_ name: String, at now: Int64) -> Bool {
        guard let e = entries[name] else { return false }
        if e.restoredOnly && e.rule.onRestore { return true }
        guard let after = e.rule.after else { return false }
        return now >= e.since + after
    }

    /// The gauges stale at `now`.
    func staleNames(at now: Int64) -> Set<String> {
        Set(entries.keys.filter { isStale($0, at: now) })
    }

    /// The earliest time after `now` at which a gauge fresh at `now` goes
    /// stale; nil when none will without further input.
    func nextChange(after now: Int64) -> Int64? {
        entries.values.compactMap { e -> Int64? in
            guard let after = e.rule.after, !(e.restoredOnly && e.rule.onRestore) else { return nil }
            let due = e.since + after
            return due > now ? due : nil
        }.min()
    }
}
