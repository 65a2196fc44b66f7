import Glibc
import PanelGauge
import Testing

@testable import PaneldCore

@Suite struct AnimatorTests {
    @Test func glidesMonotonicallyAndEndsExactlyOnTheTarget() {
        var a = Animator(duration: 100, values: ["cpu": 0, "mem": 5])
        #expect(!a.isRunning)
        a.retarget("cpu", to: 80, now: 1000)
        #expect(a.isRunning && a.moving == ["cpu"])
        #expect(a.shownValue("cpu", at: 1000) == 0)
        var last = 0.0
        for t in stride(from: 1000, through: 1100, by: 5) {
            let v = a.shownValue("cpu", at: Int64(t))
            #expect(v >= last && v <= 80)
            last = v
        }
        let mid = a.shownValue("cpu", at: 1050)
        #expect(mid > 40 && mid < 80, "ease-out is past halfway at half time: \(mid)")
        #expect(a.advance(to: 1050) == ["cpu"] && a.isRunning)
        #expect(a.shown(at: 1100) == ["cpu": 80, "mem": 5])
        #expect(a.advance(to: 1100) == ["cpu"])
        #expect(!a.isRunning)
        #expect(a.advance(to: 1200) == [])
    }

    @Test func aNewTargetMidwayStartsFromWhatIsShown() {
        var a = Animator(duration: 100, values: ["cpu": 0])
        a.retarget("cpu", to: 80, now: 0)
        let shown = a.shownValue("cpu", at: 50)
        a.retarget("cpu", to: 0, now: 50)
        #expect(a.shownValue("cpu", at: 50) == shown, "no jump")
        #expect(a.shownValue("cpu", at: 150) == 0)
    }

    @Test func zeroDurationJumps() {
        var a = Animator(duration: 0, values: ["cpu": 0])
        a.retarget("cpu", to: 5, now: 0)
        #expect(!a.isRunning && a.shown(at: 0)["cpu"] == 5)
    }
}

@Suite(.serialized) struct AnimationEndToEndTests {
    /// With "animation": 300 a change is shown over several frames (a timer runs
    /// only then), ends on exactly `paneld render`'s picture, and then paneld
    /// sleeps again.
    @Test func animationShowsIntermediateFramesThenSettlesAndSleeps() throws {
        let dir = TempDirectory()
        try dir.write("l.json", #"{"mode": "96x96", "animation": 300, "gauges": [{"name": "value"}]}"#)
        let r = try runPaneld(
            ["render", "--config", dir.file("l.json"), "--set", "value=90", "--output", dir.file("r.png")], in: dir)
        #expect(r.status == 0)
        let want = try PNG.read(dir.file("r.png")).rgb
        let d = try DaemonProcess(
            dir,
            args: ["--config", dir.file("l.json"), "--output", "png:" + dir.file("d.png"), "--png-interval", "0.05"])
        let c = try TestClient(d.socketPath)
        #expect(try c.ask("get") == "value -")
        // A first value shows at once (no data has no value to glide from); later ones glide.
        try c.send("0\n")
        usleep(200_000)
        try c.send("90\n")
        var seen: [[UInt8]] = []
        let start = monotonicMilliseconds()
        while monotonicMilliseconds() - start < 700 {
            if let img = try? PNG.read(dir.file("d.png")).rgb, img != seen.last { seen.append(img) }
            usleep(5_000)
        }
        #expect(seen.count >= 4, "distinct frames seen: \(seen.count)")
        #expect(seen.last == want, "the last frame is the target picture")
        let before = d.status("voluntary_ctxt_switches")
        usleep(1_000_000)
        #expect(d.status("voluntary_ctxt_switches") == before, "no wake-ups once the animation ended")
    }
}
