import Testing

@testable import PaneldCore

private func parse(_ s: String) -> Result<Command, LineError> { LineParser.parse(Array(s.utf8)) }

@Suite struct LineParserTests {
    @Test(arguments: [
        ("73", Command.set(gauge: nil, value: 73)),
        ("-1.5", .set(gauge: nil, value: -1.5)),
        ("+2", .set(gauge: nil, value: 2)),
        (".5", .set(gauge: nil, value: 0.5)),
        ("5.", .set(gauge: nil, value: 5)),
        ("1e3", .set(gauge: nil, value: 1000)),
        ("2.5E-1", .set(gauge: nil, value: 0.25)),
        ("  73\t", .set(gauge: nil, value: 73)),
        ("73\r", .set(gauge: nil, value: 73)),
        ("cpu 73", .set(gauge: "cpu", value: 73)),
        ("cpu\t\t-4", .set(gauge: "cpu", value: -4)),
        ("cpu=73", .set(gauge: "cpu", value: 73)),
        ("cpu = 73", .set(gauge: "cpu", value: 73)),
        ("cpu=-73", .set(gauge: "cpu", value: -73)),
        ("cpu:73|g", .set(gauge: "cpu", value: 73)),
        ("cpu:73|g|@0.5", .set(gauge: "cpu", value: 73)),
        // DogStatsD: tags (with ':' in them), container id, timestamp; checked, then ignored.
        ("cpu:33|g|#host:pi", .set(gauge: "cpu", value: 33)),
        ("cpu:33|g|@0.5|#host:pi,env:lab|c:abc123|T1656581400", .set(gauge: "cpu", value: 33)),
        ("cpu:-2|g|#a", .adjust(gauge: "cpu", delta: -2)),
        ("reload", .reload),
        ("cpu:+5|g", .adjust(gauge: "cpu", delta: 5)),
        ("cpu:-5|g", .adjust(gauge: "cpu", delta: -5)),
        ("cpu:-0.25|g", .adjust(gauge: "cpu", delta: -0.25)),
        ("disk.root_used-pct 1", .set(gauge: "disk.root_used-pct", value: 1)),
        ("_x 1", .set(gauge: "_x", value: 1)),
        ("get cpu", .get(gauge: "cpu")),
        ("get", .get(gauge: nil)),
        ("list", .list),
        ("  list  ", .list),
    ])
    func acceptsEveryForm(line: String, expected: Command) {
        #expect(parse(line) == .success(expected))
    }

    @Test(arguments: [
        ("", LineError.empty),
        ("   ", .empty),
        ("\r", .empty),
        ("abc", .missingValue("abc")),
        ("cpu", .missingValue("cpu")),
        ("nan", .notFinite("nan")),
        ("NaN", .notFinite("NaN")),
        ("inf", .notFinite("inf")),
        ("-Infinity", .notFinite("-Infinity")),
        ("1e999", .notFinite("1e999")),
        ("-1e400", .notFinite("-1e400")),
        ("cpu nan", .notFinite("nan")),
        ("cpu=inf", .notFinite("inf")),
        ("cpu:nan|g", .notFinite("nan")),
        ("cpu:1e999|g", .notFinite("1e999")),
        ("0x10", .notANumber("0x10")),
        ("1,5", .notANumber("1,5")),
        ("1.2.3", .notANumber("1.2.3")),
        ("--1", .notANumber("--1")),
        (".", .notANumber(".")),
        ("1e", .notANumber("1e")),
        ("e5", .missingValue("e5")),
        ("cpu abc", .notANumber("abc")),
        ("cpu 7 3", .tooManyFields),
        ("get a b", .tooManyFields),
        ("list x", .tooManyFields),
        ("9cpu 1", .badName("9cpu")),
        ("get 9", .badName("9")),
        ("cpu! 1", .badName("cpu!")),
        ("=5", .badName("")),
        ("cpu=", .notANumber("")),
        ("get 1", .badName("1")),
        ("get=1", .badName("get")),
        ("list 1", .tooManyFields),
        ("list:1|g", .badName("list")),
        ("cpu:73", .unsupportedStatsdType("")),
        ("cpu:73|c", .unsupportedStatsdType("c")),
        ("cpu:73|ms", .unsupportedStatsdType("ms")),
        ("cpu:73|g|x", .badStatsdField("x")),
        ("cpu:73|g|@2", .badStatsdField("@2")),
        ("cpu:73|g|@0.5|x", .badStatsdField("x")),
        ("cpu:73|g|@0.5|@0.5", .badStatsdField("@0.5")),
        ("cpu:73|g|#", .badStatsdField("#")),
        ("cpu:73|g|T12a", .badStatsdField("T12a")),
        ("cpu:73|g|c", .badStatsdField("c")),
        ("cpu:73|c|#a", .unsupportedStatsdType("c")),
        (":73|g", .badName("")),
        ("1 2 3 4", .unknownCommand("1")),
        ("%%% 1 2", .unknownCommand("%%%")),
    ])
    func rejectsBadLines(line: String, expected: LineError) {
        #expect(parse(line) == .failure(expected))
    }

