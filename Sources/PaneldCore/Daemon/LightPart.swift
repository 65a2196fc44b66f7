import Glibc
import PanelDisplay
import PanelGauge

/// The screen's light as a part: the backlight's brightness by day and by
/// night (the layout's `"light"`), the screen turned off after `blankAfter`
/// without a touch and on again by a touch, by `screen on` on the socket,
/// or by a value moving into another threshold zone (`wakeOnThreshold`).
///
/// Its deadlines are the next change of the schedule (twice a day with a
/// night) and the moment the screen goes off; with neither set it never
/// wakes the loop.
final class LightPart: DaemonPart {
    private(set) var settings: LayoutLight
    private let folder: String
    /// The backlight written, when there is one (the layout's, or the only one).
    private(set) var backlight: Backlight?
    /// `screen N` on the socket: this brightness until `screen auto`.
    private var override: Double?
    /// The brightness last written, percent.
    private var written: Double?
    /// The screen is off (after `blankAfter`, or `screen off`).
    private(set) var isOff = false
    /// When the screen was last touched or turned on (monotonic milliseconds).
    private var lastActivity: Int64
    /// Each gauge's threshold zone as last seen (for `wakeOnThreshold`).
    private var zones: [String: Int] = [:]
    /// Why the backlight cannot be written, said once.
    private var failure: String?

    init(_ settings: LayoutLight, folder: String = Backlight.classFolder, now: Int64) {
        self.settings = settings
        self.folder = folder
        lastActivity = now
        findBacklight()
    }

    private func findBacklight() {
        guard settings.isSet else { return }
        do {
            backlight = try Backlight.find(named: settings.backlight, in: folder)
            if let b = backlight {
                Log.info("light: backlight \(b.name) (levels 0 to \(b.maximum))")
            } else if settings.night != nil || settings.brightness != 100 {
                let names = Backlight.entries(folder)
                Log.warning(
                    "light: "
                        + (names.isEmpty
                            ? "no backlight in \(folder): brightness and night are not applied"
                            : "several backlights (\(names.joined(separator: ", "))): name one in \"light\": { \"backlight\" }")
                )
            }
        } catch {
            Log.warning("light: \(error)")
        }
    }

    /// After a reload: the new settings from `now` on (an override from the socket stays).
    func reload(_ new: LayoutLight, now: Int64) {
        guard new != settings else { return }
        settings = new
        backlight = nil
        written = nil
        failure = nil
        lastActivity = now
        findBacklight()
    }

    /// The brightness wanted now, percent.
    private var wanted: Double { override ?? settings.brightness(atMinute: Self.localMinute(ClockFormat.now())) }

    /// When the screen goes off for want of a touch, while it is on.
    private var idleDeadline: Int64? {
        guard !isOff, let after = settings.blankAfter else { return nil }
        return lastActivity + Int64(after * 1000)
    }

