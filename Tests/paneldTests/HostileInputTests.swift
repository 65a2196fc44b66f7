import Foundation
import Glibc
import PanelGauge
import Testing

@testable import PanelDisplay
@testable import PaneldCore

/// Clients that trickle, idle or never read, and a full client table: paneld stays
/// available to everyone else, and closes such clients on its own deadlines.
@Suite(.serialized) struct HostileClientTests {
    /// The slowloris: 300 connections (more than the 256 slots) each send one byte a
    /// second and never finish a line. A fresh client must still be answered
    /// within 1 s, every time; paneld's memory stays bounded.
    @Test func tricklingConnectionsDoNotLockOthersOut() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "32x32"])
        #expect(try TestClient(d.socketPath).ask("get") == "value -")
        usleep(100_000)
        let rssBefore = try #require(d.status("VmRSS"))
        var tricklers: [TestClient] = []
        for _ in 0..<300 {
            let c = try TestClient(d.socketPath)
            tricklers.append(c)
            try c.send("1")
        }
        var latencies: [Int64] = []
        var answered = 0
        let start = monotonicMilliseconds()
        var second = 0
        while monotonicMilliseconds() - start < 6_000 {
            second += 1
            // One byte a second on every open trickler; reconnect the ones paneld closed.
            for i in tricklers.indices {
                if (try? tricklers[i].send("2", timeout: 50)) == nil || tricklers[i].readAvailable() == nil {
                    tricklers[i] = try TestClient(d.socketPath)
                    try? tricklers[i].send("3", timeout: 50)
                }
            }
            let t0 = monotonicMilliseconds()
            let probe = try TestClient(d.socketPath)
            if (try? probe.ask("get", timeout: 1_000)) == "value -" {
                answered += 1
                latencies.append(monotonicMilliseconds() - t0)
            }
            let rest = 1_000 - (monotonicMilliseconds() - t0)
            if rest > 0 { usleep(UInt32(rest) * 1000) }
        }
        let rssAfter = try #require(d.status("VmRSS"))
        print(
            "slowloris: \(answered) of \(second) probes answered within 1 s, worst \(latencies.max() ?? -1) ms; VmRSS \(rssBefore) -> \(rssAfter) kB"
        )
        #expect(answered == second, "probes answered: \(answered) of \(second)")
        #expect(rssAfter - rssBefore < 4_096, "VmRSS \(rssBefore) -> \(rssAfter) kB")
        #expect(d.log().contains("client table full"), "\(d.log())")
    }

    /// A client that starts a line and never finishes it is closed after the line
    /// timeout, although nothing else happens (poll's timeout includes the deadline).
    @Test func unfinishedLineIsClosedOnItsDeadline() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "32x32", "--line-timeout", "800"])
        let c = try TestClient(d.socketPath)
        try c.send("12")
        let t0 = monotonicMilliseconds()
        var closed = false
        while !closed && monotonicMilliseconds() - t0 < 3_000 {
            _ = try pollDescriptors([(c.fd, .input)], timeout: 100)
            closed = c.readAvailable() == nil
        }
        let elapsed = monotonicMilliseconds() - t0
        #expect(closed && elapsed >= 700 && elapsed < 2_000, "closed: \(closed) after \(elapsed) ms")
        #expect(d.log().contains("line not finished within 800 ms"), "\(d.log())")
    }

    /// The line clock restarts with each finished line: a client that streams lines
    /// whose reads end mid-line is never taken for a trickler.
    @Test func streamingLinesKeepTheClientOpen() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "32x32", "--line-timeout", "300"])
        let c = try TestClient(d.socketPath)
        try c.send("1")
        for k in 0..<12 {
            usleep(100_000)
            try c.send("\(k % 10)\n2")  // ends a line, starts the next
        }
        try c.send("\n")
        #expect(try c.ask("get") == "value 2", "\(d.log())")
        #expect(!d.log().contains("line not finished"))
    }

    /// A client that sends nothing at all is closed after the idle timeout.
    @Test func idleClientIsClosedOnItsDeadline() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "32x32", "--idle-timeout", "700"])
        let c = try TestClient(d.socketPath)
        #expect(try c.ask("get") == "value -")
        let t0 = monotonicMilliseconds()
        var closed = false
        while !closed && monotonicMilliseconds() - t0 < 3_000 {
            _ = try pollDescriptors([(c.fd, .input)], timeout: 100)
            closed = c.readAvailable() == nil
        }
        #expect(closed && monotonicMilliseconds() - t0 < 2_000)
    }

    /// A client that floods requests and never reads the replies is dropped at its
    /// stuck-client deadline even when no other client or event wakes the loop.
    @Test func nonReaderIsDroppedWithoutOtherWakeups() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "32x32", "--stuck-client-timeout", "700"])
        let silent = try TestClient(d.socketPath)
        let requests = Array(String(repeating: "list\n", count: 2_000).utf8)
        // Fill paneld's output bound and both socket buffers, then go quiet.
        var quietSince = monotonicMilliseconds()
        while monotonicMilliseconds() - quietSince < 300 {
            let n = requests.withUnsafeBytes {
                Glibc.send(silent.fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n > 0 { quietSince = monotonicMilliseconds() }
        }
        let t0 = monotonicMilliseconds()
        while !d.log().contains("not reading its replies") && monotonicMilliseconds() - t0 < 3_000 { usleep(20_000) }
        #expect(d.log().contains("not reading its replies for 700 ms"), "\(d.log())")
    }

    /// With every slot taken, a new connection is served once a client that is not
    /// feeding values makes room: the oldest unfinished line, then a connection that
    /// finished no line; a client that sends whole lines keeps its slot, and the new
    /// connection waits in the queue until one leaves.
    @Test func fullTableEvictsOnlyClientsThatAreNotFeeding() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "32x32", "--max-clients", "3"])
        let feeder = try TestClient(d.socketPath)
        #expect(try feeder.ask("get") == "value -")
        let partial = try TestClient(d.socketPath)
        try partial.send("4")
        let silent = try TestClient(d.socketPath)
        usleep(200_000)  // past the eviction grace (100 ms)
        // The fourth connection evicts `partial` (an unfinished line goes first).
        let fourth = try TestClient(d.socketPath)
        #expect(try fourth.ask("get", timeout: 1_000) == "value -")
        #expect(throws: TestFailure.self) { try partial.readLine(timeout: 1_000) }  // closed
        // The fifth evicts `silent`, which never finished a line; the feeder stays.
        let fifth = try TestClient(d.socketPath)
        #expect(try fifth.ask("get", timeout: 1_000) == "value -")
        #expect(throws: TestFailure.self) { try silent.readLine(timeout: 1_000) }
        #expect(try feeder.ask("get") == "value -")
        // Every slot holds a client that sends whole lines: the sixth waits, then is served when one leaves.
        let sixth = try TestClient(d.socketPath)
        try sixth.send("get\n")
        #expect(throws: TestFailure.self) { try sixth.readLine(timeout: 800) }
        #expect(try feeder.ask("get") == "value -" && (try fourth.ask("get")) == "value -")
        fifth.fd.close()
        #expect(try sixth.readLine(timeout: 1_000) == "value -")
        #expect(d.log().contains("client table full (3)"), "\(d.log())")
        #expect(d.log().components(separatedBy: "client table full").count == 2, "one line per episode: \(d.log())")
    }

    /// The eviction order, as a pure function.
    @Test func evictionChoiceOrder() {
        typealias C = Eviction.Candidate
        func choose(_ c: [C], now: Int64) -> Eviction { Eviction.choose(c, now: now, grace: 500, idleAfter: 60_000) }
        let feeder = C(id: 1, connectedAt: 0, partialSince: nil, lastActivity: 9_000, hasFinishedALine: true)
        let slow = C(id: 2, connectedAt: 100, partialSince: 8_000, lastActivity: 9_900, hasFinishedALine: false)
        let silent = C(id: 3, connectedAt: 7_000, partialSince: nil, lastActivity: 7_000, hasFinishedALine: false)
        let fresh = C(id: 4, connectedAt: 9_800, partialSince: nil, lastActivity: 9_800, hasFinishedALine: false)
        #expect(choose([], now: 0) == Eviction(victim: nil, nextChance: nil))
        #expect(choose([feeder, slow, silent, fresh], now: 10_000).victim == 2)
        #expect(choose([feeder, silent, fresh], now: 10_000).victim == 3)
        // A feeder and a connection still in its grace: nobody yet; the fresh one may go at 10 300.
        #expect(choose([feeder, fresh], now: 10_000) == Eviction(victim: nil, nextChance: 10_300))
        // A feeder alone goes only after a minute without a line.
        #expect(choose([feeder], now: 68_999) == Eviction(victim: nil, nextChance: 69_000))
        #expect(choose([feeder], now: 69_000).victim == 1)
        // A feeder that leaves a line unfinished is a slow client for that line.
        var stalled = feeder
        stalled.partialSince = 9_000
        #expect(choose([stalled, silent], now: 10_000).victim == 1)
        // Ties go to the older connection.
        var twin = silent
        twin.id = 5
        #expect(choose([twin, silent], now: 10_000).victim == 3)
        // A sending client (bytes unread in the kernel) is passed over for the next in order...
        let all = [feeder, slow, silent, fresh]
        let sending = { (ids: Set<Int>) in
            Eviction.choose(all, now: 10_000, grace: 500, idleAfter: 60_000, isSending: { ids.contains($0) })
        }
        #expect(sending([2]).victim == 3)
        // ... and when every evictable one is sending, nobody goes; the next chance is a grace on.
        #expect(sending([2, 3]) == Eviction(victim: nil, nextChance: 10_300))
        // At most 16 are asked.
        let many = (10..<40).map {
            C(id: $0, connectedAt: 0, partialSince: nil, lastActivity: 0, hasFinishedALine: false)
        }
        var asked = 0
        let capped = Eviction.choose(
            many, now: 10_000, grace: 500, idleAfter: 60_000,
            isSending: { _ in
                asked += 1
                return true
            })
        #expect(capped == Eviction(victim: nil, nextChance: 10_500) && asked == Eviction.maxPassedOver)
    }

    /// 500 writers at once, each on its own connection, with the default limits:
    /// none is disconnected, and every gauge ends at the last value one of its two
    /// writers sent (the table holds 256; the others wait in the listen queue).
    @Test func fiveHundredConcurrentWritersLoseNothing() throws {
        let dir = TempDirectory()
        let names = (0..<250).map { "g\($0)" }
        let gauges = names.map { #"{"name": "\#($0)", "rect": [0, 0, 8, 8]}"# }.joined(separator: ",")
        try dir.write("l.json", #"{"overlap": true, "gauges": [\#(gauges)]}"#)
        let d = try DaemonProcess(
            dir,
            args: [
                "--output", "png:" + dir.file("f.png"), "--size", "32x32", "--config", dir.file("l.json"),
                "--png-interval", "5",
            ])
        let writers = 500, lines = 200
        let results = WriterResults(writers)
        let path = d.socketPath
        for k in 0..<writers {
            Thread.detachNewThread {
                do {
                    // Every writer ready before any connects: 500 at once fill the table for certain.
                    results.arrive()
                    let c = try TestClient(path)
                    // Ten batches 100 ms apart. After the first (a finished line: a feeder,
                    // never evicted), every writer waits until all 500 are connected and
                    // the daemon has said its table of 256 is full: no writer finishes
                    // before the table fills, however slowly the daemon accepts.
                    for b in 0..<10 {
                        if b == 1 {
                            results.connected()
                            results.waitForGate()
                        }
                        var batch = ""
                        // In range (0...100): writer k < 250 sends 10.000..., writer k + 250 sends 60.000...
                        for i in (b * lines / 10)..<((b + 1) * lines / 10) {
                            batch += "g\(k % 250) \(Self.writerValue(k, i, lines))\n"
                        }
                        try c.send(batch, timeout: 60_000)
                        usleep(100_000)
                    }
                    // The reply to `get` comes after every line before it was applied.
                    let reply = try c.ask("get g\(k % 250)", timeout: 60_000)
                    results.finish(k, ok: reply.hasPrefix("g\(k % 250) "))
                } catch {
                    results.finish(k, ok: false)
                }
            }
        }
        // The gate opens once the table is full (or after 60 s, for the expectation below to report).
        let full = monotonicMilliseconds() + 60_000
        while !d.log().contains("client table full (256)") && monotonicMilliseconds() < full { usleep(20_000) }
        results.openGate()
        #expect(results.wait(timeoutSeconds: 120), "writers did not finish")
        #expect(results.lost == 0, "\(results.lost) writer(s) lost their connection")
        #expect(d.log().contains("client table full (256)"), "the table was never full: \(d.log())")
        print(
            "500 writers: \(results.lost) lost; log: \(d.log().split(separator: "\n").filter { $0.contains("table") })")
        let c = try TestClient(path)
        let values = try c.list(timeout: 60_000)
        for g in 0..<250 {
            let last = [g, g + 250].map { GaugeStore.format(Self.writerValue($0, lines - 1, lines)) }
            #expect(last.contains(values["g\(g)"] ?? ""), "g\(g) = \(values["g\(g)"] ?? "none"), want one of \(last)")
        }
    }

    /// The `i`-th of `lines` values writer `k` sends: its own, and inside the gauges' range.
    static func writerValue(_ k: Int, _ i: Int, _ lines: Int) -> Double {
        (k < 250 ? 10 : 60) + Double(i) / Double(lines) * 10
    }

    /// A churning attacker (silent connections, more than the table holds, each
    /// closed and opened again in turn) and then a slowloris as well (connections
    /// trickling a byte of an endless line every 100 ms, reconnecting when evicted),
    /// against a table of 16: a persistent feeder that sends a line every second
    /// loses none, and a fresh client is answered within 1 s every time.
    @Test func feederAndFreshClientsSurviveChurnAndSlowloris() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "32x32", "--max-clients", "16"])
        let feeder = try TestClient(d.socketPath)
        #expect(try feeder.ask("get") == "value -")
        var slowest: Int64 = 0
        var sent = 0, evictions = 0
        for slowloris in [0, 40] {
            let attack = Attack(path: d.socketPath, silent: 24, slowloris: slowloris)
            attack.start()
            defer { attack.stop() }
            usleep(1_000_000)
            for _ in 0..<5 {
                sent += 1
                #expect(try feeder.ask("value \(sent)\nget", timeout: 2_000) == "value \(sent)", "feeder line \(sent)")
                let t0 = monotonicMilliseconds()
                let fresh = try TestClient(d.socketPath)
                #expect(try fresh.ask("get", timeout: 1_000) == "value \(sent)", "probe \(sent)")
                slowest = max(slowest, monotonicMilliseconds() - t0)
                usleep(1_000_000)  // the feeder idles longer than the attacker's connections live
            }
            evictions += attack.evictions
        }
        #expect(evictions > 8, "the attack was not evicted: \(evictions)")
        print("churn and slowloris: \(sent) feeder lines, slowest fresh probe \(slowest) ms")
        #expect(slowest <= 1_000, "slowest probe \(slowest) ms")
        #expect(d.log().components(separatedBy: "client table full").count == 2, "one line per episode: \(d.log())")
    }
}

