import Glibc
import PanelGauge
import Testing

@testable import PaneldCore
@testable import paneld

/// Runs the built paneld with `args` to completion; returns (exit status, stdout, stderr).
func runPaneld(_ args: [String], stdin: String = "", in dir: TempDirectory) throws -> (
    status: Int32, out: String, err: String
) {
    try runCommand([paneldBinary()] + args, stdin: stdin, path: "/usr/bin:/bin", in: dir)
}

/// Runs `argv` (argv[0] a path) with `stdin`, and PATH `path` (default: the test's own).
func runCommand(_ argv: [String], stdin: String = "", path: String? = nil, in dir: TempDirectory) throws -> (
    status: Int32, out: String, err: String
) {
    try dir.write("stdin", stdin)
    let out = dir.file("stdout"), err = dir.file("stderr")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, dir.file("stdin"), O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let cArgs = argv.map { strdup($0) } + [nil]
    let searchPath = path ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    let cEnv: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=" + searchPath), nil]
    defer { (cArgs + cEnv).forEach { free($0) } }
    var pid: pid_t = 0
    markAllDescriptorsCloseOnExec()
    guard posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv) == 0 else { throw TestFailure("spawn failed") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    func text(_ p: String) -> String { String(decoding: (try? FileIO.read(p)) ?? [], as: UTF8.self) }
    return ((status >> 8) & 0xFF, text(out), text(err))
}

@Suite(.serialized) struct CLITests {
    @Test func badArgumentsGetAClearMessage() throws {
        let dir = TempDirectory()
        let cases: [([String], String)] = [
            (["run", "--output", "hdmi"], "--output 'hdmi' is not one of: drm, fbdev, fbdev:DEVICE, png, png:FILE"),
            (["run", "--size", "big"], "--size 'big' is not WIDTHxHEIGHT"),
            (["run", "--save-interval", "0"], "--save-interval must be 0.1 to 3600 seconds"),
            (["run", "--save-interval", "nan"], "--save-interval must be 0.1 to 3600 seconds"),
            (["run", "--socket", String(repeating: "s", count: 200)], "--socket must be a path of 1 to 107 bytes"),
            (["render", "--set", "cpu", "--output", "x.png"], "--set 'cpu' is not NAME=VALUE"),
            (["render", "--set", "value=inf", "--output", "x.png"], "--set 'value=inf' is not NAME=VALUE"),
            (["render", "--set", "cpu=1", "--output", dir.file("x.png")], "the layout has no gauge named 'cpu'"),
            (["render"], "Missing expected argument '--output <output>'"),
            (["send", "--socket", dir.file("nobody.sock"), "1"], "cannot reach paneld at"),
            (["send", "--socket", dir.file("nobody.sock"), "mem", "5"], "'mem' has no value; a LINE is one argument"),
            (["send", "--socket", dir.file("nobody.sock"), "cpu 5", "cpu:x|g"], "'cpu:x|g': not a number: 'x'"),
        ]
        for (args, message) in cases {
            let r = try runPaneld(args, in: dir)
            #expect(r.status != 0, "\(args)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
        }
        #expect(access(dir.file("x.png"), F_OK) != 0, "nothing written on bad input")
    }

    @Test(.enabled(if: DRMProbe.cardPaths().isEmpty, "needs a machine without /dev/dri/card*"))
    func explicitDRMWithoutADeviceFailsPlainlyAndCleansUp() throws {
        let dir = TempDirectory()
        let r = try runPaneld(["run", "--output", "drm", "--socket", dir.file("s.sock")], in: dir)
        #expect(r.status == 1)
        #expect(r.err.contains("no DRM device"), "\(r.err)")
        #expect(access(dir.file("s.sock"), F_OK) != 0, "the socket it made is removed again")
    }

    @Test func aBadLayoutIsReportedWithLineAndKeyAndNothingStarts() throws {
        let dir = TempDirectory()
        try dir.write(
            "bad.json",
            "{\n  \"gauges\": [\n    {\"name\": \"cpu\", \"style\": \"speedometer\"}\n  ],\n  \"rotation\": 45\n}\n")
        for args in [
            [
                "run", "--config", dir.file("bad.json"), "--socket", dir.file("s.sock"), "--output",
                "png:" + dir.file("f.png"),
            ],
            ["render", "--config", dir.file("bad.json"), "--output", dir.file("f.png")],
        ] {
            let r = try runPaneld(args, in: dir)
            #expect(r.status != 0)
            #expect(r.err.contains("bad.json: line 3: gauges[0].style: unknown style 'speedometer'"), "\(r.err)")
            #expect(r.err.contains("bad.json: line 5: rotation: must be 0, 90, 180 or 270"), "\(r.err)")
        }
        #expect(access(dir.file("s.sock"), F_OK) != 0 && access(dir.file("f.png"), F_OK) != 0)
    }

