import Testing

@testable import PanelGauge

/// `Canvas.fillCapsule` draws a capsule with a straight part as an aligned
/// rectangle between whole-pixel seams and its two round ends through the
/// cell rasterizer. The pieces share no pixel, so the capsule is the one
/// the cell rasterizer draws in one piece (the rounded rectangle path,
/// whose coverage CapsulesReferenceTests checks against exact areas).
@Suite struct CapsuleSplitTests {
    /// `rect` through `fillCapsule` and as one rounded-rectangle path, in `paint`, clipped to `clip`.
    static func both(_ rect: Rect, paint: Paint, clip: IntRect? = nil) -> (Image, Image) {
        func draw(_ body: (Canvas) -> Void) -> Image {
            let img = Image(width: 64, height: 64)
            let canvas = Canvas(surface: img.surface)
            canvas.clear(.black)
            if let clip { canvas.withClip(clip) { body(canvas) } } else { body(canvas) }
            return img
        }
        let split = draw { $0.fillCapsule(rect, paint: paint) }
        var path = Path()
        path.addRoundedRect(rect, cornerRadius: min(rect.width, rect.height) / 2)
        let whole = draw { $0.fill(path, paint: paint) }
        return (split, whole)
    }

    static func worst(_ a: Image, _ b: Image) -> (Int, (Int, Int)) {
        var worst = 0, at = (0, 0)
        for y in 0..<64 {
            for x in 0..<64 {
                let p = a.surface.pixel(x: x, y: y), q = b.surface.pixel(x: x, y: y)
                let d = max(
                    abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)))
                if d > worst { (worst, at) = (d, (x, y)) }
            }
        }
        return (worst, at)
    }

    /// 400 capsules of random fractional edges, lying and standing, radius
    /// 0.5 to 15 px (larger solid ones take `StadiumFill`), in a solid
    /// colour and in a gradient along them: every pixel within 3 levels of
    /// the one-piece drawing. The split one's rectangle is within a level of
    /// the exact area (RectFillTests). The one-piece path's corners are
    /// flattened to chords (radii under 4, `RasterPromises`) whose vertices,
    /// its ends included, lie on a radius up to half the flattening
    /// tolerance (1/128 px) outside the circle, and its long sides join
    /// those ends: a side's partial pixel is up to 2 levels over, and 0.5
    /// for rounding (a 1.63 px capsule at x = 20.69: 76 split, 79 whole, exact 76.6).
    @Test func theSplitCapsuleIsTheWholeOne() {
        var rng = SystemRandomNumberGenerator()
        var worst = 0, what = ""
        for i in 0..<400 {
            let thick = Double.random(in: 1...30, using: &rng), long = Double.random(in: thick + 2...60, using: &rng)
            let x = Double.random(in: -4...(64 - min(long, 60) / 2), using: &rng)
            let y = Double.random(in: -4...(64 - thick), using: &rng)
            let rect =
                i % 2 == 0
                ? Rect(x: x, y: y, width: long, height: thick) : Rect(x: y, y: x, width: thick, height: long)
            let paint: Paint =
                i % 3 == 0
                ? Tint.gradient([.red, .green]).linearPaint(
                    from: Point(x: rect.minX, y: rect.minY), to: Point(x: rect.maxX, y: rect.maxY))
                : .solid(Color(red: 250, green: 200, blue: 40))
            let (a, b) = Self.both(rect, paint: paint)
            let (w, at) = Self.worst(a, b)
            if w > worst { (worst, what) = (w, "\(rect) at \(at)") }
        }
        #expect(worst <= 3, "off by \(worst): \(what)")
    }

    /// A clip through the middle, the seams or an end changes only what
    /// lies inside it, as the one-piece drawing.
    @Test func theClipHoldsAcrossThePieces() {
        let rect = Rect(x: 20.3, y: 2.6, width: 7.4, height: 58.1)
        for clip in [
            IntRect(x: 0, y: 0, width: 64, height: 9), IntRect(x: 0, y: 5, width: 64, height: 3),
            IntRect(x: 22, y: 20, width: 3, height: 30), IntRect(x: 0, y: 56, width: 64, height: 8),
        ] {
            let (a, b) = Self.both(rect, paint: .solid(.white), clip: clip)
            #expect(Self.worst(a, b).0 <= 2, "\(clip)")
            for y in 0..<64 {
                for x in 0..<64 where !clip.contains(IntRect(x: x, y: y, width: 1, height: 1)) {
                    #expect(a.surface.pixel(x: x, y: y).red == 0, "\(clip): \(x),\(y)")
                }
            }
        }
    }
}
