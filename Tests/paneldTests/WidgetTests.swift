import Glibc
import PanelGauge
import Testing

@testable import PaneldCore

/// Text widgets, clocks and pages: the layout keys and their mistakes, the
/// socket's text and `page` lines, the clock's and the rotation's schedules,
/// damage-only repaints, and the daemon's frames against `paneld render`.
@Suite(.serialized) struct WidgetTests {
    private func layout(_ json: String) throws -> Layout { try LayoutReader.parse(Array(json.utf8)) }
    private func parse(_ s: String, texts: Set<String> = []) -> Result<Command, LineError> {
        LineParser.parse(Array(s.utf8), texts: texts)
    }

    // MARK: the layout keys

    @Test func widgetsAndPagesAreRead() throws {
        let l = try layout(
            """
            {"pageInterval": 7.5,
             "pages": [{"name": "system", "gauges": [
                          {"name": "cpu"},
                          {"name": "status", "kind": "text", "text": "Starting", "align": "leading",
                           "size": "value", "color": "#FF0000"}]},
                       {"name": "clock", "grid": {"columns": 2}, "gauges": [
                          {"name": "time", "kind": "clock", "cell": {"row": 0, "column": 1}},
                          {"name": "secs", "kind": "clock", "format": "%H:%M:%S", "size": "title"}]}]}
            """)
        #expect(l.pageNames == ["system", "clock"])
        #expect(l.pageInterval == 7500)
        #expect(l.gauges.map(\.name) == ["cpu", "status", "time", "secs"])
        #expect(l.gauges.map(\.page) == [0, 0, 1, 1])
        #expect(
            l.gauges[1].widget
                == LayoutWidget(
                    kind: .text(initial: "Starting"), size: .value, alignment: .leading, color: Color(css: "#FF0000")))
        #expect(l.gauges[2].widget?.kind == .clock(format: "%H:%M") && l.gauges[2].widget?.size == .value)
        #expect(l.gauges[3].widget?.clockFormat == "%H:%M:%S" && l.gauges[3].widget?.size == .title)
        #expect(l.pages[1].grid?.columns == 2)
        #expect(l.defaultGauge == "cpu", "the first gauge, not a widget")
        let store = l.store()
        #expect(store.names == ["cpu"] && store.texts == ["status": "Starting"] && store.clocks == ["time", "secs"])
        #expect(l.staleRules.keys.sorted() == ["cpu"])
        // Each page on its own grid: both pages start at the top-left.
        let frames = l.placement(screen: (200, 100)).frames
        #expect(frames[0] == IntRect(x: 0, y: 0, width: 100, height: 100))
        #expect(frames[2] == IntRect(x: 100, y: 0, width: 100, height: 100))
        #expect(frames[3] == IntRect(x: 0, y: 0, width: 100, height: 100), "the next free cell of page 'clock'")
        // A plain list is one page named main.
        let plain = try layout(#"{"gauges": [{"name": "a"}, {"name": "t", "kind": "text"}]}"#)
        #expect(plain.pageNames == ["main"] && plain.gauges.allSatisfy { $0.page == 0 })
        #expect(plain.store().texts == ["t": ""])
    }