    /// A layout without a mode is placed on the screen it is drawn at: a grid
    /// that leaves no room there is refused with its line, and nothing is written.
    @Test func renderRefusesAGridThatDoesNotFitTheScreen() throws {
        let dir = TempDirectory()
        try dir.write("g.json", "{\"gauges\": [{\"name\": \"a\"}],\n\"grid\": {\"columns\": 4, \"margin\": 30}}")
        let r = try runPaneld(
            ["render", "--config", dir.file("g.json"), "--size", "63x64", "--output", dir.file("g.png")], in: dir)
        #expect(r.status != 0)
        #expect(
            r.err.contains("g.json: line 2: grid: no room for gauges[0] ('a')") && r.err.contains("1 px too narrow"),
            "\(r.err)")
        #expect(access(dir.file("g.png"), F_OK) != 0)
        let ok = try runPaneld(
            ["render", "--config", dir.file("g.json"), "--size", "64x64", "--output", dir.file("g.png")], in: dir)
        #expect(ok.status == 0, "\(ok.err)")
    }

    @Test func renderWritesTheSamePixelsTheDaemonShows() throws {
        let dir = TempDirectory()
        try dir.write(
            "l.json",
            ##"{"mode": "160x120", "overlap": true, "gauges": [{"name": "a", "style": "accessoryCircularCapacity", "gradient": ["#00FF00", "#FF0000"]}, {"name": "b", "style": "linearCapacity", "label": "B", "rect": [0, 90, 160, 30]}]}"##
        )
        let r = try runPaneld(
            [
                "render", "--config", dir.file("l.json"), "--set", "a=64", "--set", "b=-3.5", "--output",
                dir.file("r.png"),
            ], in: dir)
        #expect(r.status == 0, "\(r.err)")
        let d = try DaemonProcess(dir, args: ["--config", dir.file("l.json"), "--output", "png:" + dir.file("d.png")])
        let c = try TestClient(d.socketPath)
        try c.send("a 64\nb=-3.5\n")
        #expect(try c.ask("list") == "a 64")
        let want = try PNG.read(dir.file("r.png"))
        #expect(pngComesToShow(dir.file("d.png"), want), "the daemon's frame equals paneld render's output")
        #expect(want.width == 160 && want.height == 120)
    }

    @Test func sendPrintsRepliesAndFailsOnERR() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(dir, args: ["--output", "png:" + dir.file("f.png")])
        let ok = try runPaneld(["send", "--socket", d.socketPath, "41", "value:+1|g", "get"], in: dir)
        #expect(ok.status == 0 && ok.out == "value 42\n", "\(ok)")
        let bad = try runPaneld(["send", "--socket", d.socketPath, "cpu 1"], in: dir)
        #expect(bad.status == 1 && bad.out == "ERR unknown gauge 'cpu'\n")
        let piped = try runPaneld(["send", "--socket", d.socketPath], stdin: "7\nlist", in: dir)
        #expect(piped.out == "value 7\nEND\n")
    }

    @Test func statsdOverUDPSetsAndAdjusts() throws {
        let dir = TempDirectory()
        let port = freeUDPPort()
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        addr.sin_port = port.bigEndian
        let len = socklen_t(MemoryLayout<sockaddr_in>.size)
        try dir.write(
            "l.json", "{\"statsd\": \"127.0.0.1:\(port)\", \"gauges\": [{\"name\": \"cpu\"}, {\"name\": \"mem\"}]}")
        let d = try DaemonProcess(dir, args: ["--config", dir.file("l.json"), "--output", "png:" + dir.file("f.png")])
        let s = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(s) }
        let packet = Array("cpu:40|g\ncpu:+2|g\nmem:7|g|@0.5\nbogus:1|g\ncpu:nan|g".utf8)
        _ = packet.withUnsafeBytes { p in
            withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(s, p.baseAddress, p.count, 0, $0, len) }
            }
        }
        let c = try TestClient(d.socketPath)
        var got = ""
        for _ in 0..<100 {
            got = try c.ask("get cpu")
            if got == "cpu 42" { break }
            usleep(20_000)
        }
        #expect(got == "cpu 42")
        #expect(try c.ask("get mem") == "mem 7")
        #expect(
            d.log().contains("statsd udp 127.0.0.1:\(port): ignored a bad line (unknown gauge 'bogus')"), "\(d.log())")
    }
}
