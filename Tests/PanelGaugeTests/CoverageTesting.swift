@testable import PanelGauge
import Testing

/// What the tests of the shapes drawn without cells (``AnnularSector``,
/// ``StadiumFill``) share: a coverage image, the exact area of a pixel, the
/// check of every pixel against it, and the comparison of a clipped drawing
/// with the whole one.
enum CoverageTesting {
    /// The coverage (0...`alpha`) `draw` gives each pixel of a `width` x
    /// `height` image: white at `alpha` over black leaves it in every
    /// channel. Pixels it leaves alone stay at `background` (-1).
    static func render(
        width: Int, height: Int, alpha: UInt32 = 255, background: UInt32 = 0,
        _ draw: (SolidSink<XRGB8888Blender>) -> Void
    ) -> [Int] {
        let image = Image(width: width, height: height)
        let s = image.surface
        for y in 0..<height {
            for x in 0..<width { s.row(y).assumingMemoryBound(to: UInt32.self)[x] = background }
        }
        draw(SolidSink<XRGB8888Blender>(base: s.base, stride: s.stride, color: 0xFF_FFFF, alpha: alpha))
        var out: [Int] = []
        for y in 0..<height {
            for x in 0..<width {
                let p = s.row(y).assumingMemoryBound(to: UInt32.self)[x]
                out.append(p == background ? -1 : Int(p & 0xFF))
            }
        }
        return out
    }

    /// The area of pixel (i, j) where `inside` holds for a point (x, y), from
    /// a Fibonacci lattice of 4181 points (within about 1/4000 of the area
    /// for smooth edges).
    static func latticeArea(_ i: Int, _ j: Int, inside: (Double, Double) -> Bool) -> Double {
        let n = 4181, a = 2584
        var count = 0
        for k in 0..<n {
            let x = Double(i) + (Double(k) + 0.5) / Double(n)
            let y = Double(j) + ((Double(k * a) + 0.5) / Double(n)).truncatingRemainder(dividingBy: 1)
            if inside(x, y) { count += 1 }
        }
        return Double(count) / Double(n)
    }

    /// Every pixel of `coverage` against its `exact` area: pixels wholly in
    /// or out within one level of 255 or 0 (lattice points miss slivers
    /// under 1/4181 px), and for the partial ones their count and the
    /// worst coverage error.
    static func partialErrors(_ coverage: [Int], width: Int, height: Int, exact: (Int, Int) -> Double)
        -> (worst: Double, partial: Int)
    {
        var worst = 0.0, partial = 0
        for j in 0..<height {
            for i in 0..<width {
                let area = exact(i, j)
                let got = max(coverage[j * width + i], 0)
                if area == 0 || area == 1 {
                    #expect(abs(Double(got) - area * 255) <= 1, "pixel \(i), \(j)")
                    continue
                }
                partial += 1
                worst = max(worst, abs(Double(got) / 255 - area))
            }
        }
        return (worst, partial)
    }

    /// The first pixel where a drawing through `clip` is not the whole one:
    /// outside the clip it must be untouched (-1); inside, the whole drawing's
    /// value exactly, or with a `tolerance` above 0, a coverage within it
    /// (untouched counting as 0).
    static func firstDifference(
        _ part: [Int], _ whole: [Int], clip: IntRect, width: Int, height: Int, tolerance: Int = 0
    ) -> (Int, Int)? {
        for j in 0..<height {
            for i in 0..<width {
                let inside = i >= clip.minX && i < clip.maxX && j >= clip.minY && j < clip.maxY
                let got = part[j * width + i], want = whole[j * width + i]
                let ok =
                    inside
                    ? got == want || (tolerance > 0 && abs(max(got, 0) - max(want, 0)) <= tolerance) : got == -1
                if !ok { return (i, j) }
            }
        }
        return nil
    }
}
