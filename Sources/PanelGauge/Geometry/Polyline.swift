import Glibc

extension Path {
    /// A line of `width` through `points` with round joins and round caps,
    /// as convex pieces that share no area, for `Canvas.fillPieces`: each
    /// segment's rectangle cut at its ends by the lines that halve the turns
    /// (so two segments' rectangles do not overlap on a turn's inner side), a
    /// circular sector filling each turn's outer side, a half disc at each
    /// end; a disc for a single point. The pieces tile the line exactly
    /// when ``roundPolylinePiecesTile(_:width:)`` says so; otherwise (a spike
    /// sharper than its segments are long, a line that comes back over
    /// itself) they overlap or leave holes, and ``roundPolyline(_:width:)``
    /// is the line. Points that are not finite, and a point repeating the
    /// one before, are skipped.
    public static func roundPolylinePieces(_ points: [Point], width: Double) -> [Path] {
        let r = width / 2
        guard r > 0, r.isFinite else { return [] }
        var pts: [Point] = []
        for p in points where p.x.isFinite && p.y.isFinite {
            if let q = pts.last, abs(p.x - q.x) < 1e-9, abs(p.y - q.y) < 1e-9 { continue }
            pts.append(p)
        }
        guard let first = pts.first else { return [] }
        guard pts.count > 1 else {
            var disc = Path()
            disc.addCircle(center: first, radius: r)
            return [disc]
        }
        let m = pts.count - 1
        // Unit directions and normals (the direction turned a quarter clockwise on screen).
        let d: [(x: Double, y: Double)] = (0..<m).map { i in
            let dx = pts[i + 1].x - pts[i].x, dy = pts[i + 1].y - pts[i].y
            let len = (dx * dx + dy * dy).squareRoot()
            return (dx / len, dy / len)
        }
        func normal(_ i: Int) -> (x: Double, y: Double) { (-d[i].y, d[i].x) }
        /// The line that halves the turn at point k (1..<m): through the point,
        /// along the sum of the two normals; as (point, direction across it).
        /// A piece keeps the side its own segment lies on.
        func cut(_ k: Int) -> (x: Double, y: Double)? {
            let a = d[k - 1], b = d[k]
            // Along the sum of the normals = across the sum of the directions,
            // which points from segment k-1's side to segment k's.
            let ax = a.x + b.x, ay = a.y + b.y
            let len = (ax * ax + ay * ay).squareRoot()
            return len > 1e-9 ? (ax / len, ay / len) : nil
        }
        var pieces: [Path] = []
        for i in 0..<m {
            let a = pts[i], b = pts[i + 1], n = normal(i)
            var poly = [
                Point(x: a.x + n.x * r, y: a.y + n.y * r), Point(x: b.x + n.x * r, y: b.y + n.y * r),
                Point(x: b.x - n.x * r, y: b.y - n.y * r), Point(x: a.x - n.x * r, y: a.y - n.y * r),
            ]
            // At its start, keep the side of the cut at a toward b (the cut's
            // direction points from segment i-1's side to segment i's side).
            if i > 0, let c = cut(i) { poly = clip(poly, through: a, keeping: c) }
            if i + 1 < m, let c = cut(i + 1) { poly = clip(poly, through: b, keeping: (-c.x, -c.y)) }
            if poly.count >= 3 { pieces.append(polygon(poly)) }
        }
        // The turns' outer sectors.
        for k in 1..<m {
            let cross = d[k - 1].x * d[k].y - d[k - 1].y * d[k].x
            guard abs(cross) > 1e-12 else { continue }
            // The outer side is the normal's side when the turn goes the other way.
            let side: Double = cross < 0 ? 1 : -1
            let n0 = normal(k - 1), n1 = normal(k)
            let a0 = atan2(n0.y * side, n0.x * side)
            var sweep = atan2(n1.y * side, n1.x * side) - a0
            if sweep > Double.pi { sweep -= 2 * Double.pi }
            if sweep < -Double.pi { sweep += 2 * Double.pi }
            var path = Path()
            path.move(to: pts[k])
            path.line(to: Point(x: pts[k].x + n0.x * side * r, y: pts[k].y + n0.y * side * r))
            path.addArc(center: pts[k], radius: r, startAngle: Angle(radians: a0), sweep: Angle(radians: sweep))
            path.closeSubpath()
            pieces.append(path)
        }
        // Half discs at the ends, away from the line.
        let n0 = normal(0), nm = normal(m - 1)
        var start = Path()
        start.move(to: Point(x: pts[0].x + n0.x * r, y: pts[0].y + n0.y * r))
        start.addArc(center: pts[0], radius: r, startAngle: Angle(radians: atan2(n0.y, n0.x)), sweep: 180)
        start.closeSubpath()
        var end = Path()
        end.move(to: Point(x: pts[m].x + nm.x * r, y: pts[m].y + nm.y * r))
        end.addArc(center: pts[m], radius: r, startAngle: Angle(radians: atan2(nm.y, nm.x)), sweep: -180)
        end.closeSubpath()
        pieces.append(start)
        pieces.append(end)
        return pieces
    }

    /// A closed polygon through `points` (at least one).
    static func polygon(_ points: [Point]) -> Path {
        var path = Path()
        path.move(to: points[0])
        for p in points.dropFirst() { path.line(to: p) }
        path.closeSubpath()
        return path
    }

    /// The convex polygon `poly` cut by the line through `p`, keeping the
    /// side `direction` points to (Sutherland-Hodgman against one line).
    private static func clip(_ poly: [Point], through p: Point, keeping direction: (x: Double, y: Double)) -> [Point] {
        func side(_ q: Point) -> Double { (q.x - p.x) * direction.x + (q.y - p.y) * direction.y }
        var out: [Point] = []
        for (i, q) in poly.enumerated() {
            let next = poly[(i + 1) % poly.count]
            let s0 = side(q), s1 = side(next)
            if s0 >= 0 { out.append(q) }
            if (s0 >= 0) != (s1 >= 0) {
                let t = s0 / (s0 - s1)
                out.append(Point(x: q.x + (next.x - q.x) * t, y: q.y + (next.y - q.y) * t))
            }
        }
        return out
    }
    /// Whether ``roundPolylinePieces(_:width:)`` tiles the line exactly:
    /// each segment is longer than the parts of it its turns cut off on their
    /// inner sides (`r * tan(turn / 2)` at each end), so no two pieces
    /// overlap, and the line's x rises (it never comes back over itself).
    public static func roundPolylinePiecesTile(_ points: [Point], width: Double) -> Bool {
        let r = width / 2
        let pts = points.filter { $0.x.isFinite && $0.y.isFinite }
        guard pts.count > 2 else { return zip(pts, pts.dropFirst()).allSatisfy { $0.x < $1.x } }
        var dirs: [(x: Double, y: Double, len: Double)] = []
        for (a, b) in zip(pts, pts.dropFirst()) {
            guard b.x > a.x else { return false }
            let dx = b.x - a.x, dy = b.y - a.y
            let len = (dx * dx + dy * dy).squareRoot()
            dirs.append((dx / len, dy / len, len))
        }
        func cutOff(_ k: Int) -> Double {
            let c = max(-1, min(1, dirs[k - 1].x * dirs[k].x + dirs[k - 1].y * dirs[k].y))
            return r * tan(acos(c) / 2)
        }
        for i in dirs.indices {
            let start = i > 0 ? cutOff(i) : 0
            let end = i + 1 < dirs.count ? cutOff(i + 1) : 0
            if start + end > dirs[i].len { return false }
        }
        return true
    }

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
