import Testing

@testable import PanelGauge

/// Gradients mixed in Oklab: exact ends, a faithful round trip, and a middle of
/// red to green that keeps its colour where sRGB mixing goes dull.
@Suite struct OklabTests {
    /// HSV saturation, 0...1.
    static func saturation(_ c: Color) -> Double {
        let hi = Double(max(c.red, c.green, c.blue)), lo = Double(min(c.red, c.green, c.blue))
        return hi == 0 ? 0 : (hi - lo) / hi
    }

    @Test func roundTripKeepsEveryColourWithinOneLevel() {
        var worst = 0
        for r in stride(from: 0, through: 255, by: 5) {
            for g in stride(from: 0, through: 255, by: 5) {
                for b in stride(from: 0, through: 255, by: 5) {
                    let c = Color(red: UInt8(r), green: UInt8(g), blue: UInt8(b), alpha: 1)
                    let back = Oklab(c).color
                    worst = max(
                        worst, abs(Int(back.red) - r), abs(Int(back.green) - g), abs(Int(back.blue) - b))
                }
            }
        }
        #expect(worst <= 1, "worst channel error \(worst)")
    }

    @Test func endsAreExactAndAlphaIsLinear() {
        let a = Color(hex: 0xFF3B30, alpha: 0.2), b = Color(hex: 0x34C759, alpha: 1)
        #expect(Color.lerp(a, b, 0, in: .oklab) == a)
        #expect(Color.lerp(a, b, 1, in: .oklab) == b)
        #expect(abs(Color.lerp(a, b, 0.5, in: .oklab).alpha - 0.6) < 1e-12)
    }

    /// The seed's red to green: mixed in sRGB the middle is a dull olive; in Oklab
    /// it keeps most of its ends' saturation, and its lightness lies between theirs.
    @Test func redToGreenStaysSaturatedInTheMiddle() {
        let red = Color.red, green = Color.green
        let flat = Color.lerp(red, green, 0.5, in: .sRGB)
        let oklab = Color.lerp(red, green, 0.5, in: .oklab)
        let ends = min(Self.saturation(red), Self.saturation(green))
        #expect(Self.saturation(flat) < 0.6, "sRGB middle \(flat): \(Self.saturation(flat))")
        // Measured: 0.55 (sRGB) against 0.64 (Oklab); the ends are 0.81 and 0.74.
        #expect(Self.saturation(oklab) > Self.saturation(flat) + 0.05, "Oklab middle \(oklab)")
        #expect(Self.saturation(oklab) > 0.8 * ends)
        // Chroma, the colourfulness Oklab measures: the sRGB middle loses more of it.
        func chroma(_ c: Color) -> Double {
            let o = Oklab(c)
            return (o.a * o.a + o.b * o.b).squareRoot()
        }
        #expect(chroma(oklab) > chroma(flat) * 1.2, "chroma \(chroma(oklab)) against \(chroma(flat))")
        let l = Oklab(oklab).l
        #expect(l > min(Oklab(red).l, Oklab(green).l) - 1e-9 && l < max(Oklab(red).l, Oklab(green).l) + 1e-9)
    }

    /// A gradient carries its interpolation into the paints a tint makes.
    @Test func tintsKeepTheirInterpolation() {
        let tint = Tint.gradient([.red, .green], interpolation: .oklab)
        guard
            case .conicGradient(let g, _, _) = tint.arcPaint(
                center: Point(x: 0, y: 0), arcStart: .degrees(0), arcSweep: .degrees(270))
        else {
            Issue.record("not a conic gradient")
            return
        }
        #expect(g.interpolation == .oklab)
        guard case .gradient(let faded) = tint.opacity(0.5) else { return }
        #expect(faded.interpolation == .oklab)
        #expect(
            Gradient(colors: [.red, .green]).color(at: 0.5)
                != Gradient(colors: [.red, .green], interpolation: .oklab).color(at: 0.5))
    }
}
