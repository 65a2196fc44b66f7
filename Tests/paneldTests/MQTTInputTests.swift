import Glibc
import PanelGauge
import Testing

@testable import paneld

/// The MQTT input against a real mosquitto broker that each test starts on a
/// free port of 127.0.0.1 with its own configuration (``Broker``): values from
/// mosquitto_pub and from paho-mqtt reach the store and the frames; the broker
/// down at start, restarted mid-run, refusing credentials; bad payloads; a flood;
/// TLS with a CA the test makes. Skipped where mosquitto is not installed
/// (.ci/run installs it).
@Suite(.serialized, .enabled(if: Broker.isInstalled)) struct MQTTInputTests {
    /// A layout with `gauges` (JSON objects) and an `mqtt` object holding `broker` and `settings`.
    static func writeLayout(_ dir: TempDirectory, broker: String, settings: String = "", gauges: String) throws {
        try dir.write(
            "l.json",
            """
            {"mqtt": {"broker": "\(broker)"\(settings.isEmpty ? "" : ", " + settings)},
             "gauges": [\(gauges)]}
            """)
    }

    static func start(_ dir: TempDirectory, _ extra: [String] = []) throws -> DaemonProcess {
        try DaemonProcess(
            dir,
            args: [
                "--config", dir.file("l.json"), "--output", "png:" + dir.file("f.png"), "--png-interval", "0.05",
                "--size", "64x64", "--verbose",
            ] + extra)
    }

    /// Asks `get NAME` until the answer is `want` or `timeout` ms pass; the last answer.
    static func waitFor(_ c: TestClient, _ name: String, _ want: String, timeout: Int64 = 5_000) throws -> String {
        let deadline = monotonicMilliseconds() + timeout
        var got = ""
        repeat {
            got = try c.ask("get \(name)")
            if got == "\(name) \(want)" { break }
            usleep(20_000)
        } while monotonicMilliseconds() < deadline
        return got
    }

    /// Waits until `log()` contains `text`; whether it did within `timeout` ms.
    static func waitForLog(_ d: DaemonProcess, _ text: String, timeout: Int64 = 5_000) -> Bool {
        let deadline = monotonicMilliseconds() + timeout
        repeat {
            if d.log().contains(text) { return true }
            usleep(20_000)
        } while monotonicMilliseconds() < deadline
        return false
    }

    /// Whether the PNG output comes to show what `paneld render` draws for `values` within 5 s.
    static func frameShows(_ dir: TempDirectory, _ values: [String]) throws -> Bool {
        let r = try runPaneld(
            ["render", "--config", dir.file("l.json"), "--size", "64x64", "--output", dir.file("want.png")]
                + values.flatMap { ["--set", $0] }, in: dir)
        guard r.status == 0 else { throw TestFailure("render: \(r.err)") }
        let want = try PNG.read(dir.file("want.png")).rgb
        let deadline = monotonicMilliseconds() + 5_000
        repeat {
            if let got = try? PNG.read(dir.file("f.png")).rgb, got == want { return true }
            usleep(20_000)
        } while monotonicMilliseconds() < deadline
        return false
    }

    @Test func plainNumbersFromMosquittoPubAppearInFrames() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir)
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)", settings: #""clientId": "paneld-test", "keepalive": 5"#,
            gauges: #"{"name": "cpu", "mqtt": "host/cpu"}, {"name": "temp", "range": [0, 50], "mqtt": "host/temp"}"#)
        let d = try Self.start(dir)
        #expect(Self.waitForLog(d, "connected; subscribed to 2 topic(s)"), "\(d.log())")
        try broker.publish("host/cpu", "42")
        try broker.publish("host/temp", " 21.5\n")
        let c = try TestClient(d.socketPath)
        #expect(try Self.waitFor(c, "cpu", "42") == "cpu 42")
        #expect(try Self.waitFor(c, "temp", "21.5") == "temp 21.5")
        #expect(try Self.frameShows(dir, ["cpu=42", "temp=21.5"]))
        #expect(broker.log().contains("paneld-test"), "the client id is the layout's")
        d.signal(SIGTERM)
        #expect(d.wait(timeout: 5_000) == 0)
    }

    /// Lines of the daemon's log that contain `text`.
    static func count(_ d: DaemonProcess, _ text: String) -> Int {
        d.log().split(separator: "\n").filter { $0.contains(text) }.count
    }

    /// With the broker down, paneld starts and serves its socket and display;
    /// it retries with backoff, saying so once, and takes the retained value
    /// once the broker is up.
    @Test func brokerDownAtStartIsRetriedWithBackoff() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir, start: false)
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)", gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        #expect(try c.ask("get cpu") == "cpu 0")
        try c.send("cpu 7\n")
        #expect(try c.ask("get cpu") == "cpu 7")
        #expect(try Self.frameShows(dir, ["cpu=7"]), "the display is served while the broker is down")
        usleep(2_000_000)  // attempts at about 0, 0.5, 1.5 s
        #expect(Self.count(d, "cannot connect: Connection refused; retrying with backoff") == 1, "\(d.log())")
        try broker.start()
        try broker.publish("host/cpu", "55", ["-r"])
        #expect(try Self.waitFor(c, "cpu", "55", timeout: 8_000) == "cpu 55", "\(d.log())")
        #expect(Self.count(d, "connected; subscribed to 1 topic(s)") == 1)
    }

    /// A broker restart mid-run: one line for the loss, reconnection, and the
    /// topics subscribed again (the restarted broker has forgotten them).
    @Test func brokerRestartIsFollowedByAResubscription() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir)
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)", gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        #expect(Self.waitForLog(d, "connected; subscribed"))
        try broker.publish("host/cpu", "10")
        #expect(try Self.waitFor(c, "cpu", "10") == "cpu 10")
        broker.stop()
        #expect(Self.waitForLog(d, "connection lost"), "\(d.log())")
        try c.send("cpu 11\n")
        #expect(try c.ask("get cpu") == "cpu 11", "the socket is served while the broker is away")
        try broker.start()
        let deadline = monotonicMilliseconds() + 10_000
        while Self.count(d, "connected; subscribed to 1 topic(s)") < 2, monotonicMilliseconds() < deadline {
            usleep(20_000)
        }
        #expect(Self.count(d, "connected; subscribed to 1 topic(s)") == 2, "\(d.log())")
        try broker.publish("host/cpu", "20")
        #expect(try Self.waitFor(c, "cpu", "20") == "cpu 20", "\(d.log())")
        #expect(Self.count(d, "connection lost") == 1)
    }

    /// A "broker" that accepts the connection and never answers stalls nothing:
    /// the socket answers at once, frames are shown.
    @Test func aSilentBrokerNeverStallsTheSocket() throws {
        let dir = TempDirectory()
        let port = freeTCPPort()
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(s) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        addr.sin_port = port.bigEndian
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(listen(s, 4) == 0)
        try Self.writeLayout(dir, broker: "mqtt://127.0.0.1:\(port)", gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        for v in 0..<20 {
            let t = monotonicMilliseconds()
            #expect(try c.ask("get cpu", timeout: 1_000) == "cpu \(v == 0 ? 0 : v - 1)")
            #expect(monotonicMilliseconds() - t < 500)
            try c.send("cpu \(v)\n")
            usleep(20_000)
        }
        #expect(try Self.frameShows(dir, ["cpu=19"]))
    }

    /// Idle with MQTT configured, paneld wakes only for the keepalive: it pings
    /// the broker (a keepalive of 5 s is checked every 1.25 s), and sleeps otherwise.
    @Test func idleWakeUpsAreOnlyTheKeepalive() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir)
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)", settings: #""clientId": "paneld-idle", "keepalive": 5"#,
            gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let d = try Self.start(dir)
        #expect(Self.waitForLog(d, "connected; subscribed"))
        usleep(300_000)
        let before = try #require(d.status("voluntary_ctxt_switches"))
        usleep(6_500_000)
        let after = try #require(d.status("voluntary_ctxt_switches"))
        print("MQTT idle: \(after - before) wake-ups in 6.5 s with a keepalive of 5 s")
        #expect(after - before <= 16, "wake-ups in 6.5 s: \(after - before)")
        #expect(broker.log().contains("Received PINGREQ from paneld-idle"), "\(broker.log())")
        #expect(Self.count(d, "connection lost") == 0)
    }
}
