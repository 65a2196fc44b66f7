import PanelGauge
import Testing

@testable import PanelDisplay
@testable import PaneldCore

private func layout(_ json: String) throws -> Layout { try LayoutReader.parse(Array(json.utf8)) }

@Suite struct JSONReaderTests {
    @Test func readsEveryKindWithLines() throws {
        let v = try JSONReader.parse(
            Array("{\n \"a\": [1, -2.5e1, true, false, null],\n \"b\": \"x\\u00e9\\n\\ud83d\\ude00\"\n}".utf8))
        guard case .object(let m) = v.kind else {
            Issue.record("not an object")
            return
        }
        #expect(m.map(\.key) == ["a", "b"])
        #expect(m[0].value.line == 2 && m[1].value.line == 3)
        #expect(
            m[0].value.kind
                == .array([
                    JSONValue(.number(1), line: 2), JSONValue(.number(-25), line: 2),
                    JSONValue(.bool(true), line: 2), JSONValue(.bool(false), line: 2),
                    JSONValue(.null, line: 2),
                ]))
        #expect(m[1].value.kind == .string("xé\n😀"))
    }

    @Test(arguments: [
        ("", 1, "unexpected end of file"),
        ("{", 1, "expected a \"key\" in an object"),
        ("{\"a\": 1,}", 1, "expected a \"key\" in an object"),
        ("[1, 2,]", 1, "unexpected ']'"),
        ("[1 2]", 1, "expected ',' or ']' in an array"),
        ("{\"a\" 1}", 1, "expected ':' after \"a\""),
        ("{\"a\": 1, \"a\": 2}", 1, "duplicate key \"a\""),
        ("{\n\n  \"a\": tru }", 3, "invalid literal (expected 'true')"),
        ("01", 1, "leading zero in a number"),
        ("1.", 1, "expected digits after '.'"),
        ("1e+", 1, "expected digits in an exponent"),
        ("-", 1, "expected digits in a number"),
        ("NaN", 1, "unexpected 'N'"),
        ("1e999", 1, "number out of range"),
        ("\"abc", 1, "unterminated string"),
        ("\"a\nb\"", 1, "unterminated string (newline inside)"),
        ("\"\\x\"", 1, "unknown escape '\\x'"),
        ("\"\\ud800\"", 1, "unpaired surrogate in \\u escape"),
        ("\"\\u12G4\"", 1, "bad hex digit in \\u escape"),
        ("// c\n{}", 1, "unexpected '/'"),
        ("{} {}", 1, "unexpected '{' after the document"),
    ])
    func reportsSyntaxErrorsWithLines(text: String, line: Int, message: String) {
        do {
            _ = try JSONReader.parse(Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.message == message)
        }
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONSyntaxError.self) { try JSONReader.parse([0x22, 0xFF, 0x22]) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONReader.parse(Array(deep.utf8)) }
        let ok = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(throws: Never.self) { try JSONReader.parse(Array(ok.utf8)) }
    }
}

@Suite struct LayoutReaderTests {
    static let full = """
        {
          "display": "/dev/dri/card0", "connector": "HDMI-A-1", "mode": "800x480@60",
          "format": "rgb565", "rotation": 90, "background": "#101010", "foreground": "#EEEEEE",
          "font": "/fonts/Panel.ttf", "default": "mem",
          "statsd": "127.0.0.1:8125", "animation": 250,
          "gauges": [
            { "name": "cpu", "style": "accessoryCircular", "rect": [0, 0, 240, 240], "range": [0, 100],
              "label": "CPU", "units": "%", "format": {"kind": "number", "decimals": 1}, "tint": "#0A84FF",
              "minimumLabel": "0", "maximumLabel": "100", "labelSize": 14,
              "thresholds": [ { "above": 80, "color": "#FF9500" }, { "above": 95, "color": "#FF3B30" } ] },
            { "name": "mem", "style": "stepped", "segments": 8, "rect": [0, 240, 480, 100], "range": [-10, 10],
              "gradient": ["#34C759", "#FFD60A", "#FF3B30"], "format": "percent" }
          ]
        }
        """

