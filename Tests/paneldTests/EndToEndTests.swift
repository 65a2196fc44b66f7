import Glibc
import PanelGauge
import Testing

@testable import PaneldCore
@testable import paneld

/// End-to-end: the built `paneld` binary, PNG output, a socket in a temp directory.
/// Serialized: each test starts its own daemon and some measure its memory.
@Suite(.serialized) struct EndToEndTests {
    @Test func aBareNumberSetsTheDefaultGaugeSilentlyAndTheFrameShowsIt() throws {
        let dir = TempDirectory()
        let png = dir.file("frame.png")
        let d = try DaemonProcess(dir, args: ["--output", "png:" + png, "--size", "200x100"])
        var st = stat()
        #expect(lstat(d.socketPath, &st) == 0 && st.st_mode & 0o7777 == 0o660, "socket mode 0660")
        let c = try TestClient(d.socketPath)
        try c.send("73\n")
        #expect(try c.ask("get") == "value 73")  // and nothing was sent back for "73"
        #expect(try c.ask("value") == "ERR missing value for 'value'")
        // Within a few frame intervals the frame is what `paneld render` draws for 73.
        let r = try runPaneld(
            ["render", "--set", "value=73", "--size", "200x100", "--output", dir.file("want.png")], in: dir)
        #expect(r.status == 0)
        let want = try PNG.read(dir.file("want.png"))
        #expect(want.width == 200 && want.height == 100)
        #expect(pngComesToShow(png, want))
        d.signal(SIGTERM)
        #expect(d.wait(timeout: 5000) == 0)
        #expect(access(d.socketPath, F_OK) != 0, "socket file removed on exit")
    }

