import Testing
@testable import PanelGauge

/// Gauges draw into RGB565 framebuffers (SPI panels) through the same canvas.
@Suite struct RGB565GaugeTests {
    /// The same gauges on XRGB8888 and RGB565 differ only by 5/6-bit
    /// quantization with the rasterizer's dithering: at most one 5-bit step
    /// (8 levels) plus rounding per channel.
    @Test func gaugesLookTheSameInRGB565() throws {
        let gauges: [Gauge] = [
            try Gauge(value: 0.73).gaugeStyle(.ring),
            try Gauge(value: 0.4) {
                "CPU"
            } currentValueLabel: {
                "40 %"
            }.gaugeStyle(.linearCapacity).tint(.gradient([.green, .red])),
            try Gauge(value: 0.6).valueFormat(.percent()).gaugeStyle(.accessoryCircular),
        ]
        for (i, g) in gauges.enumerated() {
            var images = [Image]()
            for format in [PixelFormat.xrgb8888, .rgb565] {
                let img = Image(width: 96, height: 72, format: format)
                let canvas = Canvas(surface: img.surface)
                canvas.clear(Panel.background)
                g.draw(in: Rect(x: 0, y: 0, width: 96, height: 72), on: canvas)
                images.append(img)
            }
            var worst = 0
            for y in 0..<72 {
                for x in 0..<96 { worst = max(worst, images[0].rgb(x, y).distance(images[1].rgb(x, y))) }
            }
            #expect(worst <= 9, "gauge \(i): worst channel difference \(worst)")
            #expect(!images[1].samePixels(as: Image(width: 96, height: 72, format: .rgb565)))
        }
    }
}
