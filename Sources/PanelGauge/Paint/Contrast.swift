#if canImport(Glibc)
    import Glibc
#endif

/// Contrast between colours as WCAG 2.x measures it (Web Content Accessibility
/// Guidelines 2.2, "relative luminance" and "contrast ratio"; success
/// criterion 1.4.11 asks 3:1 of graphics such as a gauge's track, 1.4.3 4.5:1
/// of text).
extension Color {
    /// WCAG 2.x relative luminance of the colour's red, green and blue (alpha
    /// is ignored; see ``composited(over:)``): 0 for black, 1 for white.
    ///
    /// Each channel is linearised with the sRGB transfer function (IEC
    /// 61966-2-1: `c / 12.92` up to 0.04045, else `((c + 0.055) / 1.055)^2.4`;
    /// WCAG's 0.03928 threshold gives the same result for 8-bit values), then
    /// weighted 0.2126 R + 0.7152 G + 0.0722 B.
    public var relativeLuminance: Double {
        func linear(_ v: UInt8) -> Double {
            let c = Double(v) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The opaque colour this one shows over `background`, composited as the
    /// blenders do: source-over on the 8-bit sRGB values with the 8-bit alpha,
    /// correctly rounded. `background`'s own alpha is ignored (a panel is opaque).
    public func composited(over background: Color) -> Color {
        let a = Double(alpha8) / 255
        func mix(_ s: UInt8, _ d: UInt8) -> UInt8 { UInt8((Double(s) * a + Double(d) * (1 - a)).rounded()) }
        return Color(
            red: mix(red, background.red), green: mix(green, background.green), blue: mix(blue, background.blue))
    }

    /// The WCAG 2.x contrast ratio of `self` against an opaque `background`,
    /// `(L1 + 0.05) / (L2 + 0.05)` with L1 the lighter relative luminance:
    /// from 1 (no contrast) to 21 (black and white). A translucent colour is
    /// first composited over the background.
    public func contrastRatio(against background: Color) -> Double {
        let a = composited(over: background).relativeLuminance
        let b = Color(red: background.red, green: background.green, blue: background.blue).relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}
