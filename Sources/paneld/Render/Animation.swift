/// Moving a gauge's shown value towards its new value over a fixed time.
///
/// Pure value types: the daemon asks ``Animator/shown(at:)`` for the values of a
/// frame and ``Animator/isRunning`` for whether it needs a timer at all.
enum Easing {
    /// Cubic ease-out: fast start, gentle stop. `t` in 0...1 (clamped) to 0...1.
    static func easeOut(_ t: Double) -> Double {
        let x = 1 - min(1, max(0, t))
        return 1 - x * x * x
    }
}

struct Animator: Sendable {
    struct Track: Sendable, Equatable {
        var from: Double
        var to: Double
        var start: Int64
    }

    /// Milliseconds an animation lasts; 0 = values jump.
    let duration: Int64
    /// Values as last shown or targeted, per gauge.
    private(set) var targets: [String: Double]
    private(set) var tracks: [String: Track] = [:]

    init(duration: Int64, values: [String: Double]) {
        self.duration = max(0, duration)
        self.targets = values
    }

    var isRunning: Bool { !tracks.isEmpty }

    /// A gauge's target changed at `now`: animate from where it is shown now.
    mutating func retarget(_ name: String, to value: Double, now: Int64) {
        let current = shownValue(name, at: now)
        targets[name] = value
        if duration == 0 || current == value || !current.isFinite {
            tracks[name] = nil
        } else {
            tracks[name] = Track(from: current, to: value, start: now)
        }
    }

    func shownValue(_ name: String, at now: Int64) -> Double {
        guard let t = tracks[name] else { return targets[name] ?? 0 }
        let progress = Double(now - t.start) / Double(duration)
        if progress >= 1 { return t.to }
        return t.from + (t.to - t.from) * Easing.easeOut(progress)
    }

    /// Values to draw at `now`, and the names still moving (their frames must keep coming).
    func shown(at now: Int64) -> [String: Double] {
        var out = targets
        for name in tracks.keys { out[name] = shownValue(name, at: now) }
        return out
    }

    /// Ends tracks that are complete at `now`; returns the names that moved in this frame.
    mutating func advance(to now: Int64) -> Set<String> {
        let moving = Set(tracks.keys)
        tracks = tracks.filter { now - $0.value.start < duration }
        return moving
    }
}