    func interest(now: Int64) -> PartInterest {
        var deadline = idleDeadline
        if override == nil, backlight != nil, let night = settings.night, night.from != night.to {
            let wall = Self.nextBoundary(after: ClockFormat.now(), minutes: [night.from, night.to])
            let change = PartInterest.atWall(wall, now: now, margin: 50).deadline
            deadline = [deadline, change].compactMap { $0 }.min()
        }
        return PartInterest(deadline: deadline)
    }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        if settings.wakeOnThreshold, crossedAThreshold(daemon) {
            lastActivity = now
            if isOff { switchOn(daemon, "a value crossed a threshold") }
        }
        if let idle = idleDeadline, now >= idle, let after = settings.blankAfter {
            switchOff(daemon, "no touch for \(GaugeStore.format(after)) s")
        }
        applyBrightness()
    }

    /// A touch: the idle count starts again. True when it turned the screen on
    /// (the touch was for that, not for what is shown).
    func touched(now: Int64, daemon: any DaemonContext) -> Bool {
        lastActivity = now
        guard isOff else { return false }
        switchOn(daemon, "touched")
        return true
    }

    /// `screen ...` on the socket: the reply.
    func command(_ argument: String?, now: Int64, daemon: any DaemonContext) -> String {
        switch argument {
        case nil:
            let level = backlight.map { _ in
                "brightness \(GaugeStore.format(wanted)) %" + (override == nil ? "" : " (set)")
            }
            return "screen \(isOff ? "off" : "on")" + (level.map { ", \($0)" } ?? "") + "\n"
        case "off":
            switchOff(daemon, "screen off")
            return "OK screen off\n"
        case "on":
            lastActivity = now
            switchOn(daemon, "screen on")
            return "OK screen on\n"
        case "auto":
            override = nil
            applyBrightness()
            return "OK screen auto\n"
        case let text?:
            guard let p = Double(text), p.isFinite, (0...100).contains(p) else {
                return
                    "ERR screen takes on, off, auto or a brightness from 0 to 100, not '\(IssueText.escaped(text))'\n"
            }
            if backlight == nil { backlight = try? Backlight.find(named: settings.backlight, in: folder) }
            guard backlight != nil else {
                let names = Backlight.entries(folder)
                return "ERR no backlight to set"
                    + (names.count > 1 ? " (several: name one in the layout's \"light\")" : " (none in \(folder))")
                    + "\n"
            }
            override = p
            applyBrightness()
            return failure.map { "ERR \($0)\n" } ?? "OK screen \(GaugeStore.format(p))\n"
        }
    }

    private func switchOff(_ daemon: any DaemonContext, _ why: String) {
        guard !isOff else { return }
        isOff = true
        daemon.setScreenOn(false)
        if let b = backlight { try? b.setPower(on: false) }
        Log.info("light: screen off (\(why))")
    }

    private func switchOn(_ daemon: any DaemonContext, _ why: String) {
        guard isOff else { return }
        isOff = false
        if let b = backlight { try? b.setPower(on: true) }
        daemon.setScreenOn(true)
        Log.info("light: screen on (\(why))")
    }

    private func applyBrightness() {
        guard let b = backlight else { return }
        let w = wanted
        guard w != written else { return }
        let first = written == nil
        written = w
        do {
            // A driver may come up with its light off (gpio-backlight without
            // "default-on" starts at bl_power 4): taken on, it is turned on.
            if first && !isOff { try b.setPower(on: true) }
            try b.setBrightness(percent: w)
            failure = nil
        } catch {
            if failure == nil { Log.warning("light: \(error)") }
            failure = "\(error)"
        }
    }

    /// Whether a gauge's value is in another threshold zone than last seen.
    private func crossedAThreshold(_ daemon: any DaemonContext) -> Bool {
        var crossed = false
        for g in daemon.layout.gauges {
            guard let steps = g.gauge.thresholds?.steps, !steps.isEmpty, let v = daemon.store.values[g.name] else {
                continue
            }
            let zone = steps.lazy.filter { $0.from <= v }.count
            if let old = zones[g.name], old != zone { crossed = true }
            zones[g.name] = zone
        }
        return crossed
    }

    // MARK: Local time

    /// Minutes after local midnight at `wall` (milliseconds since the epoch).
    static func localMinute(_ wall: Int64) -> Int {
        var t = time_t(wall / 1000)
        var parts = tm()
        localtime_r(&t, &parts)
        return Int(parts.tm_hour) * 60 + Int(parts.tm_min)
    }

    /// The first moment after `wall` (milliseconds since the epoch) whose local
    /// time is one of `minutes` (after midnight), as the local clock counts them
    /// (a daylight-saving change moves it with the clock).
    static func nextBoundary(after wall: Int64, minutes: [Int]) -> Int64 {
        var t = time_t(wall / 1000)
        var today = tm()
        localtime_r(&t, &today)
        var best = Int64.max
        for m in minutes {
            for day in 0...2 {
                var c = today
                c.tm_mday += Int32(day)
                c.tm_hour = Int32(m / 60)
                c.tm_min = Int32(m % 60)
                c.tm_sec = 0
                c.tm_isdst = -1
                let at = Int64(mktime(&c)) * 1000
                if at > wall {
                    best = min(best, at)
                    break
                }
            }
        }
        return best
    }
}