    @Test func readsEveryField() throws {
        let l = try LayoutReader.parse(Array(LayoutReaderTests.full.utf8), fileReadable: { $0 == "/fonts/Panel.ttf" })
        #expect(l.display == "/dev/dri/card0" && l.connector == "HDMI-A-1")
        #expect(l.mode == ModeRequest(width: 800, height: 480, refresh: 60))
        #expect(l.pixelFormat == .rgb565 && l.rotation == .clockwise90)
        #expect(l.logicalSize! == (480, 800))
        #expect(l.background == Color(hex: 0x101010) && l.foreground == Color(hex: 0xEEEEEE))
        #expect(l.font == "/fonts/Panel.ttf")
        #expect(l.defaultGauge == "mem" && l.statsd == "127.0.0.1:8125" && l.animation == 250)
        #expect(l.gauges.map(\.name) == ["cpu", "mem"])
        let cpu = l.gauges[0]
        #expect(cpu.rect == IntRect(x: 0, y: 0, width: 240, height: 240))
        #expect(cpu.gauge.style is AccessoryCircularGaugeStyle)
        #expect(cpu.gauge.label?.text == "CPU" && cpu.gauge.minimumValueLabel?.text == "0")
        #expect(cpu.gauge.maximumValueLabel?.text == "100")
        #expect(cpu.gauge.environment.labelSize == 14 && cpu.gauge.environment.foreground == Color(hex: 0xEEEEEE))
        #expect(cpu.gauge.environment.background == Color(hex: 0x101010))
        #expect(cpu.gauge.environment.font == FontDescriptor(path: "/fonts/Panel.ttf"))
        #expect(cpu.gauge(showing: 42.25).configuration.currentValueLabel?.text == "42.3 %")
        #expect(cpu.gauge(showing: 50).indicatorColor == Color(hex: 0x0A84FF))
        #expect(cpu.gauge(showing: 80).indicatorColor == Color(hex: 0xFF9500))
        #expect(cpu.gauge(showing: 99).indicatorColor == Color(hex: 0xFF3B30))
        // A ring's own colours run red to green: under thresholds without a tint it is green below them.
        let ring = try LayoutReader.parse(
            Array(##"{"gauges": [{"name": "r", "thresholds": [{"above": 80, "color": "#FF3B30"}]}]}"##.utf8))
        #expect(ring.gauges[0].gauge(showing: 10).indicatorColor == .green)
        #expect(ring.gauges[0].gauge(showing: 90).indicatorColor == Color(hex: 0xFF3B30))
        let mem = l.gauges[1]
        #expect(try mem.range == ValueRange(-10, 10))
        #expect(mem.gauge.style is SteppedGaugeStyle)
        #expect(mem.gauge(showing: 0).configuration.currentValueLabel?.text == "50 %")
        #expect(mem.gauge(showing: -10).indicatorColor == Color(hex: 0x34C759))
        #expect(mem.gauge(showing: 10).indicatorColor == Color(hex: 0xFF3B30))
    }

    @Test func minimalLayoutGetsDefaults() throws {
        let l = try layout(##"{"gauges": [{"name": "cpu"}]}"##)
        #expect(l.defaultGauge == "cpu" && l.gauges[0].gauge.style is RingGaugeStyle && l.gauges[0].rect == nil)
        #expect(l.gauges[0].range == (try ValueRange(0, 100)) && l.rotation == .none && l.mode == nil)
    }

    @Test func acceptsTheShortStyleAliases() throws {
        let l = try layout(##"{"gauges": [{"name": "a", "style": "arc"}, {"name": "b", "style": "bar"}]}"##)
        #expect(l.gauges[0].gauge.style is AccessoryCircularGaugeStyle)
        #expect(l.gauges[1].gauge.style is LinearCapacityGaugeStyle)
    }

    @Test func theDefaultLayoutIsOneRingNamedValue() throws {
        let l = Layout.fallback
        #expect(l.gauges.map(\.name) == ["value"] && l.defaultGauge == "value")
        #expect(l.gauges[0].gauge.style is RingGaugeStyle && l.gauges[0].rect == nil)
        #expect(try l.gauges[0].range == ValueRange(0, 100))
    }

    @Test func displayTakesAByPathLinkOrAConnectorName() throws {
        let byPath = try LayoutReader.parse(
            Array(##"{"gauges": [{"name": "a"}], "display": "/dev/dri/by-path/platform-gpu-card"}"##.utf8))
        #expect(byPath.display == "/dev/dri/by-path/platform-gpu-card" && byPath.connector == nil)
        let dsi = try LayoutReader.parse(Array(##"{"gauges": [{"name": "a"}], "display": "DSI-1"}"##.utf8))
        #expect(dsi.display == nil && dsi.connector == "DSI-1")
        let same = try LayoutReader.parse(
            Array(##"{"gauges": [{"name": "a"}], "display": "HDMI-A-1", "connector": "hdmi-a-1"}"##.utf8))
        #expect(same.connector == "HDMI-A-1")
        #expect(throws: LayoutError.self) {
            try LayoutReader.parse(
                Array(##"{"gauges": [{"name": "a"}], "display": "HDMI-A-1", "connector": "DSI-1"}"##.utf8))
        }
    }

    /// One case per mistake: the text, the line and key path it must be reported at, and part of the message.
    @Test(arguments: [
        (##"[1]"##, 1, "", "expected an object"),
        (##"{}"##, 1, "gauges", "missing"),
        (##"{"gauges": {}}"##, 1, "gauges", "expected an array"),
        (##"{"gauges": []}"##, 1, "gauges", "at least one gauge"),
        (##"{"gauges": [{"name": "a"}], "colour": "#fff"}"##, 1, "colour", "unknown key"),
        ("{\"gauges\": [{\"name\": \"a\",\n \"tnit\": \"#fff\"}]}", 2, "gauges[0].tnit", "unknown key"),
        (##"{"gauges": [{"name": "a"}], "display": "card0"}"##, 1, "display", "absolute path"),
        (##"{"gauges": [{"name": "a"}], "display": 0}"##, 1, "display", "expected a string"),
        (##"{"gauges": [{"name": "a"}], "mode": "800x"}"##, 1, "mode", "is not a mode"),
        (##"{"gauges": [{"name": "a"}], "mode": "800x480@0"}"##, 1, "mode", "is not a mode"),
        (##"{"gauges": [{"name": "a"}], "format": "rgb888"}"##, 1, "format", "not a pixel format"),
        (##"{"gauges": [{"name": "a"}], "rotation": 45}"##, 1, "rotation", "0, 90, 180 or 270"),
        (##"{"gauges": [{"name": "a"}], "rotation": "90"}"##, 1, "rotation", "expected a number"),
        (##"{"gauges": [{"name": "a"}], "background": "noir"}"##, 1, "background", "not a colour"),
        (##"{"gauges": [{"name": "a"}], "statsd": "localhost:8125"}"##, 1, "statsd", "IPv4"),
        (##"{"gauges": [{"name": "a"}], "statsd": "127.0.0.1:0"}"##, 1, "statsd", "IPv4"),
        (##"{"gauges": [{"name": "a"}], "default": "b"}"##, 1, "default", "no gauge is named 'b'"),
        (##"{"gauges": [{"name": "a"}], "animation": 2.5}"##, 1, "animation", "whole milliseconds from 0 to 5000"),
        (##"{"gauges": [{"name": "a"}], "animation": 9000}"##, 1, "animation", "whole milliseconds from 0 to 5000"),
        (##"{"gauges": [{"style": "ring"}]}"##, 1, "gauges[0].name", "missing"),
        (##"{"gauges": [{"name": "9a"}]}"##, 1, "gauges[0].name", "not a gauge name"),
        (##"{"gauges": [{"name": "list"}]}"##, 1, "gauges[0].name", "not a gauge name"),
        (##"{"gauges": [{"name": "a b"}]}"##, 1, "gauges[0].name", "not a gauge name"),
        ("{\"gauges\": [{\"name\": \"a\"},\n{\"name\": \"a\"}]}", 2, "gauges[1].name", "duplicate name 'a'"),
        (
            ##"{"gauges": [{"name": "a", "style": "speedometer"}]}"##, 1, "gauges[0].style",
            "unknown style 'speedometer'"
        ),
        (##"{"gauges": [{"name": "a", "rect": [0, 0, 10]}]}"##, 1, "gauges[0].rect", "[x, y, width, height]"),
        (##"{"gauges": [{"name": "a", "rect": [0, 0, 0, 10]}]}"##, 1, "gauges[0].rect", "[x, y, width, height]"),
        (##"{"gauges": [{"name": "a", "rect": [0.5, 0, 10, 10]}]}"##, 1, "gauges[0].rect", "[x, y, width, height]"),
        (
            ##"{"mode": "100x100", "gauges": [{"name": "a", "rect": [50, 0, 60, 10]}]}"##, 1, "gauges[0].rect",
            "does not fit"
        ),
        (##"{"gauges": [{"name": "a", "range": [10, 10]}]}"##, 1, "gauges[0].range", "min < max"),
        (##"{"gauges": [{"name": "a", "range": [0]}]}"##, 1, "gauges[0].range", "[min, max]"),
        (##"{"gauges": [{"name": "a", "range": ["0", 1]}]}"##, 1, "gauges[0].range", "[min, max]"),
        (##"{"gauges": [{"name": "a", "label": 3}]}"##, 1, "gauges[0].label", "expected a string"),
        (##"{"gauges": [{"name": "a", "units": []}]}"##, 1, "gauges[0].units", "expected a string"),
        (##"{"gauges": [{"name": "a", "tint": "#12"}]}"##, 1, "gauges[0].tint", "not a colour"),
        (
            ##"{"gauges": [{"name": "a", "tint": "#fff", "gradient": ["#000", "#fff"]}]}"##, 1, "gauges[0].gradient",
            "not both"
        ),
        (##"{"gauges": [{"name": "a", "gradient": ["#000"]}]}"##, 1, "gauges[0].gradient", "2 to 16 colours"),
        (##"{"gauges": [{"name": "a", "gradient": ["#000", "nope"]}]}"##, 1, "gauges[0].gradient[1]", "not a colour"),
        (##"{"gauges": [{"name": "a", "thresholds": {}}]}"##, 1, "gauges[0].thresholds", "expected an array"),
        (
            ##"{"gauges": [{"name": "a", "thresholds": [{"color": "#fff"}]}]}"##, 1, "gauges[0].thresholds[0].above",
            "missing"
        ),
        (
            ##"{"gauges": [{"name": "a", "thresholds": [{"above": 1}]}]}"##, 1, "gauges[0].thresholds[0].color",
            "missing"
        ),
        (
            ##"{"gauges": [{"name": "a", "thresholds": [{"above": 1, "colour": "#fff"}]}]}"##, 1,
            "gauges[0].thresholds[0].colour", "unknown key"
        ),
        (
            ##"{"gauges": [{"name": "a", "thresholds": [{"above": 5, "color": "#fff"}, {"above": 5, "color": "#000"}]}]}"##,
            1, "gauges[0].thresholds[1].above", "increasing order"
        ),
        (##"{"gauges": [{"name": "a", "format": "%.1f"}]}"##, 1, "gauges[0].format", "unknown format '%.1f'"),
        (##"{"gauges": [{"name": "a", "format": 2}]}"##, 1, "gauges[0].format", "expected \"percent\", \"number\""),
        (##"{"gauges": [{"name": "a", "format": {"decimals": 1}}]}"##, 1, "gauges[0].format.kind", "missing"),
        (
            ##"{"gauges": [{"name": "a", "format": {"kind": "number", "decimals": 12}}]}"##, 1,
            "gauges[0].format.decimals", "0 to 9"
        ),
        (
            ##"{"gauges": [{"name": "a", "format": {"kind": "number", "digits": 1}}]}"##, 1, "gauges[0].format.digits",
            "unknown key"
        ),
        (##"{"gauges": [{"name": "a", "style": "stepped", "segments": 0}]}"##, 1, "gauges[0].segments", "1 to 100"),
        (
            ##"{"gauges": [{"name": "a", "style": "ring", "segments": 5}]}"##, 1, "gauges[0].segments",
            "only a 'stepped' gauge"
        ),
        (##"{"gauges": [{"name": "a", "labelSize": 1}]}"##, 1, "gauges[0].labelSize", "4 to 200"),
        (##"{"gauges": [{"name": "a", "minimumLabel": 0}]}"##, 1, "gauges[0].minimumLabel", "expected a string"),
        (##"{"gauges": [{"name": "a"}], "foreground": "blanc"}"##, 1, "foreground", "not a colour"),
        (##"{"gauges": [{"name": "a"}], "font": "/nonexistent/font.ttf"}"##, 1, "font", "cannot read the font file"),
        ("{\n\"gauges\": [\n{\"name\": \"a\",,}]}", 3, "", "JSON syntax"),
    ])
    func reportsEveryMistakeWithLineAndKey(json: String, line: Int, path: String, message: String) {
        let found = issues(json)
        #expect(found.contains { $0.line == line && $0.path == path && $0.message.contains(message) }, "got \(found)")
    }

    @Test func reportsAllMistakesNotJustTheFirst() {
        let found = issues(
            "{\"rotation\": 1,\n \"gauges\": [{\"name\": \"a\", \"style\": \"x\"},\n {\"name\": \"b\", \"range\": [2, 1]}]}"
        )
        #expect(found.map(\.path) == ["rotation", "gauges[0].style", "gauges[1].range"])
        #expect(found.map(\.line) == [1, 2, 3])
    }

    @Test func errorsNameTheFile() {
        #expect(throws: LayoutError.self) { try LayoutReader.read(file: "/nonexistent/panel.json") }
        // Not a regular file: refused before reading, so /dev/zero cannot exhaust memory.
        do {
            _ = try LayoutReader.read(file: "/dev/zero")
            Issue.record("read /dev/zero")
        } catch {
            #expect("\(error)" == "/dev/zero: cannot read: /dev/zero is a character device, not a regular file")
        }
        do {
            _ = try LayoutReader.parse(Array("{\"gauges\": 1}".utf8), file: "panel.json")
        } catch {
            #expect(error.description == "panel.json: line 1: gauges: expected an array of gauges [ { ... } ]")
        }
    }

    @Test func refusesTooManyGauges() {
        let many = (0...LayoutReader.maxGauges).map { "{\"name\": \"g\($0)\"}" }.joined(separator: ",")
        #expect(issues("{\"gauges\": [\(many)]}").contains { $0.path == "gauges" && $0.message.contains("at most") })
    }
}

/// Issue 38 item 8: `paneld run` without --config reads the package's layout file when it exists.
@Suite struct DefaultLayoutFileTests {
    @Test func runReadsTheSystemLayoutWithoutConfig() {
        #expect(Layout.configPath(given: nil) { $0 == "/etc/paneld/layout.json" } == "/etc/paneld/layout.json")
        #expect(Layout.configPath(given: nil) { _ in false } == nil)
        #expect(Layout.configPath(given: "/tmp/l.json") { _ in true } == "/tmp/l.json")
    }
}

@Suite struct LayoutModeTests {
    @Test func parses() {
        #expect(ModeRequest(parsing: "800x480") == ModeRequest(width: 800, height: 480))
        #expect(ModeRequest(parsing: "1920x1080@60") == ModeRequest(width: 1920, height: 1080, refresh: 60))
        for bad in [
            "", "800", "x480", "800x480@", "800x480@x", "0x10", "-1x10", "800X480", "99999x10", "800x480@60@60",
        ] {
            #expect(ModeRequest(parsing: bad) == nil, "\(bad)")
        }
    }
}

/// Labels on every style, the title key, the type scale and the warnings
/// for keys that change nothing on the panel.
@Suite struct LayoutLabelTests {
    /// One gauge of each style, each with a label.
    static let everyStyle = """
        {"gauges": [
          {"name": "a", "style": "linearCapacity", "label": "A"},
          {"name": "b", "style": "accessoryLinear", "label": "B"},
          {"name": "c", "style": "accessoryLinearCapacity", "label": "C"},
          {"name": "d", "style": "accessoryCircular", "label": "D", "minimumLabel": "0", "maximumLabel": "100"},
          {"name": "e", "style": "accessoryCircularCapacity", "label": "E"},
          {"name": "f", "style": "ring", "label": "F"},
          {"name": "g", "style": "stepped", "label": "G"}]}
        """

    @Test func everyStyleShowsItsLabelWithoutWarnings() throws {
        let l = try layout(Self.everyStyle)
        #expect(l.warnings == [])
        for g in l.gauges {
            #expect(g.gauge.shownLabels.contains(.label), "\(g.name)")
            #expect(g.gauge.title == .automatic)
            #expect(g.gauge.environment.typeScale != nil)
        }
    }

    @Test func titlePlacements() throws {
        let l = try layout(
            """
            {"gauges": [{"name": "a", "label": "A", "title": "bottom"}, {"name": "b", "label": "B", "title": "top"},
              {"name": "c", "label": "C", "title": "auto"}, {"name": "d", "style": "bar", "label": "D", "title": "none"}]}
            """)
        #expect(l.gauges.map(\.gauge.title) == [.bottom, .top, .automatic, .none])
        #expect(l.warnings == [])
        #expect(
            issues(#"{"gauges": [{"name": "a", "label": "A", "title": "left"}]}"#)
                == [
                    LayoutIssue(
                        line: 1, path: "gauges[0].title", message: "'left' is not 'auto', 'top', 'bottom' or 'none'")
                ])
    }

    /// A key the gauge cannot show is a warning, with its line.
    @Test func keysThatShowNothingAreWarnings() throws {
        let l = try layout(
            """
            {"gauges": [
              {"name": "a", "style": "ring", "label": "A", "title": "none",
               "minimumLabel": "0", "maximumLabel": "100"},
              {"name": "b", "style": "accessoryLinear", "minimumLabel": "lo",
               "format": "number", "title": "top"},
              {"name": "c", "style": "stepped", "format": "percent", "units": "rpm",
               "tint": "#FF0000", "interpolation": "srgb"},
              {"name": "d", "style": "arc", "gradient": ["#00FF00", "#FF0000"],
               "thresholds": [{"above": 50, "color": "#FF0000"}]}]}
            """)
        #expect(
            l.warnings.map(\.description) == [
                "line 2: gauges[0].label: not shown: the 'ring' style has no place for a label and \"title\" is \"none\"",
                "line 3: gauges[0].minimumLabel: not shown: the 'ring' style shows no end labels",
                "line 3: gauges[0].maximumLabel: not shown: the 'ring' style shows no end labels",
                "line 5: gauges[1].format: not shown: the 'accessoryLinear' style shows no current value with end labels",
                "line 5: gauges[1].title: has no effect: the gauge has no \"label\"",
                "line 7: gauges[2].interpolation: has no effect: the tint is one colour, not a gradient",
                "line 6: gauges[2].units: not shown: a percent format shows '%'",
                "line 8: gauges[3].gradient: with thresholds, only its first colour shows (below the first threshold)",
            ])
    }

    /// Without `labelSize` text follows the type scale; with it, the sizes are fixed.
    @Test func labelSizeFixesTheSizes() throws {
        let l = try layout(#"{"gauges": [{"name": "a"}, {"name": "b", "labelSize": 16}]}"#)
        #expect(l.gauges[0].gauge.environment.typeScale == TypeScale())
        #expect(l.gauges[1].gauge.environment.typeScale == nil && l.gauges[1].gauge.environment.labelSize == 16)
    }

    /// The package's layout reads without warnings.
    @Test func thePackagedLayoutHasNoWarnings() throws {
        // This file is ROOT/Tests/paneldTests/LayoutTests.swift.
        let root = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
            .joined(separator: "/")
        let l = try LayoutReader.read(file: root + "/packaging/layout.json")
        #expect(l.warnings == [])
        #expect(l.gauges.allSatisfy { $0.gauge.shownLabels.contains(.label) })
    }
}

@Suite struct ValueSizeMatchingTests {
    static let json = """
        {"mode": "800x480", "gauges": [
          {"name": "cpu", "style": "arc", "rect": [0, 0, 220, 220], "range": [0, 100], "format": "percent"},
          {"name": "temp", "style": "arc", "rect": [240, 0, 220, 220], "range": [20, 90], "units": "°C"},
          {"name": "small", "style": "arc", "rect": [480, 0, 100, 100], "range": [0, 5000], "units": "rpm"},
          {"name": "ring", "style": "ring", "rect": [0, 240, 220, 220], "range": [0, 1000], "units": "W"},
          {"name": "fixed", "style": "arc", "rect": [240, 240, 220, 220], "range": [0, 9], "labelSize": 12}]}
        """

    /// Gauges of one style and size are sized by the widest values of them all;
    /// others keep their own.
    @Test func gaugesOfOneStyleAndSizeShareTheirWidestValues() throws {
        let l = try layout(Self.json)
        let texts = Dictionary(uniqueKeysWithValues: l.gauges.map { ($0.name, $0.gauge.configuration.sizingText) })
        #expect(Set(texts["cpu"]!) == Set(texts["temp"]!))
        #expect(texts["cpu"]!.contains("100 %") && texts["cpu"]!.contains("90 °C"))
        #expect(!texts["small"]!.contains("100 %") && !texts["ring"]!.contains("100 %"))
        #expect(l.gauges.first { $0.name == "fixed" }!.gauge.environment.valueSizingText == [])
    }

    /// So both show their values at one size: their first digit's ink is as tall.
    @Test func equalCellsShowEqualValueSizes() throws {
        let l = try layout(Self.json)
        func digitsHeight(_ name: String, _ value: Double) throws -> Int {
            let g = try #require(l.gauges.first { $0.name == name })
            let img = Image(width: 220, height: 220)
            let c = Canvas(surface: img.surface)
            c.clear(.black)
            g.gauge(showing: value).draw(in: Rect(x: 0, y: 0, width: 220, height: 220), on: c)
            // The first glyph ("4") of the centre: the rows with ink in the
            // first columns with ink, between the ring's sides.
            func inked(_ x: Int, _ y: Int) -> Bool { img.surface.pixel(x: x, y: y).red > 128 }
            let x0 = try #require((70..<150).first { x in (80..<140).contains { inked(x, $0) } })
            let x1 = try #require((x0..<150).first { x in !(80..<140).contains { inked(x, $0) } })
            let rows = (80..<140).filter { y in (x0..<x1).contains { inked($0, y) } }
            return (rows.max() ?? 0) - (rows.min() ?? 0)
        }
        let cpu = try digitsHeight("cpu", 44), temp = try digitsHeight("temp", 44)
        #expect(cpu > 10 && cpu == temp, "\(cpu) \(temp)")
    }
}

/// The dial's keys: read into a `DialGaugeStyle`, every bad value reported
/// with its line and key path, and thinned scale labels warned about.
@Suite struct DialLayoutTests {
    @Test func readsEveryDialKey() throws {
        let l = try layout(
            """
            {"mode": "800x480", "gauges": [{"name": "speed", "style": "dial", "range": [0, 240], "rect": [0, 0, 400, 400],
              "scale": {"start": 150, "sweep": 240, "majorTicks": {"count": 13, "length": 0.2, "width": 0.03, "color": "#FFD60A"},
                        "minorTicks": 1, "labels": {"placement": "outside", "format": "percent", "color": "#8E8E93"}, "band": 0.1},
              "sections": [{"from": 200, "to": 240, "color": "#FF3B30"}],
              "needle": {"length": 0.8, "width": 0.05, "tipWidth": 0.01, "tail": 0.2, "hub": 0.1, "color": "#0A84FF",
                         "hubColor": "#E0E0E0"},
              "valueArc": 0.05}]}
            """)
        let dial = try #require(l.gauges[0].gauge.style as? DialGaugeStyle)
        #expect(dial.startAngle == 150 && dial.sweep == 240)
        #expect(
            dial.majorTicks == DialGaugeStyle.Ticks(count: 13, length: 0.2, width: 0.03, color: Color(hex: 0xFFD60A)))
        #expect(dial.minorTicks.count == 1)
        #expect(dial.labels == DialGaugeStyle.ScaleLabels(format: .percent(), placement: .outside, color: .gray))
        #expect(dial.bandWidth == 0.1)
        #expect(dial.sections == [DialGaugeStyle.Section(from: 200, to: 240, color: .red)])
        #expect(
            dial.needle
                == DialGaugeStyle.Needle(
                    length: 0.8, baseWidth: 0.05, tipWidth: 0.01, tail: 0.2, hubRadius: 0.1, color: .blue,
                    hubColor: Color(hex: 0xE0E0E0)))
        #expect(dial.valueArc == 0.05)
        // Thirteen percentages around 240 degrees of a 400 px dial: every 3rd fits.
        #expect(
            l.warnings.map(\.description) == [
                "line 2: gauges[0].scale: scale labels would overlap on a 400x400 dial: every 3rd major tick is labelled"
            ])
        // In a grid cell, the cell's size counts (a 3x2 grid at 320x240: 106x120), not the screen's.
        let inCell = try layout(
            ##"{"mode": "320x240", "grid": {"columns": 3, "rows": 2}, "gauges": [{"name": "a", "style": "dial", "scale": {"majorTicks": 21}}]}"##
        )
        #expect(
            inCell.warnings.map(\.description) == [
                "line 1: gauges[0].scale: scale labels would overlap on a 106x120 dial: every 2nd major tick is labelled"
            ])
        // A dial too small for its label leaves it out with a warning, whatever
        // its title (an automatic title would take the value's room: the
        // value comes first); with room for a title line above, "auto" shows it.
        for title in ["none", "auto"] {
            let small = try layout(
                ##"{"mode": "640x64", "gauges": [{"name": "p", "style": "dial", "units": "kPa", "label": "Pressure", "title": "\##(title)", "rect": [0, 0, 64, 64]}]}"##
            )
            #expect(
                small.warnings.map(\.description).contains(
                    #"line 1: gauges[0].label: 'Pressure' does not fit a 64x64 dial: not shown ("title": "auto" or "top" shows it above the dial)"#
                ), "\(title): \(small.warnings)")
        }
        let roomAbove = try layout(
            ##"{"mode": "640x128", "gauges": [{"name": "p", "style": "dial", "units": "kPa", "label": "Pressure", "rect": [0, 0, 90, 110]}]}"##
        )
        #expect(!roomAbove.warnings.contains { $0.description.contains("does not fit") }, "\(roomAbove.warnings)")
        #expect(roomAbove.gauges[0].gauge.showsTitle(in: Rect(x: 0, y: 0, width: 90, height: 110)))
        let plain = try layout(
            ##"{"gauges": [{"name": "a", "style": "dial", "scale": {"labels": "none"}, "valueArc": true}]}"##)
        let d = try #require(plain.gauges[0].gauge.style as? DialGaugeStyle)
        #expect(d.labels == nil && d.valueArc == 0.035)
        // Without a count the major ticks fall on round numbers of the range.
        let warm = try layout(##"{"gauges": [{"name": "t", "style": "dial", "range": [20, 90]}]}"##)
        #expect((warm.gauges[0].gauge.style as? DialGaugeStyle)?.majorTicks.count == 8)
        let odd = try layout(##"{"gauges": [{"name": "t", "style": "dial", "range": [-40, 125]}]}"##)
        #expect((odd.gauges[0].gauge.style as? DialGaugeStyle)?.majorTicks.count == 11)
    }

    @Test(arguments: [
        (##"{"gauges": [{"name": "a", "style": "ring", "needle": {}}]}"##, 1, "gauges[0].needle", "only a 'dial'"),
        (
            ##"{"gauges": [{"name": "a", "scale": {}}]}"##, 1, "gauges[0].scale",
            "only a 'dial' or a linear gauge (linearCapacity, accessoryLinear, accessoryLinearCapacity) has a scale"
        ),
        (
            "{\"gauges\": [{\"name\": \"a\", \"style\": \"dial\",\n \"scale\": {\"sweep\": 0}}]}", 2,
            "gauges[0].scale.sweep", "must not be 0"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "scale": {"start": 400}}]}"##, 1, "gauges[0].scale.start",
            "from -360 to 360"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "scale": {"majorTicks": 1}}]}"##, 1,
            "gauges[0].scale.majorTicks", "whole number from 2 to 101"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "scale": {"minorTicks": {"count": 2.5}}}]}"##, 1,
            "gauges[0].scale.minorTicks.count", "whole number from 0 to 20"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "scale": {"majorTicks": {"colour": "#fff"}}}]}"##, 1,
            "gauges[0].scale.majorTicks.colour", "unknown key"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "scale": {"labels": "left"}}]}"##, 1,
            "gauges[0].scale.labels", "'left' is not 'inside', 'outside' or 'none'"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "scale": {"labels": {"format": "%d"}}}]}"##, 1,
            "gauges[0].scale.labels.format", "unknown format '%d'"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "sections": [{"from": 5, "to": 1, "color": "#fff"}]}]}"##, 1,
            "gauges[0].sections[0].to", "greater than from"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "sections": [{"from": 5, "color": "#fff"}]}]}"##, 1,
            "gauges[0].sections[0].to", "missing"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "sections": {"from": 5}}]}"##, 1, "gauges[0].sections",
            "expected an array"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "needle": {"width": 2}}]}"##, 1, "gauges[0].needle.width",
            "from 0 to 0.3"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "needle": {"color": "rouge"}}]}"##, 1,
            "gauges[0].needle.color",
            "not a colour"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "valueArc": "yes"}]}"##, 1, "gauges[0].valueArc",
            "expected true, false or a width"
        ),
    ])
    func reportsBadDialKeys(json: String, line: Int, path: String, message: String) {
        let found = issues(json)
        #expect(found.contains { $0.line == line && $0.path == path && $0.message.contains(message) }, "got \(found)")
    }

    /// Scale labels that would overlap at the gauge's size are thinned, with a warning.
    @Test func warnsWhenScaleLabelsAreThinned() throws {
        let crowded = try layout(
            """
            {"gauges": [{"name": "a", "style": "dial", "range": [0, 12000], "rect": [0, 0, 120, 120],
              "scale": {"majorTicks": 25}}]}
            """)
        let found = crowded.warnings.map(\.description)
        #expect(found.count == 1 && found[0].contains("gauges[0].scale: scale labels would overlap on a 120x120 dial"))
        let roomy = try layout(
            ##"{"gauges": [{"name": "a", "style": "dial", "range": [0, 100], "rect": [0, 0, 400, 400]}]}"##)
        #expect(roomy.warnings == [])
    }

    @Test(arguments: [
        (
            ##"{"gauges": [{"name": "a", "style": "bar", "scale": "yes"}]}"##, "gauges[0].scale",
            "expected true, false or an object"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "bar", "scale": {"start": 90}}]}"##, "gauges[0].scale.start",
            "only a dial's scale has a start"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "accessoryLinear", "scale": {"sweep": 90}}]}"##,
            "gauges[0].scale.sweep", "only a dial's scale has a sweep"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "bar", "scale": {"labels": "inside"}}]}"##, "gauges[0].scale.labels",
            "'inside' is not 'below' or 'none'"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "bar", "scale": {"labels": {"placement": "outside"}}}]}"##,
            "gauges[0].scale.labels.placement", "'outside' is not 'below' or 'none'"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "dial", "scale": {"labels": "below"}}]}"##, "gauges[0].scale.labels",
            "'below' is not 'inside', 'outside' or 'none'"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "bar", "scale": {"majorTicks": 1}}]}"##, "gauges[0].scale.majorTicks",
            "whole number from 2 to 101"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "bar", "sections": [{"from": 0, "to": 5, "color": "red"}]}]}"##,
            "gauges[0].sections", "add \"scale\": true"
        ),
        (
            ##"{"gauges": [{"name": "a", "style": "stepped", "sections": []}]}"##, "gauges[0].sections",
            "only a 'dial' or a linear gauge"
        ),
        (
            ##"{"gauges": [{"name": "a", "markedLabels": {"value": 1}}]}"##, "gauges[0].markedLabels",
            "expected at most 64 marked values"
        ),
        (
            ##"{"gauges": [{"name": "a", "markedLabels": [{"value": 120, "label": "x"}]}]}"##,
            "gauges[0].markedLabels[0].value", "120 is outside the range [0, 100]"
        ),
        (
            ##"{"gauges": [{"name": "a", "markedLabels": [{"value": 1, "label": "x"}, {"value": 1, "label": "y"}]}]}"##,
            "gauges[0].markedLabels[1].value", "value 1 is marked twice"
        ),
        (
            ##"{"gauges": [{"name": "a", "markedLabels": [{"value": 1, "label": ""}]}]}"##,
            "gauges[0].markedLabels[0].label", "must not be empty"
        ),
        (
            ##"{"gauges": [{"name": "a", "markedLabels": [{"value": 1}]}]}"##, "gauges[0].markedLabels[0].label",
            "missing"
        ),
        (
            ##"{"gauges": [{"name": "a", "markedLabels": [{"value": "1", "label": "x"}]}]}"##,
            "gauges[0].markedLabels[0].value", "expected a number"
        ),
    ])
    func reportsBadScaleAndMarkKeys(json: String, path: String, message: String) {
        let found = issues(json)
        #expect(found.contains { $0.path == path && $0.message.contains(message) }, "got \(found)")
    }

    /// More than 64 marked values are refused.
    @Test func refusesTooManyMarkedValues() {
        let marks = (0..<65).map { ##"{"value": \##($0), "label": "m"}"## }.joined(separator: ", ")
        let found = issues(##"{"gauges": [{"name": "a", "range": [0, 100], "markedLabels": [\##(marks)]}]}"##)
        #expect(found.contains { $0.path == "gauges[0].markedLabels" }, "got \(found)")
    }

    /// A linear scale and marked values are read into the style and the gauge;
    /// what cannot be shown at the gauge's size is said in a warning.
    @Test func readsLinearScalesAndMarksWithTheirWarnings() throws {
        let l = try layout(
            """
            {"gauges": [{"name": "a", "style": "linearCapacity", "range": [0, 12000], "rect": [0, 0, 186, 64],
              "scale": {"majorTicks": 13, "minorTicks": 1, "labels": "below"}, "minimumLabel": "0"},
              {"name": "b", "style": "accessoryLinear", "rect": [200, 0, 186, 64],
               "markedLabels": [{"value": 0, "label": "empty"}, {"value": 5, "label": "low"}, {"value": 100, "label": "full"}]},
              {"name": "c", "style": "ring", "rect": [400, 0, 100, 100], "markedLabels": [{"value": 50, "label": "half"}]},
              {"name": "d", "style": "bar", "rect": [500, 0, 186, 8], "scale": true},
              {"name": "e", "style": "bar", "rect": [500, 10, 186, 8], "scale": true, "labelSize": 12}]}
            """)
        let scale = try #require((l.gauges[0].gauge.style as? LinearCapacityGaugeStyle)?.scale)
        #expect(scale.majorTicks.count == 13 && scale.minorTicks.count == 1 && scale.labels != nil)
        #expect(l.gauges[1].gauge.markedValueLabels.map(\.value) == [0, 5, 100])
        let found = l.warnings.map(\.description)
        for want in [
            "gauges[0].scale: scale numbers would overlap on a 186x64 bar: every",
            "gauges[0].minimumLabel: not shown: the scale's numbers (or marked values) take the place of end labels",
            "gauges[1].markedLabels: 1 marked value is not shown on a 186x64 bar: too close to a neighbour",
            "gauges[2].markedLabels: not shown: the 'ring' style has no scale",
            "gauges[3].scale: scale numbers do not fit a 186x8 bar: none shown",
            "gauges[4].scale: no room for the scale under a 186x8 bar: not shown",
        ] {
            #expect(found.contains { $0.contains(want) }, "\(want) not in \(found)")
        }
        #expect(found.count == 6, "\(found)")
    }

    /// `orientation` stands each linear style upright; a bad value, or the
    /// key on another style, is an error; a cell too narrow for the scale
    /// beside a vertical bar says so in terms of width.
    @Test func readsVerticalBarsWithTheirErrorsAndWarnings() throws {
        let l = try layout(
            """
            {"gauges": [{"name": "a", "style": "linearCapacity", "orientation": "vertical", "rect": [0, 0, 120, 240]},
              {"name": "b", "style": "accessoryLinear", "orientation": "vertical", "rect": [120, 0, 120, 240]},
              {"name": "c", "style": "accessoryLinearCapacity", "orientation": "horizontal", "rect": [240, 0, 120, 240]},
              {"name": "d", "style": "bar", "orientation": "vertical", "rect": [360, 0, 8, 240], "scale": true,
               "labelSize": 12},
              {"name": "e", "style": "bar", "orientation": "vertical", "rect": [400, 0, 62, 120],
               "range": [0, 12000], "scale": {"majorTicks": 13}, "labelSize": 12},
              {"name": "f", "style": "bar", "orientation": "vertical", "rect": [470, 0, 40, 240], "scale": true,
               "labelSize": 12}]}
            """)
        #expect((l.gauges[0].gauge.style as? LinearCapacityGaugeStyle)?.axis == .vertical)
        #expect((l.gauges[1].gauge.style as? AccessoryLinearGaugeStyle)?.axis == .vertical)
        #expect((l.gauges[2].gauge.style as? AccessoryLinearCapacityGaugeStyle)?.axis == .horizontal)
        let found = l.warnings.map(\.description)
        for want in [
            "gauges[3].scale: no room for the scale beside a 8x240 bar: not shown (a wider rect or cell has room)",
            "gauges[4].scale: scale numbers would overlap on a 62x120 bar: every",
            "gauges[5].scale: scale numbers do not fit a 40x240 bar: none shown (fewer major ticks, or a wider rect",
        ] {
            #expect(found.contains { $0.contains(want) }, "\(want) not in \(found)")
        }
        #expect(found.count == 3, "\(found)")

        for (json, message) in [
            (
                ##"{"gauges": [{"name": "a", "style": "bar", "orientation": "upright"}]}"##,
                "gauges[0].orientation: 'upright' is not 'horizontal' or 'vertical'"
            ),
            (
                ##"{"gauges": [{"name": "a", "style": "bar", "orientation": 1}]}"##,
                "gauges[0].orientation: expected a string"
            ),
            (
                ##"{"gauges": [{"name": "a", "style": "dial", "orientation": "vertical"}]}"##,
                "gauges[0].orientation: only a linear gauge (linearCapacity, accessoryLinear, accessoryLinearCapacity) has an orientation"
            ),
        ] {
            let got = issues(json).map(\.description)
            #expect(got.contains { $0.hasSuffix(message) || $0.contains(message + ",") }, "\(message) not in \(got)")
        }
    }

    /// Thresholds are the dial's sections from the first step on; below it, no section.
    @Test func thresholdsAreSectionsFromTheFirstStep() throws {
        let l = try layout(
            ##"{"gauges": [{"name": "a", "style": "dial", "thresholds": [{"above": 60, "color": "#FF9500"}]}]}"##)
        let g = l.gauges[0].gauge
        let dial = try #require(g.style as? DialGaugeStyle)
        #expect(dial.resolvedSections(g.configuration) == [.init(from: 60, to: 100, color: .orange)])
    }
}
