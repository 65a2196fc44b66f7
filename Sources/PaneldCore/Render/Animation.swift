import PanelGauge

/// The shown value of every gauge, gliding to new values with PanelGauge's
/// ``AnimatedValue`` (ease-out over the layout's `animation` time).
///
/// A value type with no clock of its own: the daemon passes monotonic
/// milliseconds, asks ``shown(at:)`` for a frame's values and ``isRunning`` for
/// whether it needs a frame timer at all.
struct Animator: Sendable {
    let duration: Int64
    private var values: [String: AnimatedValue]
    /// Gauges whose last change is still being shown.
    private(set) var moving: Set<String> = []

    init(duration: Int64, values: [String: Double]) {
        self.duration = max(0, duration)
        let animation = GaugeAnimation(duration: Double(self.duration) / 1000, curve: .easeOut)
        self.values = values.mapValues { AnimatedValue($0, animation: animation) }
    }

    var isRunning: Bool { !moving.isEmpty }

    /// A gauge's target changed at `now`: it glides from what is shown now.
    mutating func retarget(_ name: String, to value: Double, now: Int64) {
        guard var v = values[name] else {
            // A gauge without a value shows its first value at once.
            values[name] = AnimatedValue(
                value, animation: GaugeAnimation(duration: Double(duration) / 1000, curve: .easeOut))
            moving.remove(name)
            return
        }
        v.set(value, at: Animator.seconds(now))
        values[name] = v
        if v.isAnimating(at: Animator.seconds(now)) { moving.insert(name) } else { moving.remove(name) }
    }

    /// A gauge lost its value: it shows none, at once.
    mutating func clear(_ name: String) {
        values[name] = nil
        moving.remove(name)
    }

    func shownValue(_ name: String, at now: Int64) -> Double {
        values[name]?.value(at: Animator.seconds(now)) ?? 0
    }

    /// Values to draw at `now` (a gauge without a value is missing).
    func shown(at now: Int64) -> [String: Double] {
        values.mapValues { $0.value(at: Animator.seconds(now)) }
    }

    /// Returns the gauges that moved in the frame at `now` (they need repainting)
    /// and forgets those that have arrived.
    mutating func advance(to now: Int64) -> Set<String> {
        let moved = moving
        moving = moving.filter { values[$0]!.isAnimating(at: Animator.seconds(now)) }
        return moved
    }

    private static func seconds(_ ms: Int64) -> Double { Double(ms) / 1000 }
}