/// What the concurrent writers report.
final class WriterResults: @unchecked Sendable {
    private let lock = NSCondition()
    private var done = 0
    private(set) var lost = 0
    let count: Int
    init(_ count: Int) { self.count = count }
    func finish(_ k: Int, ok: Bool) {
        lock.lock()
        done += 1
        if !ok { lost += 1 }
        lock.broadcast()
        lock.unlock()
    }
    /// How many writers reached each meeting point (under `lock`).
    private var met = [0, 0]
    /// Waits until all `count` writers have arrived (or 30 s).
    func arrive() { meet(0) }
    /// Waits until all `count` writers are connected (or 30 s).
    func connected() { meet(1) }
    /// Whether the test let the writers go on (under `lock`).
    private var gateOpen = false
    /// Waits until ``openGate()`` (or 90 s).
    func waitForGate() {
        lock.lock()
        let until = Date(timeIntervalSinceNow: 90)
        while !gateOpen { if !lock.wait(until: until) { break } }
        lock.unlock()
    }
    func openGate() {
        lock.lock()
        gateOpen = true
        lock.broadcast()
        lock.unlock()
    }
    private func meet(_ point: Int) {
        lock.lock()
        met[point] += 1
        lock.broadcast()
        let until = Date(timeIntervalSinceNow: 30)
        while met[point] < count { if !lock.wait(until: until) { break } }
        lock.unlock()
    }
    func wait(timeoutSeconds: Double) -> Bool {
        let until = Date(timeIntervalSinceNow: timeoutSeconds)
        lock.lock()
        defer { lock.unlock() }
        while done < count { if !lock.wait(until: until) { return false } }
        return true
    }
}