    @Test(arguments: [
        (
            "{\"gauges\": [{\"name\": \"a\",\n \"kind\": \"label\"}]}", 2, "gauges[0].kind",
            "is not 'gauge', 'text', 'clock' or 'chart'"
        ),
        (
            "{\"gauges\": [{\"name\": \"t\", \"kind\": \"text\",\n \"range\": [0, 1]}]}", 2, "gauges[0].range",
            "unknown key"
        ),
        (
            "{\"gauges\": [{\"name\": \"t\", \"kind\": \"text\",\n \"format\": \"%H\"}]}", 2, "gauges[0].format",
            "unknown key"
        ),
        (
            "{\"gauges\": [{\"name\": \"c\", \"kind\": \"clock\",\n \"text\": \"x\"}]}", 2, "gauges[0].text",
            "unknown key"
        ),
        (
            "{\"gauges\": [{\"name\": \"t\", \"kind\": \"text\",\n \"text\": 5}]}", 2, "gauges[0].text",
            "expected a string"
        ),
        (
            "{\"gauges\": [{\"name\": \"t\", \"kind\": \"text\",\n \"size\": \"huge\"}]}", 2, "gauges[0].size",
            "'huge' is not 'title' or 'value'"
        ),
        (
            "{\"gauges\": [{\"name\": \"t\", \"kind\": \"text\",\n \"align\": \"left\"}]}", 2, "gauges[0].align",
            "is not 'leading', 'center' or 'trailing'"
        ),
        (
            "{\"gauges\": [{\"name\": \"t\", \"kind\": \"text\",\n \"color\": \"rouge\"}]}", 2, "gauges[0].color",
            "is not a colour"
        ),
        ("{\"gauges\": [{\"kind\": \"text\"}]}", 1, "gauges[0].name", "missing"),
        (
            // (Concatenated, not interpolated: Swift 6.0.3's type checker crashes on
            // an interpolation in a test's arguments.)
            "{\"gauges\": [{\"name\": \"t\", \"kind\": \"text\",\n \"text\": \"" + String(repeating: "x", count: 257)
                + "\"}]}",
            2,
            "gauges[0].text", "longer than 256 bytes"
        ),
        (
            "{\"gauges\": [{\"name\": \"t\", \"kind\": \"text\",\n \"text\": \"a\\nb\"}]}", 2, "gauges[0].text",
            "one line"
        ),
        (
            "{\"gauges\": [{\"name\": \"page\", \"kind\": \"text\"}]}", 1, "gauges[0].name",
            "not 'get', 'list', 'page', 'reload'"
        ),
        (
            "{\"gauges\": [{\"name\": \"c\", \"kind\": \"clock\",\n \"format\": \"%H%n\"}]}", 2, "gauges[0].format",
            "'%n' is not a strftime conversion"
        ),
        (
            "{\"gauges\": [{\"name\": \"c\", \"kind\": \"clock\",\n \"format\": \"%H:%\"}]}", 2, "gauges[0].format",
            "lone '%'"
        ),
        (
            "{\"gauges\": [{\"name\": \"c\", \"kind\": \"clock\",\n \"format\": \"\"}]}", 2, "gauges[0].format",
            "must not be empty"
        ),
        (
            "{\"gauges\": [{\"name\": \"t\", \"kind\": \"text\",\n \"rect\": [0, 0, 10, 10], \"cell\": {\"row\": 0, \"column\": 0}}]}",
            2, "gauges[0].cell", "either rect or cell"
        ),
        (
            "{\"default\": \"t\", \"gauges\": [{\"name\": \"a\"},\n {\"name\": \"t\", \"kind\": \"text\"}]}", 1,
            "default", "'t' is a widget, not a gauge"
        ),
        (
            "{\"gauges\": [{\"name\": \"a\"}],\n \"pages\": [{\"name\": \"p\", \"gauges\": [{\"name\": \"b\"}]}]}", 1,
            "gauges", "either gauges or pages"
        ),
        (
            "{\"pages\": [{\"name\": \"p\", \"gauges\": [{\"name\": \"a\"}]},\n {\"name\": \"p\", \"gauges\": [{\"name\": \"b\"}]}]}",
            2, "pages[1].name", "duplicate page name 'p' (also pages[0])"
        ),
        (
            "{\"pages\": [{\"name\": \"p\", \"gauges\": [{\"name\": \"a\"}]},\n {\"name\": \"q\", \"gauges\": [{\"name\": \"a\"}]}]}",
            2, "pages[1].gauges[0].name", "duplicate name 'a' (also pages[0].gauges[0])"
        ),
        (
            "{\"pages\": [{\"name\": \"p\", \"gauges\": [{\"name\": \"a\"}]},\n {\"name\": \"q\"}]}", 2,
            "pages[1].gauges", "missing"
        ),
        ("{\"pages\": [{\"name\": \"p\", \"gauges\": []}]}", 1, "pages[0].gauges", "needs at least one gauge"),
        (
            "{\"pages\": [{\"name\": \"p\",\n \"gauges\": [{\"name\": \"a\"}], \"colour\": 1}]}", 2, "pages[0].colour",
            "unknown key"
        ),
        (
            "{\"pages\": [{\"name\": \"9p\", \"gauges\": [{\"name\": \"a\"}]}]}", 1, "pages[0].name",
            "is not a page name"
        ),
        ("{\"pages\": []}", 1, "pages", "expected an array of pages"),
        ("{\"pageInterval\": 0.5,\n \"gauges\": [{\"name\": \"a\"}]}", 1, "pageInterval", "must be from 1 to 86400"),
        ("{\"pageInterval\": \"10\",\n \"gauges\": [{\"name\": \"a\"}]}", 1, "pageInterval", "expected a number"),
        (
            "{\"pages\": [{\"name\": \"p\", \"grid\": {\"columns\": 1, \"rows\": 1}, \"gauges\": [{\"name\": \"a\"},\n {\"name\": \"t\", \"kind\": \"text\"}]}]}",
            2, "pages[0].gauges[1]", "finds no free cell"
        ),
    ])
    func mistakesAreReportedWithLineAndKey(json: String, line: Int, path: String, message: String) {
        let found = issues(json)
        #expect(found.contains { $0.line == line && $0.path == path && $0.message.contains(message) }, "got \(found)")
    }

