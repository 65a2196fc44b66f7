import Glibc
import PanelGauge
import Testing

@testable import PaneldCore

/// statsd and DogStatsD input: the Unix datagram socket, metric aliases, other
/// metric types ignored, dropped lines logged within a budget, and the real
/// client libraries from PyPI (statsd, datadog).
@Suite(.serialized) struct StatsdInputTests {
    /// Sends one datagram to a Unix datagram socket.
    static func sendDatagram(_ text: String, to path: String) throws {
        let s = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(s) }
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { p in
            UnixSocket.withAddress(path) { sendto(s, p.baseAddress, p.count, 0, $0, $1) }
        }
        guard n == bytes.count else { throw TestFailure("sendto \(path): \(String(cString: strerror(errno)))") }
    }

    /// Asks `get NAME` until the answer is `want` (datagrams arrive asynchronously).
    static func waitFor(_ c: TestClient, _ name: String, _ want: String) throws -> String {
        var got = ""
        for _ in 0..<150 {
            got = try c.ask("get \(name)")
            if got == "\(name) \(want)" { break }
            usleep(20_000)
        }
        return got
    }

    @Test func dogStatsDOverAUnixDatagramSocketWithAliasesAndOtherTypes() throws {
        let dir = TempDirectory()
        let path = dir.file("dsd.sock")
        try dir.write(
            "l.json",
            """
            {"statsdSocket": "\(path)", "gauges": [{"name": "cpu", "metric": "host1.cpu"}, {"name": "mem"}]}
            """)
        let d = try DaemonProcess(
            dir, args: ["--config", dir.file("l.json"), "--output", "png:" + dir.file("f.png"), "--verbose"])
        try Self.sendDatagram("host1.cpu:33|g|#host:pi\nreqs:1|c\nlat:5|ms|#a\nmem:7|g|@0.5|#a,b|T1700000000", to: path)
        let c = try TestClient(d.socketPath)
        #expect(try Self.waitFor(c, "cpu", "33") == "cpu 33")
        #expect(try c.ask("get mem") == "mem 7")
        let log = d.log()
        #expect(log.contains("statsd unix \(path): 'reqs:1|c' ignored: a 'c' metric, not a gauge"), "\(log)")
        #expect(log.contains("'lat:5|ms|#a' ignored: a 'ms' metric"), "\(log)")
        #expect(!log.contains("ignored a bad line"), "other metric types are not errors: \(log)")
        // The alias also works on the control socket.
        #expect(try c.ask("get host1.cpu") == "cpu 33")
        d.signal(SIGTERM)
        #expect(d.wait(timeout: 5_000) == 0)
        #expect(FileIO.fileType(path) == nil, "the socket file is removed at exit")
    }

    /// Every dropped line is visible with --verbose, at most 10 per 10 s; the first
    /// bad one of an episode is also a warning.
    @Test func droppedLinesAreLoggedWithinABudget() throws {
        let dir = TempDirectory()
        let path = dir.file("s.sock")
        try dir.write("l.json", #"{"statsdSocket": "\#(path)", "gauges": [{"name": "cpu"}]}"#)
        let d = try DaemonProcess(
            dir, args: ["--config", dir.file("l.json"), "--output", "png:" + dir.file("f.png"), "--verbose"])
        for k in 0..<30 { try Self.sendDatagram("nope\(k):1|g", to: path) }
        try Self.sendDatagram("cpu:5|g", to: path)
        let c = try TestClient(d.socketPath)
        #expect(try Self.waitFor(c, "cpu", "5") == "cpu 5")
        let lines = d.log().split(separator: "\n")
        #expect(lines.filter { $0.contains("ignored a bad line (unknown gauge 'nope0')") }.count == 1)
        #expect(lines.filter { $0.contains("rejected: unknown gauge") }.count == 10, "\(d.log())")
    }

    /// A datagram longer than the 64 KiB buffer is dropped whole, never applied
    /// cut (its last line `cpu 12345678` would read `cpu 123456`), with one warning
    /// for the episode; the next datagram is applied.
    @Test func overLongDatagramIsDroppedWhole() throws {
        let dir = TempDirectory()
        let path = dir.file("s.sock")
        try dir.write("l.json", #"{"statsdSocket": "\#(path)", "gauges": [{"name": "cpu"}, {"name": "mem"}]}"#)
        let d = try DaemonProcess(dir, args: ["--config", dir.file("l.json"), "--output", "png:" + dir.file("f.png")])
        let filler = String(repeating: "mem:1|g\n", count: (StatsdInput.maxDatagram - 6) / 8)
        let pad = String(repeating: "\n", count: StatsdInput.maxDatagram - 6 - filler.utf8.count)
        let datagram = filler + pad + "cpu 12345678"  // the cut falls after "cpu 12"
        #expect(datagram.utf8.count > StatsdInput.maxDatagram)
        for _ in 0..<3 { try Self.sendDatagram(datagram, to: path) }
        try Self.sendDatagram("cpu:5|g", to: path)
        let c = try TestClient(d.socketPath)
        #expect(try Self.waitFor(c, "cpu", "5") == "cpu 5")
        #expect(try c.ask("get mem") == "mem -", "no line of a dropped datagram is applied")
        let warnings = d.log().split(separator: "\n").filter { $0.contains("dropped a datagram of") }
        #expect(warnings.count == 1, "one line for the episode: \(d.log())")
        #expect(warnings.first?.contains("of \(datagram.utf8.count) bytes") ?? false, "\(d.log())")
    }

    /// An episode: one line at its start, its count and length when `quiet` passed.
    @Test func logEpisodeCountsUntilItIsOver() {
        var e = LogEpisode(quiet: 100)
        let none = e.ended(now: 1_000)
        #expect(e.endsAt == nil && none == nil)
        let starts = [e.occurred(now: 0), e.occurred(now: 50), e.occurred(now: 120)]
        #expect(starts == [true, false, false])
        let early = e.ended(now: 219)
        #expect(e.endsAt == 220 && early == nil)
        let over = e.ended(now: 220)
        #expect(over?.count == 3 && over?.milliseconds == 120)
        let again = e.occurred(now: 300)
        #expect(again, "a new episode")
    }

    @Test func logBudgetAllowsABurstThenCounts() {
        var b = LogBudget(burst: 3, window: 100)
        var flushed: [Int] = []
        let allowed = (0..<10).map { _ in b.allow(now: 0) { flushed.append($0) } }
        #expect(allowed == [true, true, true] + Array(repeating: false, count: 7))
        #expect(b.allow(now: 100) { flushed.append($0) })
        #expect(flushed == [7])
    }

    @Test func metricAliasesAreCheckedInTheLayout() throws {
        func issues(_ json: String) -> [String] {
            do {
                _ = try LayoutReader.parse(Array(json.utf8))
                return []
            } catch {
                return error.issues.map(\.message)
            }
        }
        #expect(issues(#"{"gauges": [{"name": "a", "metric": "x.a"}, {"name": "b", "metric": "x.b"}]}"#).isEmpty)
        #expect(issues(#"{"gauges": [{"name": "a", "metric": "x"}, {"name": "b", "metric": "x"}]}"#).count == 1)
        #expect(issues(#"{"gauges": [{"name": "a", "metric": "b"}, {"name": "b"}]}"#).count == 1)
        #expect(issues(#"{"gauges": [{"name": "a", "metric": "1x"}]}"#).count == 1)
        #expect(issues(#"{"gauges": [{"name": "a"}], "statsdSocket": "relative.sock"}"#).count == 1)
    }

    /// The client libraries people use: PyPI's `statsd` (with a prefix, over UDP)
    /// and `datadog` (DogStatsD with tags over UDP and over a Unix socket).
    /// .ci/run installs both; without them this test is skipped.
    @Test(.enabled(if: pythonHas(["statsd", "datadog"]))) func pythonClientLibraries() throws {
        let dir = TempDirectory()
        let port = freeUDPPort()
        let path = dir.file("dsd.sock")
        try dir.write(
            "l.json",
            """
            {"statsd": "127.0.0.1:\(port)", "statsdSocket": "\(path)",
             "gauges": [{"name": "cpu", "metric": "host1.cpu"}, {"name": "mem"}, {"name": "temp", "range": [0, 120]}]}
            """)
        let d = try DaemonProcess(dir, args: ["--config", dir.file("l.json"), "--output", "png:" + dir.file("f.png")])
        try dir.write(
            "client.py",
            """
            import statsd
            from datadog.dogstatsd import DogStatsd
            statsd.StatsClient("127.0.0.1", \(port), prefix="host1").gauge("cpu", 55)
            udp = DogStatsd(host="127.0.0.1", port=\(port), disable_telemetry=True)
            udp.gauge("temp", 61.5, tags=["host:pi", "room:lab"])
            udp.flush()
            unix = DogStatsd(socket_path="\(path)")
            unix.gauge("mem", 12, tags=["host:pi"], sample_rate=1)
            unix.increment("requests")
            unix.flush()
            """)
        let r = try runCommand(["/usr/bin/env", "python3", dir.file("client.py")], in: dir)
        #expect(r.status == 0, "\(r.err)")
        let c = try TestClient(d.socketPath)
        #expect(try Self.waitFor(c, "cpu", "55") == "cpu 55")
        #expect(try Self.waitFor(c, "temp", "61.5") == "temp 61.5")
        #expect(try Self.waitFor(c, "mem", "12") == "mem 12")
        #expect(!d.log().contains("ignored a bad line"), "\(d.log())")
    }
}

/// Whether python3 can import every module in `modules`.
func pythonHas(_ modules: [String]) -> Bool {
    let dir = TempDirectory()
    let r = try? runCommand(["/usr/bin/env", "python3", "-c", "import " + modules.joined(separator: ", ")], in: dir)
    return r?.status == 0
}

/// A layout's gradients mix in Oklab unless it says "srgb"; the style's default
/// gradient (the ring's red to green) too.
@Suite struct LayoutInterpolationTests {
    func tint(_ json: String) throws -> Tint? {
        try LayoutReader.parse(Array(json.utf8)).gauges.first?.gauge.tint
    }

    @Test func gradientsMixInOklabUnlessTheLayoutSaysSRGB() throws {
        guard case .gradient(let g)? = try tint(##"{"gauges": [{"name": "a", "gradient": ["#FF0000", "#00FF00"]}]}"##)
        else { throw TestFailure("no gradient") }
        #expect(g.interpolation == .oklab)
        guard
            case .gradient(let s)? = try tint(
                ##"{"gauges": [{"name": "a", "gradient": ["#FF0000", "#00FF00"], "interpolation": "srgb"}]}"##)
        else { throw TestFailure("no gradient") }
        #expect(s.interpolation == .sRGB)
        guard case .gradient(let ring)? = try tint(##"{"gauges": [{"name": "a", "style": "ring"}]}"##) else {
            throw TestFailure("the ring's default tint is a gradient")
        }
        #expect(ring.interpolation == .oklab)
        guard case .gradient(let fallback)? = Layout.fallback.gauges[0].gauge.tint else {
            throw TestFailure("the default layout's ring")
        }
        #expect(fallback.interpolation == .oklab)
        #expect(throws: LayoutError.self) {
            try LayoutReader.parse(Array(##"{"gauges": [{"name": "a", "interpolation": "hsl"}]}"##.utf8))
        }
    }
}
