/// The layout's `"touch"`: whether paneld reads touch screens, which one,
/// and how its axes lie on the display.
package struct LayoutTouch: Sendable, Equatable {
    /// Off with `"touch": false`: no input device is opened.
    package var enabled = true
    /// One device node under `/dev/input` (`"device"`); nil: every touch screen.
    package var device: String?
    package var calibration = TouchCalibration()

    package init() {}

    /// The folder touch screens' nodes are in; `"device"` must name one of its nodes.
    static let directory = "/dev/input"
}

/// How a touch panel's axes lie on its display, for panels mounted or
/// wired another way than their display scans out (layout key `"touch"`).
/// Applied in this order: swap, then reverse x, then reverse y, as the Pi's
/// `touchscreen-swapped-x-y` and `touchscreen-inverted-x/y` overlay options are.
package struct TouchCalibration: Equatable, Sendable {
    package var swapAxes = false
    package var invertX = false
    package var invertY = false

    package init(swapAxes: Bool = false, invertX: Bool = false, invertY: Bool = false) {
        self.swapAxes = swapAxes
        self.invertX = invertX
        self.invertY = invertY
    }
}

extension Checker {
    /// The top-level `"touch"` at `path`: `true`, `false`, or an object of
    /// `device`, `swapAxes`, `invertX` and `invertY`.
    mutating func touch(_ v: JSONValue?, _ path: String) -> LayoutTouch? {
        guard let v else { return nil }
        var touch = LayoutTouch()
        switch v.kind {
        case .bool(let on):
            touch.enabled = on
            return touch
        case .object:
            guard let m = members(v, path, known: LayoutKeys.touch) else { return nil }
            if let d = m["device"] {
                guard let device = string(d, path + ".device") else { return nil }
                let name =
                    device.hasPrefix(LayoutTouch.directory + "/")
                    ? String(device.dropFirst(LayoutTouch.directory.count + 1)) : ""
                guard name.hasPrefix("event"), !name.contains("/"), name.count <= 16 else {
                    fail(d, path + ".device", "expected a node of \(LayoutTouch.directory) (\"/dev/input/event0\")")
                    return nil
                }
                touch.device = device
            }
            touch.calibration.swapAxes = bool(m["swapAxes"], path + ".swapAxes") ?? false
            touch.calibration.invertX = bool(m["invertX"], path + ".invertX") ?? false
            touch.calibration.invertY = bool(m["invertY"], path + ".invertY") ?? false
            return touch
        default:
            fail(v, path, "expected true, false or an object { \"device\", \"swapAxes\", \"invertX\", \"invertY\" }")
            return nil
        }
    }
}