/// An attacker on its own thread: `silent` connections that never send, one of
/// them closed and opened again every 20 ms (churn), and `slowloris` connections
/// each sending one byte of an endless line every 100 ms; any connection paneld
/// closes is opened again.
final class Attack: @unchecked Sendable {
    let path: String
    let silent: Int
    let slowloris: Int
    private let lock = NSLock()
    private var running = true
    private var evicted = 0
    private var thread: Thread?
    init(path: String, silent: Int, slowloris: Int) {
        self.path = path
        self.silent = silent
        self.slowloris = slowloris
    }
    var evictions: Int { lock.withLock { evicted } }
    func start() {
        let t = Thread { [self] in run() }
        thread = t
        t.start()
    }
    func stop() {
        lock.withLock { running = false }
        while !(thread?.isFinished ?? true) { usleep(10_000) }
    }
    private func connect() -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        let r = UnixSocket.withAddress(path) { Glibc.connect(fd, $0, $1) }
        if r != 0 {
            close(fd)
            return nil
        }
        return fd
    }
    /// Whether paneld closed `fd`, after sending it `byte` if given.
    private func closed(_ fd: Int32, sending byte: UInt8?) -> Bool {
        if var b = byte, send(fd, &b, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) < 0, errno != EAGAIN { return true }
        var peek: UInt8 = 0
        return recv(fd, &peek, 1, Int32(MSG_DONTWAIT | MSG_PEEK)) == 0
    }
    private func run() {
        var quiet: [Int32] = []
        var slow: [Int32] = []
        var round = 0
        while lock.withLock({ running }) {
            round += 1
            for (want, byte) in [(silent, UInt8?.none), (slowloris, 0x31)] {
                var conns = byte == nil ? quiet : slow
                let trickle = byte != nil && round % 5 == 0
                conns = conns.filter { fd in
                    guard closed(fd, sending: trickle ? byte : nil) else { return true }
                    close(fd)
                    lock.withLock { evicted += 1 }
                    return false
                }
                while conns.count < want, let fd = connect() { conns.append(fd) }
                if byte == nil { quiet = conns } else { slow = conns }
            }
            if !quiet.isEmpty {  // churn: the oldest silent connection leaves, a new one comes
                close(quiet.removeFirst())
                if let fd = connect() { quiet.append(fd) }
            }
            usleep(20_000)
        }
        (quiet + slow).forEach { close($0) }
    }
}