    @Test func rejectsInvalidUTF8AndControlCharacters() {
        #expect(LineParser.parse([0x37, 0x33, 0xFF]) == .failure(.invalidUTF8))
        #expect(LineParser.parse([0xC0, 0x80]) == .failure(.invalidUTF8))  // overlong NUL
        #expect(LineParser.parse([0xED, 0xA0, 0x80]) == .failure(.invalidUTF8))  // surrogate
        #expect(LineParser.parse(Array("cpu\u{0} 1".utf8)) == .failure(.controlCharacter))
        #expect(LineParser.parse(Array("7\u{1B}[2J".utf8)) == .failure(.controlCharacter))
        #expect(LineParser.parse(Array("7\u{7F}".utf8)) == .failure(.controlCharacter))
    }

    @Test func rejectsNamesLongerThanTheLimitAndLinesLongerThanTheLimit() {
        let name = String(repeating: "a", count: GaugeName.maxLength)
        #expect(parse("\(name) 1") == .success(.set(gauge: name, value: 1)))
        #expect(parse("\(name)a 1") == .failure(.badName(name + "a")))
        let long = String(repeating: "1", count: LineParser.maxLineLength + 1)
        #expect(parse(long) == .failure(.tooLong(limit: LineParser.maxLineLength)))
        let justFits = String(repeating: " ", count: LineParser.maxLineLength - 2) + "73"
        #expect(parse(justFits) == .success(.set(gauge: nil, value: 73)))
    }

    @Test func errorTextIsOneShortLineWhateverTheInput() {
        let huge = String(repeating: "é", count: 200)
        guard case .failure(let e) = parse("x " + huge) else {
            Issue.record("expected an error")
            return
        }
        #expect(!e.description.contains("\n"))
        #expect(e.description.utf8.count < 200)
    }

    /// Characters that do not show as themselves are escaped in the echo: a reply
    /// never carries a right-to-left override, a byte-order mark or a no-break space.
    @Test(arguments: [
        ("a\u{00A0}b 1", "\\u{A0}"), ("x\u{202E}y 1", "\\u{202E}"), ("\u{FEFF}cpu 1", "\\u{FEFF}"),
        ("a\u{200B} 1", "\\u{200B}"), ("a\u{2028} 1", "\\u{2028}"), ("a\u{E000} 1", "\\u{E000}"),
        ("a\\b 1", "a\\\\b"),
    ])
    func echoedInputIsEscaped(line: String, escape: String) {
        guard case .failure(let e) = parse(line) else {
            Issue.record("expected an error for \(line.debugDescription)")
            return
        }
        let reply = e.description
        #expect(reply.contains(escape), "\(reply)")
        let ascii = reply.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii, "\(reply.debugDescription)")
    }

    /// Letters of any script are echoed as they are.
    @Test func lettersAreEchoedAsTheyAre() {
        #expect(parse("température 1") == .failure(.badName("température")))
        #expect(LineError.badName("température").description.contains("'température'"))
    }
}

@Suite struct GaugeStoreTests {
    func store() -> GaugeStore {
        GaugeStore(names: ["cpu", "mem"], defaultGauge: "cpu", initial: ["cpu": 10])
    }

    @Test func setsAdjustsAndAnswers() {
        var s = store()
        #expect(s.apply(.set(gauge: nil, value: 73)) == .success(""))
        #expect(s.values["cpu"] == 73)
        #expect(s.apply(.set(gauge: "mem", value: 0.5)) == .success(""))
        #expect(s.apply(.adjust(gauge: "mem", delta: 2)) == .success(""))
        #expect(s.values["mem"] == 2.5)
        #expect(s.apply(.adjust(gauge: "mem", delta: -5)) == .success(""))
        #expect(s.values["mem"] == -2.5)
        #expect(s.apply(.get(gauge: nil)) == .success("cpu 73\n"))
        #expect(s.apply(.get(gauge: "mem")) == .success("mem -2.5\n"))
        #expect(s.apply(.list) == .success("cpu 73\nmem -2.5\nEND\n"))
        #expect(s.takeChanged() == ["cpu", "mem"])
        #expect(s.takeChanged() == [])
    }

    @Test func rejectedCommandsChangeNothing() {
        var s = store()
        let before = s
        #expect(s.apply(.set(gauge: "gpu", value: 1)) == .failure(.unknownGauge("gpu")))
        #expect(s.apply(.adjust(gauge: "gpu", delta: 1)) == .failure(.unknownGauge("gpu")))
        #expect(s.apply(.get(gauge: "gpu")) == .failure(.unknownGauge("gpu")))
        _ = s.apply(.set(gauge: "cpu", value: 1.7e308))
        let mid = s
        #expect(s.apply(.adjust(gauge: "cpu", delta: 1.7e308)) == .failure(.notFinite("inf")))
        #expect(s == mid)
        #expect(before.values["cpu"] == 10)
        var none = GaugeStore(names: ["a"], defaultGauge: nil, initial: [:])
        #expect(none.apply(.set(gauge: nil, value: 1)) == .failure(.noDefaultGauge))
        #expect(none.values["a"] == nil)
    }

