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
        elements.withUnsafeBufferPointer { elements in
            // Room for every corner: one a move or line, at most `arcPointLimit` an arc.
            var capacity = 0
            for e in elements {
                switch e {
                case .move, .line: capacity += 1
                case .arc: capacity += Self.arcPointLimit
                case .close: break
                case .quad, .cubic: return false
                }
            }
            guard capacity > 0 else { return false }
            return withUnsafeTemporaryAllocation(of: Point.self, capacity: capacity) { points in
                withUnsafeTemporaryAllocation(of: ConvexContour.self, capacity: min(capacity, Self.pairLimit)) {
                    contours in
                    var scan = ContourScan(points: points, contours: contours)
                    return scan.disjointConvex(elements)
                }
            }
        }
    }

    /// A closed convex contour: its corners `points[start ..< end]`, its box,
    /// and `turn`, +1 or -1, the sign of its area (which way it goes round).
    struct ConvexContour {
        var start: Int
        var end: Int
        var minX: Double
        var minY: Double
        var maxX: Double
        var maxY: Double
        var turn: Double
    }

    /// `isDisjointConvex`'s pass over a path, in scratch memory that holds
    /// every corner (`points`) and `pairLimit` contours (`contours`).
    private struct ContourScan {
        let points: UnsafeMutableBufferPointer<Point>
        let contours: UnsafeMutableBufferPointer<ConvexContour>
        /// Corners so far; contours so far; where the open contour starts (-1: none).
        var count = 0
        var contourCount = 0
        var start = -1

        init(points: UnsafeMutableBufferPointer<Point>, contours: UnsafeMutableBufferPointer<ConvexContour>) {
            self.points = points
            self.contours = contours
        }

        /// A corner of the open contour (the first of a new one when none is
        /// open), unless it is the last one again.
        mutating func add(_ p: Point) {
            if start < 0 {
                start = count
            } else if Path.same(p, points[count - 1]) {
                return
            }
            points[count] = p
            count += 1
        }

        /// Closes the open contour (its last corner dropped when it is its
        /// first): false when it is not convex, or when there are `pairLimit`
        /// contours already.
        mutating func finish() -> Bool {
            guard start >= 0 else { return true }
            defer { start = -1 }
            if count - start > 1 && Path.same(points[start], points[count - 1]) { count -= 1 }
            guard contourCount < contours.count,
                let c = Path.convexContour(UnsafeBufferPointer(rebasing: points[start..<count]), start: start)
            else { return false }
            contours[contourCount] = c
            contourCount += 1
            return true
        }

        mutating func disjointConvex(_ elements: UnsafeBufferPointer<Element>) -> Bool {
            var hasArc = false
            for e in elements {
                switch e {
                case .move(let p):
                    guard finish(), p.x.isFinite, p.y.isFinite else { return false }
                    add(p)
                case .line(let p):
                    guard start >= 0, p.x.isFinite, p.y.isFinite else { return false }
                    add(p)
                case .close:
                    guard finish() else { return false }
                case .arc(let c, let r, let a0, let sweep):
                    // The arc's start (a move there when no contour is open, a
                    // line otherwise, as the flattener takes it) and its points
                    // every step.
                    let sw = sweep.radians
                    guard r > 0, r.isFinite, c.x.isFinite, c.y.isFinite, a0.radians.isFinite, sw.isFinite,
                        abs(sw) <= 2 * Double.pi
                    else { return false }
                    hasArc = true
                    let n = max(1, Int((abs(sw) / Path.arcSampleStep).rounded(.up)))
                    guard n < Path.arcPointLimit else { return false }
                    let step: Double = sw / Double(n)
                    for i in 0...n {
                        let angle: Double = a0.radians + step * Double(i)
                        add(c.onCircle(radius: r, angle: Angle(radians: angle)))
                    }
                case .quad, .cubic: return false
                }
            }
            guard finish(), contourCount > 0, !hasArc || contourCount == 1 else { return false }
            // Pairs whose boxes meet, found along x: the contours sorted by
            // their boxes' left sides (an insertion sort: contours come in a
            // shape's order, often nearly sorted).
            for m in 1..<contourCount {
                let c = contours[m]
                var k = m
                while k > 0 && contours[k - 1].minX > c.minX {
                    contours[k] = contours[k - 1]
                    k -= 1
                }
                contours[k] = c
            }
            let corners = UnsafeBufferPointer(points)
            for i in 0..<contourCount {
                let a = contours[i]
                var j = i + 1
                while j < contourCount {
                    let b = contours[j]
                    if b.minX > a.maxX { break }
                    j += 1
                    if a.maxY < b.minY || b.maxY < a.minY { continue }
                    if !Path.separated(a, b, corners) { return false }
                }
            }
            return true
        }
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

    /// The most corners `isDisjointConvex` takes from one arc: the points
    /// `arcSampleStep` apart over a full turn, both ends included, and one
    /// more for the rounding of their count.
    static let arcPointLimit = 22

    /// The contour with corners `q` (which start at `start` in their path's
    /// corners) when it is a convex polygon: its turns all go one way and add
    /// up to one full turn (collinear corners allowed), and its area is not
    /// zero. Turning one way, the edges' direction goes round monotonically:
    /// once round, each of its two components changes sign twice (a
    /// pentagram's, four times).
    static func convexContour(_ q: UnsafeBufferPointer<Point>, start: Int) -> ConvexContour? {
        let n = q.count
        guard n >= 3 else { return nil }
        // One pass over the edges, each the second edge of one turn and the
        // first of the next, with no division for the wrap.
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
        var c = ConvexContour(
            start: start, end: start + n, minX: first.x, minY: first.y, maxX: first.x, maxY: first.y, turn: 0)
        for i in 0..<n {
            let a = q[i], b = i + 1 == n ? first : q[i + 1]
            let ux = b.x - a.x, uy = b.y - a.y
            // The turn from the previous edge to this one.
            let cross = px * uy - py * ux
            if cross != 0 {
                if sign == 0 { sign = cross > 0 ? 1 : -1 } else if (cross > 0 ? 1 : -1) != sign { return nil }
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
            c.minX = min(c.minX, a.x)
            c.minY = min(c.minY, a.y)
            c.maxX = max(c.maxX, a.x)
            c.maxY = max(c.maxY, a.y)
        }
        guard sign != 0 && xChanges <= 2 && yChanges <= 2 && abs(area) > 1e-12 else { return nil }
        c.turn = area > 0 ? 1 : -1
        return c
    }

    /// Whether two convex contours lie apart, not touching: whether one has an
    /// edge with all of the other's corners strictly on its outer side (the
    /// separating axis test, one-sided: along its own edge's normal, a convex
    /// polygon reaches no further than that edge).
    static func separated(_ a: ConvexContour, _ b: ConvexContour, _ corners: UnsafeBufferPointer<Point>) -> Bool {
        separated(edgesOf: a, from: b, corners) || separated(edgesOf: b, from: a, corners)
    }

    private static func separated(
        edgesOf p: ConvexContour, from q: ConvexContour, _ corners: UnsafeBufferPointer<Point>
    ) -> Bool {
        var e0 = corners[p.end - 1]
        for i in p.start..<p.end {
            let e1 = corners[i]
            // The edge's outward normal: (dy, -dx) points out of a contour of
            // positive area (y down), (-dy, dx) out of the other kind.
            let nx = (e1.y - e0.y) * p.turn, ny = (e0.x - e1.x) * p.turn
            var k = q.start
            while k < q.end && (corners[k].x - e0.x) * nx + (corners[k].y - e0.y) * ny > 0 { k += 1 }
            if k == q.end { return true }
            e0 = e1
        }
        return false
    }
}
