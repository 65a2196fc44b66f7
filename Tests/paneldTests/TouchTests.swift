import Glibc
import PanelDisplay
import PanelGauge
import Testing

@testable import PaneldCore

/// Touch: the evdev events the kernel's drivers send, decoded; device
/// coordinates mapped to the layout's; gestures; the pages they act on.
@Suite struct TouchTests {
    static func abs(_ code: UInt16, _ v: Int32) -> InputEvent {
        InputEvent(type: InputCode.absolute, code: code, value: v)
    }
    static func key(_ code: UInt16, _ v: Int32) -> InputEvent { InputEvent(type: InputCode.key, code: code, value: v) }
    static let syn = InputEvent(type: InputCode.synchronize, code: InputCode.report, value: 0)
    static let dropped = InputEvent(type: InputCode.synchronize, code: InputCode.dropped, value: 0)

    static func reports(_ events: [InputEvent]) -> [TouchReport] {
        var d = TouchDecoder()
        return events.compactMap { d.feed($0) }
    }

    @Test func theIoctlNumbersAreTheKernels() {
        // As linux/input.h computes them (checked against a C program's EVIOCG* values).
        #expect(EvdevRequest.axis(InputCode.x) == 0x8018_4540)
        #expect(EvdevRequest.axis(InputCode.slotX) == 0x8018_4575)
        #expect(EvdevRequest.codes(type: InputCode.absolute, length: 8) == 0x8008_4523)
        #expect(EvdevRequest.codes(type: InputCode.key, length: 96) == 0x8060_4521)
        #expect(EvdevRequest.properties(length: 4) == 0x8004_4509)
        #expect(EvdevRequest.name(length: 255) == 0x80ff_4506)
        #expect(InputEvent.size == 24, "a 64-bit kernel's struct input_event")
    }

    @Test func eventsRoundTripThroughTheKernelsLayout() {
        let events = [Self.abs(InputCode.slotX, 1234), Self.key(InputCode.buttonTouch, 1), Self.syn]
        let bytes = events.flatMap(\.bytes) + [1, 2, 3]  // and a torn tail
        #expect(bytes.withUnsafeBytes { InputEvent.decode($0) } == events)
    }

    @Test func protocolBFollowsTheFirstFingerUntilItLifts() {
        // ft5x06 style: slots, tracking ids, MT positions, BTN_TOUCH and the single-touch copies.
        let r = Self.reports([
            Self.abs(InputCode.slot, 0), Self.abs(InputCode.trackingID, 7), Self.abs(InputCode.slotX, 100),
            Self.abs(InputCode.slotY, 200), Self.key(InputCode.buttonTouch, 1), Self.abs(InputCode.x, 100),
            Self.abs(InputCode.y, 200), Self.syn,
            // A second finger in slot 1: the first is still followed.
            Self.abs(InputCode.slot, 1), Self.abs(InputCode.trackingID, 8), Self.abs(InputCode.slotX, 500),
            Self.abs(InputCode.slotY, 300), Self.syn,
            Self.abs(InputCode.slot, 0), Self.abs(InputCode.slotX, 150), Self.syn,
            // The first lifts: lifted, though the second is down, until every finger is up.
            Self.abs(InputCode.trackingID, -1), Self.syn,
            Self.abs(InputCode.slot, 1), Self.abs(InputCode.slotX, 510), Self.syn,
            Self.abs(InputCode.trackingID, -1), Self.key(InputCode.buttonTouch, 0), Self.syn,
            // A new touch in slot 1 is followed.
            Self.abs(InputCode.trackingID, 9), Self.abs(InputCode.slotX, 40), Self.abs(InputCode.slotY, 41), Self.syn,
        ])
        #expect(r == [.contact(x: 100, y: 200), .contact(x: 150, y: 200), .lifted, .contact(x: 40, y: 41)])
    }

    @Test func singleTouchAsAds7846ReportsIt() {
        let r = Self.reports([
            Self.abs(InputCode.x, 3000), Self.abs(InputCode.y, 900), Self.key(InputCode.buttonTouch, 1), Self.syn,
            Self.abs(InputCode.x, 2900), Self.syn, Self.syn,
            Self.key(InputCode.buttonTouch, 0), Self.syn,
        ])
        #expect(r == [.contact(x: 3000, y: 900), .contact(x: 2900, y: 900), .lifted])
    }

