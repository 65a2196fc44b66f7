import PanelGauge

/// A panel layout: which gauges are drawn where, and on which display.
///
/// Read from a JSON file by ``LayoutReader``; every field is checked there, so a
/// `Layout` that exists is valid (names unique, ranges non-empty, rectangles on
/// the screen when the mode is known).
struct Layout: Sendable {
    /// DRM card to use, e.g. `/dev/dri/card0`; nil = the first card with a connected display.
    var display: String?
    /// Connector name, e.g. `HDMI-A-1`; nil = the first connected one.
    var connector: String?
    /// Requested mode (physical, before rotation); nil = the connector's preferred mode.
    var mode: DisplayMode?
    var pixelFormat: PixelFormat?
    var rotation: Rotation = .none
    var background: Color = .black
    /// Path of a TrueType/OpenType font for labels and values.
    var font: String?
    /// The gauge a bare number sets (the first gauge unless the file names one).
    var defaultGauge: String?
    var gauges: [GaugeSpec]
    /// Address for statsd over UDP (`HOST:PORT`); nil = off.
    var statsd: String?
    /// Milliseconds a gauge takes to glide to a new value; 0 = it jumps.
    var animation: Int = 0

    /// The layout used when no file is given: one ring gauge named `value`,
    /// range 0...100, filling the screen; a bare `73` sets it.
    static let fallback = Layout(
        defaultGauge: "value",
        gauges: [
            GaugeSpec(
                name: "value", style: .ring, rect: nil, range: try! ValueRange(0, 100), label: "",
                units: "%", paint: .tint(.blue), thresholds: [], format: .default)
        ])

    /// Logical size (after rotation) implied by the mode, if one is set.
    var logicalSize: (width: Int, height: Int)? {
        mode.map { rotation.swapsAxes ? ($0.height, $0.width) : ($0.width, $0.height) }
    }
}

/// Clockwise rotation of the panel, in degrees.
enum Rotation: Int, Sendable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270
    var swapsAxes: Bool { self == .quarter || self == .threeQuarters }
}

/// `WIDTHxHEIGHT[@HZ]`, e.g. `800x480@60`.
struct DisplayMode: Sendable, Equatable, CustomStringConvertible {
    var width: Int
    var height: Int
    var refresh: Int?

    init(width: Int, height: Int, refresh: Int? = nil) {
        self.width = width
        self.height = height
        self.refresh = refresh
    }

    /// Parses `WxH` or `WxH@Hz`; sizes 1...16384, refresh 1...1000.
    init?(_ text: String) {
        let at = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let wh = at[0].split(separator: "x", omittingEmptySubsequences: false)
        guard wh.count == 2, let w = Int(wh[0]), let h = Int(wh[1]), (1...16384).contains(w), (1...16384).contains(h)
        else { return nil }
        var hz: Int? = nil
        if at.count == 2 {
            guard let r = Int(at[1]), (1...1000).contains(r) else { return nil }
            hz = r
        }
        self.init(width: w, height: h, refresh: hz)
    }

    var description: String { "\(width)x\(height)" + (refresh.map { "@\($0)" } ?? "") }
}

/// A non-empty, finite value range `lower < upper`.
struct ValueRange: Sendable, Equatable {
    let lower: Double
    let upper: Double
    struct Invalid: Error {}

    init(_ lower: Double, _ upper: Double) throws(Invalid) {
        guard lower.isFinite, upper.isFinite, lower < upper else { throw Invalid() }
        self.lower = lower
        self.upper = upper
    }

    /// Where `value` lies in the range, clamped to 0...1.
    func fraction(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return min(1, max(0, (value - lower) / (upper - lower)))
    }
}

enum GaugeStyle: String, Sendable, CaseIterable {
    /// A full circle track with the value as a clockwise arc from 12 o'clock.
    case ring
    /// A 270-degree arc open at the bottom, like a speedometer.
    case arc
    /// A horizontal bar filling from the left.
    case bar
}

/// How a gauge's value part is coloured.
enum GaugePaint: Sendable, Equatable {
    case tint(Color)
    /// Colours spread evenly over the range, low to high.
    case gradient([Color])
}

/// From `value` upwards (until the next threshold) the gauge is drawn in `color`.
struct Threshold: Sendable, Equatable {
    var value: Double
    var color: Color
}

struct GaugeSpec: Sendable {
    var name: String
    var style: GaugeStyle
    /// Where the gauge is drawn, in logical pixels; nil = the whole screen.
    var rect: IntRect?
    var range: ValueRange
    var label: String
    var units: String
    var paint: GaugePaint
    /// Ascending by value.
    var thresholds: [Threshold]
    var format: ValueFormat

    /// The colour the value part is drawn in at `value`: the last threshold at or
    /// below it, else the tint (or the gradient sampled at the value).
    func color(at value: Double) -> Color {
        if let t = thresholds.last(where: { value >= $0.value }) { return t.color }
        switch paint {
        case .tint(let c): return c
        case .gradient(let stops): return GaugeSpec.sample(stops, range.fraction(value))
        }
    }

    /// Colour at `t` in 0...1 of evenly spaced stops.
    static func sample(_ stops: [Color], _ t: Double) -> Color {
        guard stops.count > 1 else { return stops.first ?? .white }
        let x = min(1, max(0, t)) * Double(stops.count - 1)
        let k = min(stops.count - 2, Int(x))
        return Color.lerp(stops[k], stops[k + 1], x - Double(k))
    }
}

/// A printf-like number format with exactly one conversion: `%d` (rounded to a
/// whole number), `%f` (6 decimals) or `%.Nf` (N = 0...9); `%%` is a literal `%`.
/// Example: `"%.1f"`, `"%d rpm"`.
struct ValueFormat: Sendable, Equatable {
    var prefix: String
    var decimals: Int
    var suffix: String

    static let `default` = ValueFormat(prefix: "", decimals: 0, suffix: "")

    init(prefix: String, decimals: Int, suffix: String) {
        self.prefix = prefix
        self.decimals = decimals
        self.suffix = suffix
    }

    init?(pattern: String) {
        var pre = "", suf = ""
        var decimals: Int? = nil
        var chars = Array(pattern)
        var k = 0
        while k < chars.count {
            let c = chars[k]
            if c != "%" {
                if decimals == nil { pre.append(c) } else { suf.append(c) }
                k += 1
                continue
            }
            guard k + 1 < chars.count else { return nil }
            let next = chars[k + 1]
            if next == "%" {
                if decimals == nil { pre.append("%") } else { suf.append("%") }
                k += 2
                continue
            }
            guard decimals == nil else { return nil }  // a second conversion
            if next == "d" { decimals = 0; k += 2; continue }
            if next == "f" { decimals = 6; k += 2; continue }
            guard next == ".", k + 3 < chars.count, let n = chars[k + 2].wholeNumberValue, chars[k + 3] == "f" else {
                return nil
            }
            decimals = n
            k += 4
        }
        chars = []
        guard let d = decimals else { return nil }
        self.init(prefix: pre, decimals: d, suffix: suf)
    }

    /// Formats `value` with round-half-away-from-zero at the chosen decimals.
    func string(_ value: Double) -> String {
        guard value.isFinite else { return prefix + "-" + suffix }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 1e18 else { return prefix + "\(value)" + suffix }
        let n = UInt64(scaled)
        var digits = String(n)
        if decimals > 0 {
            if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        let negative = value < 0 && n != 0
        return prefix + (negative ? "-" : "") + digits + suffix
    }
}
