import PanelGauge
import PanelScene

/// The histories a layout's charts and sparklines show: one
/// ``PanelGauge/ValueHistory`` per ``HistoryKey``, fed every value set on
/// its gauge (``GaugeStore/Sample``) at the wall clock's time, and in each
/// bucket the gauge spends showing a value (``hold(_:stale:at:)``). So a
/// chart shows what its gauge showed: a value held between inputs, a gap
/// where it showed none (never set, cleared, stale, or paneld not running).
/// Its memory is fixed by the layout (at most ``LayoutChart/maxTotalPoints``
/// buckets in all); a value type with no I/O.
package struct HistoryBook: Equatable, Sendable {
    /// Each history by key.
    package private(set) var histories: [HistoryKey: ValueHistory] = [:]
    /// Per key, how many values it has kept (what a chart's repaint follows).
    private(set) var generations: [HistoryKey: UInt64] = [:]
    /// The keys of each gauge.
    private var keysOfGauge: [String: [HistoryKey]] = [:]
    /// The lowest and highest value set on each gauge with peaks since
    /// paneld started (``LayoutPeaks/window`` nil), once one was set.
    package private(set) var extremes: [String: Extremes] = [:]
    /// The gauges whose peaks are kept since paneld started.
    private var keepsExtremes: Set<String> = []

    /// The lowest and highest of the values set on a gauge.
    package struct Extremes: Equatable, Sendable {
        package var low: Double
        package var high: Double

        /// Takes in `v`.
        mutating func add(_ v: Double) {
            low = Swift.min(low, v)
            high = Swift.max(high, v)
        }
    }

    /// Empty histories for `layout`'s charts and sparklines; those of `old`
    /// with a key the layout still has are kept (a reload keeps them).
    package init(layout: Layout, keeping old: HistoryBook? = nil) {
        for key in layout.historyKeys {
            histories[key] = old?.histories[key] ?? (try? ValueHistory(span: key.span, points: key.points))
            generations[key] = old?.generations[key] ?? 0
            keysOfGauge[key.gauge, default: []].append(key)
        }
        for g in layout.gauges where g.peaks.map({ $0.window == nil }) ?? false {
            keepsExtremes.insert(g.name)
            if let e = old?.extremes[g.name] { extremes[g.name] = e }
        }
    }

    /// Records `value` on every history of `gauge`, at `t` seconds since 1970.
    package mutating func record(_ gauge: String, _ value: Double, at t: Double) {
        for key in keysOfGauge[gauge] ?? [] { record(value, at: t, in: key) }
        if value.isFinite, keepsExtremes.contains(gauge) {
            extremes[gauge, default: Extremes(low: value, high: value)].add(value)
        }
    }

    /// Records `value` at `t` in the history of `key`; its generation moves
    /// on only when a bucket changed (the same value again in a bucket that
    /// holds it as its last changes nothing a chart shows).
    private mutating func record(_ value: Double, at t: Double, in key: HistoryKey) {
        // Taken out while it changes, so its buckets are not copied.
        guard var h = histories.removeValue(forKey: key) else { return }
        defer { histories[key] = h }
        guard let n = h.bucketNumber(at: t) else { return }
        let before = h.bucket(n), newest = h.newest
        guard h.record(value, at: t), h.bucket(n) != before || h.newest != newest else { return }
        generations[key, default: 0] &+= 1
    }

    /// Records the value each gauge of `values` shows (not those in `stale`)
    /// in the bucket holding `wall`, on each of its histories whose newest
    /// bucket is an older one: what keeps a value that comes less often than
    /// a bucket a line, not dots. The daemon calls it every turn, and a turn
    /// comes at each bucket's start (``ChartPart``).
    package mutating func hold(_ values: [String: Double], stale: Set<String>, at wall: Double) {
        for (key, h) in histories {
            guard let v = values[key.gauge], !stale.contains(key.gauge), let n = h.bucketNumber(at: wall),
                h.newest.map({ $0 < n }) ?? true
            else { continue }
            record(v, at: wall, in: key)
        }
    }

    /// Records `values` on every history of `gauge`, spread evenly over
    /// each one's span and ending at `now`: value `k` of `n` comes at `now -
    /// (n - 1 - k) * span / n` and is held until the next; nil is no value
    /// (a gap until the next). For previews (`paneld render --history`).
    package mutating func record(_ gauge: String, spread values: [Double?], endingAt now: Double) {
        let n = Double(values.count)
        if keepsExtremes.contains(gauge) {
            for case let v? in values where v.isFinite {
                extremes[gauge, default: Extremes(low: v, high: v)].add(v)
            }
        }
        for key in keysOfGauge[gauge] ?? [] {
            guard var h = histories.removeValue(forKey: key) else { continue }
            let w = h.width
            for (k, v) in values.enumerated() {
                guard let v else { continue }
                let from = now - (n - 1 - Double(k)) * key.span / n
                let to = k + 1 < values.count ? now - (n - 2 - Double(k)) * key.span / n : now
                h.record(v, at: from)
                // Held: once in each later bucket it spans (at most the history's points).
                var t = ((from / w).rounded(.down) + 1.5) * w
                var held = 0
                while t < to, held < key.points {
                    h.record(v, at: t)
                    t += w
                    held += 1
                }
            }
            histories[key] = h
            generations[key, default: 0] &+= 1
        }
    }

    /// Whether some chart, sparkline or peaks keep `gauge`'s history.
    package func keeps(_ gauge: String) -> Bool { keysOfGauge[gauge] != nil || keepsExtremes.contains(gauge) }

    /// The peaks each gauge of `page` with `"peaks"` marks at `wall`
    /// seconds since 1970, by name: since paneld started, or the lowest
    /// and highest in the buckets of its window (a value leaves the window
    /// with its bucket, a sixtieth of the window at most after it is
    /// older than the window). A gauge with none to mark is missing.
    package func peaks(_ layout: Layout, page: Int, at wall: Double) -> [String: GaugePeaks] {
        var out: [String: GaugePeaks] = [:]
        for g in layout.gauges where g.page == page {
            guard let p = g.peaks else { continue }
            let range: (low: Double, high: Double)?
            if let key = p.key(gauge: g.name) {
                range = histories[key]?.summary(endingAt: wall).map { ($0.min, $0.max) }
            } else {
                range = extremes[g.name].map { ($0.low, $0.high) }
            }
            guard let range else { continue }
            out[g.name] = GaugePeaks(low: p.low ? range.low : nil, high: p.high ? range.high : nil)
        }
        return out
    }

    /// Each chart and sparkline of `page`: its scene item's name, the keys
    /// of the histories it shows, and their span and points.
    private static func charts(_ layout: Layout, page: Int) -> [(
        name: String, keys: [HistoryKey], span: Double, points: Int
    )] {
        var out: [(name: String, keys: [HistoryKey], span: Double, points: Int)] = []
        for g in layout.gauges where g.page == page {
            if let c = g.widget?.chart { out.append((g.name, c.keys, c.span, c.points)) }
            if let s = g.sparkline {
                out.append(
                    (
                        LayoutScene.sparklineName(g.name), [HistoryKey(gauge: g.name, span: s.span, points: s.points)],
                        s.span, s.points
                    ))
            }
        }
        return out
    }

    /// What the scene needs of each chart and sparkline of `page` at `wall`
    /// seconds since 1970, by scene item name: the histories, and the time
    /// as the middle of the current bucket, so a frame changes only when a
    /// value comes or the chart moves on by a bucket.
    package func frames(_ layout: Layout, page: Int, at wall: Double) -> [String: ChartFrame] {
        var out: [String: ChartFrame] = [:]
        for c in Self.charts(layout, page: page) {
            out[c.name] = ChartFrame(histories: c.keys.map { histories[$0] }, now: Self.middle(wall, c.span, c.points))
        }
        return out
    }

    /// A cheap stand-in for ``frames(_:page:at:)``'s frame of each chart:
    /// it changes exactly when the frame does (a value kept, a bucket passed).
    func signatures(_ layout: Layout, page: Int, at wall: Double) -> [String: [Int64]] {
        var out: [String: [Int64]] = [:]
        for c in Self.charts(layout, page: page) {
            out[c.name] =
                [Self.bucket(wall, c.span, c.points)] + c.keys.map { Int64(bitPattern: generations[$0] ?? 0) }
        }
        return out
    }

    /// The next time after `wall` at which a history moves on to a new
    /// bucket (seconds since 1970), on any page (each holds its gauge's
    /// value); nil without histories.
    func nextStep(after wall: Double) -> Double? {
        histories.values.map { h in ((wall / h.width).rounded(.down) + 1) * h.width }.min()
    }

    private static func bucket(_ wall: Double, _ span: Double, _ points: Int) -> Int64 {
        let n = (wall / (span / Double(points))).rounded(.down)
        return n.isFinite && abs(n) < 1e15 ? Int64(n) : 0
    }

    private static func middle(_ wall: Double, _ span: Double, _ points: Int) -> Double {
        let w = span / Double(points)
        return (Double(bucket(wall, span, points)) + 0.5) * w
    }

    package static func == (a: Self, b: Self) -> Bool { a.histories == b.histories && a.extremes == b.extremes }
}