    @Test func droppedEventsLoseTheGestureAndStartAgain() {
        let r = Self.reports([
            Self.abs(InputCode.trackingID, 1), Self.abs(InputCode.slotX, 10), Self.abs(InputCode.slotY, 10), Self.syn,
            Self.dropped, Self.abs(InputCode.slotX, 999), Self.syn,
            Self.abs(InputCode.trackingID, 2), Self.abs(InputCode.slotX, 20), Self.abs(InputCode.slotY, 10), Self.syn,
        ])
        #expect(r == [.contact(x: 10, y: 10), .lost, .contact(x: 20, y: 10)])
    }

    @Test func aHostileDeviceCannotGrowTheSlotTable() {
        var d = TouchDecoder()
        for s in Int32(0)..<100_000 {
            _ = d.feed(Self.abs(InputCode.slot, s))
            _ = d.feed(Self.abs(InputCode.slotX, s))
        }
        #expect(d.slotsHeld <= 65, "free slots are let go as the table grows")
        #expect(d.feed(Self.syn) == nil, "no finger is down")
    }

    @Test func deviceCoordinatesMapThroughCalibrationAndRotation() {
        // A 0...4095 panel, 800x480 landscape when upright.
        func p(_ rotation: PanelRotation, _ c: TouchCalibration = TouchCalibration(), _ x: Int32, _ y: Int32)
            -> [Int]
        {
            let logical = rotation.logicalSize(panelWidth: 800, panelHeight: 480)
            let m = TouchMapping(
                x: 0...4095, y: 0...4095, calibration: c, rotation: rotation, width: logical.width,
                height: logical.height)
            let q = m.point(x: x, y: y)
            return [Int(q.x.rounded()), Int(q.y.rounded())]
        }
        // The panel's top-right corner.
        #expect(p(.none, TouchCalibration(), 4095, 0) == [800, 0])
        // With the picture turned 90 degrees clockwise, its top-left is there (PanelRotation's convention).
        #expect(p(.clockwise90, TouchCalibration(), 4095, 0) == [0, 0])
        #expect(p(.upsideDown, TouchCalibration(), 4095, 0) == [0, 480])
        #expect(p(.clockwise270, TouchCalibration(), 4095, 0) == [480, 800])
        // Each rotation against PanelRotation.panelRect: a logical pixel's panel pixel maps back to it.
        for rotation in PanelRotation.allCases {
            let logical = rotation.logicalSize(panelWidth: 800, panelHeight: 480)
            let m = TouchMapping(
                x: 0...799, y: 0...479, rotation: rotation, width: logical.width, height: logical.height)
            let panel = rotation.panelRect(
                IntRect(x: 100, y: 50, width: 1, height: 1), logicalWidth: logical.width, logicalHeight: logical.height)
            let q = m.point(x: Int32(panel.minX), y: Int32(panel.minY))
            #expect(Swift.abs(q.x - 100) <= 2 && Swift.abs(q.y - 50) <= 2, "\(rotation): \(q)")
        }
        // Calibration: swapped, then reversed; out-of-range positions clamp to the edge.
        #expect(p(.none, TouchCalibration(swapAxes: true), 4095, 0) == [0, 480])
        #expect(p(.none, TouchCalibration(invertX: true), 4095, 0) == [0, 0])
        #expect(p(.none, TouchCalibration(invertY: true), 4095, 0) == [800, 480])
        #expect(p(.none, TouchCalibration(), 9000, -50) == [800, 0])
    }

