extension Path {
    /// Whether every contour is a convex polygon (straight lines only, at least
    /// three corners, turning once) and no two contours overlap: then the
    /// shape's winding number is 0 or +-1 everywhere, and ``Canvas`` fills it on
    /// the banded path, as it fills discs and arcs. Tick marks, needles and bars
    /// are such shapes. Contours are tested pairwise (boxes first, then
    /// separating axes), so the answer is exact for up to `pairLimit` contours;
    /// beyond that it is false.
    var isDisjointConvexPolygons: Bool {
        var polygons: [[Point]] = []
        var current: [Point] = []
        func finish() -> Bool {
            defer { current = [] }
            if current.isEmpty { return true }
            if current.count > 1 && current.first == current.last { current.removeLast() }
            guard Self.isConvex(current), polygons.count < Self.pairLimit else { return false }
            polygons.append(current)
            return true
        }
        for e in elements {
            switch e {
            case .move(let p):
                guard finish() else { return false }
                current = [p]
            case .line(let p):
                guard !current.isEmpty, p.x.isFinite, p.y.isFinite else { return false }
                if p != current.last { current.append(p) }
            case .close:
                guard finish() else { return false }
            case .quad, .cubic, .arc: return false
            }
        }
        guard finish(), !polygons.isEmpty else { return false }
        let boxes = polygons.map { Self.box($0) }
        for i in polygons.indices {
            for j in polygons.indices where j > i {
                let a = boxes[i], b = boxes[j]
                if a.maxX < b.minX || b.maxX < a.minX || a.maxY < b.minY || b.maxY < a.minY { continue }
                if !Self.separated(polygons[i], polygons[j]) { return false }
            }
        }
        return true
    }

    /// The most contours `isDisjointConvexPolygons` compares pairwise.
    static let pairLimit = 256

    /// A polygon whose turns all go one way and add up to one full turn
    /// (collinear corners allowed), with a non-zero area. Turning one way, the
    /// edges' direction goes round monotonically: once round, each of its two
    /// components changes sign twice (a pentagram's, four times).
    static func isConvex(_ p: [Point]) -> Bool {
        let n = p.count
        guard n >= 3 else { return false }
        var sign = 0.0, area = 0.0
        var xChanges = 0, yChanges = 0
        var lastDX = 0.0, lastDY = 0.0
        // The last non-zero components, to count changes across the wrap too.
        for i in 0..<n {
            let a = p[i], b = p[(i + 1) % n]
            if b.x != a.x { lastDX = b.x - a.x }
            if b.y != a.y { lastDY = b.y - a.y }
        }
        for i in 0..<n {
            let a = p[i], b = p[(i + 1) % n], c = p[(i + 2) % n]
            guard a.x.isFinite, a.y.isFinite else { return false }
            let ux = b.x - a.x, uy = b.y - a.y, vx = c.x - b.x, vy = c.y - b.y
            let cross = ux * vy - uy * vx
            if cross != 0 {
                if sign == 0 { sign = cross > 0 ? 1 : -1 } else if (cross > 0 ? 1 : -1) != sign { return false }
            }
            if ux != 0 {
                if (ux > 0) != (lastDX > 0) { xChanges += 1 }
                lastDX = ux
            }
            if uy != 0 {
                if (uy > 0) != (lastDY > 0) { yChanges += 1 }
                lastDY = uy
            }
            area += a.x * b.y - b.x * a.y
        }
        return sign != 0 && xChanges <= 2 && yChanges <= 2 && abs(area) > 1e-12
    }

    private static func box(_ p: [Point]) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        var b = (minX: p[0].x, minY: p[0].y, maxX: p[0].x, maxY: p[0].y)
        for q in p {
            b.minX = min(b.minX, q.x)
            b.minY = min(b.minY, q.y)
            b.maxX = max(b.maxX, q.x)
            b.maxY = max(b.maxY, q.y)
        }
        return b
    }

    /// Whether a line along one of the two convex polygons' edges has them on
    /// opposite sides, not touching (the separating axis test).
    static func separated(_ a: [Point], _ b: [Point]) -> Bool {
        for (p, q) in [(a, b), (b, a)] {
            let n = p.count
            for i in 0..<n {
                let e0 = p[i], e1 = p[(i + 1) % n]
                let nx = e1.y - e0.y, ny = e0.x - e1.x
                func project(_ s: [Point]) -> (Double, Double) {
                    var lo = Double.infinity, hi = -Double.infinity
                    for v in s {
                        let d = v.x * nx + v.y * ny
                        lo = min(lo, d)
                        hi = max(hi, d)
                    }
                    return (lo, hi)
                }
                let (pl, ph) = project(p), (ql, qh) = project(q)
                if ph < ql || qh < pl { return true }
            }
        }
        return false
    }
}