    /// Issue 38 item 2: a gauge has no value until set, `NAME -` takes it
    /// away, `get` and `list` answer `-` for it, and the state file keeps it so.
    @Test func aGaugeWithoutAValueAndTheLineThatClearsOne() {
        #expect(LineParser.parse(Array("cpu -".utf8)) == .success(.clear(gauge: "cpu")))
        #expect(LineParser.parse(Array("cpu=-".utf8)) == .success(.clear(gauge: "cpu")))
        #expect(LineParser.parse(Array(" cpu \t - ".utf8)) == .success(.clear(gauge: "cpu")))
        #expect(LineParser.parse(Array("cpu --".utf8)) == .failure(.notANumber("--")))
        var s = store()
        #expect(s.values["mem"] == nil)
        #expect(s.apply(.get(gauge: "mem")) == .success("mem -\n"))
        #expect(s.apply(.list) == .success("cpu 10\nmem -\nEND\n"))
        _ = s.takeChanged()
        #expect(s.apply(.clear(gauge: "cpu")) == .success(""))
        #expect(s.values["cpu"] == nil)
        #expect(s.takeChanged() == ["cpu"])
        #expect(s.takeTouched() == ["cpu"])
        #expect(s.apply(.clear(gauge: "gpu")) == .failure(.unknownGauge("gpu")))
        #expect(s.apply(.get(gauge: nil)) == .success("cpu -\n"))
        // The state file writes the answer `list` gives; read back, the gauge has no value.
        // statsd's rule: a gauge without a value adjusts from 0.
        #expect(s.apply(.adjust(gauge: "mem", delta: 4)) == .success(""))
        let bytes = StateFile.encode(s)
        #expect(String(decoding: bytes, as: UTF8.self) == "cpu -\nmem 4\n")
        let parsed = StateFile.parse(bytes)
        #expect(parsed.values == ["mem": 4] && parsed.skipped == 0)
        // Widgets are listed after the gauges.
        var w = GaugeStore(
            names: ["cpu"], defaultGauge: nil, initial: ["cpu": 1], texts: ["status": "ok", "a": ""],
            textOrder: ["status", "a"])
        #expect(w.apply(.list) == .success("cpu 1\nstatus ok\na \nEND\n"))
    }

    @Test func lastValueWinsAndSameValueIsNotAChange() {
        var s = store()
        _ = s.apply(.set(gauge: "cpu", value: 10))
        #expect(s.takeChanged() == [])
        for v in 0..<100 { _ = s.apply(.set(gauge: "cpu", value: Double(v))) }
        #expect(s.values["cpu"] == 99)
        #expect(s.takeChanged() == ["cpu"])
    }

    @Test(arguments: [(73.0, "73"), (-0.5, "-0.5"), (1e20, "1e+20"), (0.1, "0.1"), (123456.789, "123456.789")])
    func formatsValuesSoTheyReadBack(value: Double, text: String) {
        #expect(GaugeStore.format(value) == text)
        #expect(LineParser.parseNumber(Array(text.utf8)) == .success(value))
    }
}

@Suite struct LineFramerTests {
    func run(_ chunks: [String], limit: Int = 8) -> [LineFramer.Event] {
        var f = LineFramer(limit: limit)
        var out: [LineFramer.Event] = []
        for c in chunks { f.feed(Array(c.utf8)) { out.append($0) } }
        return out
    }

    @Test func splitsLinesAcrossChunks() {
        #expect(run(["ab", "c\nde", "f\n\n"]) == [.line(Array("abc".utf8)), .line(Array("def".utf8)), .line([])])
    }

    @Test func cutsAnEndlessLineOnceAndResumesAfterItsNewline() {
        var f = LineFramer(limit: 8)
        var out: [LineFramer.Event] = []
        f.feed(Array("12345678".utf8)) { out.append($0) }
        #expect(out.isEmpty && f.pendingCount == 8)
        for _ in 0..<10_000 { f.feed(Array("xxxxxxxxxxxxxxxx".utf8)) { out.append($0) } }
        #expect(out == [.tooLong])
        #expect(f.pendingCount == 0 && f.isDiscarding)
        f.feed(Array("yyy\n7\n".utf8)) { out.append($0) }
        #expect(out == [.tooLong, .line(Array("7".utf8))])
        #expect(!f.isDiscarding)
    }

    @Test func aLineOfExactlyTheLimitPasses() {
        #expect(run(["12345678\n"]) == [.line(Array("12345678".utf8))])
        #expect(run(["123456789\n", "1\n"]) == [.tooLong, .line(Array("1".utf8))])
    }
}