    @Test func gesturesFromOneFinger() {
        var g = GestureRecognizer(width: 800, height: 480)
        // A tap.
        #expect(g.touch(x: 100, y: 100, at: 0) == nil)
        #expect(g.deadline == GestureRecognizer.longPress)
        #expect(g.touch(x: 105, y: 103, at: 80) == nil, "within the slop")
        #expect(g.lift(x: 105, y: 103, at: 120) == .tap(x: 100, y: 100))
        #expect(g.deadline == nil, "no finger, no wake-up")
        // A swipe left, and right.
        _ = g.touch(x: 600, y: 240, at: 1000)
        _ = g.touch(x: 400, y: 250, at: 1100)
        #expect(g.deadline == nil, "a moving finger is no long press")
        #expect(g.lift(x: 300, y: 260, at: 1200) == .swipe(.left))
        _ = g.touch(x: 100, y: 240, at: 2000)
        #expect(g.lift(x: 400, y: 240, at: 2300) == .swipe(.right))
        // Too short, too slow, too diagonal: nothing.
        _ = g.touch(x: 100, y: 240, at: 3000)
        #expect(g.lift(x: 200, y: 240, at: 3100) == nil, "100 px is under a fifth of 800")
        _ = g.touch(x: 100, y: 240, at: 4000)
        #expect(g.lift(x: 500, y: 240, at: 5500) == nil, "slower than a swipe")
        _ = g.touch(x: 100, y: 100, at: 6000)
        #expect(g.lift(x: 400, y: 350, at: 6200) == nil, "diagonal")
        // A vertical swipe.
        _ = g.touch(x: 400, y: 400, at: 7000)
        #expect(g.lift(x: 410, y: 100, at: 7200) == .swipe(.up))
        // A long press: reported once at its deadline, the lift adds nothing.
        _ = g.touch(x: 300, y: 300, at: 8000)
        #expect(g.due(now: 8699) == nil)
        #expect(g.due(now: 8700) == .longPress(x: 300, y: 300))
        #expect(g.deadline == nil)
        #expect(g.lift(x: 300, y: 300, at: 9000) == nil)
        // Lost events drop the gesture.
        _ = g.touch(x: 600, y: 240, at: 10000)
        g.cancel()
        #expect(g.lift(x: 100, y: 240, at: 10100) == nil)
    }

    @Test func aTapHoldsTheRotationAndTheHoldOutlivesAReload() throws {
        var r = PageRotation(count: 3, interval: 1000, now: 0)
        #expect(r.page(at: 1500) == 1)
        r.hold(true, now: 1500)
        #expect(r.page(at: 9000) == 1 && r.nextChange(after: 9000) == nil)
        r.hold(false, now: 9000)
        #expect(r.page(at: 9500) == 1 && r.nextChange(after: 9500) == 10000)
        #expect(r.page(at: 10000) == 2)

        let layout = try LayoutReader.parse(Array(TimePartTests.layout.utf8))
        let part = PagePart(layout, now: 0)
        part.hold(true, now: 1500)
        part.reload(layout, page: 1, now: 2000)
        #expect(part.rotation.page(at: 50_000) == 1, "still held after a reload")
    }