/// Paths that are not paneld's own, files that are not regular files, sizes no
/// display has, and failures that repeat: refused or logged once, never obeyed.
@Suite(.serialized) struct HostileFileTests {
    /// A state path that holds a device node (or a FIFO) is refused at start with an
    /// error at priority err, is never written or replaced, and paneld serves on.
    @Test func stateFileThatIsNotARegularFileIsNeverReplaced() throws {
        let dir = TempDirectory()
        let node = dir.file("values")
        // A character device (/dev/null's numbers) where the state file would be; a FIFO without root.
        let isDevice = geteuid() == 0 && mknod(node, S_IFCHR | 0o600, dev_t(0x103)) == 0
        if !isDevice { #expect(mkfifo(node, 0o600) == 0) }
        let d = try DaemonProcess(
            dir,
            args: [
                "--output", "png:" + dir.file("f.png"), "--size", "32x32", "--state", node, "--save-interval", "0.1",
            ],
            environment: ["JOURNAL_STREAM": "STDERR"])
        let c = try TestClient(d.socketPath)
        try c.send("42\n")
        #expect(try c.ask("get") == "value 42")
        usleep(400_000)
        d.signal(SIGTERM)
        #expect(d.wait(timeout: 5_000) == 0)
        let type = FileIO.fileType(node)
        #expect(type == (isDevice ? .characterDevice : .fifo), "the node is still there: \(String(describing: type))")
        let kind = isDevice ? "a character device" : "a FIFO"
        #expect(d.log().contains("<3>state file \(node) is \(kind), not a regular file"), "\(d.log())")
        unlink(node)
    }

    /// A FIFO as --config fails at once with a clear error; it never blocks in open().
    @Test func fifoAsConfigIsRefusedWithoutBlocking() throws {
        let dir = TempDirectory()
        let fifo = dir.file("layout.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--config", fifo], waitForSocket: false)
        #expect(d.wait(timeout: 5_000) == 1 << 8, "paneld did not exit with status 1: \(d.log())")
        #expect(d.log().contains("\(fifo) is a FIFO, not a regular file"), "\(d.log())")
        unlink(fifo)
    }