    @Test func aPagesGridThatLeavesNoRoomIsNamedForThePage() throws {
        let l = try layout(
            """
            {"pages": [{"name": "p", "gauges": [{"name": "a"}]},
                       {"name": "q", "grid": {"columns": 4, "margin": 30},
                        "gauges": [{"name": "b"}]}]}
            """)
        let found = l.placement(screen: (63, 64)).issues
        #expect(
            found.count == 1 && found[0].path == "pages[1].grid" && found[0].line == 2
                && found[0].message.contains("no room for pages[1].gauges[0] ('b')"), "\(found)")
    }

    @Test func aPageIntervalWithOnePageIsAWarning() throws {
        let l = try layout("{\"pageInterval\": 5,\n \"gauges\": [{\"name\": \"a\"}]}")
        #expect(l.warnings.contains { $0.line == 1 && $0.path == "pageInterval" && $0.message.contains("one page") })
    }

    // MARK: the socket

    @Test func aTextWidgetsNameStartsItsTextLine() {
        let texts: Set = ["status"]
        #expect(
            parse("status Pump 2 running", texts: texts) == .success(.setText(widget: "status", text: "Pump 2 running"))
        )
        #expect(
            parse("  status \t Pump:  on=1 \r", texts: texts)
                == .success(.setText(widget: "status", text: "Pump:  on=1")))
        #expect(
            parse("status", texts: texts) == .success(.setText(widget: "status", text: "")), "the name alone clears it")
        #expect(parse("status 42", texts: texts) == .success(.setText(widget: "status", text: "42")), "as sent")
        // Other lines as before.
        #expect(parse("cpu 42", texts: texts) == .success(.set(gauge: "cpu", value: 42)))
        #expect(parse("cpu Pump", texts: texts) == .failure(.notANumber("Pump")))
        #expect(parse("cpu Pump 2", texts: texts) == .failure(.tooManyFields))
        #expect(parse("statusx 1", texts: texts) == .success(.set(gauge: "statusx", value: 1)))
        #expect(parse("page system") == .success(.page("system")))
        #expect(parse("page") == .success(.page(nil)))
        #expect(parse("page a b") == .failure(.tooManyFields))
    }

    @Test func theStoreSetsTextsAndRefusesWhatDoesNotFit() {
        var s = GaugeStore(
            names: ["cpu"], defaultGauge: "cpu", initial: [:], texts: ["status": ""], clocks: ["time"])
        #expect(s.apply(.setText(widget: "status", text: "Pump 2 running")) == .success(""))
        #expect(s.texts["status"] == "Pump 2 running" && s.takeChanged() == ["status"])
        #expect(s.apply(.get(gauge: "status")) == .success("status Pump 2 running\n"))
        #expect(s.apply(.set(gauge: "status", value: 7.5)) == .success(""), "a number shows as text")
        #expect(s.texts["status"] == "7.5")
        let long = String(repeating: "x", count: 257)
        let before = s
        #expect(s.apply(.setText(widget: "status", text: long)) == .failure(.textTooLong(widget: "status", limit: 256)))
        #expect(s == before)
        #expect(
            "ERR \(LineError.textTooLong(widget: "status", limit: 256))"
                == "ERR text for 'status' too long (limit 256 bytes)")
        #expect(s.apply(.setText(widget: "status", text: String(repeating: "é", count: 128))) == .success(""))
        #expect(s.apply(.adjust(gauge: "status", delta: 1)) == .failure(.notAGauge("status")))
        #expect(s.apply(.set(gauge: "time", value: 1)) == .failure(.isAClock("time")))
        #expect(s.apply(.setText(widget: "time", text: "noon")) == .failure(.isAClock("time")))
        #expect(
            s.apply(.list) == .success("cpu -\nstatus \(String(repeating: "é", count: 128))\nEND\n"),
            "list answers the gauges, then the text widgets")
        #expect(s.apply(.page("x")) == .failure(.notOnThisInput("page")))
    }

    @Test func textsAreKeptInTheStateFile() {
        var store = GaugeStore(names: ["cpu"], defaultGauge: "cpu", initial: [:], texts: ["status": "", "note": ""])
        store.set("cpu", 12.5)
        store.setText("status", "Pump 2: running 42")
        let bytes = StateFile.encode(store)
        #expect(String(decoding: bytes, as: UTF8.self) == "cpu 12.5\nnote \nstatus Pump 2: running 42\n")
        let back = StateFile.parse(bytes, texts: ["status", "note"])
        #expect(back.values == ["cpu": 12.5] && back.texts == ["status": "Pump 2: running 42", "note": ""])
        #expect(back.skipped == 0)
        #expect(StateFile.parse(bytes).skipped == 2, "without the widgets, their lines are not values")
    }

    // MARK: the clock's schedule

    @Test func aClockWakesWhenItsTextChanges() {
        let t: Int64 = 1_764_252_313_250  // 2025-11-27 14:05:13.250 UTC
        #expect(ClockFormat.nextChange("%H:%M", after: t) == 1_764_252_360_000, "the next minute")
        #expect(ClockFormat.nextChange("%H:%M:%S", after: t) == 1_764_252_314_000, "the next second")
        #expect(
            ClockFormat.nextChange("%H:%M", after: 1_764_252_360_000) == 1_764_252_420_000, "on a boundary: the next")
        #expect(ClockFormat.nextChange("%T", after: t) == 1_764_252_314_000)
        #expect(ClockFormat.nextChange("%-S", after: t) == 1_764_252_314_000, "a flag before the conversion")
        #expect(ClockFormat.nextChange("100%%S", after: t) == 1_764_252_360_000, "%%S is a percent sign and an S")
        #expect(ClockFormat.nextChange("%a %d %b", after: t) == 1_764_252_360_000)
        // Local minutes in a zone half an hour off UTC fall on UTC minutes too; a
        // zone 30 s off would not.
        #expect(ClockFormat.nextChange("%H:%M", after: t, utcOffset: 19_800) == 1_764_252_360_000)
        #expect(ClockFormat.nextChange("%H:%M", after: t, utcOffset: 30) == 1_764_252_330_000)
        #expect(ClockFormat.showsSeconds("%c") && ClockFormat.showsSeconds("%r") && !ClockFormat.showsSeconds("%H:%M"))
        #expect(ClockFormat.problem("%H:%M") == nil && ClockFormat.problem("%Ey %OS") == nil)
    }

    @Test func aClockShowsItsFormatInLocalTime() {
        setenv("TZ", "UTC", 1)
        tzset()
        #expect(ClockFormat.text("%H:%M", at: 1_764_252_313) == "14:05")
        #expect(ClockFormat.text("%a %d %b %Y, %H:%M:%S", at: 1_764_252_313) == "Thu 27 Nov 2025, 14:05:13")
        setenv("TZ", "Asia/Kolkata", 1)
        tzset()
        #expect(ClockFormat.text("%H:%M", at: 1_764_252_313) == "19:35")
        #expect(ClockFormat.utcOffset(at: 1_764_252_313) == 19_800)
        setenv("TZ", "UTC", 1)
        tzset()
    }

    // MARK: the rotation's schedule

    @Test func pagesRotateEveryIntervalFromTheLastChoice() {
        var r = PageRotation(count: 3, interval: 10_000, now: 1000)
        #expect(r.page(at: 1000) == 0 && r.page(at: 10_999) == 0 && r.page(at: 11_000) == 1)
        #expect(r.page(at: 21_000) == 2 && r.page(at: 31_000) == 0, "round again")
        #expect(r.nextChange(after: 1000) == 11_000 && r.nextChange(after: 11_000) == 21_000)
        #expect(r.nextChange(after: 15_500) == 21_000)
        r.choose(2, now: 15_500)
        #expect(r.page(at: 15_500) == 2 && r.page(at: 25_499) == 2 && r.page(at: 25_500) == 0)
        #expect(r.nextChange(after: 15_500) == 25_500, "a whole interval for the chosen page")
        let still = PageRotation(count: 3, interval: nil, page: 1, now: 0)
        #expect(still.page(at: 1_000_000) == 1 && still.nextChange(after: 0) == nil)
        let one = PageRotation(count: 1, interval: 5000, now: 0)
        #expect(one.page(at: 99_999) == 0 && one.nextChange(after: 0) == nil)
    }

    // MARK: drawing and the daemon's loop

    /// Two slots on a 64x32 screen: a bar and a text widget (or a clock).
    private static func twoSlots(_ widget: String) -> String {
        """
        {"gauges": [{"name": "a", "style": "linearCapacity", "rect": [0, 0, 32, 32]},
                    {"name": "w", \(widget), "rect": [32, 0, 32, 32]}]}
        """
    }

    private func pixels(_ img: Image) -> [UInt8] {
        (0..<img.height).flatMap { y in
            Array(UnsafeRawBufferPointer(start: img.surface.row(y), count: img.width * 4))
        }
    }

    private func picture(
        _ layout: Layout, page: Int = 0, values: [String: Double] = [:], texts: [String: String] = [:]
    ) -> [UInt8] {
        let img = Image(width: 64, height: 32)
        LayoutScene(layout: layout, width: 64, height: 32, page: page, cachesStaticLayers: false)
            .drawAll(img.surface, values: values, texts: texts)
        return pixels(img)
    }

    @Test func textOnTheSocketRepaintsTheWidgetsRectAlone() throws {
        let l = try layout(Self.twoSlots(#""kind": "text", "text": "Hi""#))
        let rig = try LoopRig(l)
        try rig.turn()
        try rig.turn()
        #expect(pixels(rig.output.image) == picture(l, texts: ["w": "Hi"]), "the layout's text first")
        let c = try TestClient(rig.dir.file("s.sock"))
        try rig.turn()  // accept
        try c.send("w Pump 2 running\nget w\na Pump\n")
        try rig.turn()
        #expect(try c.readLine(timeout: 1000) == "w Pump 2 running")
        #expect(try c.readLine(timeout: 1000) == "ERR not a number: 'Pump'", "text for a gauge, as before")
        #expect(rig.output.presents.last == [IntRect(x: 32, y: 0, width: 32, height: 32)], "the widget's rect alone")
        #expect(pixels(rig.output.image) == picture(l, texts: ["w": "Pump 2 running"]))
        #expect(pixels(rig.output.image) != picture(l, texts: ["w": "Hi"]))
        let presents = rig.output.presents.count
        try c.send("w Pump 2 running\nw \(String(repeating: "x", count: 300))\n")
        try rig.turn()
        #expect(try c.readLine(timeout: 1000) == "ERR text for 'w' too long (limit 256 bytes)")
        #expect(rig.output.presents.count == presents, "the same text again: no frame")
    }

    @Test func longTextEndsInAnEllipsisInsideItsFrame() throws {
        let l = try layout(Self.twoSlots(#""kind": "text""#))
        let long = String(repeating: "Pump 2 running ", count: 10)
        let shown = picture(l, texts: ["w": long])
        let bar = picture(l)
        // Nothing drawn outside the widget's frame (columns 32..<64): the bar's half is unchanged.
        for y in 0..<32 {
            #expect(shown[(y * 64 * 4)..<(y * 64 * 4 + 32 * 4)] == bar[(y * 64 * 4)..<(y * 64 * 4 + 32 * 4)])
        }
        let widget = l.gauges[1].widget!
        let frame = IntRect(x: 32, y: 0, width: 32, height: 32)
        let px = widget.pixelSize(in: frame, cap: nil, font: .default, fonts: .shared)
        let font = try FontCache.shared.font(.default, pixelSize: px)
        let cut = font.truncated(long, toWidth: 32 - 2 * LayoutWidget.padding(px))
        #expect(cut.hasSuffix(Font.ellipsis) && long.hasPrefix(String(cut.dropLast())))
    }

    @Test func widgetTextFollowsThePanelsTypeScale() throws {
        let frames = try layout(
            """
            {"grid": {"columns": 3, "rows": 2},
             "gauges": [{"name": "a", "label": "A"}, {"name": "b", "label": "B"}, {"name": "c", "label": "C"},
                        {"name": "t", "kind": "text", "cell": {"row": 1, "column": 0, "columnSpan": 3}}]}
            """
        ).placement(screen: (800, 480)).frames
        let gaugeSizes = TypeScale().sizes(for: Size(width: Double(frames[0].width), height: Double(frames[0].height)))
        let cap = TextSizes.smallest(of: Array(frames[0..<3]))
        let w = LayoutWidget(kind: .text(initial: ""))
        #expect(
            w.pixelSize(in: frames[3], cap: cap, font: .default, fonts: .shared) == gaugeSizes.title,
            "a text spanning three cells takes its neighbours' title size")
        #expect(TypeScale.steps.contains(w.pixelSize(in: frames[3], cap: nil, font: .default, fonts: .shared)))
        var clock = LayoutWidget(kind: .clock(format: "%H:%M"))
        clock.size = .value
        let px = clock.pixelSize(in: frames[0], cap: cap, font: .default, fonts: .shared)
        #expect(px <= gaugeSizes.value && TypeScale.steps.contains(px))
        let font = try FontCache.shared.font(.default, pixelSize: px)
        #expect(font.advance(of: "20:58") + 2 * LayoutWidget.padding(px) <= Double(frames[0].width))
    }

    @Test func aClockRepaintsItsRectAloneWhenItsTextChanges() throws {
        let l = try layout(Self.twoSlots(#""kind": "clock", "format": "%S""#))
        let renderer = LayoutScene(layout: l, width: 64, height: 32)
        #expect(renderer.damage(for: ["w"], from: [:], to: [:]) == [IntRect(x: 32, y: 0, width: 32, height: 32)])
        let rig = try LoopRig(l)
        try rig.turn()
        try rig.turn()
        let timeout = rig.daemon.timeout(now: monotonicMilliseconds())
        #expect(timeout >= 0 && timeout <= 1000 + ClockPart.margin, "wakes for the next second: \(timeout) ms")
        var wakeUps = 0
        while rig.output.presents.count == 1 && wakeUps < 5 {
            try rig.turn()
            wakeUps += 1
        }
        #expect(wakeUps == 1, "one wake-up for the change")
        #expect(rig.output.presents.last == [IntRect(x: 32, y: 0, width: 32, height: 32)], "the clock's rect alone")
        let shown = try #require(rig.daemon.shownTexts["w"])
        #expect(pixels(rig.output.image) == picture(l, texts: ["w": shown]))
        let minutes = try layout(Self.twoSlots(#""kind": "clock""#))
        let idle = try LoopRig(minutes)
        try idle.turn()
        try idle.turn()
        let t = idle.daemon.timeout(now: monotonicMilliseconds())
        #expect(t >= 0 && t <= 60_000 + ClockPart.margin, "%H:%M wakes at the next minute: \(t) ms")
    }

    private static let twoPages = """
        {"pages": [{"name": "one", "gauges": [{"name": "a", "style": "linearCapacity", "format": "percent"}]},
                   {"name": "two", "gauges": [{"name": "b", "style": "linearCapacity", "format": "percent"},
                                              {"name": "t", "kind": "text", "text": "two"}]}]}
        """

    @Test func pageOnTheSocketShowsAPageInOneFullFrame() throws {
        let l = try layout(Self.twoPages)
        let rig = try LoopRig(l)
        try rig.turn()
        try rig.turn()
        #expect(rig.daemon.page == 0 && pixels(rig.output.image) == picture(l, page: 0))
        let c = try TestClient(rig.dir.file("s.sock"))
        try rig.turn()  // accept
        // b changes while its page is hidden: kept, not drawn.
        try c.send("b 70\nt Pump 2\n")
        try rig.turn()
        #expect(rig.output.presents.count == 1, "nothing shown changed")
        try c.send("page nope\npage\npage two\n")
        try rig.turn()
        #expect(try c.readLine(timeout: 1000) == "ERR unknown page 'nope' (pages: one, two)")
        #expect(try c.readLine(timeout: 1000) == "page one")
        #expect(try c.readLine(timeout: 1000) == "OK page two")
        #expect(rig.daemon.page == 1)
        #expect(rig.output.presents.last == [IntRect(x: 0, y: 0, width: 64, height: 32)], "one full frame")
        #expect(pixels(rig.output.image) == picture(l, page: 1, values: ["b": 70], texts: ["t": "Pump 2"]))
        try c.send("get b\na 30\n")
        try rig.turn()
        #expect(try c.readLine(timeout: 1000) == "b 70")
        #expect(rig.output.presents.count == 2, "a's page is hidden")
        try c.send("page one\n")
        try rig.turn()
        #expect(try c.readLine(timeout: 1000) == "OK page one")
        #expect(
            pixels(rig.output.image) == picture(l, page: 0, values: ["a": 30]), "a's value shows when its page returns")
    }

    @Test func pagesTurnAtTheirIntervalWithOneWakeUp() throws {
        let l = try layout(
            Self.twoPages.replacingOccurrences(of: "{\"pages\"", with: "{\"pageInterval\": 1, \"pages\""))
        let rig = try LoopRig(l)
        try rig.turn()
        try rig.turn()
        let timeout = rig.daemon.timeout(now: monotonicMilliseconds())
        #expect(timeout > 0 && timeout <= 1000, "\(timeout) ms")
        var wakeUps = 0
        while rig.daemon.page == 0 && wakeUps < 5 {
            try rig.turn()
            wakeUps += 1
        }
        #expect(wakeUps == 1 && rig.daemon.page == 1)
        #expect(rig.output.presents.last == [IntRect(x: 0, y: 0, width: 64, height: 32)])
        #expect(pixels(rig.output.image) == picture(l, page: 1, texts: ["t": "two"]))
    }

    /// paneld as users run it: the daemon's PNG after `page`, text and value
    /// lines equals `paneld render` of the same page and state.
    @Test func theDaemonShowsWhatRenderDrawsForAPage() throws {
        let dir = TempDirectory()
        try dir.write(
            "l.json",
            """
            {"mode": "320x200",
             "pages": [{"name": "one", "gauges": [{"name": "a", "style": "ring", "label": "A"}]},
                       {"name": "two", "grid": {"rows": 2}, "gauges": [
                          {"name": "b", "style": "linearCapacity", "label": "Flow", "units": "l/min"},
                          {"name": "status", "kind": "text", "text": "Starting", "align": "leading"},
                          {"name": "year", "kind": "clock", "format": "%Y"}]}]}
            """)
        let d = try DaemonProcess(dir, args: ["--config", dir.file("l.json"), "--output", "png:" + dir.file("d.png")])
        defer {
            d.signal(SIGTERM)
            _ = d.wait(timeout: 5_000)
        }
        let c = try TestClient(d.socketPath)
        let sent = try runPaneld(
            [
                "send", "--socket", d.socketPath, "status Pump 2: running on the spare line", "b 23", "a 64",
            ], in: dir)
        #expect(sent.status == 0 && sent.out.isEmpty, "\(sent.out) \(sent.err)")
        #expect(try c.ask("get status") == "status Pump 2: running on the spare line")
        // --text NAME: each LINE is the widget's text; the socket from $PANELD_SOCKET.
        let viaText = try runCommand(
            [
                "/usr/bin/env", "PANELD_SOCKET=" + d.socketPath, paneldBinary(), "send", "--text", "status",
                "Pump 2: running on the spare line, a long note",
            ], in: dir)
        #expect(viaText.status == 0 && viaText.out.isEmpty, "\(viaText.out) \(viaText.err)")
        #expect(try c.ask("get status") == "status Pump 2: running on the spare line, a long note")
        // A text for a gauge is paneld's to refuse.
        let refused = try runPaneld(["send", "--socket", d.socketPath, "b Pump on"], in: dir)
        #expect(refused.status == 1 && refused.out.hasPrefix("ERR "), "\(refused)")
        #expect(try c.ask("page two") == "OK page two")
        let r = try runPaneld(
            [
                "render", "--config", dir.file("l.json"), "--page", "two", "--set", "a=64", "--set", "b=23", "--text",
                "status=Pump 2: running on the spare line, a long note", "--output", dir.file("r.png"),
            ], in: dir)
        #expect(r.status == 0, "\(r.err)")
        let want = try PNG.read(dir.file("r.png"))
        #expect(pngComesToShow(dir.file("d.png"), want), "the daemon's frame equals paneld render's output")
    }

    /// A reload keeps the page shown (by name) and the texts of widgets that keep their names.
    @Test func aReloadKeepsThePageAndTheTexts() throws {
        let dir = TempDirectory()
        try dir.write("l.json", Self.twoPages)
        let rig = try LoopRig(try LayoutReader.read(file: dir.file("l.json")), layoutFile: dir.file("l.json"))
        try rig.turn()
        try rig.turn()
        let c = try TestClient(rig.dir.file("s.sock"))
        try rig.turn()
        try c.send("t Pump 2\npage two\n")
        try rig.turn()
        #expect(try c.readLine(timeout: 1000) == "OK page two")
        try dir.write(
            "l.json", Self.twoPages.replacingOccurrences(of: "\"name\": \"one\"", with: "\"name\": \"first\""))
        try c.send("reload\npage\nget t\n")
        try rig.turn()
        #expect(try c.readLine(timeout: 1000).hasPrefix("OK layout"))
        #expect(try c.readLine(timeout: 1000) == "page two")
        #expect(try c.readLine(timeout: 1000) == "t Pump 2")
        try rig.turn()
        let want = picture(try LayoutReader.read(file: dir.file("l.json")), page: 1, texts: ["t": "Pump 2"])
        #expect(pixels(rig.output.image) == want)
    }

    /// A clock with seconds wakes the daemon about once a second, not more:
    /// a handful of wake-ups in 2.5 s.
    @Test func theDaemonSleepsBetweenTheClocksSeconds() throws {
        let dir = TempDirectory()
        try dir.write(
            "l.json",
            """
            {"gauges": [{"name": "a", "style": "ring", "rect": [0, 0, 64, 64]},
                        {"name": "time", "kind": "clock", "format": "%H:%M:%S", "rect": [64, 0, 64, 64]}]}
            """)
        let d = try DaemonProcess(
            dir, args: ["--config", dir.file("l.json"), "--output", "png:" + dir.file("f.png"), "--size", "128x64"])
        defer {
            d.signal(SIGTERM)
            _ = d.wait(timeout: 5_000)
        }
        usleep(200_000)
        let wakeUps = try #require(d.wakeUps(during: 2_500_000))
        print("clock: \(wakeUps) wake-ups in 2.5 s, the text changing 2 or 3 times")
        #expect(wakeUps <= 15, "wake-ups: \(wakeUps)")
    }

    @Test func renderRefusesAnUnknownPageOrTextWidget() throws {
        let dir = TempDirectory()
        try dir.write("l.json", Self.twoPages)
        for (args, message) in [
            (["--page", "three"], "--page three: unknown page 'three' (pages: one, two)"),
            (["--text", "a=x"], "the layout has no text widget named 'a' (text widgets: t)"),
            (["--text", "=x"], "--text '=x' is not NAME=TEXT"),
            (["--time", "yesterday"], "--time 'yesterday' is not a local time"),
        ] {
            let r = try runPaneld(
                ["render", "--config", dir.file("l.json"), "--output", dir.file("x.png")] + args, in: dir)
            #expect(r.status != 0 && r.err.contains(message), "\(args): \(r.err)")
        }
        #expect(access(dir.file("x.png"), F_OK) != 0)
    }
}
