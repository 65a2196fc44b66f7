import Foundation
import Glibc
import PanelGauge
import Testing

@testable import PaneldCore

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

    static func start(_ dir: TempDirectory, _ extra: [String] = [], environment: [String: String] = [:]) throws
        -> DaemonProcess
    {
        try DaemonProcess(
            dir,
            args: [
                "--config", dir.file("l.json"), "--output", "png:" + dir.file("f.png"), "--png-interval", "0.05",
                "--size", "64x64", "--verbose",
            ] + extra, environment: environment)
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
        let want = try PNG.read(dir.file("want.png"))
        return pngComesToShow(dir.file("f.png"), want, timeout: 5_000, interval: 20_000)
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

    /// libmosquitto (and the OpenSSL it loads) is mapped into paneld only when the
    /// layout configures MQTT; a daemon without MQTT never opens it.
    @Test func libmosquittoIsMappedOnlyWithMQTT() throws {
        func maps(_ d: DaemonProcess) throws -> String {
            String(decoding: try FileIO.read("/proc/\(d.pid)/maps"), as: UTF8.self)
        }
        let plain = TempDirectory()
        try plain.write("l.json", #"{"gauges": [{"name": "cpu"}]}"#)
        let p = try Self.start(plain)
        #expect(try TestClient(p.socketPath).ask("get cpu") == "cpu -")
        #expect(try !maps(p).contains("libmosquitto"), "a daemon without MQTT maps libmosquitto")
        let dir = TempDirectory()
        let broker = try Broker(dir)
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)", gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let d = try Self.start(dir)
        #expect(Self.waitForLog(d, "connected; subscribed"), "\(d.log())")
        #expect(try maps(d).contains("/libmosquitto.so"))  // the file is libmosquitto.so.VERSION
    }

    /// Without the library, the MQTT input is refused with the package to install
    /// and the loader's reason; an earlier successful load stays usable.
    @Test func aMissingLibmosquittoIsNamed() throws {
        #expect {
            try MQTTInput.loadLibrary(named: "libmosquitto-absent.so.1", label: "mqtt mqtt://h:1883")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("mqtt mqtt://h:1883: MQTT needs libmosquitto (Debian package libmosquitto1): ")
                && text.contains("libmosquitto-absent.so.1")
        }
        try MQTTInput.loadLibrary(label: "mqtt mqtt://h:1883")
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
        #expect(try c.ask("get cpu") == "cpu -")
        try c.send("cpu 7\n")
        #expect(try c.ask("get cpu") == "cpu 7")
        #expect(try Self.frameShows(dir, ["cpu=7"]), "the display is served while the broker is down")
        usleep(2_000_000)  // attempts at about 0, 0.5, 1.5 s
        #expect(Self.count(d, "cannot connect: Connection refused; retrying with backoff") == 1, "\(d.log())")
        try broker.start()
        try broker.publish("host/cpu", "55", ["-r"])
        #expect(try Self.waitFor(c, "cpu", "55", timeout: 8_000) == "cpu 55", "\(d.log())")
        // The episode ends with its count: one line for the failures, one for the end.
        let ended = d.log().split(separator: "\n").filter { $0.contains("connected after") }
        #expect(ended.count == 1 && ended[0].contains("failed or refused attempt(s) over"), "\(d.log())")
        #expect(ended.first?.contains("subscribed to 1 topic(s)") ?? false, "\(d.log())")
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
        while Self.count(d, "subscribed to 1 topic(s)") < 2, monotonicMilliseconds() < deadline {
            usleep(20_000)
        }
        #expect(Self.count(d, "subscribed to 1 topic(s)") == 2, "\(d.log())")
        try broker.publish("host/cpu", "20")
        #expect(try Self.waitFor(c, "cpu", "20") == "cpu 20", "\(d.log())")
        #expect(Self.count(d, "connection lost") == 1)
    }

    /// Two panels given the same client id take the connection from each other
    /// (the broker drops the older one): each waits a growing backoff before it
    /// returns, instead of reconnecting in a loop.
    @Test func aConnectionLostSoonAfterItWasMadeBacksOff() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir)
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)", settings: #""clientId": "same-id""#,
            gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let a = try Self.start(dir)
        #expect(Self.waitForLog(a, "connected; subscribed"))
        let other = TempDirectory()
        try other.write("l.json", String(decoding: try FileIO.read(dir.file("l.json")), as: UTF8.self))
        let b = try Self.start(other)
        usleep(4_000_000)
        let connects = Self.count(a, "; subscribed to") + Self.count(b, "; subscribed to")
        print("MQTT duplicate client id: \(connects) connections in 4 s by two panels")
        #expect(connects >= 3 && connects <= 12, "\(a.log())\n\(b.log())")
        #expect(try TestClient(a.socketPath).ask("get cpu") == "cpu -")
    }

    /// A "broker" that accepts the connection and never answers stalls nothing:
    /// the socket answers at once, frames are shown; after the keepalive (5 s)
    /// paneld gives up on the connection, says so once and tries again later,
    /// without keeping the old connection's descriptor.
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
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(port)", settings: #""keepalive": 5"#,
            gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        for v in 0..<20 {
            let t = monotonicMilliseconds()
            #expect(try c.ask("get cpu", timeout: 1_000) == (v == 0 ? "cpu -" : "cpu \(v - 1)"))
            #expect(monotonicMilliseconds() - t < 500)
            try c.send("cpu \(v)\n")
            usleep(20_000)
        }
        #expect(try Self.frameShows(dir, ["cpu=19"]))
        let descriptors = Self.openDescriptors(d.pid)
        #expect(Self.waitForLog(d, "cannot connect: no answer within 5 s", timeout: 7_000), "\(d.log())")
        usleep(1_500_000)  // the next attempt, about 0.5 s later, has connected again
        #expect(Self.count(d, "cannot connect") == 1, "\(d.log())")
        #expect(Self.openDescriptors(d.pid) == descriptors, "\(d.log())")
    }

    /// How many descriptors process `pid` has open.
    static func openDescriptors(_ pid: pid_t) -> Int {
        guard let dir = opendir("/proc/\(pid)/fd") else { return -1 }
        defer { closedir(dir) }
        var n = 0
        while readdir(dir) != nil { n += 1 }
        return n - 2
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
        let wakeUps = try #require(d.wakeUps(during: 6_500_000))
        print("MQTT idle: \(wakeUps) wake-ups in 6.5 s with a keepalive of 5 s")
        #expect(wakeUps <= 16, "wake-ups in 6.5 s: \(wakeUps)")
        #expect(broker.log().contains("Received PINGREQ from paneld-idle"), "\(broker.log())")
        #expect(Self.count(d, "connection lost") == 0)
    }

    /// JSON fields (nested, several gauges on one topic), scale and offset, QoS 1,
    /// and retained messages as the first values.
    @Test func jsonFieldsScaleOffsetQoSAndRetainedValues() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir)
        try broker.publish(
            "zigbee2mqtt/kitchen", #"{"temperature": 21.5, "humidity": 455, "battery": 90}"#, ["-r", "-q", "1"])
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)",
            gauges: """
                {"name": "temp", "range": [0, 50], "mqtt": {"topic": "zigbee2mqtt/kitchen", "field": "temperature", "qos": 1}},
                {"name": "hum", "mqtt": {"topic": "zigbee2mqtt/kitchen", "field": "humidity", "scale": 0.1}},
                {"name": "fahrenheit", "range": [0, 120], "mqtt": {"topic": "zigbee2mqtt/kitchen", "field": "temperature", "scale": 1.8, "offset": 32}},
                {"name": "load", "mqtt": {"topic": "host/state", "field": "state.cpu.load", "scale": 100}},
                {"name": "disk", "mqtt": {"topic": "host/state", "field": "disks.1.used"}}
                """)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        #expect(try Self.waitFor(c, "temp", "21.5") == "temp 21.5", "the retained message: \(d.log())")
        #expect(try c.ask("get hum") == "hum 45.5")
        #expect(try c.ask("get fahrenheit") == "fahrenheit 70.7")
        try broker.publish(
            "host/state", #"{"state": {"cpu": {"load": 0.42}}, "disks": [{"used": 10}, {"used": "63.5"}]}"#,
            ["-q", "1"])
        #expect(try Self.waitFor(c, "load", "42") == "load 42")
        #expect(try c.ask("get disk") == "disk 63.5", "a number in a string, in an array")
        #expect(
            try Self.frameShows(dir, ["temp=21.5", "hum=45.5", "fahrenheit=70.7", "load=42", "disk=63.5"]))
        #expect(broker.log().contains("zigbee2mqtt/kitchen (QoS 1)"), "subscribed at QoS 1: \(broker.log())")
    }

    /// Stale values apply to MQTT gauges: with `staleAfter` 0.3 s, a gauge set
    /// by a retained message goes stale, repainting its own frame; the same
    /// value published again revives it, repainting that frame again; a
    /// socket-only gauge stays as it was. (In the daemon's loop, one turn at a
    /// time, to see each frame's damage.)
    @Test func staleMQTTGaugesAreRevivedByAMessage() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir)
        try broker.publish("host/a", "60", ["-r"])
        let layout = try LayoutReader.parse(
            Array(
                """
                {"mqtt": {"broker": "mqtt://127.0.0.1:\(broker.port)", "clientId": "paneld-stale"},
                 "gauges": [{"name": "a", "style": "linearCapacity", "rect": [0, 0, 32, 32], "mqtt": "host/a",
                             "staleAfter": 0.3},
                            {"name": "b", "style": "linearCapacity", "rect": [32, 0, 32, 32]}]}
                """.utf8))
        let input = try MQTTInput(settings: layout.mqtt!, subscriptions: layout.mqttSubscriptions, password: nil)
        defer { input.close() }
        let rig = try LoopRig(layout, inputs: [input])
        let frameA = IntRect(x: 0, y: 0, width: 32, height: 32)
        /// Turns until `done` or 5 s have passed; whether `done`.
        func turn(until done: () -> Bool) throws -> Bool {
            let deadline = monotonicMilliseconds() + 5_000
            while !done() && monotonicMilliseconds() < deadline { try rig.turn() }
            return done()
        }
        #expect(try turn { rig.daemon.store.values["a"] == 60 }, "the retained value")
        let freshPresents = rig.output.presents.count
        #expect(try turn { rig.daemon.stale == ["a"] && rig.output.presents.count > freshPresents })
        #expect(rig.output.presents.last == [frameA], "a's frame alone")
        let stalePresents = rig.output.presents.count
        try broker.publish("host/a", "60")
        #expect(try turn { rig.daemon.stale.isEmpty }, "revived by the same value")
        #expect(try turn { rig.output.presents.count > stalePresents })
        #expect(rig.output.presents.last == [frameA])
    }

    /// A gauge's tap action `{ "publish", "payload" }` reaches a subscriber
    /// through the layout's broker; a tap on a gauge without one is not taken.
    @Test func aTapPublishesThroughTheBroker() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir)
        let layout = try LayoutReader.parse(
            Array(
                """
                {"mqtt": {"broker": "mqtt://127.0.0.1:\(broker.port)", "clientId": "paneld-tap"},
                 "gauges": [{"name": "pump", "rect": [0, 0, 32, 32], "tap": {"publish": "home/pump/set", "payload": "toggle"}},
                            {"name": "a", "rect": [32, 0, 32, 32], "mqtt": "host/a"}]}
                """.utf8))
        let input = try MQTTInput(settings: layout.mqtt!, subscriptions: layout.mqttSubscriptions, password: nil)
        defer { input.close() }
        let rig = try LoopRig(layout, inputs: [input])
        let deadline = monotonicMilliseconds() + 5_000
        while input.state != .connected && monotonicMilliseconds() < deadline { try rig.turn() }
        #expect(input.state == .connected)
        let sub = try broker.subscribe("home/pump/set", count: 1)
        #expect(rig.daemon.tapped(x: 40, y: 5) == false, "no action on a")
        // QoS 0 and not retained: tapped until the subscriber, once subscribed, got one.
        var output: String?
        let end = monotonicMilliseconds() + 10_000
        while output == nil && monotonicMilliseconds() < end {
            #expect(rig.daemon.tapped(x: 5, y: 5), "pump has an action")
            usleep(100_000)
            output = sub.output()
        }
        #expect(output == "home/pump/set toggle\n")
    }

    /// A payload that gives no value changes nothing, is counted, and is logged
    /// at debug within a budget: not a number, not JSON, no such field, a field that is not a
    /// number, nested too deep; one too large never arrives.
    @Test func badPayloadsChangeNothing() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir)
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)",
            gauges: """
                {"name": "cpu", "mqtt": "host/cpu"},
                {"name": "temp", "mqtt": {"topic": "sensor", "field": "t"}}
                """)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        #expect(Self.waitForLog(d, "connected; subscribed"))
        try broker.publish("host/cpu", "12")
        try broker.publish("sensor", #"{"t": 3}"#)
        #expect(try Self.waitFor(c, "temp", "3") == "temp 3")
        let bad: [(String, String)] = [
            ("sensor", #"{"t": 1, "pad": ""# + String(repeating: "x", count: 70_000) + #""}"#),
            ("sensor", String(repeating: "[", count: 5000)),
            ("host/cpu", "abc"), ("host/cpu", "0x10"), ("host/cpu", "nan"), ("host/cpu", "1e999"), ("host/cpu", ""),
            ("sensor", "{"), ("sensor", #"{"u": 1}"#), ("sensor", #"{"t": "warm"}"#), ("sensor", #"{"t": [1]}"#),
        ]
        for (topic, payload) in bad { try broker.publish(topic, payload) }
        try broker.publish("host/cpu", "13")
        #expect(try Self.waitFor(c, "cpu", "13") == "cpu 13")
        #expect(try c.ask("get temp") == "temp 3")
        // Logged within a budget of 10 lines per 10 s; each counted. (The empty payload
        // is no data, not a bad payload, and the 70 000-byte one never arrives: 9 are bad.)
        #expect(Self.count(d, "ignored a message on") == 9, "\(d.log())")
        #expect(d.log().contains("(9 so far)"), "\(d.log())")
        // The 70 000-byte message is over the Maximum Packet Size paneld asked for: the broker withholds it.
        #expect(!d.log().contains("payload of 70"), "\(d.log())")
        #expect(d.log().contains("nested deeper than"), "\(d.log())")
    }

    /// A 100 MB message on a gauge's topic never reaches paneld: the Maximum Packet
    /// Size of its MQTT 5 CONNECT makes the broker withhold it, so paneld's peak
    /// memory stays where it was (libmosquitto would allocate the whole packet
    /// before anyone could refuse it), and the next message is applied.
    @Test func aHugeMessageNeverReachesPaneld() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir)
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)", gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        #expect(Self.waitForLog(d, "connected; subscribed"))
        try broker.publish("host/cpu", "12")
        #expect(try Self.waitFor(c, "cpu", "12") == "cpu 12")
        let before = try #require(d.status("VmHWM"))
        let big = dir.file("big")
        let fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(ftruncate(fd, 100_000_000) == 0)
        close(fd)
        let pub = try runCommand(
            ["/usr/bin/mosquitto_pub", "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "host/cpu", "-f", big], in: dir)
        #expect(pub.status == 0, "\(pub.err)")
        unlink(big)
        try broker.publish("host/cpu", "13")
        #expect(try Self.waitFor(c, "cpu", "13") == "cpu 13")
        let after = try #require(d.status("VmHWM"))
        print("mqtt: peak RSS \(before) kB before a 100 MB message, \(after) kB after")
        #expect(after - before < 4_096, "VmHWM \(before) -> \(after) kB")
        #expect(d.log().contains("connection lost") == false, "\(d.log())")
    }

    /// A broker that speaks only MQTT 3.1.1 (a stand-in in Python: it answers an
    /// MQTT 5 CONNECT with 3.1.1's "unacceptable protocol version", as such brokers
    /// do) is connected to again with 3.1.1, with one warning, and its messages arrive.
    @Test func anMQTT311BrokerIsSpokenTo() throws {
        let dir = TempDirectory()
        let script = #"""
            import socket, sys, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
            open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
            import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
            s.settimeout(20)
            def packet(c):
                head = c.recv(1)
                mult, length = 1, 0
                while True:
                    b = c.recv(1)[0]; length += (b & 127) * mult; mult *= 128
                    if b < 128: break
                body = b""
                while len(body) < length: body += c.recv(length - len(body))
                return head[0], body
            levels = []
            while True:
                c, _ = s.accept()
                kind, body = packet(c)
                level = body[6]
                levels.append(level)
                if level == 5:
                    c.sendall(b"\x20\x02\x00\x01"); c.close(); continue
                c.sendall(b"\x20\x02\x00\x00")
                kind, body = packet(c)
                c.sendall(b"\x90\x03" + body[0:2] + b"\x00")
                topic = b"host/cpu"
                rest = len(topic).to_bytes(2, "big") + topic + b"42"
                c.sendall(bytes([0x30, len(rest)]) + rest)
                time.sleep(3)
                print(levels)
                break
            """#
        try dir.write("fake.py", script)
        let portFile = dir.file("port")
        let fakePath = dir.file("fake.py")
        let fake = Thread { _ = try? runCommand(["/usr/bin/python3", fakePath, portFile], in: TempDirectory()) }
        fake.start()
        var port = ""
        for _ in 0..<100 where port.isEmpty {
            port = String(decoding: (try? FileIO.read(portFile)) ?? [], as: UTF8.self)
            usleep(20_000)
        }
        try Self.writeLayout(dir, broker: "mqtt://127.0.0.1:\(port)", gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        #expect(try Self.waitFor(c, "cpu", "42") == "cpu 42", "\(d.log())")
        #expect(d.log().contains("the broker speaks MQTT 3.1.1, not 5"), "\(d.log())")
        #expect(!d.log().contains("cannot connect") && !d.log().contains("broker refused"), "\(d.log())")
        while !fake.isFinished { usleep(50_000) }
    }

    /// A flood of messages is coalesced into frames as socket updates are, and
    /// the socket is answered throughout.
    @Test func aFloodIsCoalescedIntoFrames() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir)
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)", gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        #expect(Self.waitForLog(d, "connected; subscribed"))
        let n = 20_000
        let lines = (1...n).map { "\($0 % 100)" }.joined(separator: "\n") + "\n77\n"
        let start = monotonicMilliseconds()
        try dir.write("flood.txt", lines)
        let pub = try runCommand(
            [
                "/bin/sh", "-c",
                "/usr/bin/mosquitto_pub -h 127.0.0.1 -p \(broker.port) -t host/cpu -l < \(dir.file("flood.txt"))",
            ],
            in: TempDirectory())
        #expect(pub.status == 0, "\(pub.err)")
        #expect(try Self.waitFor(c, "cpu", "77", timeout: 20_000) == "cpu 77")
        let elapsed = monotonicMilliseconds() - start
        usleep(200_000)
        let frames = Self.count(d, "frame: ")
        print("MQTT flood: \(n + 1) messages in \(elapsed) ms gave \(frames) frames")
        #expect(Int64(frames) <= 3 + (elapsed + 200) / 50, "frames: \(frames)")
        #expect(try Self.frameShows(dir, ["cpu=77"]))
    }

    /// paho-mqtt (PyPI), the client Home Assistant and many scripts use, at QoS 0
    /// and 1, plain and JSON. .ci/run installs it; without it this test is skipped.
    @Test(.enabled(if: pythonHas(["paho.mqtt.client"]))) func pahoClient() throws {
        let dir = TempDirectory()
        let broker = try Broker(dir)
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)",
            gauges: """
                {"name": "power", "range": [0, 3000], "mqtt": {"topic": "tele/plug/SENSOR", "field": "ENERGY.Power", "qos": 1}},
                {"name": "level", "mqtt": "home/tank/level"}
                """)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        #expect(Self.waitForLog(d, "connected; subscribed to 2 topic(s)"))
        try dir.write(
            "client.py",
            """
            import json
            import paho.mqtt.client as mqtt
            c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="paho-test")
            c.connect("127.0.0.1", \(broker.port))
            c.loop_start()
            c.publish("tele/plug/SENSOR", json.dumps({"ENERGY": {"Power": 1234.5, "Voltage": 230}}), qos=1).wait_for_publish(5)
            c.publish("home/tank/level", "64", qos=0).wait_for_publish(5)
            c.disconnect()
            c.loop_stop()
            """)
        let r = try runCommand(["/usr/bin/env", "python3", dir.file("client.py")], in: dir)
        #expect(r.status == 0, "\(r.err)")
        #expect(try Self.waitFor(c, "power", "1234.5") == "power 1234.5", "\(d.log())")
        #expect(try Self.waitFor(c, "level", "64") == "level 64")
        #expect(try Self.frameShows(dir, ["power=1234.5", "level=64"]))
    }

    /// Runs `script` with /bin/sh in `dir`; its stderr on failure.
    static func sh(_ script: String, in dir: TempDirectory) throws {
        let r = try runCommand(["/bin/sh", "-ec", "cd \(dir.path)\n" + script], in: TempDirectory())
        guard r.status == 0 else { throw TestFailure("sh: \(script): \(r.err)") }
    }

    /// A password file made by mosquitto_passwd: the broker signs paneld in with
    /// the layout's username and the password file's first line; a wrong password
    /// is one error at priority err (3), then retries with backoff, the socket served.
    @Test func passwordFileAndARefusal() throws {
        let dir = TempDirectory()
        try Self.sh("mosquitto_passwd -b -c passwd panel 's3cret pass'", in: dir)
        let broker = try Broker(dir, extra: ["password_file \(dir.file("passwd"))"])
        try dir.write("good", "s3cret pass\n")
        try dir.write("bad", "wrong\n")
        let gauges = #"{"name": "cpu", "mqtt": "host/cpu"}"#
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:\(broker.port)",
            settings: #""username": "panel", "passwordFile": "\#(dir.file("good"))""#, gauges: gauges)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        #expect(Self.waitForLog(d, "connected; subscribed"), "\(d.log())")
        try broker.publish("host/cpu", "31", ["-u", "panel", "-P", "s3cret pass"])
        #expect(try Self.waitFor(c, "cpu", "31") == "cpu 31")

        let other = TempDirectory()
        try Self.writeLayout(
            other, broker: "mqtt://127.0.0.1:\(broker.port)",
            settings: #""username": "panel", "passwordFile": "\#(dir.file("bad"))""#, gauges: gauges)
        let refused = try Self.start(other, environment: ["JOURNAL_STREAM": "STDERR"])
        let rc = try TestClient(refused.socketPath)
        usleep(2_500_000)  // attempts at about 0, 0.5, 1.5 s
        let errors = refused.log().split(separator: "\n").filter { $0.contains("the broker refused the connection") }
        #expect(errors.count == 1, "\(refused.log())")
        #expect(errors.first?.hasPrefix("<3>") == true, "priority err: \(refused.log())")
        #expect(errors.first?.contains("Not authorized") == true, "MQTT 5's reason: \(refused.log())")
        #expect(broker.log().split(separator: "\n").filter { $0.contains("not authorised") }.count >= 2, "retried")
        #expect(try rc.ask("get cpu") == "cpu -")
    }

    /// A password file that is a FIFO (or missing) is refused when the layout is
    /// read: paneld never opens it, and says which file.
    @Test func aPasswordFileThatIsNotARegularFileIsRefused() throws {
        let dir = TempDirectory()
        #expect(mkfifo(dir.file("fifo"), 0o600) == 0)
        try Self.writeLayout(
            dir, broker: "mqtt://127.0.0.1:1", settings: #""username": "u", "passwordFile": "\#(dir.file("fifo"))""#,
            gauges: #"{"name": "cpu", "mqtt": "t"}"#)
        let r = try runPaneld(
            ["run", "--config", dir.file("l.json"), "--output", "png:" + dir.file("f.png"), "--socket", dir.file("s")],
            in: dir)
        #expect(r.status != 0)
        #expect(r.err.contains("mqtt.passwordFile: cannot read \(dir.file("fifo"))"), "\(r.err)")
    }

    /// TLS with a CA made here by openssl: the broker's certificate (for
    /// 127.0.0.1) is checked against the layout's CA, and a broker that asks for
    /// a client certificate gets the layout's. A CA that did not sign the broker's
    /// certificate is a failure to connect, said once.
    @Test func tlsWithATestCA() throws {
        let dir = TempDirectory()
        try Self.sh(
            """
            openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=paneld-test-ca -keyout ca.key -out ca.pem 2>/dev/null
            openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other-ca -keyout other.key -out other.pem 2>/dev/null
            printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > san.ext
            openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout server.key -out server.csr 2>/dev/null
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out server.pem 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -subj /CN=paneld -keyout client.key -out client.csr 2>/dev/null
            openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -out client.pem 2>/dev/null
            """, in: dir)
        let broker = try Broker(
            dir,
            extra: [
                "cafile \(dir.file("ca.pem"))", "certfile \(dir.file("server.pem"))",
                "keyfile \(dir.file("server.key"))",
                "require_certificate true",
            ])
        try Self.writeLayout(
            dir, broker: "mqtts://127.0.0.1:\(broker.port)",
            settings: """
                "ca": "\(dir.file("ca.pem"))", "certificate": "\(dir.file("client.pem"))", "key": "\(dir.file("client.key"))"
                """,
            gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let d = try Self.start(dir)
        let c = try TestClient(d.socketPath)
        #expect(Self.waitForLog(d, "mqtt mqtts://127.0.0.1:\(broker.port): connected; subscribed"), "\(d.log())")
        try broker.publish(
            "host/cpu", "88",
            ["--cafile", dir.file("ca.pem"), "--cert", dir.file("client.pem"), "--key", dir.file("client.key")])
        #expect(try Self.waitFor(c, "cpu", "88") == "cpu 88", "\(d.log())")
        #expect(try Self.frameShows(dir, ["cpu=88"]))

        let other = TempDirectory()
        try Self.writeLayout(
            other, broker: "mqtts://127.0.0.1:\(broker.port)",
            settings: """
                "ca": "\(dir.file("other.pem"))", "certificate": "\(dir.file("client.pem"))", "key": "\(dir.file("client.key"))"
                """,
            gauges: #"{"name": "cpu", "mqtt": "host/cpu"}"#)
        let untrusted = try Self.start(other)
        usleep(2_500_000)
        #expect(Self.count(untrusted, "cannot connect") == 1, "\(untrusted.log())")
        #expect(untrusted.log().contains("certificate verify failed"), "OpenSSL's reason: \(untrusted.log())")
        #expect(!untrusted.log().contains("connected; subscribed"))
        #expect(try TestClient(untrusted.socketPath).ask("get cpu") == "cpu -")
    }
}

/// The MQTT parts of the layout and the payload reader, without a broker.
@Suite struct MQTTLayoutTests {
    func issues(_ json: String, readable: Bool = true) -> [String] {
        do {
            _ = try LayoutReader.parse(Array(json.utf8), fileReadable: { _ in readable })
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    @Test func brokerAddresses() {
        #expect(MQTTSettings.parseBroker("mqtt://127.0.0.1")! == (false, "127.0.0.1", 1883))
        #expect(MQTTSettings.parseBroker("mqtts://broker.lan")! == (true, "broker.lan", 8883))
        #expect(MQTTSettings.parseBroker("mqtt://[::1]:1884")! == (false, "::1", 1884))
        for bad in [
            "127.0.0.1:1883", "mqtt://", "mqtt://h:0", "mqtt://h:70000", "mqtt://u@h", "mqtt://h/x", "http://h",
        ] {
            #expect(MQTTSettings.parseBroker(bad) == nil, "\(bad)")
        }
    }

    @Test func layoutMistakesAreReportedWithLines() {
        let ok = #"{"mqtt": {"broker": "mqtt://h"}, "gauges": [{"name": "a", "mqtt": "t"}]}"#
        #expect(issues(ok).isEmpty)
        #expect(
            issues(#"{"mqtt": {"broker": "mqtt://h", "pasword": "x"}, "gauges": [{"name": "a", "mqtt": "t"}]}"#) == [
                #"line 1: mqtt.pasword: unknown key (expected one of: broker, clientId, username, passwordFile, ca, certificate, key, keepalive)"#
            ])
        #expect(issues(#"{"gauges": [{"name": "a", "mqtt": "t"}]}"#).first?.contains("no broker is given") == true)
        #expect(
            issues(#"{"mqtt": {"broker": "mqtt://h"}, "gauges": [{"name": "a"}]}"#).first?.contains("no gauge has")
                == true)
        #expect(issues(#"{"mqtt": {"broker": "mqtt://h"}, "gauges": [{"name": "a", "mqtt": "t/#"}]}"#).count == 1)
        #expect(
            issues(#"{"mqtt": {"broker": "mqtt://h"}, "gauges": [{"name": "a", "mqtt": {"topic": "t", "qos": 2}}]}"#)
                .count == 1)
        #expect(
            issues(
                #"{"mqtt": {"broker": "mqtt://h"}, "gauges": [{"name": "a", "mqtt": {"topic": "t", "field": "a..b"}}]}"#
            ).count == 1)
        #expect(
            issues(#"{"mqtt": {"broker": "mqtt://h", "keepalive": 1}, "gauges": [{"name": "a", "mqtt": "t"}]}"#).count
                == 1)
        let tls = #"{"mqtt": {"broker": "mqtt://h", "ca": "/ca.pem"}, "gauges": [{"name": "a", "mqtt": "t"}]}"#
        #expect(issues(tls).first?.contains("TLS files need an mqtts:// broker") == true)
        let pw =
            #"{"mqtt": {"broker": "mqtt://h", "username": "u", "passwordFile": "/pw"}, "gauges": [{"name": "a", "mqtt": "t"}]}"#
        #expect(issues(pw).isEmpty)
        #expect(issues(pw, readable: false).first?.contains("cannot read /pw") == true)
        let half = #"{"mqtt": {"broker": "mqtts://h", "certificate": "/c"}, "gauges": [{"name": "a", "mqtt": "t"}]}"#
        #expect(issues(half).first?.contains("give both") == true)
    }

    /// A reload that changes the broker or a gauge's topic needs a restart (the
    /// input is made once, at start); one that changes neither does not.
    @Test func mqttChangesNeedARestart() throws {
        func layout(_ broker: String, _ topic: String, label: String = "A") throws -> Layout {
            try LayoutReader.parse(
                Array(
                    #"{"mqtt": {"broker": "\#(broker)"}, "gauges": [{"name": "a", "label": "\#(label)", "mqtt": "\#(topic)"}]}"#
                        .utf8))
        }
        let a = try layout("mqtt://h", "t")
        #expect(Daemon.restartOnlyChange(from: a, to: try layout("mqtt://h", "t", label: "B")) == nil)
        #expect(Daemon.restartOnlyChange(from: a, to: try layout("mqtt://h:1884", "t")) == "mqtt")
        #expect(Daemon.restartOnlyChange(from: a, to: try layout("mqtt://h", "u")) == "mqtt")
    }

    /// Issue 38 item 2: Home Assistant's and zigbee2mqtt's "no value" payloads clear the gauge.
    @Test func noDataPayloads() throws {
        func value(_ text: String, _ s: MQTTSubscription) -> Result<Double?, MQTTPayloadError> {
            Array(text.utf8).withUnsafeBytes { MQTTPayload.value($0, s) }
        }
        let plain = MQTTSubscription(topic: "t")
        for none in ["unavailable", "unknown", "offline", "", " \n", "Unavailable"] {
            #expect(value(none, plain) == .success(nil), "\(none)")
        }
        let f = MQTTSubscription(topic: "t", field: ["temperature"])
        #expect(value(#"{"temperature": null}"#, f) == .success(nil))
        #expect(value(#"{"temperature": "unavailable"}"#, f) == .success(nil))
        #expect(value("", f) == .success(nil))
        #expect(value(#"{"temperature": 21}"#, f) == .success(21))
        // The list is the layout's.
        let layout = try LayoutReader.parse(
            Array(
                #"{"mqtt": {"broker": "mqtt://h"}, "gauges": [{"name": "a", "mqtt": {"topic": "t", "noData": ["OFF", "n/a"]}}]}"#
                    .utf8))
        let s = try #require(layout.mqttSubscriptions.first?.subscription)
        #expect(value("off", s) == .success(nil))
        #expect(value("n/a", s) == .success(nil))
        #expect(value("unavailable", s) == .failure(.notANumber))
        #expect(throws: (any Error).self) {
            try LayoutReader.parse(
                Array(#"{"gauges": [{"name": "a", "mqtt": {"topic": "t", "noData": "OFF"}}]}"#.utf8))
        }
    }

    /// Issue 38 item 6: a text widget takes an MQTT topic; its text is the
    /// payload (Home Assistant's "sunny") or a JSON field.
    @Test func textWidgetsFromMQTT() throws {
        func text(_ payload: String, _ s: MQTTSubscription) -> Result<String, MQTTPayloadError> {
            Array(payload.utf8).withUnsafeBytes { MQTTPayload.text($0, s) }
        }
        let layout = try LayoutReader.parse(
            Array(
                #"""
                {"mqtt": {"broker": "mqtt://h"}, "gauges": [{"name": "cpu"},
                 {"name": "weather", "kind": "text", "mqtt": "homeassistant/weather/state"},
                 {"name": "mode", "kind": "text", "mqtt": {"topic": "zigbee2mqtt/thermostat", "field": "system_mode"}}]}
                """#.utf8))
        let subs = layout.mqttSubscriptions
        #expect(subs.map(\.gauge) == ["weather", "mode"])
        #expect(subs.allSatisfy { $0.subscription.isText })
        let plain = subs[0].subscription, field = subs[1].subscription
        #expect(text(" sunny\n", plain) == .success("sunny"))
        #expect(text("unavailable", plain) == .success("unavailable"))
        #expect(text(#"{"system_mode": "heat", "temperature": 21}"#, field) == .success("heat"))
        #expect(text(#"{"system_mode": 3}"#, field) == .success("3"))
        #expect(text(#"{"system_mode": null}"#, field) == .failure(.fieldNotText("system_mode")))
        #expect(text("a\u{7}b", plain) == .failure(.notText))
        #expect(text(String(repeating: "x", count: 257), plain) == .failure(.notText))
        // The store takes what the input applies.
        var store = layout.store()
        #expect(store.apply(.setText(widget: "weather", text: "sunny")) == .success(""))
        #expect(store.apply(.list) == .success("cpu -\nweather sunny\nmode \nEND\n"))
    }

    @Test func payloads() {
        func value(_ text: String, _ s: MQTTSubscription) -> Result<Double?, MQTTPayloadError> {
            Array(text.utf8).withUnsafeBytes { MQTTPayload.value($0, s) }
        }
        let plain = MQTTSubscription(topic: "t")
        #expect(value(" 21.5\r\n", plain) == .success(21.5))
        #expect(value("-3e2", plain) == .success(-300))
        for bad in ["ON", "0x10", "nan", "inf", "1e999", "1 2", "--1"] {
            #expect(value(bad, plain) == .failure(.notANumber), "\(bad)")
        }
        var f = MQTTSubscription(topic: "t", field: ["a", "b"], scale: 2, offset: 1)
        #expect(value(#"{"a": {"b": 4}}"#, f) == .success(9))
        #expect(value(#"{"a": {"b": "4"}}"#, f) == .success(9))
        #expect(value(#"{"a": {"c": 4}}"#, f) == .failure(.noField("a.b")))
        #expect(value(#"{"a": {"b": true}}"#, f) == .failure(.fieldNotANumber("a.b")))
        f.scale = 1e308
        #expect(value(#"{"a": {"b": 10}}"#, f) == .failure(.notFinite))
        let big = [UInt8](repeating: 0x20, count: MQTTPayload.maxSize + 1)
        _ = f
        #expect(big.withUnsafeBytes { MQTTPayload.value($0, plain) } == .failure(.tooLarge(MQTTPayload.maxSize + 1)))
        let deep = value(String(repeating: "[", count: 60_000), f)
        if case .failure(.notJSON) = deep {} else { Issue.record("deep nesting is an error, not a crash: \(deep)") }
    }
}
