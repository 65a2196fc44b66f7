import Glibc

extension Path {
    /// The outline of a line of `width` through `points` with round joins
    /// and round caps: one closed contour, out along one side of the line and
    /// back along the other, a circular arc around each outer corner and each
    /// end. An inner corner goes through the point itself (as Skia's stroker
    /// does), so the contour overlaps itself only inside the line, where the
    /// non-zero rule fills it once. Points that are not finite, and a point
    /// repeating the one before, are skipped; one point gives a disc.
    public static func roundPolyline(_ points: [Point], width: Double) -> Path {
        var path = Path()
        let r = width / 2
        guard r > 0, r.isFinite else { return path }
        var pts: [Point] = []
        for p in points where p.x.isFinite && p.y.isFinite {
            if let q = pts.last, abs(p.x - q.x) < 1e-9, abs(p.y - q.y) < 1e-9 { continue }
            pts.append(p)
        }
        guard let first = pts.first else { return path }
        guard pts.count > 1 else {
            path.addCircle(center: first, radius: r)
            return path
        }
        // Each segment's unit direction and its normal (the direction turned a
        // quarter clockwise on screen, y down).
        let d: [(x: Double, y: Double)] = zip(pts, pts.dropFirst()).map { a, b in
            let len = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            return ((b.x - a.x) / len, (b.y - a.y) / len)
        }
        func offset(_ p: Point, _ i: Int, _ side: Double) -> Point {
            Point(x: p.x - d[i].y * r * side, y: p.y + d[i].x * r * side)
        }
        func angle(_ i: Int, _ side: Double) -> Double { atan2(d[i].x * side, -d[i].y * side) }
        /// From segment `i`'s offset on `side` to segment `j`'s, around the
        /// corner `p`, walking from `i` to `j`: the side is outer when the walk
        /// turns away from it (both passes walk with the side they draw on the
        /// same hand, so the sign of `d[i] x d[j]` decides).
        func corner(_ p: Point, _ i: Int, _ j: Int, _ side: Double) {
            let cross = d[i].x * d[j].y - d[i].y * d[j].x
            if cross < 0 {
                // The outer side: an arc, the short way round.
                let a0 = angle(i, side)
                var sweep = angle(j, side) - a0
                if sweep > Double.pi { sweep -= 2 * Double.pi }
                if sweep < -Double.pi { sweep += 2 * Double.pi }
                path.addArc(center: p, radius: r, startAngle: Angle(radians: a0), sweep: Angle(radians: sweep))
            } else if cross > 0 {
                path.line(to: p)
                path.line(to: offset(p, j, side))
            }
        }
        let m = d.count
        path.move(to: offset(pts[0], 0, 1))
        for i in 0..<m {
            path.line(to: offset(pts[i + 1], i, 1))
            if i + 1 < m { corner(pts[i + 1], i, i + 1, 1) }
        }
        path.addArc(center: pts[m], radius: r, startAngle: Angle(radians: angle(m - 1, 1)), sweep: -180)
        for i in stride(from: m - 1, through: 0, by: -1) {
            path.line(to: offset(pts[i], i, -1))
            if i > 0 { corner(pts[i], i, i - 1, -1) }
        }
        path.addArc(center: pts[0], radius: r, startAngle: Angle(radians: angle(0, -1)), sweep: -180)
        path.closeSubpath()
        return path
    }
}