    /// With no --output and no DRM device, paneld says so and shows frames in a
    /// PNG file (in $STATE_DIRECTORY when systemd gives one, else /tmp/paneld.png).
    @Test(.enabled(if: DRMProbe.cardPaths().isEmpty, "needs a machine without /dev/dri/card*"))
    func withoutADisplayTheDefaultIsAPNGFile() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(dir, args: ["--size", "64x48"], environment: ["STATE_DIRECTORY": dir.path])
        try TestClient(d.socketPath).send("73\n")
        var image: (width: Int, height: Int, rgb: [UInt8])? = nil
        for _ in 0..<200 where image == nil {
            usleep(10_000)
            image = try? PNG.read(dir.file("frame.png"))
        }
        #expect(image?.width == 64 && image?.height == 48)
        #expect(
            d.log().contains("no DRM device (nothing matches /dev/dri/card*): showing frames in a PNG file instead"))
        #expect(d.log().contains("output: PNG file \(dir.path)/frame.png, 64x48"))
        d.signal(SIGTERM)
        #expect(d.wait(timeout: 5_000) == 0)
        unlink(dir.file("values"))
    }

    /// 100 clients, 10 000 lines each, all at once; each client owns one gauge and
    /// mixes every set/adjust form. Afterwards every gauge holds the last value sent.
    @Test func hundredConcurrentClientsTenThousandLinesEach() throws {
        let clients = 100, lines = 10_000
        let dir = TempDirectory()
        let gauges = (0..<clients).map {
            "{\"name\": \"g\($0)\", \"style\": \"accessoryLinearCapacity\", \"rect\": [\(($0 % 10) * 48), \(($0 / 10) * 48), 48, 48]}"
        }
        try dir.write("layout.json", "{\"mode\": \"480x480\", \"gauges\": [\(gauges.joined(separator: ","))]}")
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--config", dir.file("layout.json")])

        var expected = [Double](repeating: 0, count: clients)
        var payloads: [[UInt8]] = []
        for c in 0..<clients {
            var rng = SplitMix64(state: UInt64(c) &+ 1)
            var text = ""
            var v = 0.0
            for k in 0..<lines {
                let r = Int(rng.next() % 1000)
                switch k % 4 {
                case 0: v = Double(r); text += "g\(c) \(r)\n"
                case 1: v = Double(r) / 4; text += "g\(c)=\(v)\n"
                case 2: v = Double(r); text += "g\(c):\(r)|g\n"
                default: v += 5; text += "g\(c):+5|g\n"
                }
            }
            expected[c] = v
            payloads.append(Array(text.utf8))
        }
        let conns = try (0..<clients).map { _ in try TestClient(d.socketPath) }
        var offsets = [Int](repeating: 0, count: clients)
        let start = monotonicMilliseconds()
        // Interleave writes across all connections until every payload is sent.
        while offsets.enumerated().contains(where: { $0.element < payloads[$0.offset].count }) {
            let pending = (0..<clients).filter { offsets[$0] < payloads[$0].count }
            let ready = try pollDescriptors(pending.map { (conns[$0].fd, .output) }, timeout: 1000)
            for (c, ev) in zip(pending, ready) where ev.contains(.output) {
                let chunk = min(4096, payloads[c].count - offsets[c])
                let n = payloads[c].withUnsafeBytes {
                    send(conns[c].fd.rawValue, $0.baseAddress! + offsets[c], chunk, Int32(MSG_NOSIGNAL))
                }
                if n > 0 {
                    offsets[c] += n
                } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                    let why = String(cString: strerror(errno))
                    Issue.record("client \(c) could not send (\(why)) at byte \(offsets[c]): \(d.log())")
                    return
                }
            }
            guard monotonicMilliseconds() - start < 120_000, d.poll() == nil else {
                Issue.record("sending took too long, or paneld died: \(d.log())")
                return
            }
        }
        // Lines on one connection are applied in order: a reply to `get` comes after them.
        for c in 0..<clients {
            #expect(try conns[c].ask("get g\(c)", timeout: 30_000) == "g\(c) \(GaugeStore.format(expected[c]))")
        }
        let elapsed = monotonicMilliseconds() - start
        let all = try TestClient(d.socketPath).list()
        #expect(all.count == clients)
        for c in 0..<clients { #expect(all["g\(c)"] == GaugeStore.format(expected[c])) }
        print(
            "100 clients x 10000 lines: \(clients * lines) lines in \(elapsed) ms, paneld VmHWM \(d.status("VmHWM") ?? -1) kB"
        )
    }

    /// An endless line and a client that never reads its replies, while a third
    /// client keeps working: the third is answered promptly, paneld stops reading
    /// the non-reader (so its requests back up in the kernel, not in paneld) and
    /// drops it after the stuck-client timeout, and paneld's peak memory grows by
    /// less than a fixed bound.
    @Test func endlessLineAndNonReaderCannotStallOthersOrGrowMemory() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "320x240", "--stuck-client-timeout", "2000"])
        let good = try TestClient(d.socketPath)
        #expect(try good.ask("get") == "value -")  // warm up: one frame rendered, one client served
        usleep(200_000)
        let baseline = try #require(d.status("VmRSS"))

        let endless = try TestClient(d.socketPath)
        let silent = try TestClient(d.socketPath)
        let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16)
        let requests = Array(String(repeating: "list\n", count: 2_000).utf8)
        var endlessSent = 0, silentSent = 0, worstReply: Int64 = 0
        var silentSentAt2s = -1
        var silentDropped = false
        let start = monotonicMilliseconds()
        var round = 0
        while monotonicMilliseconds() - start < 4_000 {
            round += 1
            // Endless line: as much as paneld will take, never a newline.
            let n = junk.withUnsafeBytes {
                send(endless.fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n > 0 { endlessSent += n }
            // Non-reader: keeps asking, never reads.
            if !silentDropped {
                let m = requests.withUnsafeBytes {
                    send(silent.fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if m > 0 { silentSent += m }
                if m < 0 && (errno == EPIPE || errno == ECONNRESET) { silentDropped = true }
            }
            if silentSentAt2s < 0 && monotonicMilliseconds() - start > 1_500 { silentSentAt2s = silentSent }
            // The well-behaved client must keep getting answers quickly.
            let t0 = monotonicMilliseconds()
            try good.send("value \(round % 100)\n")
            #expect(try good.ask("get", timeout: 2_000) == "value \(round % 100)")
            worstReply = max(worstReply, monotonicMilliseconds() - t0)
        }
        let peak = try #require(d.status("VmHWM"))
        let rss = try #require(d.status("VmRSS"))
        // The endless line is answered once, however much of it arrived.
        try endless.send("\n")
        #expect(try endless.readLine() == "ERR line too long (limit \(LineParser.maxLineLength) bytes)")
        #expect(try endless.ask("get") == "value \(round % 100)")
        print(
            "endless line: \(endlessSent / 1_000_000) MB sent; non-reader: \(silentSent / 1000) KB sent before paneld stopped reading it; worst reply \(worstReply) ms; RSS \(baseline) -> \(rss) kB, peak \(peak) kB"
        )
        #expect(endlessSent > 20_000_000, "paneld did not keep reading (and discarding) the endless line")
        // Backpressure: after its kernel buffers filled, the non-reader could send nothing more.
        #expect(
            silentSentAt2s == silentSent || silentDropped, "non-reader kept sending: \(silentSentAt2s) -> \(silentSent)"
        )
        #expect(silentSent < 4_000_000)
        #expect(d.log().contains("not reading its replies for 2000 ms"), "\(d.log())")
        #expect(worstReply < 1_000)
        // The display kept up too: the frame shows the good client's last value.
        let last = round % 100
        let r = try runPaneld(
            ["render", "--set", "value=\(last)", "--size", "320x240", "--output", dir.file("want.png")], in: dir)
        #expect(r.status == 0)
        var shown = false
        for _ in 0..<100 where !shown {
            shown = (try? PNG.read(dir.file("f.png")).rgb) == (try PNG.read(dir.file("want.png")).rgb)
            if !shown { usleep(10_000) }
        }
        #expect(shown, "the frame shows value \(last)")
        // Bound: a few client buffers (16-64 KiB output + 513 B input each) plus allocator slack.
        #expect(peak - baseline < 8 * 1024, "peak RSS grew by \(peak - baseline) kB")
        d.signal(SIGTERM)
        #expect(d.wait(timeout: 5000) == 0)
    }

    /// SIGKILL leaves a stale socket and the last saved state; a restart replaces the
    /// socket and restores the values.
    @Test func sigkillThenRestartRestoresValues() throws {
        let dir = TempDirectory()
        try dir.write(
            "layout.json", #"{"gauges": [{"name": "cpu"}, {"name": "mem", "range": [-50, 50]}, {"name": "temp"}]}"#)
        let args = [
            "--output", "png:" + dir.file("f.png"), "--config", dir.file("layout.json"), "--state", dir.file("state"),
            "--save-interval", "0.2",
        ]
        do {
            let d = try DaemonProcess(dir, args: args)
            let c = try TestClient(d.socketPath)
            try c.send("cpu 12.5\nmem=-7\ntemp:40|g\ntemp:+2.25|g\n")
            #expect(try c.ask("get temp") == "temp 42.25")
            // The state is saved within the save interval (0.2 s here); wait for it, then kill.
            let deadline = monotonicMilliseconds() + 5_000
            while monotonicMilliseconds() < deadline {
                if let s = try? FileIO.read(dir.file("state")),
                    String(decoding: s, as: UTF8.self).contains("temp 42.25")
                {
                    break
                }
                usleep(20_000)
            }
            d.signal(SIGKILL)
            #expect(d.wait(timeout: 5000) != nil)
            #expect(try UnixSocket.inspect(d.socketPath) == .socket, "SIGKILL leaves the socket file behind")
        }
        let d2 = try DaemonProcess(dir, args: args)
        #expect(try TestClient(d2.socketPath).list() == ["cpu": "12.5", "mem": "-7", "temp": "42.25"])
        #expect(d2.log().contains("removed stale socket"))
        d2.signal(SIGTERM)
        #expect(d2.wait(timeout: 5000) == 0)
    }

    /// SIGTERM saves at once (no waiting for the save interval), removes the
    /// socket, exits 0; the next start shows the same values.
    @Test func sigtermSavesImmediately() throws {
        let dir = TempDirectory()
        let args = ["--output", "png:" + dir.file("f.png"), "--state", dir.file("state")]
        let d = try DaemonProcess(dir, args: args)
        let c = try TestClient(d.socketPath)
        try c.send("12\n13\n")
        #expect(try c.ask("get") == "value 13")
        d.signal(SIGTERM)
        #expect(d.wait(timeout: 5_000) == 0)
        #expect(access(d.socketPath, F_OK) != 0)
        let d2 = try DaemonProcess(dir, args: args)
        #expect(try TestClient(d2.socketPath).ask("get") == "value 13")
    }

    /// SIGHUP re-reads the layout: a good file takes effect (same-named gauges
    /// keep their values); a file with mistakes, or one that changes a
    /// restart-only setting, is reported and changes nothing.
    @Test func sighupReloadsTheLayoutOrChangesNothing() throws {
        let dir = TempDirectory()
        try dir.write("l.json", ##"{"mode": "64x32", "gauges": [{"name": "cpu"}, {"name": "mem"}]}"##)
        let d = try DaemonProcess(dir, args: ["--output", "png:" + dir.file("f.png"), "--config", dir.file("l.json")])
        let c = try TestClient(d.socketPath)
        try c.send("cpu 40\nmem 7\n")
        #expect(try c.list() == ["cpu": "40", "mem": "7"])
        func hup(waitingFor text: String) {
            d.signal(SIGHUP)
            for _ in 0..<300 where !d.log().contains(text) { usleep(10_000) }
        }
        try dir.write(
            "l.json", ##"{"mode": "64x32", "gauges": [{"name": "cpu"}, {"name": "temp", "range": [20, 90]}]}"##)
        hup(waitingFor: "reloaded, 2 gauge(s)")
        #expect(try c.list() == ["cpu": "40", "temp": "-"])
        try dir.write(
            "l.json", "{\"mode\": \"64x32\",\n \"gauges\": [{\"name\": \"cpu\", \"style\": \"speedometer\"}]}")
        hup(waitingFor: "layout not reloaded, the old one stays")
        #expect(d.log().contains("l.json: line 2: gauges[0].style: unknown style 'speedometer'"))
        #expect(try c.list() == ["cpu": "40", "temp": "-"])
        try dir.write("l.json", ##"{"mode": "32x32", "gauges": [{"name": "cpu"}]}"##)
        hup(waitingFor: "mode changed, which needs a restart")
        #expect(try c.list() == ["cpu": "40", "temp": "-"])
        d.signal(SIGTERM)
        #expect(d.wait(timeout: 5_000) == 0)
    }

    @Test func refusesToReplaceAnythingButAStaleSocket() throws {
        let dir = TempDirectory()
        try dir.write("regular", "keep me")
        symlink(dir.file("regular"), dir.file("link"))
        for (path, what) in [(dir.file("regular"), "a regular file"), (dir.file("link"), "a symbolic link")] {
            let d = try DaemonProcess(
                dir, args: ["--output", "png:" + dir.file("f.png")], socket: path, waitForSocket: false)
            let status = try #require(d.wait(timeout: 10_000))
            #expect(status != 0)
            #expect(d.log().contains("is \(what); refusing to replace it"), "\(d.log())")
        }
        #expect(String(decoding: try FileIO.read(dir.file("regular")), as: UTF8.self) == "keep me")
        #expect(try UnixSocket.inspect(dir.file("link")) == .other("a symbolic link"))
        // A live daemon on the path: the second one refuses and the first keeps working.
        let first = try DaemonProcess(dir, args: ["--output", "png:" + dir.file("f.png")])
        let second = try DaemonProcess(dir, args: ["--output", "png:" + dir.file("g.png")], waitForSocket: false)
        #expect(try #require(second.wait(timeout: 10_000)) != 0)
        #expect(second.log().contains("already listening"))
        #expect(try TestClient(first.socketPath).ask("get") == "value -")
    }

    /// 50 000 fuzz lines through a real connection: paneld answers exactly the
    /// replies the pure model predicts, in order: one `ERR` per bad line,
    /// nothing for good set lines, the values for get/list.
    @Test func everyBadLineOnTheWireIsAnsweredERR() throws {
        let dir = TempDirectory()
        try dir.write(
            "layout.json", #"{"default": "value", "gauges": [{"name": "cpu"}, {"name": "mem"}, {"name": "value"}]}"#)
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--config", dir.file("layout.json")])
        var model = GaugeStore(names: ["cpu", "mem", "value"], defaultGauge: "value", initial: [:])
        var fuzz = LineFuzzer(rng: SplitMix64(state: 42))
        var wire: [UInt8] = []
        var expected = ""
        var bad = 0
        for _ in 0..<50_000 {
            let line = fuzz.line().filter { $0 != 0x0A }
            wire += line + [0x0A]
            switch LineParser.parse(line).flatMap({ model.apply($0) }) {
            case .success(let reply): expected += reply
            case .failure(let e):
                bad += 1
                expected += "ERR \(e)\n"
            }
        }
        wire += Array("get\n".utf8)
        expected += "value \(GaugeStore.format(model.values["value"]!))\n"
        let c = try TestClient(d.socketPath)
        var sent = 0
        var got: [UInt8] = []
        let expectedBytes = Array(expected.utf8)
        let deadline = monotonicMilliseconds() + 60_000
        while got.count < expectedBytes.count && monotonicMilliseconds() < deadline {
            if sent < wire.count {
                let n = wire.withUnsafeBytes {
                    send(
                        c.fd.rawValue, $0.baseAddress! + sent, min(8192, $0.count - sent),
                        Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if n > 0 { sent += n }
            }
            _ = try pollDescriptors([(c.fd, .input)], timeout: sent < wire.count ? 0 : 100)
            guard let more = c.readAvailable() else { break }
            got += more
        }
        #expect(bad > 5_000)
        #expect(got.count == expectedBytes.count)
        let gotLines = String(decoding: got, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let expLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        if let k = (0..<min(gotLines.count, expLines.count)).first(where: { gotLines[$0] != expLines[$0] }) {
            Issue.record(
                "reply \(k) differs: got \(gotLines[k].debugDescription), expected \(expLines[k].debugDescription)")
        }
        print("wire fuzz: 50000 lines, \(bad) answered ERR")
    }

    /// A client that pipelines many requests faster than it reads gets every reply:
    /// the high-water mark throttles it (requests held back, resumed as its replies
    /// drain) but never loses one.
    @Test func pipelinedRequestsAreAllAnswered() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "32x32"])
        let c = try TestClient(d.socketPath)
        let count = 30_000
        try c.send("7\n")
        let wire = Array(String(repeating: "get\n", count: count).utf8)
        var sent = 0, got = 0
        let deadline = monotonicMilliseconds() + 30_000
        while got < count * 8 && monotonicMilliseconds() < deadline {
            if sent < wire.count {
                let n = wire.withUnsafeBytes {
                    send(c.fd.rawValue, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if n > 0 { sent += n }
            }
            _ = try pollDescriptors([(c.fd, .input)], timeout: 50)
            guard let more = c.readAvailable() else { break }
            got += more.count
        }
        #expect(got == count * "value 7\n".utf8.count, "replies: \(got / 8) of \(count)")
    }

    /// Updates between two frames coalesce: 20 000 values in a burst give a few
    /// frames (PNG output here allows one per 50 ms), and the last frame shows the last value.
    @Test func updatesBetweenFramesCoalesce() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(
            dir,
            args: ["--output", "png:" + dir.file("f.png"), "--size", "64x64", "--png-interval", "0.05", "--verbose"])
        let c = try TestClient(d.socketPath)
        #expect(try c.ask("get") == "value -")
        usleep(100_000)
        let start = monotonicMilliseconds()
        var burst = ""
        for k in 0..<20_000 { burst += "\(k % 100)\n" }
        try c.send(burst + "42\n")
        #expect(try c.ask("get") == "value 42")
        let elapsed = monotonicMilliseconds() - start
        usleep(200_000)
        let frames = d.log().split(separator: "\n").filter { $0.contains("frame: ") }.count
        print("coalescing: 20001 updates in \(elapsed) ms gave \(frames) frames")
        #expect(frames >= 2 && Int64(frames) <= 2 + (elapsed + 200) / 50)
        let r = try runPaneld(
            ["render", "--set", "value=42", "--size", "64x64", "--output", dir.file("want.png")], in: dir)
        #expect(r.status == 0)
        #expect(try PNG.read(dir.file("f.png")).rgb == PNG.read(dir.file("want.png")).rgb)
    }

    /// Out of file descriptors, paneld does not spin on the listening socket:
    /// it pauses accepting, keeps serving its clients, and accepts again once
    /// descriptors are free.
    @Test func runningOutOfDescriptorsDoesNotSpin() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "32x32"], fileLimit: 16)
        var conns: [TestClient] = []
        for _ in 0..<24 { conns.append(try TestClient(d.socketPath)) }  // more than paneld can accept
        usleep(300_000)
        #expect(d.log().contains("not accepting connections (retrying every"), "\(d.log())")
        let before = try #require(d.cpuTicks())
        usleep(1_000_000)
        let after = try #require(d.cpuTicks())
        #expect(after - before < 20, "CPU ticks in a second while out of descriptors: \(after - before)")
        #expect(try conns[0].ask("get", timeout: 3_000) == "value -", "accepted clients are still served")
        let late = conns.removeLast()
        conns.removeAll()  // frees descriptors in paneld as it sees the hang-ups
        let answer = try? late.ask("get", timeout: 10_000)
        #expect(answer == "value -", "a queued client is served once descriptors are free: \(d.log())")
    }

    /// A frame that cannot be written (here: its directory is missing) is logged
    /// once; paneld keeps serving, and shows frames again once it can.
    @Test func frameFailuresAreLoggedAndServingContinues() throws {
        let dir = TempDirectory()
        let frameDir = dir.file("frames")
        let d = try DaemonProcess(dir, args: ["--output", "png:" + frameDir + "/f.png", "--size", "32x32"])
        let c = try TestClient(d.socketPath)
        for v in 0..<20 {
            try c.send("\(v)\n")
            usleep(10_000)
        }
        #expect(try c.ask("get") == "value 19")
        #expect(
            d.log().split(separator: "\n").filter { $0.contains("cannot show a frame") }.count == 1,
            "logged once: \(d.log())")
        mkdir(frameDir, 0o755)
        try c.send("50\n")
        var shown = false
        for _ in 0..<200 where !shown {
            usleep(10_000)
            shown = access(frameDir + "/f.png", F_OK) == 0
        }
        #expect(shown)
        #expect(d.log().contains("frames are being shown again"))
        unlink(frameDir + "/f.png")
        rmdir(frameDir)
    }

    /// With no input, paneld sleeps in poll with no timeout: its context-switch
    /// counters do not move over a quiet second.
    @Test func noWakeupsWithoutInput() throws {
        let dir = TempDirectory()
        let d = try DaemonProcess(dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "64x64"])
        #expect(try TestClient(d.socketPath).ask("get") == "value -")
        usleep(300_000)  // let the first frame and the disconnect settle
        let before = (d.status("voluntary_ctxt_switches") ?? -1, d.status("nonvoluntary_ctxt_switches") ?? -1)
        usleep(1_500_000)
        let after = (d.status("voluntary_ctxt_switches") ?? -2, d.status("nonvoluntary_ctxt_switches") ?? -2)
        #expect(before.0 == after.0, "voluntary switches \(before.0) -> \(after.0)")
    }
}
