import Glibc
import PanelDisplay
import Testing

@testable import PaneldCore

/// The screen's light: the backlight's sysfs contract, the layout's `"light"`,
/// the schedule, idle blanking, the socket's `screen` lines.
@Suite struct LightTests {
    /// A class folder like /sys/class/backlight with one device.
    final class Folder {
        let path = "/tmp/paneld-backlight-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        init(name: String = "10-0045", maximum: Int = 255, power: Bool = true) {
            mkdir(path, 0o700)
            add(name, maximum: maximum, power: power)
        }
        func add(_ name: String, maximum: Int, power: Bool = true) {
            mkdir(path + "/" + name, 0o700)
            write(name + "/max_brightness", "\(maximum)\n")
            write(name + "/brightness", "\(maximum)\n")
            if power { write(name + "/bl_power", "0\n") }
        }
        func write(_ file: String, _ text: String) {
            let f = fopen(path + "/" + file, "w")!
            fputs(text, f)
            fclose(f)
        }
        func read(_ file: String) -> String? {
            guard let f = fopen(path + "/" + file, "r") else { return nil }
            defer { fclose(f) }
            var line = [CChar](repeating: 0, count: 64)
            guard fgets(&line, 64, f) != nil else { return "" }
            return String(cString: line).split(separator: "\n").first.map(String.init) ?? ""
        }
        deinit { _ = system("rm -rf '\(path)'") }
    }

    @Test func theBacklightsSysfsContract() throws {
        let folder = Folder(maximum: 255)
        let b = try #require(try Backlight.find(named: nil, in: folder.path), "the only one")
        #expect(b.name == "10-0045" && b.maximum == 255)
        try b.setBrightness(percent: 40)
        #expect(folder.read("10-0045/brightness") == "102")
        try b.setBrightness(percent: 0.1)
        #expect(folder.read("10-0045/brightness") == "1", "above 0 % is never off")
        try b.setBrightness(percent: 0)
        #expect(folder.read("10-0045/brightness") == "0")
        #expect(try b.brightness() == 0)
        try b.setPower(on: false)
        #expect(folder.read("10-0045/bl_power") == "4")
        try b.setPower(on: true)
        #expect(folder.read("10-0045/bl_power") == "0")
        // Several: none chosen without a name; a name chooses.
        folder.add("backlight", maximum: 100, power: false)
        #expect(try Backlight.find(named: nil, in: folder.path) == nil)
        let pwm = try #require(try Backlight.find(named: "backlight", in: folder.path))
        try pwm.setPower(on: false)
        #expect(folder.read("backlight/bl_power") == nil, "no bl_power: nothing written, nothing created")
        // Names outside the folder, a missing device, a link where a file should be.
        for bad in ["../x", "a/b", ".hidden", ""] {
            #expect(throws: BacklightError.badName(bad)) { try Backlight.find(named: bad, in: folder.path) }
        }
        #expect(throws: BacklightError.self) { try Backlight.find(named: "nope", in: folder.path) }
        unlink(folder.path + "/backlight/brightness")
        symlink("/tmp/paneld-not-a-backlight-\(getpid())", folder.path + "/backlight/brightness")
        #expect(throws: BacklightError.self) { try pwm.setBrightness(percent: 50) }
        #expect(access("/tmp/paneld-not-a-backlight-\(getpid())", F_OK) != 0, "no file made through the link")
    }

    @Test func theLightKeyIsReadAndItsScheduleWrapsMidnight() throws {
        func layout(_ light: String) throws -> Layout {
            try LayoutReader.parse(Array(#"{"light": \#(light), "gauges": [{"name": "a"}]}"#.utf8))
        }
        let l = try layout(
            #"{"backlight": "10-0045", "brightness": 80, "night": {"from": "22:30", "to": "06:00", "brightness": 5}, "blankAfter": "10m", "wakeOnThreshold": true}"#
        ).light
        #expect(l.backlight == "10-0045" && l.brightness == 80 && l.blankAfter == 600 && l.wakeOnThreshold)
        #expect(l.night == LayoutLight.Night(from: 22 * 60 + 30, to: 360, brightness: 5))
        #expect(l.brightness(atMinute: 22 * 60 + 29) == 80)
        #expect(l.brightness(atMinute: 22 * 60 + 30) == 5)
        #expect(l.brightness(atMinute: 0) == 5 && l.brightness(atMinute: 359) == 5)
        #expect(l.brightness(atMinute: 360) == 80)
        let day = try layout(#"{"night": {"from": "01:00", "to": "02:00"}}"#).light
        #expect(
            day.brightness(atMinute: 90) == 10 && day.brightness(atMinute: 120) == 100, "the night's default is 10 %")
        #expect(try layout("{}").light.isSet == false)
        for bad in [
            #"{"brightness": 101}"#, #"{"backlight": "../../etc"}"#, #"{"night": {"from": "24:00", "to": "06:00"}}"#,
            #"{"night": {"from": "7:00", "to": "06:00"}}"#, #"{"night": {"to": "06:00"}}"#, #"{"blankAfter": 5}"#,
            #"{"blankAfter": "30d"}"#, #"{"wakeOnThreshold": "yes"}"#, #"{"dim": 1}"#, "true",
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try layout(bad) }
        }
    }

    @Test func theNextBoundaryIsTheNextLocalTimeOfTheSchedule() {
        let wall: Int64 = 1_790_000_000_000
        for minutes in [[0], [22 * 60 + 30, 6 * 60], [LightPart.localMinute(wall)]] {
            let next = LightPart.nextBoundary(after: wall, minutes: minutes)
            #expect(next > wall && next <= wall + 25 * 3_600_000, "\(minutes)")
            #expect(minutes.contains(LightPart.localMinute(next)) && next % 60_000 == 0, "\(minutes)")
            #expect(
                minutes.allSatisfy { m in
                    // No moment of the schedule between now and the one found.
                    !(1..<Int((next - wall) / 60_000)).contains {
                        LightPart.localMinute(wall + Int64($0) * 60_000) == m
                            && (wall + Int64($0) * 60_000) % 60_000 == 0
                    }
                })
        }
    }

    @Test func theScreenGoesOffWhenIdleAndATouchOrAThresholdTurnsItOn() throws {
        let folder = Folder(maximum: 100)
        let layout = try LayoutReader.parse(
            Array(
                #"{"light": {"brightness": 70, "blankAfter": 60, "wakeOnThreshold": true}, "gauges": [{"name": "a", "thresholds": [{"above": 80, "color": "red"}]}]}"#
                    .utf8))
        let ctx = FakeContext(layout)
        ctx.store = GaugeStore(names: ["a"], defaultGauge: "a", initial: [:])
        folder.write("10-0045/bl_power", "4\n")  // as gpio-backlight comes up without "default-on"
        let part = LightPart(layout.light, folder: folder.path, now: 0)
        #expect(part.interest(now: 0).deadline == 60_000)
        part.turn([], now: 1000, daemon: ctx)
        #expect(folder.read("10-0045/brightness") == "70" && ctx.screen.isEmpty)
        #expect(folder.read("10-0045/bl_power") == "0", "a backlight found off is turned on")
        // A touch counts again from it.
        #expect(!part.touched(now: 30_000, daemon: ctx))
        #expect(part.interest(now: 30_000).deadline == 90_000)
        part.turn([], now: 90_000, daemon: ctx)
        #expect(ctx.screen == [false] && part.isOff && folder.read("10-0045/bl_power") == "4")
        #expect(part.interest(now: 90_000).deadline == nil, "off: no wake-up")
        #expect(part.touched(now: 95_000, daemon: ctx), "the touch turned it on")
        #expect(ctx.screen == [false, true] && folder.read("10-0045/bl_power") == "0")
        // Off again; a value moving within its zone does not wake it, one crossing 80 does.
        _ = ctx.apply(.set(gauge: "a", value: 10))
        part.turn([], now: 96_000, daemon: ctx)
        _ = part.command("off", now: 97_000, daemon: ctx)
        _ = ctx.apply(.set(gauge: "a", value: 50))
        part.turn([], now: 98_000, daemon: ctx)
        #expect(part.isOff)
        _ = ctx.apply(.set(gauge: "a", value: 85))
        part.turn([], now: 99_000, daemon: ctx)
        #expect(!part.isOff && ctx.screen == [false, true, false, true])
    }

    @Test func theSocketsScreenLines() throws {
        let folder = Folder(maximum: 200)
        let layout = try LayoutReader.parse(Array(#"{"gauges": [{"name": "a"}]}"#.utf8))
        let ctx = FakeContext(layout)
        let part = LightPart(layout.light, folder: folder.path, now: 0)
        #expect(part.command(nil, now: 0, daemon: ctx) == "screen on\n", "no \"light\": the backlight is not touched")
        #expect(part.command("25", now: 0, daemon: ctx) == "OK screen 25\n")
        #expect(folder.read("10-0045/brightness") == "50")
        #expect(part.command(nil, now: 0, daemon: ctx) == "screen on, brightness 25 % (set)\n")
        #expect(part.command("off", now: 0, daemon: ctx) == "OK screen off\n" && ctx.screen == [false])
        #expect(part.command("on", now: 0, daemon: ctx) == "OK screen on\n" && ctx.screen == [false, true])
        #expect(part.command("auto", now: 0, daemon: ctx) == "OK screen auto\n")
        #expect(folder.read("10-0045/brightness") == "200", "the layout's 100 %")
        for bad in ["101", "-1", "nan", "dim", "1e400"] {
            #expect(part.command(bad, now: 0, daemon: ctx).hasPrefix("ERR screen takes on, off, auto"), "\(bad)")
        }
        #expect(try LineParser.parse(Array("screen 40".utf8), texts: []).get() == .screen("40"))
        #expect(try LineParser.parse(Array("screen".utf8), texts: []).get() == .screen(nil))
        #expect(throws: (any Error).self) {
            try LayoutReader.parse(Array(#"{"gauges": [{"name": "screen"}]}"#.utf8))
        }
    }

    @Test func withoutABacklightTheScreenLinesSaySo() throws {
        let empty = "/tmp/paneld-no-backlight-\(getpid())"
        mkdir(empty, 0o700)
        defer { rmdir(empty) }
        let layout = try LayoutReader.parse(Array(#"{"gauges": [{"name": "a"}]}"#.utf8))
        let part = LightPart(layout.light, folder: empty, now: 0)
        #expect(
            part.command("40", now: 0, daemon: FakeContext(layout)) == "ERR no backlight to set (none in \(empty))\n")
        #expect(part.interest(now: 0).deadline == nil)
    }
}
