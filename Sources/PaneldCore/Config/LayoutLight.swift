/// The layout's `"light"`: the panel's backlight, dimmed at night, and the
/// screen turned off when nobody touches it.
package struct LayoutLight: Sendable, Equatable {
    /// A name in `/sys/class/backlight`; nil: the only one there (none when several).
    package var backlight: String?
    /// Brightness by day, percent.
    package var brightness: Double = 100
    /// Night: from and to (minutes after local midnight) and its brightness; nil: no night.
    package var night: Night?
    /// Seconds without a touch after which the screen is turned off; nil: never.
    package var blankAfter: Double?
    /// Whether a gauge's value moving into another threshold zone turns the screen on.
    package var wakeOnThreshold = false

    package struct Night: Sendable, Equatable {
        /// Minutes after local midnight (0 to 1439).
        package var from: Int
        package var to: Int
        package var brightness: Double
    }

    package init() {}

    /// Whether anything is set (a layout without `"light"` touches no backlight).
    package var isSet: Bool { self != LayoutLight() }

    /// The brightness, percent, at `minute` after local midnight.
    package func brightness(atMinute minute: Int) -> Double {
        guard let n = night, n.from != n.to else { return brightness }
        let inNight = n.from < n.to ? (minute >= n.from && minute < n.to) : (minute >= n.from || minute < n.to)
        return inNight ? n.brightness : brightness
    }

    /// The shortest and longest `blankAfter`, seconds: 10 s to a week.
    static let blankAfterLimits = 10.0...604_800.0
}

extension Checker {
    /// The top-level `"light"` at `path`.
    mutating func light(_ v: JSONValue?, _ path: String) -> LayoutLight? {
        guard let v else { return nil }
        guard let m = members(v, path, known: LayoutKeys.light) else { return nil }
        var light = LayoutLight()
        if let b = m["backlight"] {
            guard let name = string(b, path + ".backlight") else { return nil }
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), name.utf8.count <= 64 else {
                fail(b, path + ".backlight", "expected a name in /sys/class/backlight (\"10-0045\")")
                return nil
            }
            light.backlight = name
        }
        if let b = m["brightness"] {
            guard let p = number(b, path + ".brightness", in: 0...100) else { return nil }
            light.brightness = p
        }
        if let n = m["night"] {
            guard let nm = members(n, path + ".night", known: LayoutKeys.night) else { return nil }
            func minute(_ key: String) -> Int? {
                guard let t = nm[key] else {
                    fail(n, path + ".night", "needs \"\(key)\" (a local time, \"22:00\")")
                    return nil
                }
                guard let s = string(t, path + ".night." + key) else { return nil }
                let parts = s.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let h = Int(parts[0]),
                    let mm = Int(parts[1]),
                    (0...23).contains(h), (0...59).contains(mm)
                else {
                    fail(t, path + ".night." + key, "'\(s)' is not a time of day (HH:MM, 00:00 to 23:59)")
                    return nil
                }
                return h * 60 + mm
            }
            guard let from = minute("from"), let to = minute("to") else { return nil }
            var brightness = 10.0
            if let b = nm["brightness"] {
                guard let p = number(b, path + ".night.brightness", in: 0...100) else { return nil }
                brightness = p
            }
            if from == to { warn(n, path + ".night", "has no effect: \"from\" and \"to\" are the same time") }
            light.night = LayoutLight.Night(from: from, to: to, brightness: brightness)
        }
        if let a = m["blankAfter"] {
            guard let s = span(a, path + ".blankAfter") else { return nil }
            guard LayoutLight.blankAfterLimits.contains(s) else {
                fail(a, path + ".blankAfter", "must be from 10 s to 7 days")
                return nil
            }
            light.blankAfter = s
        }
        if let w = m["wakeOnThreshold"] {
            guard let on = bool(w, path + ".wakeOnThreshold") else { return nil }
            light.wakeOnThreshold = on
        }
        return light
    }
}
