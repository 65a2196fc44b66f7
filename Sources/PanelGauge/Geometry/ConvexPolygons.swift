extension Path {
    /// Whether every contour is convex (at least three corners, turning once)
    /// and no two contours overlap: then the shape's winding number is 0 or
    /// +-1 everywhere, and ``Canvas`` fills it on the banded path, as it fills
    /// discs and arcs. Tick marks, needles and bars are such shapes. Contours
    /// are straight lines only, except in a path of one contour, whose arcs
    /// are taken at points at most ``arcSampleStep`` apart (a capsule at any
    /// angle, a needle with a round tip, a pie slice): convex at those points,
    /// the contour cannot cross itself, as a piece of arc between two of them
    /// stays within 9 degrees of their chord. Contours whose boxes meet are tested pairwise
    /// (separating axes), so the answer is exact for up to `pairLimit`
    /// contours; beyond that it is false.
    var isDisjointConvex: Bool {
        // Every contour's corners in one array: contour k is
        // points[starts[k] ..< (starts[k + 1] or the end)].
        var points: [Point] = []
        points.reserveCapacity(elements.count)
        var starts: [Int] = []
        var start = -1
        var hasArc = false
        for e in elements {
            switch e {
            case .move(let p):
                guard Self.finish(&points, &starts, &start), p.x.isFinite, p.y.isFinite else { return false }
                start = points.count
                points.append(p)
            case .line(let p):
                guard start >= 0, p.x.isFinite, p.y.isFinite else { return false }
                if !Self.same(p, points[points.count - 1]) { points.append(p) }
            case .close:
                guard Self.finish(&points, &starts, &start) else { return false }
            case .arc(let c, let r, let a0, let sweep):
                // The arc's start (a move there when no contour is open, a line
                // otherwise, as the flattener takes it) and its points every step.
                let sw = sweep.radians
                guard r > 0, r.isFinite, c.x.isFinite, c.y.isFinite, a0.radians.isFinite, sw.isFinite,
                    abs(sw) <= 2 * Double.pi
                else { return false }
                hasArc = true
                let n = max(1, Int((abs(sw) / Self.arcSampleStep).rounded(.up)))
                let step: Double = sw / Double(n)
                for i in 0...n {
                    let angle: Double = a0.radians + step * Double(i)
                    let p = c.onCircle(radius: r, angle: Angle(radians: angle))
                    if start < 0 {
                        start = points.count
                        points.append(p)
                    } else if !Self.same(p, points[points.count - 1]) {
                        points.append(p)
                    }
                }
            case .quad, .cubic: return false
            }
        }
        guard Self.finish(&points, &starts, &start), !starts.isEmpty, !hasArc || starts.count == 1 else {
            return false
        }
        func contour(_ k: Int) -> ArraySlice<Point> {
            points[starts[k]..<(k + 1 < starts.count ? starts[k + 1] : points.count)]
        }
        var boxes: [(minX: Double, minY: Double, maxX: Double, maxY: Double)] = []
        boxes.reserveCapacity(starts.count)
        for k in starts.indices { boxes.append(Self.box(contour(k))) }
        // Pairs whose boxes meet, found along x (boxes sorted by their left
        // side; an insertion sort: contours come in a shape's order, often
        // nearly sorted, and `sorted(by:)` with a closure costs more than the sort).
        var order = Array(starts.indices)
        for m in order.indices.dropFirst() {
            let i = order[m], key = boxes[i].minX
            var k = m
            while k > 0 && boxes[order[k - 1]].minX > key {
                order[k] = order[k - 1]
                k -= 1
            }
            order[k] = i
        }
        for (m, i) in order.enumerated() {
            let a = boxes[i]
            for j in order[(m + 1)...] {
                let b = boxes[j]
                if b.minX > a.maxX { break }
                if a.maxY < b.minY || b.maxY < a.minY { continue }
                if !Self.separated(contour(i), contour(j)) { return false }
            }
        }
        return true
    }

    /// Closes the open contour, which starts at `start` in `points` (none
    /// when -1): its last corner dropped when it is its first, and its start
    /// kept in `starts` when it is convex. False when it is not (or when there
    /// are `pairLimit` contours already). (A function of its own: a local
    /// function capturing the three would box them and check every access.)
    private static func finish(_ points: inout [Point], _ starts: inout [Int], _ start: inout Int) -> Bool {
        guard start >= 0 else { return true }
        defer { start = -1 }
        if points.count - start > 1 && same(points[start], points[points.count - 1]) { points.removeLast() }
        guard starts.count < pairLimit, isConvex(points[start...]) else { return false }
        starts.append(start)
        return true
    }

    /// Whether two corners are one: within a billionth of a pixel (an arc's
    /// start computed from its centre lands there, not exactly on the line's
    /// end, and the sign of a turn over so short an edge means nothing).
    static func same(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) <= 1e-9 && abs(a.y - b.y) <= 1e-9 }

    /// The most contours `isDisjointConvex` compares pairwise.
    static let pairLimit = 256

    /// The largest angle between two of an arc's points that `isDisjointConvex`
    /// checks (radians): a tenth of a half turn.
    static let arcSampleStep = Double.pi / 10

    /// A polygon whose turns all go one way and add up to one full turn
    /// (collinear corners allowed), with a non-zero area. Turning one way, the
    /// edges' direction goes round monotonically: once round, each of its two
    /// components changes sign twice (a pentagram's, four times).
    static func isConvex(_ p: ArraySlice<Point>) -> Bool {
        let n = p.count
        guard n >= 3 else { return false }
        // One pass over the edges, each the second edge of one turn and the
        // first of the next, with no division for the wrap (about 70
        // instructions a corner of a tick mark).
        return p.withUnsafeBufferPointer { q in
            // The last non-zero components before the first edge (round the wrap).
            var lastDX = 0.0, lastDY = 0.0
            var j = n
            while j > 0 && (lastDX == 0 || lastDY == 0) {
                j -= 1
                let a = q[j], b = q[j + 1 == n ? 0 : j + 1]
                if lastDX == 0 && b.x != a.x { lastDX = b.x - a.x }
                if lastDY == 0 && b.y != a.y { lastDY = b.y - a.y }
            }
            var sign = 0.0, area = 0.0
            var xChanges = 0, yChanges = 0
            let first = q[0], lastCorner = q[n - 1]
            var px = first.x - lastCorner.x, py = first.y - lastCorner.y
            for i in 0..<n {
                let a = q[i], b = i + 1 == n ? first : q[i + 1]
                let ux = b.x - a.x, uy = b.y - a.y
                // The turn from the previous edge to this one.
                let cross = px * uy - py * ux
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
                px = ux
                py = uy
            }
            return sign != 0 && xChanges <= 2 && yChanges <= 2 && abs(area) > 1e-12
        }
    }

    private static func box(_ p: ArraySlice<Point>) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let f = p[p.startIndex]
        var b = (minX: f.x, minY: f.y, maxX: f.x, maxY: f.y)
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
    static func separated(_ a: ArraySlice<Point>, _ b: ArraySlice<Point>) -> Bool {
        separatedAlongEdges(of: a, from: b) || separatedAlongEdges(of: b, from: a)
    }

    private static func separatedAlongEdges(of p: ArraySlice<Point>, from q: ArraySlice<Point>) -> Bool {
        let n = p.count, o = p.startIndex
        for i in 0..<n {
            let e0 = p[o + i], e1 = p[o + (i + 1) % n]
            let nx = e1.y - e0.y, ny = e0.x - e1.x
            var pl = Double.infinity, ph = -Double.infinity, ql = Double.infinity, qh = -Double.infinity
            for v in p {
                let d = v.x * nx + v.y * ny
                pl = min(pl, d)
                ph = max(ph, d)
            }
            for v in q {
                let d = v.x * nx + v.y * ny
                ql = min(ql, d)
                qh = max(qh, d)
            }
            if ph < ql || qh < pl { return true }
        }
        return false
    }
}
