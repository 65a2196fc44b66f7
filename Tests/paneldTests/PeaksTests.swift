import Glibc
import PanelGauge
import PanelScene
import Testing

@testable import PaneldCore

/// A gauge's `"peaks"` in the daemon: the key and its mistakes, the peaks
/// kept (since paneld started, or over a window), the state file, and the
/// daemon's damage-only repaint of the marks.
@Suite(.serialized) struct PeaksTests {
    private func layout(_ json: String) throws -> Layout { try LayoutReader.parse(Array(json.utf8)) }

    static let gauges = """
        {"gauges": [
          {"name": "temp", "style": "linearCapacity", "range": [20, 90], "peaks": true},
          {"name": "tank", "style": "accessoryCircularCapacity", "peaks": "10m"},
          {"name": "load", "style": "dial", "range": [0, 4], "peaks": {"window": 120, "show": "high"}},
          {"name": "fan"}
        ]}
        """

    @Test func peaksAreRead() throws {
        let l = try layout(Self.gauges)
        #expect(l.gauges[0].peaks == LayoutPeaks(window: nil, low: true, high: true))
        #expect(l.gauges[1].peaks == LayoutPeaks(window: 600, low: true, high: true))
        #expect(l.gauges[2].peaks == LayoutPeaks(window: 120, low: false, high: true))
        #expect(l.gauges[3].peaks == nil)
        #expect(
            l.historyKeys == [
                HistoryKey(gauge: "load", span: 120, points: 60), HistoryKey(gauge: "tank", span: 600, points: 60),
            ], "a window in 60 buckets; since start keeps no history")
        #expect(l.store().sampled == ["temp", "tank", "load"], "every value set on a gauge with peaks is seen")
        let short = try layout(#"{"gauges": [{"name": "a", "peaks": 30}]}"#)
        #expect(short.historyKeys == [HistoryKey(gauge: "a", span: 30, points: 30)], "a bucket a second under a minute")
        #expect(try layout(#"{"gauges": [{"name": "a", "peaks": false}]}"#).gauges[0].peaks == nil)
    }