// MARK: In the state file

extension HistoryBook {
    /// The marker a history's line in the state file starts with (no gauge
    /// name starts with it, so the value lines' parser never sees one).
    static let linePrefix = "@history"

    /// One line per history that holds data: `@history NAME SPAN POINTS
    /// FIRST B...`, `FIRST` the number of the oldest bucket kept and each
    /// `B` a bucket in turn: `-` for a gap, `V` when its minimum, maximum
    /// and last are one value, else `MIN/MAX/LAST`.
    package func encoded() -> String {
        var out = ""
        for key in histories.keys.sorted() {
            guard let h = histories[key], let first = h.recorded.first?.number, let newest = h.newest else { continue }
            var line = "\(Self.linePrefix) \(key.gauge) \(GaugeStore.format(key.span)) \(key.points) \(first)"
            for n in first...newest {
                line += " "
                guard let b = h.bucket(n) else {
                    line += "-"
                    continue
                }
                if b.min == b.max && b.max == b.last {
                    line += GaugeStore.format(b.last)
                } else {
                    line += "\(GaugeStore.format(b.min))/\(GaugeStore.format(b.max))/\(GaugeStore.format(b.last))"
                }
            }
            out += line + "\n"
        }
        for name in extremes.keys.sorted() {
            let e = extremes[name]!
            out += "\(Self.peaksPrefix) \(name) \(GaugeStore.format(e.low)) \(GaugeStore.format(e.high))\n"
        }
        return out
    }

