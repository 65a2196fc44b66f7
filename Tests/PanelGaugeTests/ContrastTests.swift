import Testing

@testable import PanelGauge

/// WCAG 2.x relative luminance and contrast ratio, against values the
/// guidelines and their common checkers give.
@Suite struct ContrastTests {
    @Test func luminanceOfTheEnds() {
        #expect(Color.black.relativeLuminance == 0)
        #expect(abs(Color.white.relativeLuminance - 1) < 1e-12)
        // Below the sRGB threshold the curve is linear: 10 / 255 / 12.92.
        #expect(abs(Color(hex: 0x0A0A0A).relativeLuminance - 10.0 / 255 / 12.92) < 1e-12)
    }

    /// Black on white is 21:1; #777777 on white 4.48:1 (just short of AA's
    /// 4.5:1), #767676 4.54:1 (the darkest grey that passes), pure red on
    /// white 4.00:1, #949494 on white 3.03:1 (just past 1.4.11's 3:1).
    @Test(arguments: [
        (0x000000, 0xFFFFFF, 21.0), (0x777777, 0xFFFFFF, 4.48), (0x767676, 0xFFFFFF, 4.54),
        (0xFF0000, 0xFFFFFF, 4.00), (0x949494, 0xFFFFFF, 3.03), (0xFFFFFF, 0xFFFFFF, 1.0),
    ])
    func knownRatios(foreground: UInt32, background: UInt32, ratio: Double) {
        let r = Color(hex: foreground).contrastRatio(against: Color(hex: background))
        #expect(abs(r - ratio) < 0.005, "\(r)")
        // Symmetric: which colour is lighter does not matter.
        #expect(abs(Color(hex: background).contrastRatio(against: Color(hex: foreground)) - r) < 1e-12)
    }

    /// A translucent colour is measured as it shows, composited over the
    /// background as the blenders do (white at 50 % over black: 128, 128, 128).
    @Test func translucentColoursAreCompositedFirst() {
        let half = Color.white.opacity(0.5)
        #expect(half.composited(over: .black) == Color(hex: 0x808080))
        #expect(half.contrastRatio(against: .black) == Color(hex: 0x808080).contrastRatio(against: .black))
        #expect(Color.white.opacity(0).contrastRatio(against: Color(hex: 0x123456)) == 1)
    }
}
