/// The points within a radius of a horizontal or vertical segment (a disc
/// when the segment is a point, a capsule otherwise), in one solid paint,
/// composited without cells, row by row.
///
/// In each row the pixels whose centres lie the reach (half a diagonal)
/// inside the shape are one run (a fill for an opaque paint); where the row
/// runs along a straight side, the pixels over the segment all have the same
/// coverage, one run again; the others within the reach of the edge take
/// their coverage from their distance to the segment, four at a time; the
/// rest are not looked at.
///
/// Each pixel's edge is taken as the straight line it is across the pixel
/// (`AnnularSector.halfPlane`, exact for a straight edge): exact along the
/// straight sides, and for the round ends (the circle as its tangent),
/// measured against the exact area (4096 samples a pixel, all directions),
/// within 0.0088 of a pixel from `minimumRadius` on, 0.0063 at 27 px: 2.3 and
/// 1.6 8-bit levels at alpha 1. Smaller radii go to the cell rasterizer,
/// whose circle walk is exact.
struct StadiumFill {
    typealias F4 = SIMD4<Float>

    /// The smallest radius drawn this way.
    static let minimumRadius = 16.0
    /// The largest extent (radius plus segment): single-precision distances
    /// stay within 0.001 px up to here.
    static let maximumExtent = 16384.0

    /// The segment (xa...xb, ya...yb: xa == xb or ya == yb) and the radius.
    let xa: Double, xb: Double, ya: Double, yb: Double, r: Double

    /// A disc.
    init(cx: Double, cy: Double, r: Double) {
        self.init(xa: cx, xb: cx, ya: cy, yb: cy, r: r)
    }

    init(xa: Double, xb: Double, ya: Double, yb: Double, r: Double) {
        self.xa = xa
        self.xb = xb
        self.ya = ya
        self.yb = yb
        self.r = r
    }

    /// The capsule of `rect`: the rounded rectangle whose corner radius is
    /// half its shorter side.
    init(capsule rect: Rect) {
        let r = min(rect.width, rect.height) / 2
        if rect.width >= rect.height {
            let y = rect.minY + r
            self.init(xa: rect.minX + r, xb: max(rect.minX + r, rect.maxX - r), ya: y, yb: y, r: r)
        } else {
            let x = rect.minX + r
            self.init(xa: x, xb: x, ya: rect.minY + r, yb: max(rect.minY + r, rect.maxY - r), r: r)
        }
    }

    /// Whether this shape is drawn this way.
    var fits: Bool {
        r >= Self.minimumRadius && xb - xa + r <= Self.maximumExtent && yb - ya + r <= Self.maximumExtent
            && (xa == xb || ya == yb)
    }

    /// Composites the shape in `sink`'s colour and alpha within `clip`.
    func render<B: PixelBlender>(clip: IntRect, into sink: SolidSink<B>) {
        typealias A = AnnularSector
        let h = Double(A.reach)
        // Centres within `outer` of the segment may be covered; within `inner`
        // (a hair less than r - h), wholly.
        let outer = r + h, inner = r - h - 1e-6
        let rowLo = A.floor(max(ya - outer, Double(clip.minY)))
        let rowHi = A.ceil(min(yb + outer, Double(clip.maxY)))
        if rowLo >= rowHi { return }
        // The first and last columns of the clip.
        let left = Double(clip.minX), right = Double(clip.maxX &- 1)
        // Pixel centres relative to the segment's middle, so that single
        // precision keeps up with long segments.
        let mx = (xa + xb) / 2, half = (xb - xa) / 2
        let lane = F4(0, 1, 2, 3)
        let fr = F4(repeating: Float(r)), fhalf = F4(repeating: Float(half))
        let alpha = F4(repeating: Float(sink.alpha))
        var memo = RunMemo()
        for y in rowLo..<rowHi {
            // The row's distance from the segment, across it.
            let pyc = Double(y) + 0.5
            let vy = pyc - min(max(pyc, ya), yb)
            let o2 = outer * outer - vy * vy
            if o2 <= 0 { continue }
            let wo = o2.squareRoot()
            // Columns whose centres lie within `outer`, limited to the clip.
            // (A.floor and A.ceil take |x| < 2^30: the canvas draws only
            // shapes whose box meets the clip, `Canvas.begin`.)
            let lo = A.ceil(max(xa - wo - 0.5, left)), hi = A.floor(min(xb + wo - 0.5, right))
            if lo > hi { continue }
            // The run: centres within `inner` (alpha), or, along a straight
            // side, over the segment (the row's coverage of the side).
            var runLo: Int, runHi: Int, runAlpha = sink.alpha
            let i2 = inner * inner - vy * vy
            if inner > 0 && i2 > 0 {
                let wi = i2.squareRoot()
                runLo = A.ceil(max(xa - wi - 0.5, left))
                runHi = A.floor(min(xb + wi - 0.5, right))
            } else {
                runLo = A.ceil(max(xa - 0.5, left))
                runHi = A.floor(min(xb - 0.5, right))
                // A horizontal edge across the pixel: 0.5 + (r - |vy|), within
                // 0...1, rounded as the quads' (single precision, through the
                // mantissa).
                let c = min(max(Float(r) - abs(Float(vy)) + 0.5, 0), 1)
                runAlpha = A.alphas(F4(repeating: c), alpha)[0]
            }
            // (Within lo ... hi + 1: the quads before the run stop at the
            // clip's last column too.)
            runLo = min(max(runLo, lo), hi &+ 1)
            runHi = min(runHi, hi)
            let row = sink.rowAddress(y)
            let fvy = Float(vy)
            let vy2 = F4(repeating: fvy * fvy), avy = F4(repeating: abs(fvy))
            let pxRow = Float(Double(lo) + 0.5 - mx) + lane
            // The edge's quads up to the run, the run, the quads after it.
            var x = lo
            while x < runLo {
                edgeQuad(B.self, row: row, x: x, px: pxRow + Float(x - lo), vy2: vy2, avy: avy, clip: clip)
                x &+= 4
            }
            if x <= runHi {
                if runAlpha > 0 {
                    B.blend(row: row, x: x, count: runHi &+ 1 &- x, color: sink.color, alpha: runAlpha, memo: &memo)
                }
                x = runHi &+ 1
            }
            while x <= hi {
                edgeQuad(B.self, row: row, x: x, px: pxRow + Float(x - lo), vy2: vy2, avy: avy, clip: clip)
                x &+= 4
            }
        }

        /// The four pixels from column x (`px`: their centres' x relative to
        /// the segment's middle; `vy2`, `avy`: the row's distance across it,
        /// squared and as it is).
        @inline(__always)
        func edgeQuad(
            _: B.Type, row: UnsafeMutableRawPointer, x: Int, px: F4, vy2: F4, avy: F4, clip: IntRect
        ) {
            // The distance along the segment's line beyond its ends.
            let vx = A.relu(A.magnitude(px) - fhalf)
            let r2 = vx * vx + vy2
            let rho = r2.squareRoot()
            // The edge's normal at the pixel: (vx, |vy|) / rho.
            let alphas = A.alphas(A.halfPlane(fr - rho, A.Line(vx, avy, length: rho)), alpha)
            if x &+ 4 <= clip.maxX {
                B.blendQuad(
                    row: row, x: x, source: sink.quadSource,
                    alphas: unsafeBitCast(alphas | alphas &<< 16, to: SIMD8<UInt16>.self))
            } else {
                for i in 0..<(clip.maxX &- x) where alphas[i] != 0 {
                    B.blendPixel(row: row, x: x &+ i, color: sink.color, alpha: alphas[i])
                }
            }
        }
    }
}
