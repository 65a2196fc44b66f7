import Testing

@testable import PanelGauge

/// `Canvas.fill(rects:paint:)`: each pixel is the exact area of the
/// rectangles in it, nothing outside the clip changes, and rectangles that
/// are not finite or not positive draw nothing.
@Suite struct RectFillTests {
    static func area(_ r: Rect, _ x: Int, _ y: Int) -> Double {
        let w = min(r.maxX, Double(x + 1)) - max(r.minX, Double(x))
        let h = min(r.maxY, Double(y + 1)) - max(r.minY, Double(y))
        return max(0, w) * max(0, h)
    }

    /// 200 rectangles of random fractional edges, one at a time, white on
    /// black: every pixel within 1.5 of 255 x its covered area (edges
    /// rounded to 1/256 px move a pixel's two partial sides by up to 1/512 px
    /// each, 1 level of 255, and the 8-bit result rounds by half a level).
    @Test func everyPixelIsTheRectanglesArea() {
        var rng = SystemRandomNumberGenerator()
        var worst = 0.0
        for _ in 0..<200 {
            let x = Double.random(in: -3...30, using: &rng), y = Double.random(in: -3...30, using: &rng)
            let r = Rect(
                x: x, y: y, width: Double.random(in: 0.05...12, using: &rng),
                height: Double.random(in: 0.05...12, using: &rng))
            let img = Image(width: 32, height: 32)
            let canvas = Canvas(surface: img.surface)
            canvas.clear(.black)
            canvas.fill(rects: [r], paint: .solid(.white))
            for py in 0..<32 {
                for px in 0..<32 {
                    let want = 255 * Self.area(r, px, py)
                    worst = max(worst, abs(Double(img.surface.pixel(x: px, y: py).red) - want))
                }
            }
        }
        #expect(worst <= 1.5, "worst pixel off by \(worst)")
    }

    /// The clip holds, for the rectangle's partial and whole pixels alike.
    @Test func theClipHolds() {
        let img = Image(width: 20, height: 20)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(.black)
        canvas.withClip(IntRect(x: 5, y: 6, width: 7, height: 5)) {
            canvas.fill(rects: [Rect(x: 0.5, y: 0.25, width: 19, height: 19.5)], paint: .solid(.white))
        }
        for y in 0..<20 {
            for x in 0..<20 {
                let inside = (5..<12).contains(x) && (6..<11).contains(y)
                #expect((img.surface.pixel(x: x, y: y).red == 255) == inside, "\(x),\(y)")
            }
        }
    }

    /// Empty, inverted, NaN, infinite and far-away rectangles draw nothing.
    @Test func degenerateRectanglesDrawNothing() {
        let img = Image(width: 8, height: 8)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(.black)
        canvas.fill(
            rects: [
                Rect(x: 1, y: 1, width: 0, height: 4), Rect(x: 1, y: 1, width: -3, height: 4),
                Rect(x: .nan, y: 1, width: 3, height: 3), Rect(x: 1, y: 1, width: .infinity, height: 3),
                Rect(x: 1e12, y: 1, width: 3, height: 3), Rect(x: -1e15, y: -1e15, width: 2e15, height: 2e15),
            ], paint: .solid(.white))
        for y in 0..<8 { for x in 0..<8 { #expect(img.surface.pixel(x: x, y: y).red == 0) } }
    }
}
