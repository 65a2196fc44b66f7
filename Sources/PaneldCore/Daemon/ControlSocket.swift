import Glibc

/// The control socket as a part: the listener, its clients, their requests and replies.
///
/// Clients are bounded in time as in memory: a line must be finished within
/// `lineTimeout` of its first byte, a client that sends nothing for `idleTimeout`
/// is closed, one that does not read its replies for `stuckClientTimeout` too;
/// and when every slot is taken a new connection makes room only by evicting a
/// client that is not feeding values (``Eviction``), else it waits in the listen
/// queue until a slot frees: connections that trickle bytes or sit idle never
/// lock others out, and never push out a client that sends whole lines. Each
/// line goes to the daemon (``DaemonContext/reply(to:)``), which answers it.
final class ControlSocket: DaemonPart {
    private let listener: FileDescriptor
    private let settings: Daemon.Settings
    private var clients: [Int32: Client] = [:]
    /// The clients polled, in the order of the last ``interest(now:)``.
    private var order: [Client] = []
    private var nextClientID = 0
    private var acceptFailure = FailureLatch()
    /// Episodes of a full client table, with what happened in the running one.
    private var tableFull = LogEpisode()
    private var evictedInEpisode = 0
    private var waitsInEpisode = 0
    /// Set while the table is full and no client may be evicted yet: the listener is
    /// left out of `poll` until then (`Int64.max`: until a client leaves).
    private var waitingForRoom: Int64?
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    /// Set after a failed accept: the listener is left out of `poll` until then.
    private var acceptPausedUntil: Int64?
    static let acceptPause: Int64 = 250

    init(listener: FileDescriptor, settings: Daemon.Settings) {
        self.listener = listener
        self.settings = settings
    }

    /// The listener (unless accepting is paused or waits for room) and every
    /// client; the deadline is the nearest of the pauses, the end of a full-table
    /// episode and the clients' own limits (``deadline(of:)``).
    func interest(now: Int64) -> PartInterest {
        if let until = acceptPausedUntil, now >= until { acceptPausedUntil = nil }
        if let until = waitingForRoom, now >= until { waitingForRoom = nil }
        // A full table accepts when a client may be evicted (``acceptClients``).
        let accepting = acceptPausedUntil == nil && waitingForRoom == nil
        var entries: [(fd: FileDescriptor, events: PollEvents)] = [(listener, accepting ? .input : [])]
        order = Array(clients.values)
        for c in order {
            var ev: PollEvents = c.wantsRead ? .input : []
            if c.wantsWrite { ev.insert(.output) }
            entries.append((c.fd, ev))
        }
        var deadlines: [Int64] = []
        if let a = acceptPausedUntil { deadlines.append(a) }
        if let w = waitingForRoom, w != .max { deadlines.append(w) }
        if let e = tableFull.endsAt { deadlines.append(e) }
        if let c = clients.values.lazy.map({ self.deadline(of: $0) }).min() { deadlines.append(c) }
        return PartInterest(entries, deadline: deadlines.min())
    }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        for (c, ev) in zip(order, ready.dropFirst()) where !ev.isEmpty {
            service(c, ev, daemon)
        }
        if ready.first?.contains(.input) == true { acceptClients() }
        order = []
        let now = monotonicMilliseconds()
        dropExpiredClients(now: now)
        if let ended = tableFull.ended(now: now) {
            Log.notice(
                "client table has had free slots for \(tableFull.quiet / 1000) s: \(evictedInEpisode) connection(s) evicted, \(waitsInEpisode) wait(s) for a slot over \(ended.milliseconds / 1000) s"
            )
        }
    }

    /// Disconnects every client.
    func stop() {
        for c in clients.values { drop(c, reason: nil) }
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
                    Log.warning("\(error); not accepting connections (retrying every \(ControlSocket.acceptPause) ms)")
                }
                acceptPausedUntil = monotonicMilliseconds() + ControlSocket.acceptPause
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

    private func service(_ c: Client, _ ev: PollEvents, _ daemon: any DaemonContext) {
        if ev.contains(.invalid) {
            drop(c, reason: "invalid descriptor")
            return
        }
        guard flush(c), drainStash(c, daemon) else { return }
        if ev.contains(.input) || ev.contains(.hangUp), c.wantsRead {
            guard readFrom(c, daemon), flush(c), drainStash(c, daemon) else { return }
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
    private func drainStash(_ c: Client, _ daemon: any DaemonContext) -> Bool {
        while !c.stash.isEmpty && !c.isBlocked {
            let stash = c.stash
            c.stash = []
            guard stash.withUnsafeBytes({ process(c, $0, count: stash.count, daemon) }), flush(c) else { return false }
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
    private func readFrom(_ c: Client, _ daemon: any DaemonContext) -> Bool {
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
                    ok = handle(event, from: c, daemon)
                    return ok
                }
                if !ok { drop(c, reason: "reply larger than \(Client.maxPendingOutput) bytes unsent") }
                return ok
            }
            let chunk = readBuffer  // `process` must not see the buffer change under it
            let now = monotonicMilliseconds()
            c.lastActivity = now
            guard chunk.withUnsafeBytes({ process(c, $0, count: n, daemon) }) else { return false }
            c.notePartialLine(now: now)
            if !c.stash.isEmpty || n < readBuffer.count { return true }
        }
        return true
    }

    /// Frames and applies `bytes[0..<count]`. Stops when the client's unsent replies
    /// pass the high-water mark and keeps the rest in its stash. False if dropped.
    private func process(
        _ c: Client, _ bytes: UnsafeRawBufferPointer, count: Int, _ daemon: any DaemonContext
    ) -> Bool {
        var overflow = false
        let used = c.framer.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { event in
            if !handle(event, from: c, daemon) {
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

    /// Hands one framed line to the daemon and queues its reply; false when the
    /// reply does not fit the client's output bound.
    private func handle(_ event: LineFramer.Event, from c: Client, _ daemon: any DaemonContext) -> Bool {
        c.linesFramed += 1
        let reply: String
        switch event {
        case .tooLong: reply = "ERR \(LineError.tooLong(limit: LineParser.maxLineLength))\n"
        case .line(let bytes): reply = daemon.reply(to: bytes)
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

    /// When `c` is next due to be closed if nothing changes: its idle limit, its
    /// unfinished line's limit, or its unread replies' limit, whichever comes first.
    private func deadline(of c: Client) -> Int64 {
        var d = c.lastActivity + settings.idleTimeout
        if let p = c.partialSince { d = min(d, p + settings.lineTimeout) }
        if let b = c.blockedSince { d = min(d, b + settings.stuckClientTimeout) }
        return d
    }

    private func drop(_ c: Client, reason: String?, priority: Log.Priority = .warning) {
        if let reason { Log.write(priority, "client \(c.id): disconnected: \(reason)") }
        clients[c.fd.rawValue] = nil
        c.fd.close()
        waitingForRoom = nil  // a slot is free: accept again
    }
}
