/// A gauge's peaks (`"peaks"`): the lowest and highest values it was set
/// to, marked on its track (``PanelGauge/GaugePeaks``), since paneld
/// started or over a window of time.
package struct LayoutPeaks: Sendable, Equatable {
    /// The window, in seconds; nil: since paneld started (kept across
    /// restarts in the state file).
    package var window: Double?
    /// Whether the lowest value is marked.
    package var low = true
    /// Whether the highest value is marked.
    package var high = true

    /// The buckets a window is kept in (its peaks leave it a bucket at a
    /// time): 60, or one a second for a window under a minute.
    static func points(window: Double) -> Int { max(2, min(60, Int(window))) }

    /// The shortest window: two buckets of a second.
    static let minimumWindow = 2.0

    /// The history a window's peaks are taken from.
    func key(gauge: String) -> HistoryKey? {
        window.map { HistoryKey(gauge: gauge, span: $0, points: Self.points(window: $0)) }
    }

    /// The values `"show"` takes.
    static let shows = ["both", "low", "high"]
}

extension Checker {
    /// A gauge's `"peaks"` at `path`: `true` (since paneld started), a
    /// window (seconds or `"24h"`), or an object of `window` and `show`.
    mutating func peaks(_ v: JSONValue?, _ path: String) -> LayoutPeaks? {
        guard let v else { return nil }
        var peaks = LayoutPeaks()
        var windowValue: JSONValue?
        var windowPath = path
        switch v.kind {
        case .bool(let on):
            return on ? peaks : nil
        case .number, .string:
            windowValue = v
        case .object:
            guard let m = members(v, path, known: LayoutKeys.peaks) else { return nil }
            windowValue = m["window"]
            windowPath = path + ".window"
            if let s = m["show"] {
                guard let show = string(s, path + ".show") else { return nil }
                guard LayoutPeaks.shows.contains(show) else {
                    fail(s, path + ".show", "expected one of: \(LayoutPeaks.shows.joined(separator: ", "))")
                    return nil
                }
                peaks.low = show != "high"
                peaks.high = show != "low"
            }
        default:
            fail(v, path, "expected true, a time window (\"24h\") or an object { \"window\", \"show\" }")
            return nil
        }
        if let w = windowValue {
            guard let window = span(w, windowPath) else { return nil }
            guard window >= LayoutPeaks.minimumWindow else {
                fail(w, windowPath, "a window must be at least 2 s")
                return nil
            }
            peaks.window = window
        }
        return peaks
    }
}
