import Testing
@testable import PanelGauge

/// RGB565 surfaces: the same exact-geometry references, rounded to RGB565
/// levels (see ReferenceHarness for the tolerance), and a check that gradients
/// do not band.
@Suite struct RGB565ReferenceTests {
    @Test func matchesExactGeometry() throws {
        try ReferenceHarness.check("rgb565")
    }

    /// A dark ramp spans only six red levels in RGB565: rounded per pixel it would
    /// show six flat bands with 8-unit steps, and a 4x4 block's mean would be off
    /// by up to 4 units. With the ordered dither every 4x4 block averages to the
    /// exact colour within 1.5 units.
    @Test func gradientDoesNotBand() throws {
        let c = try ReferenceHarness.cases("rgb565").first { $0.name == "gradient-dither" }!
        let img = try ReferenceHarness.render(c)
        let ref = try PNG.read(ReferenceHarness.root.appendingPathComponent("rgb565/gradient-dither.png").path)
        let actual = img.surface.rgbBytes()
        var worst = 0.0
        for by in stride(from: 0, to: c.height - 3, by: 4) {
            for bx in stride(from: 0, to: c.width - 3, by: 4) {
                for ch in 0..<3 {
                    var a = 0, e = 0
                    for y in by..<(by + 4) {
                        for x in bx..<(bx + 4) {
                            a += Int(actual[(y * c.width + x) * 3 + ch])
                            e += Int(ref.rgb[(y * c.width + x) * 3 + ch])
                        }
                    }
                    worst = max(worst, abs(Double(a - e) / 16))
                }
            }
        }
        #expect(worst <= 1.5, "worst 4x4 block mean error \(worst)")
        // And the same ramp without dither (a solid fill per column) does band:
        // this guards the test itself against passing for a trivial reason.
        let plain = Image(width: c.width, height: 4, format: .rgb565)
        let canvas = Canvas(surface: plain.surface)
        var plainWorst = 0.0
        for x in 0..<c.width {
            let refPix = (ref.rgb[x * 3], ref.rgb[x * 3 + 1], ref.rgb[x * 3 + 2])
            canvas.fill(
                Rect(x: Double(x), y: 0, width: 1, height: 4),
                paint: .solid(Color(red: refPix.0, green: refPix.1, blue: refPix.2)))
            let got = plain.surface.pixel(x: x, y: 0)
            plainWorst = max(plainWorst, abs(Double(got.red) - Double(refPix.0)))
        }
        #expect(plainWorst >= 3, "rounded RGB565 should be visibly off somewhere (\(plainWorst))")
    }
}
