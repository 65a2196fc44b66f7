import Testing

@testable import PanelGauge

/// An opaque gradient swept onto XRGB8888 is shaded straight into the surface
/// (`InPlaceShaderSink`): its spans are shaded over the pixels, and the edge
/// quads put back what was under them, blended. These tests hold that path to
/// the one through the colour buffer (`ShaderSink`), pixel for pixel.
@Suite struct InPlaceShadingTests {
    /// A surface of random pixels (so that what lay under an edge pixel shows).
    static func noise(width: Int, height: Int, seed: UInt64) -> Image {
        let image = Image(width: width, height: height)
        var rng = BlendTests.Random(state: seed)
        for y in 0..<height {
            let row = image.surface.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { row[x] = rng.word() }
        }
        return image
    }

    static func pixels(_ image: Image) -> [UInt32] {
        (0..<image.height).flatMap { y in
            Array(
                UnsafeBufferPointer(
                    start: image.surface.row(y).assumingMemoryBound(to: UInt32.self), count: image.width))
        }
    }

    /// Draws `draw` on two copies of the same noise, in place and through the
    /// colour buffer, and returns both and the spans shaded in place.
    static func both(
        width: Int, height: Int, seed: UInt64, clip: IntRect?, _ draw: (Canvas) -> Void
    ) -> (inPlace: [UInt32], buffered: [UInt32], spans: Int) {
        let a = noise(width: width, height: height, seed: seed), b = noise(width: width, height: height, seed: seed)
        let ca = Canvas(surface: a.surface), cb = Canvas(surface: b.surface)
        cb.shadesInPlace = false
        ca.clip = clip
        cb.clip = clip
        draw(ca)
        draw(cb)
        #expect(cb.spansShadedInPlace == 0)
        return (pixels(a), pixels(b), ca.spansShadedInPlace)
    }

    static let gradient = Gradient(colors: [Color(hex: 0xFF3B30), Color(hex: 0x34C759), Color(hex: 0x0A84FF)])
    /// One colour over 60 % of the turn (a run of the table longer than half a
    /// turn, cut into quarter turns), then a ramp.
    static let flat = Gradient(colors: [
        Color(hex: 0xFF3B30), Color(hex: 0xFF3B30), Color(hex: 0xFF3B30), Color(hex: 0xFF3B30),
        Color(hex: 0x34C759), Color(hex: 0x0A84FF),
    ])

    /// Random arcs, discs and polygons in conic and linear gradients, with
    /// clips that reach the surface's right edge and last row (where the
    /// shader may not write past a span) and ones inside it.
    @Test func matchesTheColourBufferPixelForPixel() {
        var rng = BlendTests.Random(state: 41)
        var spans = 0
        for trial in 0..<60 {
            let width = 40 + rng.below(160), height = 30 + rng.below(120)
            let w = Double(width), h = Double(height)
            let clip: IntRect? =
                switch trial % 3 {
                case 0: nil
                case 1:
                    IntRect(
                        x: rng.below(width / 2), y: rng.below(height / 2), width: width, height: height
                    ).intersection(IntRect(x: 0, y: 0, width: width, height: height))
                default:
                    IntRect(x: rng.below(width / 3), y: rng.below(height / 3), width: width / 2, height: height / 2)
                }
            let center = Point(x: Double(rng.below(Int(w * 8))) / 8, y: Double(rng.below(Int(h * 8))) / 8)
            let gradient = trial % 4 < 2 ? Self.gradient : Self.flat
            let paint: Paint =
                trial % 2 == 0
                ? .conicGradient(gradient, center: center, startAngle: Angle(degrees: Double(rng.below(360))))
                : .linearGradient(
                    gradient, start: Point(x: 0, y: Double(rng.below(height))),
                    end: Point(x: w, y: Double(rng.below(height))))
            let r = 4 + Double(rng.below(Int(min(w, h) * 4))) / 8
            let stroke = 1 + Double(rng.below(160)) / 8
            let start = Double(rng.below(360)), sweep = 20 + Double(rng.below(400))
            let box = Rect(
                x: Double(rng.below(width * 4)) / 4 - 5, y: Double(rng.below(height * 4)) / 4 - 5,
                width: 3 + Double(rng.below(width * 4)) / 4, height: 0.3 + Double(rng.below(height * 4)) / 4)
            var triangle = Path()
            triangle.move(to: Point(x: Double(rng.below(width)), y: -2))
            triangle.line(to: Point(x: w + 3, y: Double(rng.below(height)) + 0.4))
            triangle.line(to: Point(x: Double(rng.below(width)) + 0.7, y: h + 1))
            let result = Self.both(width: width, height: height, seed: UInt64(trial), clip: clip) { canvas in
                canvas.strokeArc(
                    center: center, radius: r, startAngle: Angle(degrees: start), sweep: Angle(degrees: sweep),
                    width: stroke, cap: trial % 4 < 2 ? .round : .butt, paint: paint)
                canvas.fillDisc(center: Point(x: w - center.x, y: h - center.y), radius: r / 2, paint: paint)
                canvas.fill(box, paint: paint)
                canvas.fill(triangle, paint: paint)
            }
            spans += result.spans
            let wrong = zip(result.inPlace, result.buffered).filter { $0 != $1 }.count
            #expect(wrong == 0, "trial \(trial): \(wrong) pixels differ")
        }
        // The path under test was taken (most spans of these shapes are in place).
        #expect(spans > 2_000)
    }

    /// A translucent gradient is not shaded in place (it blends every pixel).
    @Test func translucentGradientsGoThroughTheColourBuffer() {
        let result = Self.both(width: 64, height: 48, seed: 3, clip: nil) { canvas in
            canvas.strokeArc(
                center: Point(x: 32, y: 24), radius: 16, startAngle: 0, sweep: 300, width: 8, cap: .round,
                paint: .conicGradient(
                    Gradient(colors: [Color(hex: 0xFF3B30), Color(hex: 0x34C759).opacity(0.5)]),
                    center: Point(x: 32, y: 24), startAngle: 90))
        }
        #expect(result.spans == 0)
        #expect(result.inPlace == result.buffered)
    }
}
