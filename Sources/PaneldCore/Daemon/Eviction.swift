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

    static func choose(_ candidates: [Candidate], now: Int64, grace: Int64, idleAfter: Int64) -> Eviction {
        var victim: (rank: Int, key: Int64, id: Int)?
        var nextChance: Int64?
        for c in candidates {
            for o in options(c, grace: grace, idleAfter: idleAfter) {
                if o.at <= now {
                    let mine = (o.rank, o.key, c.id)
                    if victim.map({ mine < ($0.rank, $0.key, $0.id) }) ?? true { victim = mine }
                } else {
                    nextChance = min(nextChance ?? .max, o.at)
                }
            }
        }
        return Eviction(victim: victim?.id, nextChance: victim == nil ? nextChance : nil)
    }
}
