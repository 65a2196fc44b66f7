import Glibc
import Testing

@testable import PaneldCore

@Suite struct SystemdProtocolTests {
    @Test func socketActivationCountsOnlyForThisProcess() {
        #expect(Systemd.passedDescriptorCount(listenPID: "42", listenFDs: "1", pid: 42) == 1)
        #expect(Systemd.passedDescriptorCount(listenPID: "41", listenFDs: "1", pid: 42) == 0)
        #expect(Systemd.passedDescriptorCount(listenPID: nil, listenFDs: "1", pid: 42) == 0)
        #expect(Systemd.passedDescriptorCount(listenPID: "42", listenFDs: "x", pid: 42) == 0)
        #expect(Systemd.passedDescriptorCount(listenPID: "42", listenFDs: "0", pid: 42) == 0)
        #expect(Systemd.passedDescriptorCount(listenPID: "42", listenFDs: "-1", pid: 42) == 0)
    }

    @Test func watchdogIntervalIsHonouredOnlyForUs() {
        #expect(Systemd.watchdogInterval(usec: "30000000", watchdogPID: nil, pid: 7) == 30_000)
        #expect(Systemd.watchdogInterval(usec: "30000000", watchdogPID: "7", pid: 7) == 30_000)
        #expect(Systemd.watchdogInterval(usec: "30000000", watchdogPID: "8", pid: 7) == nil)
        #expect(Systemd.watchdogInterval(usec: "0", watchdogPID: nil, pid: 7) == nil)
        #expect(Systemd.watchdogInterval(usec: "soon", watchdogPID: nil, pid: 7) == nil)
        #expect(Systemd.watchdogInterval(usec: "500", watchdogPID: nil, pid: 7) == 1)
    }

    @Test func journalStreamIsParsedStrictly() {
        #expect(Log.parseJournalStream("8:1234")! == (8, 1234))
        #expect(Log.parseJournalStream("8:") == nil && Log.parseJournalStream("x:1") == nil)
        #expect(Log.parseJournalStream("1:2:3") == nil && Log.parseJournalStream("") == nil)
    }

    @Test func logLinesCarryJournalPrioritiesUnderSystemd() {
        #expect(Log.format(.error, "boom", journal: true) == "<3>boom")
        #expect(Log.format(.notice, "two\nlines", journal: true) == "<5>two lines")
        #expect(Log.format(.warning, "w", journal: false) == "paneld: w")
    }

    @Test func stateFileRoundTripsAndSkipsDamage() {
        var store = GaugeStore(names: ["cpu", "mem"], defaultGauge: "cpu", initial: [:])
        store.set("cpu", 12.5)
        store.set("mem", -1e-7)
        let bytes = StateFile.encode(store)
        #expect(StateFile.parse(bytes).values == ["cpu": 12.5, "mem": -1e-7])
        let damaged = Array("cpu 1\nmem \u{FF}\ngarbage\nEND\n\ntemp 3".utf8)
        let r = StateFile.parse(damaged)
        #expect(r.values == ["cpu": 1, "temp": 3])
        #expect(r.skipped == 2)
    }
}

/// A datagram socket standing in for systemd's NOTIFY_SOCKET.
final class NotifyListener {
    let fd: Int32
    let path: String
    init(_ path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let r = UnixSocket.withAddress(path) { bind(fd, $0, $1) }
        guard r == 0 else { throw Errno.current("bind") }
    }
    deinit { close(fd) }

    /// Messages received until one contains `needle` or the timeout passes.
    func wait(for needle: String, timeout: Int64 = 5_000) -> [String] {
        var got: [String] = []
        let deadline = monotonicMilliseconds() + timeout
        var buf = [UInt8](repeating: 0, count: 4096)
        while monotonicMilliseconds() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 100) == 1 {
                let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 {
                    got.append(String(decoding: buf[0..<n], as: UTF8.self))
                    if got.last!.contains(needle) { return got }
                }
            }
        }
        return got
    }
}

@Suite(.serialized) struct SystemdEndToEndTests {
    /// An inherited JOURNAL_STREAM that is not paneld's stderr: plain log lines.
    @Test func aForeignJournalStreamIsIgnored() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png")], environment: ["JOURNAL_STREAM": "1:1"])
        d.signal(SIGTERM)
        #expect(d.wait(timeout: 5_000) == 0)
        let lines = d.log().split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("paneld: ") }, "\(d.log())")
    }

    /// The getty of tty1 resets the console when it starts: in one transaction paneld is
    /// ready before it (a later getty's hang-up is answered by FBDevOutput).
    @Test func theUnitIsOrderedBeforeTheGettyOfTty1() throws {
        let unit = try String(contentsOfFile: LayoutDocsTests.root + "/systemd/paneld.service", encoding: .utf8)
        let unitSection = unit.components(separatedBy: "[Service]")[0].split(separator: "\n")
        #expect(unitSection.contains("Before=getty@tty1.service"))
    }

    /// Started as systemd would: the socket on fd 3, NOTIFY_SOCKET, WATCHDOG_USEC and
    /// JOURNAL_STREAM. paneld serves the passed socket, reports READY, pings the
    /// watchdog, logs with priorities, and says STOPPING on SIGTERM.
    @Test func socketActivationNotifyWatchdogAndJournal() throws {
        let dir = TempDirectory()
        let sockPath = dir.file("activated.sock")
        let listener = try UnixSocket.listen(sockPath)
        defer { listener.close() }
        let notify = try NotifyListener(dir.file("notify"))
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--state", dir.file("state")],
            socket: dir.file("unused.sock"),
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000", "JOURNAL_STREAM": "STDERR"],
            waitForSocket: false, passSocket: listener)
        let ready = notify.wait(for: "READY=1")
        #expect(ready.last?.contains("READY=1") == true, "\(ready) \(d.log())")
        let c = try TestClient(sockPath)
        try c.send("55\n")
        #expect(try c.ask("get") == "value 55")
        #expect(access(dir.file("unused.sock"), F_OK) != 0, "--socket is not created when systemd passes one")
        let pings = notify.wait(for: "WATCHDOG=1", timeout: 2_000)
        #expect(pings.last == "WATCHDOG=1")
        d.signal(SIGTERM)
        let stopping = notify.wait(for: "STOPPING=1")
        #expect(stopping.last == "STOPPING=1")
        #expect(d.wait(timeout: 5_000) == 0)
        #expect(d.log().split(separator: "\n").allSatisfy { $0.hasPrefix("<") }, "\(d.log())")
        #expect(d.log().contains("<6>listening on the socket passed by systemd"))
        #expect(try UnixSocket.inspect(sockPath) == .socket, "paneld leaves systemd's socket file alone")
    }
}
