/// Who makes room when every client slot is taken. Pure.
///
/// A client that sends whole lines is never evicted for one that is idle or
/// slow: a connection may be evicted only once it has shown that it is not
/// feeding values, and a new connection waits in the listen queue (it is not
/// accepted) while no slot can be freed. May be evicted, in this order:
/// 1. a client holding an unfinished line for longer than `grace` (a slowloris),
///    the oldest line first;
/// 2. a client that has not finished a line in the `grace` since it connected
///    (a connection that sits silent), the oldest connection first;
/// 3. a client that finished lines before but has sent nothing for `idleAfter`,
///    the longest idle first.
/// A feeder that finishes a line at least every `idleAfter` keeps its slot; ties
/// go to the older connection (the lower id).
struct Eviction: Equatable {
    /// What the choice knows of a client.
    struct Candidate: Equatable {
        var id: Int
        var connectedAt: Int64
        /// When the unfinished line's first byte came, while one is unfinished.
        var partialSince: Int64?
        /// When the client last sent bytes (or connected).
        var lastActivity: Int64
        /// Whether the client has ever finished a line.
        var hasFinishedALine: Bool
    }

    /// The client to close now, if one may be.
    var victim: Int?
    /// When, with nothing else changing, the first client becomes evictable (nil: none ever does).
    var nextChance: Int64?

    /// The ways `c` may become evictable: its class (the order above), its age key
    /// (older first) and from when.
    static func options(_ c: Candidate, grace: Int64, idleAfter: Int64) -> [(rank: Int, key: Int64, at: Int64)] {
        var out: [(rank: Int, key: Int64, at: Int64)] = []
        if let p = c.partialSince { out.append((0, p, p + grace)) }
        if !c.hasFinishedALine { out.append((1, c.connectedAt, c.connectedAt + grace)) }
        if c.hasFinishedALine && c.partialSince == nil { out.append((2, c.lastActivity, c.lastActivity + idleAfter)) }
        return out
    }

    /// The most evictable clients passed over as sending before the choice
    /// gives up until `grace` from now (each asks the kernel once).
    static let maxPassedOver = 16

    /// The client to evict at `now`, if any: the first in the order above for
    /// which `isSending` is false. A client whose bytes wait unread in the
    /// kernel is sending (paneld, busy, is behind), never the one evicted; at
    /// most ``maxPassedOver`` are asked, then the next chance is `grace` on.
    static func choose(
        _ candidates: [Candidate], now: Int64, grace: Int64, idleAfter: Int64,
        isSending: (Int) -> Bool = { _ in false }
    ) -> Eviction {
        var evictable: [(rank: Int, key: Int64, id: Int)] = []
        var nextChance: Int64?
        for c in candidates {
            for o in options(c, grace: grace, idleAfter: idleAfter) {
                if o.at <= now {
                    evictable.append((o.rank, o.key, c.id))
                } else {
                    nextChance = min(nextChance ?? .max, o.at)
                }
            }
        }
        evictable.sort { ($0.rank, $0.key, $0.id) < ($1.rank, $1.key, $1.id) }
        var asked: Set<Int> = []
        for e in evictable where asked.insert(e.id).inserted {
            if !isSending(e.id) { return Eviction(victim: e.id, nextChance: nil) }
            if asked.count == maxPassedOver { break }
        }
        if !asked.isEmpty { nextChance = min(nextChance ?? .max, now + grace) }
        return Eviction(victim: nil, nextChance: nextChance)
    }
}