    /// A FIFO as the layout's font is a layout error, not a hang in FreeType.
    @Test func fifoAsFontIsALayoutError() throws {
        let dir = TempDirectory()
        let fifo = dir.file("font.ttf")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: LayoutError.self) {
            try LayoutReader.parse(Array(#"{"gauges": [{"name": "a"}], "font": "\#(fifo)"}"#.utf8))
        }
        #expect(throws: FontError.notRegularFile(path: fifo)) { try FontFile(FontDescriptor(path: fifo)) }
        unlink(fifo)
    }

    /// SIGHUP, or `paneld reload`, with the layout replaced by a FIFO: the daemon keeps
    /// serving, the old layout stays, and the reload reports the failure.
    @Test func reloadOfAFifoKeepsServingAndFails() throws {
        let dir = TempDirectory()
        let layout = dir.file("layout.json")
        try dir.write("layout.json", #"{"gauges": [{"name": "cpu", "range": [0, 100]}]}"#)
        let d = try DaemonProcess(dir, args: ["--output", "png:" + dir.file("f.png"), "--config", layout])
        unlink(layout)
        #expect(mkfifo(layout, 0o600) == 0)
        d.signal(SIGHUP)
        let c = try TestClient(d.socketPath)
        #expect(try c.ask("get cpu", timeout: 1_000) == "cpu -")
        let r = try runPaneld(["reload", "--socket", d.socketPath], in: dir)
        #expect(r.status == 1)
        #expect(
            r.out.hasPrefix("ERR layout not reloaded, the old one stays: ") && r.out.contains("is a FIFO"), "\(r.out)")
        unlink(layout)
        try dir.write("layout.json", #"{"gauges": [{"name": "cpu", "range": [0, 100]}, {"name": "mem"}]}"#)
        let ok = try runPaneld(["reload", "--socket", d.socketPath], in: dir)
        #expect(ok.status == 0, "\(ok.out) \(ok.err)")
        #expect(ok.out == "OK layout \(layout) reloaded, 2 gauge(s)\n")
        #expect(try c.ask("get mem") == "mem -")
    }

    /// PNG output writes at most one frame a second by default, however fast values come.
    @Test func pngOutputWritesAtMostOneFrameASecond() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "32x32", "--verbose"])
        let c = try TestClient(d.socketPath)
        let t0 = monotonicMilliseconds()
        var v = 0
        while monotonicMilliseconds() - t0 < 2_500 {
            v += 1
            try c.send("\(v % 100)\n")
            usleep(10_000)
        }
        usleep(1_100_000)
        let frames = d.log().split(separator: "\n").filter { $0.contains("frame: ") }.count
        #expect(frames >= 3 && frames <= 5, "frames in 3.6 s: \(frames)")
        let want = try runPaneld(
            ["render", "--set", "value=\(v % 100)", "--size", "32x32", "--output", dir.file("want.png")], in: dir)
        #expect(want.status == 0)
        #expect(try PNG.read(dir.file("f.png")).rgb == PNG.read(dir.file("want.png")).rgb, "the last value is shown")
    }

    /// On a full file system every failed frame and save is logged once, and the
    /// recovery once. (Needs root to mount a small tmpfs.)
    @Test(.enabled(if: geteuid() == 0)) func fullDiskIsLoggedOncePerKind() throws {
        let dir = TempDirectory()
        let mnt = dir.file("small")
        mkdir(mnt, 0o755)
        guard mount("tmpfs", mnt, "tmpfs", 0, "size=64k") == 0 else {
            Issue.record("mount tmpfs: \(String(cString: strerror(errno)))")
            return
        }
        defer {
            umount2(mnt, Int32(MNT_DETACH))
            rmdir(mnt)
        }
        let filler = mnt + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 1, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
        let d = try DaemonProcess(
            dir,
            args: [
                "--output", "png:" + mnt + "/f.png", "--size", "32x32", "--png-interval", "0.05", "--state",
                mnt + "/values", "--save-interval", "0.1",
            ])
        let c = try TestClient(d.socketPath)
        for v in 0..<30 {
            try c.send("\(v)\n")
            usleep(40_000)
        }
        #expect(try c.ask("get") == "value 29")
        let lines = d.log().split(separator: "\n")
        #expect(lines.filter { $0.contains("cannot show a frame") }.count == 1, "\(d.log())")
        #expect(lines.filter { $0.contains("cannot save values") }.count == 1, "\(d.log())")
        unlink(filler)
        try c.send("77\n")
        usleep(600_000)
        let after = d.log().split(separator: "\n")
        #expect(after.filter { $0.contains("frames are being shown again") }.count == 1, "\(d.log())")
        #expect(after.filter { $0.contains("values are being saved again") }.count == 1, "\(d.log())")
        d.signal(SIGTERM)
        _ = d.wait(timeout: 5_000)
        unlink(mnt + "/f.png")
        unlink(mnt + "/values")
    }

    /// Sizes no display has are refused with the cap in the message.
    @Test func sizesBeyondADisplayAreRefused() throws {
        let dir = TempDirectory()
        let r = try runPaneld(["render", "--size", "16384x16384", "--output", dir.file("x.png")], in: dir)
        #expect(r.status == 64)
        #expect(r.err.contains("at most 8192 pixels a side and 33177600 pixels in all"), "\(r.err)")
        #expect(ModeRequest(parsing: "7680x4320") != nil)
        #expect(ModeRequest(parsing: "8192x4320") == nil)
        #expect(ModeRequest(parsing: "8193x100") == nil)
        #expect(throws: LayoutError.self) {
            try LayoutReader.parse(Array(#"{"gauges": [{"name": "a"}], "mode": "16384x16384"}"#.utf8))
        }
    }

    /// A fatal start error reaches the journal at priority err, one record per line
    /// of it (a layout's issues), so `journalctl -p err` shows why paneld did not start.
    @Test func fatalStartErrorsAreAtPriorityErr() throws {
        let dir = TempDirectory()
        try dir.write("bad.json", "{\"gauges\": [{\"name\": \"a\", \"style\": \"nope\"}],\n \"rotation\": 45}")
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--config", dir.file("bad.json")],
            environment: ["JOURNAL_STREAM": "STDERR"], waitForSocket: false)
        #expect(d.wait(timeout: 5_000) == 1 << 8)
        let errors = d.log().split(separator: "\n").filter { $0.hasPrefix("<3>") }
        #expect(errors.count == 2, "\(d.log())")
        #expect(errors.allSatisfy { $0.contains(dir.file("bad.json")) }, "\(d.log())")
    }
}

