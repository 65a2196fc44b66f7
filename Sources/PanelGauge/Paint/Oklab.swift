#if canImport(Glibc)
    import Glibc
#endif

/// How a ``Gradient`` mixes two colours between its stops.
public enum ColorInterpolation: Sendable, Hashable {
    /// Per 8-bit sRGB channel: the web's and SwiftUI's default. Between two
    /// saturated colours of different hue the middle turns grey or brown
    /// (red to green passes through a dull olive).
    case sRGB
    /// In Oklab (Björn Ottosson's perceptual colour space, 2020): lightness and
    /// the two opponent axes are mixed linearly, so the middle of red to green
    /// stays a clear yellow-orange and steps look even to the eye.
    case oklab
}

extension Color {
    /// `a` to `b` at `t` (0...1) in `space`; alpha is always mixed linearly.
    /// `t` = 0 and 1 give `a` and `b` exactly.
    public static func lerp(_ a: Color, _ b: Color, _ t: Double, in space: ColorInterpolation) -> Color {
        switch space {
        case .sRGB: return lerp(a, b, t)
        case .oklab:
            if t <= 0 { return a }
            if t >= 1 { return b }
            let p = Oklab(a), q = Oklab(b)
            let mixed = Oklab(
                l: p.l + (q.l - p.l) * t, a: p.a + (q.a - p.a) * t, b: p.b + (q.b - p.b) * t)
            var c = mixed.color
            c.alpha = a.alpha + (b.alpha - a.alpha) * t
            return c
        }
    }
}

/// A colour in Oklab: perceptual lightness `l` (0...1) and the green-red (`a`)
/// and blue-yellow (`b`) axes, from linear sRGB through an LMS cone response
/// with a cube root (the published matrices of the space's definition).
struct Oklab: Equatable {
    var l: Double
    var a: Double
    var b: Double

    init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    init(_ c: Color) {
        let r = Oklab.linear(c.red), g = Oklab.linear(c.green), bl = Oklab.linear(c.blue)
        let lc = cbrt(0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * bl)
        let mc = cbrt(0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * bl)
        let sc = cbrt(0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * bl)
        l = 0.210_454_255_3 * lc + 0.793_617_785_0 * mc - 0.004_072_046_8 * sc
        a = 1.977_998_495_1 * lc - 2.428_592_205_0 * mc + 0.450_593_709_9 * sc
        b = 0.025_904_037_1 * lc + 0.782_771_766_2 * mc - 0.808_675_766_0 * sc
    }

    /// Back to 8-bit sRGB (opaque), each channel clamped to the gamut.
    var color: Color {
        let lc = l + 0.396_337_777_4 * a + 0.215_803_757_3 * b
        let mc = l - 0.105_561_345_8 * a - 0.063_854_172_8 * b
        let sc = l - 0.089_484_177_5 * a - 1.291_485_548_0 * b
        let lo = lc * lc * lc, mo = mc * mc * mc, so = sc * sc * sc
        let r = 4.076_741_662_1 * lo - 3.307_711_591_3 * mo + 0.230_969_929_2 * so
        let g = -1.268_438_004_6 * lo + 2.609_757_401_1 * mo - 0.341_319_396_5 * so
        let bl = -0.004_196_086_3 * lo - 0.703_418_614_7 * mo + 1.707_614_701_0 * so
        return Color(red: Oklab.encoded(r), green: Oklab.encoded(g), blue: Oklab.encoded(bl), alpha: 1)
    }

    /// An sRGB channel (0...255) as linear light (0...1).
    static func linear(_ v: UInt8) -> Double {
        let c = Double(v) / 255
        return c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// Linear light back to an sRGB channel, clamped and correctly rounded.
    static func encoded(_ x: Double) -> UInt8 {
        let c = min(1, max(0, x.isNaN ? 0 : x))
        let e = c <= 0.003_130_8 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055
        return UInt8((e * 255).rounded())
    }
}