    /// The marker of a line of peaks since paneld started: `@peaks NAME LOW HIGH`.
    static let peaksPrefix = "@peaks"

    /// A peaks line of the state file; nil for one that does not parse. Pure.
    static func parsePeaksLine(_ line: Substring) -> (String, Extremes)? {
        let f = line.split(separator: " ", omittingEmptySubsequences: true)
        guard f.count == 4, f[0] == Self.peaksPrefix, GaugeName.isValid(f[1].utf8), let low = Double(f[2]),
            let high = Double(f[3]), low.isFinite, high.isFinite, low <= high
        else { return nil }
        return (String(f[1]), Extremes(low: low, high: high))
    }

    /// A history line of the state file; nil for one that is not one or does
    /// not parse (a damaged line costs that history only). Pure.
    static func parseLine(_ line: Substring) -> (HistoryKey, ValueHistory)? {
        let f = line.split(separator: " ", omittingEmptySubsequences: true)
        guard f.count >= 5, f[0] == Self.linePrefix, GaugeName.isValid(f[1].utf8), let span = Double(f[2]),
            let points = Int(f[3]), let first = Int64(f[4]), f.count - 5 <= points, abs(first) < 1_000_000_000_000_000
        else { return nil }
        var buckets: [(number: Int64, bucket: ValueHistory.Bucket)] = []
        for (k, field) in f.dropFirst(5).enumerated() where field != "-" {
            let parts = field.split(separator: "/", omittingEmptySubsequences: false).map { Double($0) }
            let b: ValueHistory.Bucket
            if parts.count == 1, let v = parts[0] {
                b = .init(min: v, max: v, last: v)
            } else if parts.count == 3, let lo = parts[0], let hi = parts[1], let last = parts[2] {
                b = .init(min: lo, max: hi, last: last)
            } else {
                return nil
            }
            buckets.append((first + Int64(k), b))
        }
        guard let h = try? ValueHistory(span: span, points: points, buckets: buckets) else { return nil }
        return (HistoryKey(gauge: String(f[1]), span: span, points: points), h)
    }

    /// Takes the saved histories whose keys this book has (a chart whose
    /// span or points changed starts empty).
    package mutating func restore(_ saved: [HistoryKey: ValueHistory], extremes savedExtremes: [String: Extremes] = [:])
    {
        for (key, h) in saved where histories[key] != nil {
            histories[key] = h
            generations[key, default: 0] &+= 1
        }
        for (name, e) in savedExtremes where keepsExtremes.contains(name) { extremes[name] = e }
    }
}

/// The histories as a part: its deadline is the moment the first of them
/// moves on to a new bucket, so the loop wakes then, holds the gauges'
/// values in it (``HistoryBook/hold(_:stale:at:)``) and repaints the charts
/// that moved, their frames alone (the daemon compares each chart's frame
/// every turn). One wake-up per bucket of the finest history (each at least
/// a second); without charts or sparklines, none.
final class ChartPart: DaemonPart {
    /// When the next chart moves on (wall-clock milliseconds since the epoch).
    private(set) var nextStep: Int64?

    /// How long after a step the daemon wakes, in milliseconds, so the step has come.
    static let margin: Int64 = 2

    func interest(now: Int64) -> PartInterest {
        .atWall(nextStep, now: now, margin: ChartPart.margin)
    }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        let wall = Double(ClockFormat.now()) / 1000
        nextStep = daemon.history.nextStep(after: wall).map { Int64(($0 * 1000).rounded(.up)) }
    }
}