/// The watch for a display that appears after paneld started, on a stand-in /dev.
@Suite struct DisplayWatcherTests {
    /// The directory does not exist yet: its creation, then a card node in it, are reported;
    /// other names are not.
    @Test func reportsCardsInADirectoryThatAppearsLater() throws {
        let dir = TempDirectory()
        let dri = dir.file("dri")
        let w = try DisplayWatcher(directory: dri)
        defer { w.close() }
        #expect(!w.drain())
        try dir.write("unrelated", "x")
        #expect(!w.drain())
        unlink(dir.file("unrelated"))
        #expect(mkdir(dri, 0o755) == 0)
        #expect(w.drain(), "the directory appeared")
        let other = open(dri + "/renderD128", O_CREAT | O_WRONLY, 0o600)
        close(other)
        #expect(!w.drain(), "a render node is not a display")
        let card = open(dri + "/card1", O_CREAT | O_WRONLY, 0o600)
        close(card)
        #expect(w.drain(), "a card node appeared")
        chmod(dri + "/card1", 0o660)
        #expect(w.drain(), "udev changed the card's mode")
        unlink(dri + "/card1")
        unlink(dri + "/renderD128")
        rmdir(dri)
    }

    /// `--output fbdev:/dev/fb1` before its driver loaded: only that node's name in /dev counts.
    @Test func reportsOneNamedFramebufferNode() throws {
        let dir = TempDirectory()
        let w = try DisplayWatcher(directory: dir.path) { $0 == "fb1" }
        defer { w.close() }
        try dir.write("fb0", "x")
        try dir.write("fb10", "x")
        #expect(!w.drain(), "another framebuffer is not the one awaited")
        try dir.write("fb1", "x")
        #expect(w.drain(), "the awaited framebuffer appeared")
    }

    @Test func parsesInotifyRecords() {
        // Two records: wd 1, IN_CREATE, name "card0" padded to 16; wd 2, IN_ATTRIB, no name.
        func record(_ wd: Int32, _ mask: UInt32, _ name: String, padTo: Int) -> [UInt8] {
            var out: [UInt8] = []
            withUnsafeBytes(of: wd.littleEndian) { out += $0 }
            withUnsafeBytes(of: mask.littleEndian) { out += $0 }
            withUnsafeBytes(of: UInt32(0)) { out += $0 }
            withUnsafeBytes(of: UInt32(padTo).littleEndian) { out += $0 }
            out += Array(name.utf8) + [UInt8](repeating: 0, count: padTo - name.utf8.count)
            return out
        }
        let bytes = record(1, UInt32(IN_CREATE), "card0", padTo: 16) + record(2, UInt32(IN_ATTRIB), "", padTo: 0)
        let events = DisplayWatcher.parse(bytes[...])
        #expect(events.count == 2)
        #expect(events.first?.watch == 1 && events.first?.mask == UInt32(IN_CREATE) && events.first?.name == "card0")
        #expect(events.last?.watch == 2 && events.last?.mask == UInt32(IN_ATTRIB) && events.last?.name == "")
    }
}