    @Test func theTouchKeyIsRead() throws {
        func layout(_ touch: String) throws -> Layout {
            try LayoutReader.parse(Array(#"{"touch": \#(touch), "gauges": [{"name": "a"}]}"#.utf8))
        }
        #expect(try layout("false").touch.enabled == false)
        #expect(try layout("true").touch == LayoutTouch())
        let t = try layout(#"{"device": "/dev/input/event3", "swapAxes": true, "invertY": true}"#).touch
        #expect(t.device == "/dev/input/event3" && t.enabled)
        #expect(t.calibration == TouchCalibration(swapAxes: true, invertY: true))
        for bad in [
            #""yes""#, #"{"device": "/etc/passwd"}"#, #"{"device": "/dev/input/../sda"}"#, #"{"swapAxes": 1}"#,
            #"{"rotate": 90}"#,
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try layout(bad) }
        }
    }

    @Test func withoutTouchScreensThePartAddsNoWakeUp() throws {
        let dir = "/tmp/paneld-touch-\(getpid())"
        mkdir(dir, 0o700)
        defer { rmdir(dir) }
        let part = TouchPart(LayoutTouch(), directory: dir)
        let i = part.interest(now: 0)
        #expect(i.descriptors.isEmpty && i.deadline == nil)
        #expect(part.names.isEmpty)
    }

    /// The kernel reuses `eventN`: a node that was a keyboard may next be a
    /// touch screen, so an announcement forgets what the nodes were.
    @Test func anAnnouncedDeviceIsProbedEvenOnANodeThatWasNotATouchScreen() throws {
        let dir = "/tmp/paneld-touch-reuse-\(getpid())"
        mkdir(dir, 0o700)
        defer { rmdir(dir) }
        let node = dir + "/event0"
        symlink("/dev/null", node)  // a character device where every evdev ioctl fails: "not a touch screen"
        defer { unlink(node) }
        let part = TouchPart(LayoutTouch(), directory: dir)
        #expect(part.others == [node] && part.names.isEmpty)
        // The node now leads nowhere: a plain rescan does not look, an announcement does.
        unlink(node)
        symlink(dir + "/nothing", node)
        part.rescan(now: 0, announced: false)
        #expect(part.others == [node], "a plain rescan does not probe it again")
        part.rescan(now: 0, announced: true)
        #expect(part.others.isEmpty, "an announcement probes it again")
        unlink(node)
        symlink("/dev/null", node)
        part.rescan(now: 0, announced: false)
        #expect(part.others == [node])
        unlink(node)
        part.rescan(now: 0, announced: false)
        #expect(part.others.isEmpty, "a node gone is forgotten")
    }
}

/// A gauge's `"tap"`: the layout's keys, the program lines go to, the gauge under a finger.
@Suite struct TapTests {
    static func layout(_ extra: String, tap: String) throws -> Layout {
        try LayoutReader.parse(
            Array(
                #"{\#(extra) "gauges": [{"name": "pump", "rect": [0, 0, 400, 480], "tap": \#(tap)}, {"name": "b", "rect": [400, 0, 400, 480]}]}"#
                    .utf8))
    }

    @Test func theTapKeyIsReadAndNeedsWhatItUses() throws {
        let broker = #""mqtt": {"broker": "mqtt://127.0.0.1"},"#
        #expect(
            try Self.layout(broker, tap: #"{"publish": "home/pump/set", "payload": "toggle"}"#).gauges[0].tap
                == .publish(topic: "home/pump/set", payload: "toggle"))
        #expect(
            try Self.layout(broker, tap: #"{"publish": "home/pump/set"}"#).gauges[0].tap
                == .publish(topic: "home/pump/set", payload: "tap"))
        let command = #""tapCommand": "/usr/local/bin/panel-tap","#
        let l = try Self.layout(command, tap: #"{"line": "pump toggle"}"#)
        #expect(l.gauges[0].tap == .line("pump toggle") && l.tapCommand == "/usr/local/bin/panel-tap")
        #expect(l.warnings.contains { $0.path == "tapCommand" }, "not on this machine: a warning")
        for (extra, tap) in [
            ("", #"{"publish": "a/b"}"#), ("", #"{"line": "x"}"#), (broker, #"{"publish": "a/+/b"}"#),
            (broker, #"{"publish": "a/#"}"#), (broker, #"{"publish": ""}"#), (command, #"{"line": "a\nb"}"#),
            (command, #"{"line": "x", "payload": "y"}"#), (command, #"{"line": "x", "publish": "y"}"#),
            (command, #"{}"#), (command, #""x""#), (#""tapCommand": "panel-tap","#, #"{"line": "x"}"#),
        ] {
            #expect(throws: (any Error).self, "\(extra) \(tap)") { try Self.layout(extra, tap: tap) }
        }
    }

    @Test func theGaugeUnderAFingerIsFoundOnItsPage() throws {
        let l = try Self.layout(#""tapCommand": "/bin/true","#, tap: #"{"line": "x"}"#)
        let scene = LayoutScene(layout: l, width: 800, height: 480, page: 0, cachesStaticLayers: false)
        #expect(scene.gauge(atX: 10, y: 10) == 0 && scene.gauge(atX: 399.5, y: 479.5) == 0)
        #expect(scene.gauge(atX: 400, y: 10) == 1)
        #expect(scene.gauge(atX: -1, y: 10) == nil && scene.gauge(atX: 10, y: 480) == nil)
    }

    /// The program gets one line per tap on its standard input, an environment of
    /// its own, and is started again, not more than once in 5 s, when it exited.
    @Test func theTapCommandGetsALinePerTap() throws {
        let dir = "/tmp/paneld-tap-\(getpid())"
        mkdir(dir, 0o700)
        defer { _ = system("rm -rf '\(dir)'") }
        let script = dir + "/tap.sh"
        let f = fopen(script, "w")!
        fputs(
            "#!/bin/sh\nenv > \(dir)/env\nread line; echo \"$line\" >> \(dir)/lines\nread line; echo \"$line\" >> \(dir)/lines\n",
            f)
        fclose(f)
        chmod(script, 0o755)
        func lines() -> [String] {
            guard let f = fopen(dir + "/lines", "r") else { return [] }
            defer { fclose(f) }
            var out: [String] = []
            var buffer = [CChar](repeating: 0, count: 256)
            while fgets(&buffer, 256, f) != nil {
                out.append(String(cString: buffer).split(separator: "\n").first.map(String.init) ?? "")
            }
            return out
        }
        func waitFor(_ count: Int) -> [String] {
            for _ in 0..<200 where lines().count < count { usleep(10_000) }
            return lines()
        }
        let command = TapCommand(path: script)
        #expect(command.send("pump toggle", now: 0).hasPrefix("wrote"))
        #expect(command.send("pump off", now: 10).hasPrefix("wrote"))
        #expect(waitFor(2) == ["pump toggle", "pump off"])
        // The script exits after two lines; the next tap within 5 s of its start is dropped.
        usleep(100_000)
        #expect(command.send("third", now: 1000).contains("dropped"))
        #expect(command.send("fourth", now: 6000).hasPrefix("wrote"), "started again")
        #expect(waitFor(3).last == "fourth")
        command.stopProgram()
        var env = [CChar](repeating: 0, count: 4096)
        let e = fopen(dir + "/env", "r")!
        let n = fread(&env, 1, 4095, e)
        fclose(e)
        let text = String(decoding: env[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(text.contains("PATH=/usr/local/sbin:") && !text.contains("NOTIFY_SOCKET") && !text.contains("HOME="))
        #expect(TapCommand(path: dir + "/missing").send("x", now: 0).hasPrefix("cannot start"))
    }

    /// `"tap": "zoom"`: the gauge alone in the whole screen, as a layout of
    /// it alone draws it; the next tap shows the page again.
    @Test func aZoomTapShowsTheGaugeAloneUntilTheNextTap() throws {
        #expect(try Self.layout("", tap: #""zoom""#).gauges[0].tap == .zoom)
        #expect(throws: LayoutError.self) { try Self.layout("", tap: #""big""#) }
        let json = #"{"grid": {"margin": 4}, "gauges": [{"name": "a", "tap": "zoom"}, {"name": "b"}]}"#
        let l = try LayoutReader.parse(Array(json.utf8))
        let zoomed = LayoutScene(layout: l, width: 96, height: 64, alone: 0, cachesStaticLayers: false)
        #expect(
            zoomed.gauge(atX: 80, y: 10) == 0 && zoomed.gauge(atX: 2, y: 10) == nil,
            "the whole screen, inside the margin")
        let alone = try LayoutReader.parse(Array(#"{"grid": {"margin": 4}, "gauges": [{"name": "a"}]}"#.utf8))
        let (got, want) = (Image(width: 96, height: 64), Image(width: 96, height: 64))
        zoomed.drawAll(got.surface, values: ["a": 40, "b": 70])
        LayoutScene(layout: alone, width: 96, height: 64, cachesStaticLayers: false).drawAll(
            want.surface, values: ["a": 40])
        #expect(Self.bytes(got) == Self.bytes(want), "drawn as a layout of it alone")

        let rig = try LoopRig(l)
        try rig.turn()
        let full = [IntRect(x: 0, y: 0, width: 64, height: 32)]
        let frames = rig.output.presents.count
        #expect(rig.daemon.tapped(x: 40, y: 16) == false, "b has no action")
        #expect(rig.daemon.tapped(x: 10, y: 16) && rig.daemon.zoomed == 0)
        try rig.turn()
        #expect(rig.output.presents.count == frames + 1 && rig.output.presents.last == full)
        _ = rig.daemon.apply(.set(gauge: "b", value: 70))
        try rig.turn()
        #expect(rig.output.presents.count == frames + 1, "b is not shown: nothing to draw")
        #expect(rig.daemon.tapped(x: 60, y: 30) && rig.daemon.zoomed == nil, "any tap shows the page again")
        try rig.turn()
        #expect(rig.output.presents.count == frames + 2 && rig.output.presents.last == full)
    }

    static func bytes(_ img: Image) -> [UInt8] {
        (0..<img.height).flatMap { y in Array(UnsafeRawBufferPointer(start: img.surface.row(y), count: img.width * 4)) }
    }
}
