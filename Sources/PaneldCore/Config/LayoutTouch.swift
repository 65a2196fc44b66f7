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