    @Test(arguments: [
        (#"{"name": "a", "peaks": [1]}"#, "gauges[0].peaks", "expected true, a time window"),
        (#"{"name": "a", "peaks": "1s"}"#, "gauges[0].peaks", "a window must be at least 2 s"),
        (#"{"name": "a", "peaks": "forever"}"#, "gauges[0].peaks", "is not a time span"),
        (#"{"name": "a", "peaks": "40d"}"#, "gauges[0].peaks", "from 1 s to 31 days"),
        (#"{"name": "a", "peaks": {"window": 1}}"#, "gauges[0].peaks.window", "at least 2 s"),
        (#"{"name": "a", "peaks": {"show": "max"}}"#, "gauges[0].peaks.show", "expected one of: both, low, high"),
        (#"{"name": "a", "peaks": {"show": 1}}"#, "gauges[0].peaks.show", "expected a string"),
        (#"{"name": "a", "peaks": {"since": "boot"}}"#, "gauges[0].peaks.since", "unknown key"),
        (#"{"name": "a", "kind": "text", "peaks": true}"#, "gauges[0].peaks", "unknown key"),
        (#"{"name": "a", "kind": "clock", "peaks": true}"#, "gauges[0].peaks", "unknown key"),
    ])
    func mistakesAreReportedWithTheirKeys(slot: String, path: String, message: String) {
        let found = issues(#"{"gauges": ["# + slot + "]}")
        #expect(found.contains { $0.path == path && $0.message.contains(message) }, "\(found)")
    }

    /// Peak windows count toward the charts' points.
    @Test func peakWindowsCountTowardThePoints() {
        let charts = (0..<8).map {
            #"{"name": "c\#($0)", "kind": "chart", "gauges": ["a"], "span": \#(3600 + $0), "points": 2048}"#
        }
        let found = issues(
            #"{"gauges": [{"name": "a", "peaks": "1h"}, "# + charts.joined(separator: ", ") + "]}")
        #expect(found.contains { $0.message.contains("keep 16444 points in all, more than 16384") }, "\(found)")
    }

    /// Since paneld started: the lowest and highest value set, out of range
    /// too; over a window: those in its buckets, a value leaving with its
    /// bucket; `show` leaves one out; a gauge never set has none.
    @Test func peaksFollowTheValuesSet() throws {
        let l = try layout(Self.gauges)
        var book = HistoryBook(layout: l)
        let t0 = 1_790_000_000.0
        #expect(book.peaks(l, page: 0, at: t0).isEmpty, "nothing set: no peaks")
        for (k, v) in [50.0, 95, 31, 60].enumerated() { book.record("temp", v, at: t0 + Double(k)) }
        book.record("tank", 80, at: t0)
        book.record("tank", 40, at: t0 + 300)
        book.record("load", 3.5, at: t0)
        book.record("load", 1, at: t0 + 100)
        book.record("fan", 9, at: t0)
        #expect(book.peaks(l, page: 0, at: t0 + 101)["load"] == GaugePeaks(low: nil, high: 3.5))
        var p = book.peaks(l, page: 0, at: t0 + 301)
        #expect(p["temp"] == GaugePeaks(low: 31, high: 95))
        #expect(p["tank"] == GaugePeaks(low: 40, high: 80))
        #expect(p["load"] == nil, "load's window of 2 min holds no value: no peaks")
        #expect(p["fan"] == nil)
        // Ten minutes on, 80 has left tank's window, and 3.5 load's.
        book.hold(["tank": 40, "load": 1], stale: [], at: t0 + 620)
        p = book.peaks(l, page: 0, at: t0 + 620)
        #expect(p["tank"] == GaugePeaks(low: 40, high: 40))
        #expect(p["load"] == GaugePeaks(low: nil, high: 1))
        #expect(p["temp"] == GaugePeaks(low: 31, high: 95), "since start: kept")
        // The window's buckets wake paneld: load's 2 s buckets are the finest.
        #expect(book.nextStep(after: t0 + 620.5) == t0 + 622)
    }

    /// Peaks since start go through the state file (`@peaks` lines) and a
    /// reload; damaged lines cost only themselves; windows go as histories.
    @Test func peaksSurviveTheStateFileAndAReload() throws {
        let l = try layout(Self.gauges)
        var book = HistoryBook(layout: l)
        let t0 = 1_790_000_000.0
        book.record("temp", 22.5, at: t0)
        book.record("temp", 1e-7, at: t0 + 1)
        book.record("tank", 55, at: t0)
        let bytes = StateFile.encode(l.store(values: ["temp": 22.5]), history: book)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            text.contains("\n@peaks temp 1e-07 22.5\n") || text.contains("\n@peaks temp 0.0000001 22.5\n"), "\(text)")
        #expect(text.contains("@history tank 600 60 "))
        let parsed = StateFile.parse(bytes)
        #expect(parsed.skipped == 0)
        var back = HistoryBook(layout: l)
        back.restore(parsed.histories, extremes: parsed.extremes)
        #expect(back == book)
        #expect(back.peaks(l, page: 0, at: t0 + 2) == book.peaks(l, page: 0, at: t0 + 2))
        let damaged = StateFile.parse(
            Array(
                (text
                    + "@peaks temp 5\n@peaks temp 9 1\n@peaks temp nan 1\n@peaks 9x 1 2\n@peaks fan 1 2\n@peakss a 1 2\n")
                    .utf8))
        #expect(damaged.skipped == 5, "four bad @peaks lines and one that is not a line paneld writes")
        var partial = HistoryBook(layout: l)
        partial.restore(damaged.histories, extremes: damaged.extremes)
        #expect(partial.extremes["temp"] == book.extremes["temp"])
        #expect(partial.extremes["fan"] == nil, "fan has no peaks in this layout")
        // A reload keeps the peaks of gauges that still keep them since start.
        let reloaded = HistoryBook(
            layout: try layout(#"{"gauges": [{"name": "temp", "peaks": true}, {"name": "tank"}]}"#), keeping: book)
        #expect(reloaded.extremes == ["temp": book.extremes["temp"]!])
    }

    // MARK: the daemon

    static let barBeside = """
        {"gauges": [{"name": "a", "style": "linearCapacity", "range": [0, 100], "rect": [0, 0, 64, 16], "peaks": true},
                    {"name": "b", "style": "linearCapacity", "rect": [0, 16, 64, 16]}]}
        """

    /// A value past the high peak moves the mark: the frame repaints the
    /// bar's rectangle only, and is what the scene draws with those peaks;
    /// a value between the peaks moves none.
    @Test func aNewPeakRepaintsItsGaugeAlone() throws {
        let l = try layout(Self.barBeside)
        let rig = try LoopRig(l)
        try rig.turn()
        try rig.turn()
        let c = try TestClient(rig.dir.file("s.sock"))
        try rig.turn()  // accept
        try c.send("a 40\n")
        try rig.turn()
        try c.send("a 70\n")
        try rig.turn()
        let presents = rig.output.presents.count
        try c.send("a 90\n")
        try rig.turn()
        #expect(rig.output.presents.count == presents + 1)
        let damage = rig.output.presents.last ?? []
        #expect(!damage.isEmpty && damage.allSatisfy { IntRect(x: 0, y: 0, width: 64, height: 16).contains($0) })
        func expected(_ v: Double, _ peaks: GaugePeaks) -> [UInt8] {
            let img = Image(width: 64, height: 32)
            LayoutScene(layout: l, width: 64, height: 32, cachesStaticLayers: false).drawAll(
                img.surface, values: ["a": v], peaks: ["a": peaks])
            return ChartTests.pixels(img)
        }
        #expect(ChartTests.pixels(rig.output.image) == expected(90, GaugePeaks(low: 40, high: 90)))
        #expect(rig.daemon.history.peaks(l, page: 0, at: Daemon.wallSeconds())["a"] == GaugePeaks(low: 40, high: 90))
        try c.send("a 60\n")
        try rig.turn()
        #expect(ChartTests.pixels(rig.output.image) == expected(60, GaugePeaks(low: 40, high: 90)))
        #expect(
            ChartTests.pixels(rig.output.image) != expected(60, GaugePeaks(low: 60, high: 60)),
            "the marks are on the screen")
    }
}
