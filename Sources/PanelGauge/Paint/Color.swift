/// A colour: **non-premultiplied sRGB**, 8 bits per channel, with a separate
/// alpha in 0...1.
///
/// Compositing is source-over directly on the 8-bit sRGB values (no
/// linearisation), as cairo does by default and as SCENE.md specifies.
public struct Color: Sendable, Hashable {
    /// The red channel, 0...255, sRGB-encoded and not premultiplied.
    public var red: UInt8
    /// The green channel, 0...255, sRGB-encoded and not premultiplied.
    public var green: UInt8
    /// The blue channel, 0...255, sRGB-encoded and not premultiplied.
    public var blue: UInt8
    /// Opacity in 0...1 (clamped).
    public var alpha: Double

    /// Creates a colour from 8-bit sRGB channels and an opacity.
    ///
    /// - Parameters:
    ///   - red: The red channel, not premultiplied.
    ///   - green: The green channel, not premultiplied.
    ///   - blue: The blue channel, not premultiplied.
    ///   - alpha: The opacity, clamped to 0...1; NaN becomes 0 (transparent).
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha.isNaN ? 0 : min(1, max(0, alpha))
    }

    /// `0xRRGGBB`, e.g. `Color(hex: 0xFF3B30)`.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(
            red: UInt8((hex >> 16) & 0xFF), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF),
            alpha: alpha)
    }

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional), or one
    /// of the 148 named colours of CSS (`red` is `#FF0000`, `steelblue`,
    /// `rebeccapurple`; any case) or `transparent`. Returns nil for anything else.
    public init?(css: String) {
        let name = css.lowercased()
        if name == "transparent" {
            self = .clear
            return
        }
        if let hex = CSSColorNames.table[name] {
            self.init(hex: hex)
            return
        }
        var s = Substring(css)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.allSatisfy(\.isHexDigit), let v = UInt32(s, radix: 16) else { return nil }
        switch s.count {
        case 3:
            let r = (v >> 8) & 0xF, g = (v >> 4) & 0xF, b = v & 0xF
            self.init(hex: (r * 17) << 16 | (g * 17) << 8 | b * 17)
        case 6: self.init(hex: v)
        case 8: self.init(hex: v >> 8, alpha: Double(v & 0xFF) / 255)
        default: return nil
        }
    }

    /// The same colour with its alpha multiplied by `opacity`.
    public func opacity(_ opacity: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha * opacity)
    }

    /// Alpha as an 8-bit value, correctly rounded.
    public var alpha8: UInt8 { UInt8((alpha * 255).rounded()) }

    /// Per-channel linear interpolation in sRGB (and alpha), `t` in 0...1.
    public static func lerp(_ a: Color, _ b: Color, _ t: Double) -> Color {
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 {
            UInt8((Double(x) + (Double(y) - Double(x)) * t).rounded())
        }
        return Color(
            red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue),
            alpha: a.alpha + (b.alpha - a.alpha) * t)
    }

    /// Opaque black, `#000000`.
    public static let black = Color(hex: 0x000000)
    /// Opaque white, `#FFFFFF`.
    public static let white = Color(hex: 0xFFFFFF)
    /// Fully transparent black.
    public static let clear = Color(hex: 0x000000, alpha: 0)
    /// Apple's system red (light appearance), `#FF3B30`.
    public static let red = Color(hex: 0xFF3B30)
    /// Apple's system orange (light appearance), `#FF9500`.
    public static let orange = Color(hex: 0xFF9500)
    /// Apple's system yellow (dark appearance), `#FFD60A`.
    public static let yellow = Color(hex: 0xFFD60A)
    /// Apple's system green (light appearance), `#34C759`.
    public static let green = Color(hex: 0x34C759)
    /// Apple's system blue (dark appearance), `#0A84FF`.
    public static let blue = Color(hex: 0x0A84FF)
    /// Apple's system purple (light appearance), `#AF52DE`.
    public static let purple = Color(hex: 0xAF52DE)
    /// Apple's system gray, `#8E8E93`.
    public static let gray = Color(hex: 0x8E8E93)
}
