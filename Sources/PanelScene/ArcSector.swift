import Glibc
import PanelGauge

/// The sector a value arc sweeps from its layout's start to a value, as
/// directions from the centre: which pixels of a row lie in it, judged by
/// their centres' directions (their distance from the centre does not matter).
/// Pixels next to either bounding ray may fall on either side; the arc's ends
/// are there.
struct ArcSector: Sendable {
    let cx: Double, cy: Double
    /// The sector from direction `a` turning by `reach` degrees (0 < reach <
    /// 360) to direction `b`, in the direction of increasing angle.
    let ax: Double, ay: Double, bx: Double, by: Double
    let reach: Double

    /// The sector of `layout` from its start to normalized `value`.
    init(_ layout: CircularGaugeLayout, upTo value: Double) {
        cx = layout.center.x
        cy = layout.center.y
        var start = layout.startAngle.degrees
        var reach = layout.sweep.degrees * min(1, max(0, value))
        if reach < 0 {
            start += reach
            reach = -reach
        }
        self.reach = reach
        let a = Angle.degrees(start).radians, b = Angle.degrees(start + reach).radians
        (ax, ay, bx, by) = (cos(a), sin(a), cos(b), sin(b))
    }

    /// Hands `body` the columns of row `y` in `columns`, in runs left to right,
    /// each with whether its pixel centres lie in the sector.
    func forEachRun(row y: Int, columns: Range<Int>, _ body: (Range<Int>, Bool) -> Void) {
        guard !columns.isEmpty else { return }
        if reach == 0 || reach >= 360 {
            body(columns, reach != 0)
            return
        }
        let cuts = cuts(row: y)
        // Each piece between cuts lies on one side; its middle pixel tells which.
        var runStart = columns.lowerBound, runInside = false, from = columns.lowerBound
        func piece(to end: Int) {
            let to = min(end, columns.upperBound)
            guard to > from else { return }
            let inside = contains(columns: from, to, row: y)
            if from > runStart && inside != runInside {
                body(runStart..<from, runInside)
                runStart = from
            }
            runInside = inside
            from = to
        }
        piece(to: cuts.0)
        piece(to: cuts.1)
        piece(to: cuts.2)
        piece(to: columns.upperBound)
        body(runStart..<columns.upperBound, runInside)
    }

    /// The columns of row `y` at which its pixel centres may change sides:
    /// the first column whose centre lies at or right of where a bounding ray,
    /// or the vertical through the centre, crosses the row (along a row a
    /// centre's direction crosses a ray only there, and the row may pass the
    /// centre); ascending, `Int.max` for the ones that do not.
    func cuts(row y: Int) -> (Int, Int, Int) {
        var cuts = (Int.max, Int.max, Int.max)
        guard reach != 0 && reach < 360 else { return cuts }
        let dy = Double(y) + 0.5 - cy
        @inline(__always) func cut(_ x: Double) {
            guard abs(x) < 1e9 else { return }
            var k = Int((x - 0.5).rounded(.up))
            if k < cuts.0 { swap(&k, &cuts.0) }
            if k < cuts.1 { swap(&k, &cuts.1) }
            if k < cuts.2 { swap(&k, &cuts.2) }
        }
        if ay != 0 && dy / ay > 0 { cut(cx + dy / ay * ax) }
        if by != 0 && dy / by > 0 { cut(cx + dy / by * bx) }
        cut(cx)
        return cuts
    }

    /// Whether every pixel centre of `rect` lies in the sector (true) or none
    /// does (false); nil when the rectangle meets either bounding ray (or
    /// holds the centre), so that rows must be split (``forEachRun(row:columns:_:)``).
    func side(of rect: IntRect) -> Bool? {
        if reach == 0 || reach >= 360 { return reach != 0 }
        guard !rect.isEmpty, !meets(rect, dx: ax, dy: ay), !meets(rect, dx: bx, dy: by) else { return nil }
        return contains(dx: Double(rect.minX) + 0.5 - cx, dy: Double(rect.minY) + 0.5 - cy)
    }

    /// Whether the ray from the centre in direction (dx, dy) meets `rect` (its
    /// closed area), by the slab test.
    private func meets(_ rect: IntRect, dx: Double, dy: Double) -> Bool {
        var t0 = 0.0, t1 = Double.infinity
        // One slab per axis (a loop over an array of the two allocated it).
        @inline(__always) func slab(_ o: Double, _ d: Double, _ lo: Double, _ hi: Double) -> Bool {
            if d == 0 { return o >= lo && o <= hi }
            let a = (lo - o) / d, b = (hi - o) / d
            t0 = max(t0, min(a, b))
            t1 = min(t1, max(a, b))
            return true
        }
        guard slab(cx, dx, Double(rect.minX), Double(rect.maxX)), slab(cy, dy, Double(rect.minY), Double(rect.maxY))
        else { return false }
        return t0 <= t1
    }

    /// Whether the middle of columns a ..< b of row `y` lies in the sector
    /// (for a piece between two of the row's ``cuts(row:)``, whether its
    /// pixel centres do).
    func contains(columns a: Int, _ b: Int, row y: Int) -> Bool {
        contains(dx: Double(a + b - 1) / 2 + 0.5 - cx, dy: Double(y) + 0.5 - cy)
    }

    /// Whether direction (dx, dy) lies in the sector (both rays included).
    func contains(dx: Double, dy: Double) -> Bool {
        if reach <= 180 { return ax * dy - ay * dx >= 0 && dx * by - dy * bx >= 0 }
        // The rest of the turn is less than half of it.
        return !(bx * dy - by * dx > 0 && dx * ay - dy * ax > 0)
    }
}
