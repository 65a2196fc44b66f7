import Foundation
import Glibc
import PanelGauge
import PanelScene
import Testing

@testable import PaneldCore

/// History charts and sparklines in the daemon: the layout keys and their
/// mistakes, the histories (values held, gaps, the state file), damage-only
/// repaints, and the daemon's frames against `paneld render`.
@Suite(.serialized) struct ChartTests {
    private func layout(_ json: String) throws -> Layout { try LayoutReader.parse(Array(json.utf8)) }

    static let twoGauges = """
        {"gauges": [
          {"name": "cpu", "label": "CPU", "units": "°C", "format": {"kind": "number", "decimals": 1},
           "tint": "#30D158", "range": [20, 90], "thresholds": [{"above": 80, "color": "#FF3B30"}],
           "sparkline": {"span": "10m", "points": 30}},
          {"name": "gpu", "tint": "#30D158", "style": "ring"},
          {"name": "t1", "kind": "chart", "gauges": ["cpu"], "span": "10m", "points": 30},
          {"name": "t2", "kind": "chart", "gauges": ["cpu", "gpu"], "span": 3600, "range": "gauge",
           "label": "Both", "area": false, "thresholds": false}
        ]}
        """

    @Test func chartsAndSparklinesAreRead() throws {
        let l = try layout(Self.twoGauges)
        let t1 = try #require(l.gauges[2].widget?.chart)
        #expect(t1.gauges == ["cpu"] && t1.span == 600 && t1.points == 30)
        #expect(t1.chart.title == "CPU", "one gauge: its label")
        #expect(t1.chart.series.map(\.color) == [Color(hex: 0x30D158)])
        #expect(t1.chart.thresholds?.steps.map(\.from) == [80])
        #expect(t1.chart.range == nil && t1.chart.fillsArea)
        #expect(t1.chart.format == .number(decimals: 1, unit: "°C"))
        let t2 = try #require(l.gauges[3].widget?.chart)
        #expect(
            t2.chart.title == "Both" && t2.chart.range == 20...90 && !t2.chart.fillsArea && t2.chart.thresholds == nil)
        #expect(t2.chart.series.map(\.name) == ["CPU", "gpu"])
        let ring = try layout(
            #"{"gauges": [{"name": "r", "style": "ring"}, {"name": "c", "kind": "chart", "gauges": ["r"]}]}"#)
        #expect(
            ring.gauges[1].widget?.chart?.chart.format == .percent(), "a ring's chart writes percentages, as the ring")
        #expect(t2.chart.series[1].color != t2.chart.series[0].color, "the second green line takes another colour")
        let spark = try #require(l.gauges[0].sparkline)
        #expect(spark.span == 600 && spark.points == 30 && spark.chart.form == .sparkline)
        // The sparkline and t1 share one history.
        #expect(
            l.historyKeys == [
                HistoryKey(gauge: "cpu", span: 600, points: 30), HistoryKey(gauge: "cpu", span: 3600, points: 120),
                HistoryKey(gauge: "gpu", span: 3600, points: 120),
            ])
        #expect(l.store().sampled == ["cpu", "gpu"])
        #expect(LayoutChart.span(parsing: "90s") == 90 && LayoutChart.span(parsing: "2d") == 172_800)
        #expect(LayoutChart.span(parsing: "1.5h") == nil && LayoutChart.span(parsing: "h") == nil)
    }

    @Test(arguments: [
        (#"{"name": "c", "kind": "chart"}"#, "gauges[1].gauges", "missing"),
        (#"{"name": "c", "kind": "chart", "gauges": []}"#, "gauges[1].gauges", "expected an array of 1 to 8"),
        (#"{"name": "c", "kind": "chart", "gauges": ["zz"]}"#, "gauges[1].gauges", "no gauge is named 'zz'"),
        (#"{"name": "c", "kind": "chart", "gauges": ["c"]}"#, "gauges[1].gauges", "'c' is a widget, not a gauge"),
        (#"{"name": "c", "kind": "chart", "gauges": ["a", "a"]}"#, "gauges[1].gauges", "names a gauge twice"),
        (#"{"name": "c", "kind": "chart", "gauges": ["a"], "span": "10 min"}"#, "gauges[1].span", "is not a time span"),
        (#"{"name": "c", "kind": "chart", "gauges": ["a"], "span": 0.5}"#, "gauges[1].span", "from 1 s to 31 days"),
        (#"{"name": "c", "kind": "chart", "gauges": ["a"], "span": "32d"}"#, "gauges[1].span", "from 1 s to 31 days"),
        (
            #"{"name": "c", "kind": "chart", "gauges": ["a"], "points": 1}"#, "gauges[1].points",
            "must be from 2 to 2048"
        ),
        (#"{"name": "c", "kind": "chart", "gauges": ["a"], "points": 2.5}"#, "gauges[1].points", "whole number"),
        (
            #"{"name": "c", "kind": "chart", "gauges": ["a"], "span": 60, "points": 600}"#, "gauges[1].points",
            "less than a second each: at most 60"
        ),
        (#"{"name": "c", "kind": "chart", "gauges": ["a"], "range": [5, 5]}"#, "gauges[1].range", "low < high"),
        (#"{"name": "c", "kind": "chart", "gauges": ["a"], "range": "full"}"#, "gauges[1].range", "'full' is not"),
        (
            #"{"name": "c", "kind": "chart", "gauges": ["a"], "colors": ["verde"]}"#, "gauges[1].colors[0]",
            "not a colour"
        ),
        (#"{"name": "c", "kind": "chart", "gauges": ["a"], "area": 1}"#, "gauges[1].area", "expected true or false"),
        (#"{"name": "c", "kind": "chart", "gauges": ["a"], "style": "dial"}"#, "gauges[1].style", "unknown key"),
        (#"{"name": "c", "kind": "text", "gauges": ["a"]}"#, "gauges[1].gauges", "unknown key"),
        (#"{"name": "b", "sparkline": "yes"}"#, "gauges[1].sparkline", "expected an object"),
        (#"{"name": "b", "sparkline": {"span": "1w"}}"#, "gauges[1].sparkline.span", "is not a time span"),
        (#"{"name": "b", "sparkline": {"span": 10, "points": 60}}"#, "gauges[1].sparkline.points", "at most 10"),
    ])
    func mistakesAreReportedWithTheirKeys(slot: String, path: String, message: String) {
        let found = issues(#"{"gauges": [{"name": "a"}, "# + slot + "]}")
        #expect(found.contains { $0.path == path && $0.message.contains(message) }, "\(found)")
    }

    /// The charts and sparklines of a layout keep a bounded number of points in all.
    @Test func theLayoutsPointsAreBounded() {
        let charts = (0..<9).map {
            #"{"name": "c\#($0)", "kind": "chart", "gauges": ["a"], "span": \#(3600 + $0), "points": 2048}"#
        }
        let found = issues(#"{"gauges": [{"name": "a"}, "# + charts.joined(separator: ", ") + "]}")
        #expect(found.contains { $0.message.contains("keep 18432 points in all, more than 16384") }, "\(found)")
        let colors = issues(
            #"{"gauges": [{"name": "a"}, {"name": "c", "kind": "chart", "gauges": ["a"], "colors": ["red", "blue"]}]}"#)
        #expect(colors.isEmpty, "\(colors)")
        let warned = try? LayoutReader.parse(
            Array(
                #"{"gauges": [{"name": "a"}, {"name": "c", "kind": "chart", "gauges": ["a"], "colors": ["red", "blue"]}]}"#
                    .utf8))
        #expect(warned?.warnings.map(\.message) == ["has 2 colours for 1 gauge(s): the rest are not used"])
    }

    // MARK: the histories

    /// A value is recorded when it comes and held in each bucket its gauge
    /// shows it; a stale or cleared gauge leaves gaps.
    @Test func aShownValueIsHeldAndNoValueIsAGap() throws {
        let l = try layout(Self.twoGauges)
        var book = HistoryBook(layout: l)
        let key = HistoryKey(gauge: "cpu", span: 600, points: 30)  // 20 s buckets
        let t0 = 1_790_000_000.0  // a bucket's start
        book.record("cpu", 50, at: t0 + 1)
        book.record("cpu", 70, at: t0 + 2)
        book.record("cpu", 60, at: t0 + 3)
        book.hold(["cpu": 60], stale: [], at: t0 + 5)  // the same bucket: nothing more
        book.hold(["cpu": 60], stale: [], at: t0 + 21)
        book.hold(["cpu": 60], stale: [], at: t0 + 41)
        book.hold(["cpu": 60], stale: ["cpu"], at: t0 + 61)  // stale: a gap
        book.hold([:], stale: [], at: t0 + 81)  // cleared: a gap
        book.record("cpu", 40, at: t0 + 101)
        let h = try #require(book.histories[key])
        let n = try #require(h.bucketNumber(at: t0))
        typealias B = ValueHistory.Bucket
        #expect(
            (0...5).map { h.bucket(n + $0) } == [
                B(min: 50, max: 70, last: 60), B(min: 60, max: 60, last: 60), B(min: 60, max: 60, last: 60), nil, nil,
                B(min: 40, max: 40, last: 40),
            ])
        // The same value again in a bucket holding it moves nothing a chart shows.
        let before = book.signatures(l, page: 0, at: t0 + 101)
        book.record("cpu", 40, at: t0 + 102)
        #expect(book.signatures(l, page: 0, at: t0 + 102) == before)
        book.record("cpu", 41, at: t0 + 103)
        #expect(book.signatures(l, page: 0, at: t0 + 103)["t1"] != before["t1"])
        #expect(book.signatures(l, page: 0, at: t0 + 103)["t2"] != before["t2"])
        // The next step: the finest history's next bucket.
        #expect(book.nextStep(after: t0 + 103) == t0 + 120)
    }

    /// The histories go through the state file and come back equal; a
    /// damaged line costs that history; a history whose chart changed its
    /// span or points is not restored.
    @Test func historiesSurviveTheStateFile() throws {
        let l = try layout(Self.twoGauges)
        var book = HistoryBook(layout: l)
        for k in 0..<500 { book.record("cpu", Double(k % 37) * 1.25 - 3, at: 1_790_000_000 + Double(k) * 7) }
        book.record("gpu", 1e-7, at: 1_790_000_000)
        let store = l.store(values: ["cpu": 42])
        let bytes = StateFile.encode(store, history: book)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\n@history cpu 600 30 "))
        let parsed = StateFile.parse(bytes)
        #expect(parsed.skipped == 0 && parsed.values["cpu"] == 42)
        var back = HistoryBook(layout: l)
        back.restore(parsed.histories)
        #expect(back == book)
        // Damaged: a bad bucket, a history of another span, an unknown gauge.
        let damaged = Array(
            (text.replacingOccurrences(of: "@history gpu 3600 120", with: "@history gpu 3600 120 x")
                + "@history cpu 7 30 5 1 2 3\n@history nope 600 30 5 1\n@history cpu 600 30 5 1/2\n").utf8)
        let p = StateFile.parse(damaged)
        #expect(p.skipped == 2, "the gpu line and the cpu line with a bucket of two numbers")
        var partial = HistoryBook(layout: l)
        partial.restore(p.histories)
        #expect(partial.histories[HistoryKey(gauge: "gpu", span: 3600, points: 120)]?.newest == nil)
        #expect(partial.histories[HistoryKey(gauge: "cpu", span: 7, points: 30)] == nil, "not the layout's")
        #expect(
            partial.histories[HistoryKey(gauge: "cpu", span: 600, points: 30)]
                == book.histories[HistoryKey(gauge: "cpu", span: 600, points: 30)])
        // A reload keeps the histories the new layout still has.
        let reloaded = HistoryBook(
            layout: try layout(
                #"{"gauges": [{"name": "cpu"}, {"name": "c", "kind": "chart", "gauges": ["cpu"], "span": "10m", "points": 30}]}"#
            ), keeping: book)
        #expect(reloaded.histories.keys.sorted() == [HistoryKey(gauge: "cpu", span: 600, points: 30)])
        #expect(reloaded.histories.values.first == book.histories[HistoryKey(gauge: "cpu", span: 600, points: 30)])
    }

    // MARK: the daemon

    static let chartBeside = """
        {"gauges": [{"name": "a", "style": "linearCapacity", "rect": [0, 0, 32, 32]},
                    {"name": "c", "kind": "chart", "gauges": ["a"], "span": "31d", "points": 2, "rect": [32, 0, 32, 32]}]}
        """

    /// A value repaints the gauge and the chart, their rectangles alone; the
    /// same value again in the same bucket repaints nothing; the frame is
    /// what the scene draws from the daemon's histories.
    @Test func aValueRepaintsTheGaugeAndTheChartAlone() throws {
        let l = try layout(Self.chartBeside)
        let rig = try LoopRig(l)
        try rig.turn()
        try rig.turn()
        let c = try TestClient(rig.dir.file("s.sock"))
        try rig.turn()  // accept
        let presents = rig.output.presents.count
        try c.send("a 40\n")
        try rig.turn()
        #expect(rig.output.presents.count == presents + 1)
        let damage = rig.output.presents.last ?? []
        let chartRect = IntRect(x: 32, y: 0, width: 32, height: 32)
        #expect(damage.contains(chartRect), "\(damage)")
        #expect(damage.allSatisfy { $0 == chartRect || IntRect(x: 0, y: 0, width: 32, height: 32).contains($0) })
        let img = Image(width: 64, height: 32)
        LayoutScene(layout: l, width: 64, height: 32, cachesStaticLayers: false).drawAll(
            img.surface, values: ["a": 40],
            charts: rig.daemon.history.frames(l, page: 0, at: Daemon.wallSeconds()))
        #expect(Self.pixels(rig.output.image) == Self.pixels(img))
        try c.send("a 40\n")
        try rig.turn()
        #expect(rig.output.presents.count == presents + 1, "the same value: no frame")
    }

    static func pixels(_ img: Image) -> [UInt8] {
        (0..<img.height).flatMap { y in Array(UnsafeRawBufferPointer(start: img.surface.row(y), count: img.width * 4)) }
    }

    /// The daemon's frame of a chart, a sparkline and peaks equals `paneld
    /// render`'s with the same values; after a stop, `render --state` draws the same
    /// frame from the state file the daemon saved. (A bucket is 15.5 days,
    /// so the values and the render fall in one.)
    @Test func theDaemonShowsWhatRenderDrawsForACharts() throws {
        let dir = TempDirectory()
        try dir.write(
            "l.json",
            """
            {"mode": "320x240", "grid": {"rows": 2},
             "gauges": [{"name": "a", "style": "ring", "label": "A", "sparkline": {"span": "31d", "points": 2},
                         "peaks": true},
                        {"name": "c", "kind": "chart", "gauges": ["a"], "span": "31d", "points": 2}]}
            """)
        let state = dir.file("values")
        let d = try DaemonProcess(
            dir, args: ["--config", dir.file("l.json"), "--output", "png:" + dir.file("d.png"), "--state", state])
        let c = try TestClient(d.socketPath)
        #expect(try c.ask("a 30\na 80\na 64\nget a") == "a 64")
        let r = try runPaneld(
            [
                "render", "--config", dir.file("l.json"), "--set", "a=30", "--set", "a=80", "--set", "a=64", "--output",
                dir.file("r.png"),
            ],
            in: dir)
        #expect(r.status == 0, "\(r.err)")
        let want = try PNG.read(dir.file("r.png"))
        #expect(pngComesToShow(dir.file("d.png"), want), "the daemon's frame equals paneld render's output")
        d.signal(SIGTERM)
        #expect(d.wait(timeout: 5_000) == 0)
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains("@history a 2678400 2 "), "\(saved)")
        #expect(saved.contains("\n@peaks a 30 80\n"), "\(saved)")
        let fromState = try runPaneld(
            ["render", "--config", dir.file("l.json"), "--state", state, "--output", dir.file("s.png")], in: dir)
        #expect(fromState.status == 0, "\(fromState.err)")
        let again = try PNG.read(dir.file("s.png"))
        #expect(again.rgb == want.rgb, "the state file's histories draw the same chart")
        let refused = try runPaneld(
            ["render", "--config", dir.file("l.json"), "--history", "b=1,2", "--output", dir.file("x.png")], in: dir)
        #expect(
            refused.status != 0
                && refused.err.contains("no chart, sparkline or peaks show a gauge named 'b' (charted: a)"))
        let bad = try runPaneld(
            ["render", "--config", dir.file("l.json"), "--history", "a=1,x", "--output", dir.file("x.png")], in: dir)
        #expect(bad.status != 0 && bad.err.contains("--history 'a=1,x' is not NAME=V,V,..."), "\(bad.err)")
    }
}
