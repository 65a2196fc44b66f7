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
}
