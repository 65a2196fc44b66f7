#if canImport(Glibc)
    import Glibc
#endif

/// The scan converter: exact-area coverage of polygons and circles, in fixed
/// point.
///
/// Geometry arrives as closed contours in floating-point surface coordinates
/// (`move`, `line`, `close`, and `arc` for whole circular arcs), is converted
/// once to ``Fixed24_8`` and walked cell by cell: a cell (one pixel)
/// accumulates `cover` (the signed height of the edge inside it) and `area`
/// (cover times the sum of the edge's two x offsets in the cell). A
/// left-to-right sweep over a row's cells then gives every pixel's exact
/// covered area (box filter), and constant runs between cells. This is the
/// signed-area accumulation that libart, FreeType's "smooth" rasterizer and AGG
/// use; the implementation here is our own.
///
/// Two paths share that arithmetic:
/// - Banded (`sweepBanded`, `DenseBand`), while every contour belongs to a
///   simple group (`beginSimpleGroup`): edges and circle pieces are recorded,
///   then walked into dense cells band by band. Edges near the clip are not
///   clipped (see `near`).
/// - General (`sweepRow`), as soon as a contour outside a group arrives: cells
///   in a list, sorted per row, with the exact fallback where the shape
///   overlaps itself. Edges are clipped first: parts above or below the clip
///   contribute nothing and are dropped; parts left of it are projected onto the
///   clip's left edge (they still decide the winding of everything to their
///   right); parts right of it are projected onto its right edge, where they
///   produce cells the sweep never reaches.
///
/// Memory: cell, edge and band buffers grow to the largest shape seen and are
/// reused, so steady-state drawing does not allocate.
struct CellRasterizer: ~Copyable {
    struct Cell {
        var x: Int32
        var y: Int32
        var cover: Int32
        var area: Int32
        /// Index of the edge that opened this cell entry.
        var edge: Int32
    }

    private var cells: UnsafeMutablePointer<Cell>
    private var cellCapacity: Int
    private var cellCount = 0
    private var sorted: UnsafeMutablePointer<Cell>
    private var rowStarts: UnsafeMutablePointer<Int32>
    private var rowCapacity: Int
    private var coverageRow: UnsafeMutablePointer<UInt8>
    private var coverageCapacity: Int

    // Every fixed-point edge of the shape (x0, y0, x1, y1), kept for the exact
    // fallback at pixels where the shape overlaps itself (see `exactCoverage`).
    private var edges: UnsafeMutablePointer<FixedEdge>
    private var edgeCapacity = 256
    private var edgeCount = 0
    /// Banded mode only: each recorded edge's simple-group tag, and scratch for
    /// ordering edges by band and for the band's active edges.
    private var edgeTags: UnsafeMutablePointer<Int32>
    private var edgeOrder: UnsafeMutablePointer<Int32>
    private var activeEdges: UnsafeMutablePointer<Int32>
    /// True while every edge so far belongs to a simple group: the edges are only
    /// recorded, and `sweep` scan-converts them band by band (see `sweepBanded`).
    private var banded = true
    private var band = DenseBand()
    /// Banded mode: for each recorded edge, the index of its circle in `arcs`
    /// (an arc piece, see `arc(cx:cy:radius:start:sweep:moveFirst:)`), or -1
    /// for a straight edge.
    private var edgeArc: UnsafeMutablePointer<Int32>
    private var arcs: UnsafeMutablePointer<ArcPiece>
    private var arcCapacity = 64
    private var arcCount = 0
    /// Ordinal of the input edge being walked (every edge of the shape counts,
    /// horizontal and clipped-away ones included, so that adjacent means adjacent).
    private var walkingEdge = 0
    /// Inside a simple group (see `beginSimpleGroup`), the tag all its cells carry.
    private var groupTag: Int? = nil
    // Scratch for the fallback: edges crossing the current row, crossings of a sub-scanline.
    private var rowEdges: UnsafeMutablePointer<FixedEdge>
    private var rowEdgeCount = 0
    private var rowEdgesFor = Int.min
    private var crossings: UnsafeMutablePointer<SIMD2<Double>>

    // The first cell of the current contour: the closing edge returns to it, and
    // its contribution is merged there so that a contour's start is not mistaken
    // for two separate runs of edges meeting in one pixel.
    private var firstCellIndex = -1, firstCellX = Int.min, firstCellY = Int.min

    // The cell being accumulated.
    private var curX = Int.min, curY = Int.min, curCover = 0, curArea = 0, curEdge = 0

    // Clip rectangle, in pixels and as Double.
    private var clipX0 = 0, clipY0 = 0, clipX1 = 0, clipY1 = 0
    private var cx0 = 0.0, cy0 = 0.0, cx1 = 0.0, cy1 = 0.0
    /// The clip grown by `nearMargin` on every side (see `near`).
    private var nearX0 = 0.0, nearY0 = 0.0, nearX1 = 0.0, nearY1 = 0.0
    static let nearMargin = 1024.0
    /// cos and sin of the last arc-end angles, the segment term's thresholds of
    /// the last radii (see `arc`).
    private var cosSins = LastTwo<Double, (Double, Double)>(unmatched: .nan, placeholder: (1, 0))
    private var bulgeThresholds = LastTwo(unmatched: Double.nan, placeholder: ArcPiece.BulgeThreshold())

    // Current contour.
    private var startX = 0.0, startY = 0.0, lastX = 0.0, lastY = 0.0
    private var inContour = false
    /// The current point in 24.8, valid when it is `near` the clip.
    private var lastFX = 0, lastFY = 0, lastNear = false

    init() {
        cellCapacity = 1024
        cells = .allocate(capacity: cellCapacity)
        sorted = .allocate(capacity: cellCapacity)
        rowCapacity = 256
        rowStarts = .allocate(capacity: rowCapacity + 2)
        coverageCapacity = 256
        coverageRow = .allocate(capacity: coverageCapacity + 4)
        edges = .allocate(capacity: edgeCapacity)
        edgeTags = .allocate(capacity: edgeCapacity)
        edgeArc = .allocate(capacity: edgeCapacity)
        arcs = .allocate(capacity: arcCapacity)
        edgeOrder = .allocate(capacity: edgeCapacity)
        activeEdges = .allocate(capacity: edgeCapacity)
        rowEdges = .allocate(capacity: edgeCapacity)
        crossings = .allocate(capacity: edgeCapacity)
    }

    deinit {
        edges.deallocate()
        edgeTags.deallocate()
        edgeArc.deallocate()
        arcs.deallocate()
        edgeOrder.deallocate()
        activeEdges.deallocate()
        rowEdges.deallocate()
        crossings.deallocate()
        cells.deallocate()
        sorted.deallocate()
        rowStarts.deallocate()
        coverageRow.deallocate()
    }

    /// Starts a new shape clipped to `clip` (which must not be empty).
    mutating func reset(clip: IntRect) {
        cellCount = 0
        firstCellIndex = -1
        groupTag = nil
        edgeCount = 0
        arcCount = 0
        banded = true
        rowEdgesFor = Int.min
        curX = Int.min
        curY = Int.min
        curCover = 0
        curArea = 0
        inContour = false
        clipX0 = clip.minX
        clipY0 = clip.minY
        clipX1 = clip.maxX
        clipY1 = clip.maxY
        cx0 = Double(clipX0)
        cy0 = Double(clipY0)
        cx1 = Double(clipX1)
        cy1 = Double(clipY1)
        nearX0 = cx0 - Self.nearMargin
        nearY0 = cy0 - Self.nearMargin
        nearX1 = cx1 + Self.nearMargin
        nearY1 = cy1 + Self.nearMargin
        if clip.width > coverageCapacity {
            coverageRow.deallocate()
            coverageCapacity = clip.width
            // (Four more: the banded sweep writes coverages four at a time.)
            coverageRow = .allocate(capacity: coverageCapacity + 4)
        }
        if clip.height > rowCapacity {
            rowStarts.deallocate()
            rowCapacity = clip.height
            rowStarts = .allocate(capacity: rowCapacity + 2)
        }
    }

    // MARK: - Contours (floating point)

    /// The contours up to `endSimpleGroup()` form a shape whose winding number
    /// is 0 or 1 everywhere (or 0 or -1): simple contours that do not overlap,
    /// or an outer contour with holes of the opposite direction, like a ring.
    /// Their cells share one tag, so no pixel of the group is mistaken for a
    /// self-overlap (see `sweepRow`), however often its edges pass through it.
    /// Groups of one shape must not overlap one another either: a shape made of
    /// simple groups only is scan-converted on the banded path, which has no
    /// overlap detection (see `sweepBanded`).
    mutating func beginSimpleGroup() {
        close()
        flushCell()
        groupTag = walkingEdge &+ 1
    }

    mutating func endSimpleGroup() {
        close()
        flushCell()
        // The next ordinal is at least two past the group's tag: a later cell in
        // the same pixel is never taken for an adjacent edge.
        walkingEdge &+= 2
        groupTag = nil
    }

    /// Begins a contour at (x, y), closing the previous one.
    mutating func move(_ x: Double, _ y: Double) {
        close()
        flushCell()
        firstCellIndex = -1
        startX = x
        startY = y
        setCurrentPoint(x, y)
        inContour = true
    }

    /// Within `nearMargin` of the clip (false for NaN). On the banded path an
    /// edge between near points is not clipped: it is converted to 24.8 as it
    /// is, and its parts outside the clip fall into bands that are never swept
    /// or into the cells' first and last columns (see `DenseBand.add`). So a
    /// shape's pixels do not depend on where the clip cuts it. Farther points go
    /// through `clippedEdge`, which bounds the work for huge shapes.
    @inline(__always)
    private func near(_ x: Double, _ y: Double) -> Bool {
        x >= nearX0 && x <= nearX1 && y >= nearY0 && y <= nearY1
    }

    @inline(__always)
    private mutating func setCurrentPoint(_ x: Double, _ y: Double) {
        lastX = x
        lastY = y
        lastNear = near(x, y)
        if lastNear {
            lastFX = Fixed24_8.nearest(x * Double(Fixed24_8.one))
            lastFY = Fixed24_8.nearest(y * Double(Fixed24_8.one))
        }
    }

    /// The banded path's edge from the current point to (x, y), if it can take it.
    @inline(__always)
    private mutating func directEdge(_ x: Double, _ y: Double) -> Bool {
        guard banded, lastNear, let tag = groupTag, near(x, y) else { return false }
        let fx = Fixed24_8.nearest(x * Double(Fixed24_8.one)), fy = Fixed24_8.nearest(y * Double(Fixed24_8.one))
        if fy != lastFY { recordInClipRows(lastFX, lastFY, fx, fy, tag: tag) }
        lastX = x
        lastY = y
        lastFX = fx
        lastFY = fy
        return true
    }

    /// Records an edge unless it lies entirely above or below the clip.
    @inline(__always)
    private mutating func recordInClipRows(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, tag: Int) {
        if max(y0, y1) <= clipY0 << 8 || min(y0, y1) >= clipY1 << 8 { return }
        record(x0, y0, x1, y1, tag: tag)
    }

    /// Adds a straight edge from the current point to (x, y).
    @inline(__always)
    mutating func line(_ x: Double, _ y: Double) {
        if !inContour {
            move(x, y)
            return
        }
        if directEdge(x, y) { return }
        clippedEdge(lastX, lastY, x, y)
        setCurrentPoint(x, y)
    }

    /// Closes the current contour with an edge back to its start.
    mutating func close() {
        if inContour {
            if !directEdge(startX, startY) { clippedEdge(lastX, lastY, startX, startY) }
            inContour = false
        }
    }

    /// Clips one edge to the clip rectangle (see the type's comment) and hands
    /// the pieces to the fixed-point walker.
    private mutating func clippedEdge(_ x0In: Double, _ y0In: Double, _ x1In: Double, _ y1In: Double) {
        var x0 = x0In, y0 = y0In, x1 = x1In, y1 = y1In
        walkingEdge &+= 1
        // Callers reject non-finite geometry; this keeps a NaN that slipped
        // through from reaching the fixed-point conversion.
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return }
        if y0 == y1 { return }  // horizontal edges carry no cover
        if (y0 <= cy0 && y1 <= cy0) || (y0 >= cy1 && y1 >= cy1) { return }
        // Clip in y: only the part inside the clip's rows contributes.
        let dxdy = (x1 - x0) / (y1 - y0)
        if y0 < cy0 {
            x0 += (cy0 - y0) * dxdy
            y0 = cy0
        } else if y0 > cy1 {
            x0 += (cy1 - y0) * dxdy
            y0 = cy1
        }
        if y1 < cy0 {
            x1 += (cy0 - y1) * dxdy
            y1 = cy0
        } else if y1 > cy1 {
            x1 += (cy1 - y1) * dxdy
            y1 = cy1
        }
        // Fast path: entirely inside in x.
        if x0 >= cx0 && x0 <= cx1 && x1 >= cx0 && x1 <= cx1 {
            fixedEdge(x0, y0, x1, y1)
            return
        }
        // Split where the edge crosses x = cx0 and x = cx1 (at most two points, in
        // order along the edge); project the parts outside onto the clip's sides.
        var t0 = 2.0, t1 = 2.0
        if x0 != x1 {
            let tA = (cx0 - x0) / (x1 - x0), tB = (cx1 - x0) / (x1 - x0)
            let a = (tA > 0 && tA < 1) ? tA : 2, b = (tB > 0 && tB < 1) ? tB : 2
            (t0, t1) = a < b ? (a, b) : (b, a)
        }
        var px = x0, py = y0
        if t0 < 1 {
            let nx = x0 + (x1 - x0) * t0, ny = y0 + (y1 - y0) * t0
            fixedEdge(min(max(px, cx0), cx1), py, min(max(nx, cx0), cx1), ny)
            (px, py) = (nx, ny)
        }
        if t1 < 1 {
            let nx = x0 + (x1 - x0) * t1, ny = y0 + (y1 - y0) * t1
            fixedEdge(min(max(px, cx0), cx1), py, min(max(nx, cx0), cx1), ny)
            (px, py) = (nx, ny)
        }
        fixedEdge(min(max(px, cx0), cx1), py, min(max(x1, cx0), cx1), y1)
    }

    @inline(__always)
    private mutating func fixedEdge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        let fx0 = Fixed24_8(roundingNonNegative: x0).raw, fy0 = Fixed24_8(roundingNonNegative: y0).raw
        let fx1 = Fixed24_8(roundingNonNegative: x1).raw, fy1 = Fixed24_8(roundingNonNegative: y1).raw
        if banded {
            if let tag = groupTag {
                if fy0 != fy1 { record(fx0, fy0, fx1, fy1, tag: tag) }
                return
            }
            leaveBandedMode()
        }
        walkEdge(fx0, fy0, fx1, fy1)
    }

    /// Keeps an edge for the banded sweep, top end first; its tag records the
    /// group and (lowest bit) whether it ran upwards.
    @inline(__always)
    private mutating func record(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, tag: Int) {
        if edgeCount == edgeCapacity { growEdges() }
        let up = y0 > y1
        edges[edgeCount] = FixedEdge(
            Int32(truncatingIfNeeded: up ? x1 : x0), Int32(truncatingIfNeeded: up ? y1 : y0),
            Int32(truncatingIfNeeded: up ? x0 : x1), Int32(truncatingIfNeeded: up ? y0 : y1))
        edgeTags[edgeCount] = Int32(truncatingIfNeeded: tag << 1 | (up ? 1 : 0))
        edgeArc[edgeCount] = -1
        edgeCount += 1
    }

    /// An edge outside any simple group arrived: the shape may overlap itself,
    /// which only the cell list can detect. The edges recorded so far become
    /// cells, each group's under its own tag.
    private mutating func leaveBandedMode() {
        banded = false
        let recorded = edgeCount
        // Walking an arc piece records several edges: replay from a copy.
        let saved = UnsafeMutablePointer<FixedEdge>.allocate(capacity: max(1, recorded))
        let savedTags = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, recorded))
        let savedArcs = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, recorded))
        defer {
            saved.deallocate()
            savedTags.deallocate()
            savedArcs.deallocate()
        }
        saved.update(from: edges, count: recorded)
        savedTags.update(from: edgeTags, count: recorded)
        savedArcs.update(from: edgeArc, count: recorded)
        edgeCount = 0
        let current = (groupTag, firstCellIndex)
        for i in 0..<recorded {
            let e = saved[i]
            let tag = Int(savedTags[i] >> 1)
            if tag != groupTag {
                flushCell()
                groupTag = tag
            }
            let up = savedTags[i] & 1 != 0
            if savedArcs[i] >= 0 {
                replayArc(e, arcs[Int(savedArcs[i])], up: up)
            } else {
                // Recorded edges may reach outside the clip: clip them now.
                let scale = 1.0 / Double(Fixed24_8.one)
                let (a, b) = up ? ((e.x1, e.y1), (e.x0, e.y0)) : ((e.x0, e.y0), (e.x1, e.y1))
                clippedEdge(Double(a.0) * scale, Double(a.1) * scale, Double(b.0) * scale, Double(b.1) * scale)
            }
        }
        flushCell()
        (groupTag, firstCellIndex) = current
    }

    /// Takes an arc as it is (see `ContourSink`) on the banded path, when the
    /// whole circle lies inside the clip: its quarter-turn pieces are recorded
    /// with their end points, and `DenseBand.walkArc` computes where the circle
    /// crosses every pixel boundary, so no chord stands in for the curve.
    /// Anywhere else the caller flattens it.
    mutating func arc(cx: Double, cy: Double, radius r: Double, start: Double, sweep: Double, moveFirst: Bool) -> Bool {
        let turn: Double = 2 * Double.pi
        // Small circles are left to the chords (`RasterPromises.smallestWalkedRadius`).
        // (Quarter turns are counted from the start angle: from a million
        // radians on, the chords take it, as they take any angle.)
        guard banded, let tag = groupTag, RasterPromises.walksArcsAsCircles(radius: r), sweep != 0, abs(sweep) <= turn,
            abs(start) < 1e6
        else {
            return false
        }
        guard cx - r >= nearX0, cx + r <= nearX1, cy - r >= nearY0, cy + r <= nearY1 else { return false }
        let (cs, sn) = cosSin(start)
        if moveFirst { move(cx + r * cs, cy + r * sn) } else { line(cx + r * cs, cy + r * sn) }
        guard lastNear else { return false }
        let quarter: Double = Double.pi / 2
        let end: Double = start + sweep
        let forward = sweep > 0
        let first: Double = forward ? (start / quarter).rounded(.down) + 1 : (start / quarter).rounded(.up) - 1
        var k = Int(first)
        let bulge = bulgeThresholds.value(for: r) { ArcPiece.bulgeThreshold(radius: $0) }
        // Quarter-turn boundaries k pi / 2 between start and end: points exactly on the axes.
        while true {
            let boundary = Double(k) * quarter
            let last = forward ? boundary >= end : boundary <= end
            var px: Double, py: Double
            if last {
                let (ce, se) = cosSin(end)
                (px, py) = (cx + r * ce, cy + r * se)
            } else {
                switch (k % 4 + 4) % 4 {
                case 0: (px, py) = (cx + r, cy)
                case 1: (px, py) = (cx, cy + r)
                case 2: (px, py) = (cx - r, cy)
                default: (px, py) = (cx, cy - r)
                }
            }
            // The quadrant the piece lies in (0: right and below the centre, then clockwise).
            let quadrant = ((forward ? k - 1 : k) % 4 + 4) % 4
            let circle = ArcPiece(
                cx: cx, cy: cy, r: r, sx: quadrant == 0 || quadrant == 3 ? 1 : -1, sy: quadrant < 2 ? 1 : -1,
                bulge: bulge)
            arcPiece(to: px, py, circle, tag: tag)
            if last { break }
            k += forward ? 1 : -1
        }
        return true
    }

    /// cos and sin of `angle`, remembered: a stroke's arcs meet at shared
    /// angles (an outer arc ends where the inner one starts, and the inner
    /// one ends where the outer one began).
    private mutating func cosSin(_ angle: Double) -> (Double, Double) {
        cosSins.value(for: angle) { FastMath.cosSin($0) }
    }

    /// Records the piece of `circle` from the current point to (x, y) (near the
    /// clip), unless it lies above or below the clip.
    private mutating func arcPiece(to x: Double, _ y: Double, _ circle: ArcPiece, tag: Int) {
        let fx = Fixed24_8.nearest(x * Double(Fixed24_8.one))
        let fy = Fixed24_8.nearest(y * Double(Fixed24_8.one))
        if fy != lastFY && max(fy, lastFY) > clipY0 << 8 && min(fy, lastFY) < clipY1 << 8 {
            if arcCount == arcCapacity { growArcs() }
            arcs[arcCount] = circle
            record(lastFX, lastFY, fx, fy, tag: tag)
            edgeArc[edgeCount - 1] = Int32(truncatingIfNeeded: arcCount)
            arcCount += 1
        }
        lastX = x
        lastY = y
        lastFX = fx
        lastFY = fy
        lastNear = true
    }

    private mutating func growArcs() {
        let bigger = arcCapacity * 2
        let a = UnsafeMutablePointer<ArcPiece>.allocate(capacity: bigger)
        a.update(from: arcs, count: arcCount)
        arcs.deallocate()
        arcs = a
        arcCapacity = bigger
    }

    /// An arc piece as chords (within 1/64 pixel, straddling the circle) for the
    /// cell list, between its recorded end points.
    private mutating func replayArc(_ e: FixedEdge, _ circle: ArcPiece, up: Bool) {
        let scale: Double = 1.0 / Double(Fixed24_8.one)
        let r: Double = circle.r2.squareRoot()
        var a0: Double = atan2(Double(e.y0) * scale - circle.cy, Double(e.x0) * scale - circle.cx)
        var a1: Double = atan2(Double(e.y1) * scale - circle.cy, Double(e.x1) * scale - circle.cx)
        if up { swap(&a0, &a1) }
        let turn: Double = 2 * Double.pi
        if a1 - a0 > Double.pi {
            a1 -= turn
        } else if a0 - a1 > Double.pi {
            a1 += turn
        }
        let n = Flattener.arcSegments(radius: r, sweep: a1 - a0, tolerance: Flattener.defaultTolerance)
        // Inner vertices straddle the circle as the flattener's do; the ends
        // stay where the neighbouring edges meet them.
        let rr = Flattener.vertexRadius(radius: r, step: (a1 - a0) / Double(n))
        var px = Double(up ? e.x1 : e.x0) * scale, py = Double(up ? e.y1 : e.y0) * scale
        for i in 1...n {
            var qx = Double(up ? e.x0 : e.x1) * scale, qy = Double(up ? e.y0 : e.y1) * scale
            if i < n {
                let t: Double = a0 + (a1 - a0) * Double(i) / Double(n)
                qx = circle.cx + rr * cos(t)
                qy = circle.cy + rr * sin(t)
            }
            clippedEdge(px, py, qx, qy)
            px = qx
            py = qy
        }
    }

    // MARK: - Cells (fixed point)

    /// Walks an edge (24.8 coordinates) row by row.
    private mutating func walkEdge(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        if y0 == y1 { return }
        if edgeCount == edgeCapacity { growEdges() }
        edges[edgeCount] = FixedEdge(
            Int32(truncatingIfNeeded: x0), Int32(truncatingIfNeeded: y0), Int32(truncatingIfNeeded: x1),
            Int32(truncatingIfNeeded: y1))
        edgeCount += 1
        let one = Fixed24_8.one
        let ey0 = y0 >> 8, ey1 = y1 >> 8
        let fy0 = y0 & 255, fy1 = y1 & 255
        if ey0 == ey1 {
            rowSegment(ey0, x0, fy0, x1, fy1)
            return
        }
        let dx = x1 - x0, dy = y1 - y0
        var xPrev = x0
        if dy > 0 {
            var fyPrev = fy0
            var ey = ey0
            var yb = (ey0 + 1) << 8
            while ey < ey1 {
                let xb = x0 + dx * (yb - y0) / dy
                rowSegment(ey, xPrev, fyPrev, xb, one)
                xPrev = xb
                fyPrev = 0
                ey += 1
                yb += one
            }
            rowSegment(ey1, xPrev, 0, x1, fy1)
        } else {
            var fyPrev = fy0
            var ey = ey0
            var yb = ey0 << 8
            while ey > ey1 {
                let xb = x0 + dx * (yb - y0) / dy
                rowSegment(ey, xPrev, fyPrev, xb, 0)
                xPrev = xb
                fyPrev = one
                ey -= 1
                yb -= one
            }
            rowSegment(ey1, xPrev, one, x1, fy1)
        }
    }

    /// The part of an edge inside pixel row `ey`, from (x1, fy1) to (x2, fy2);
    /// x in 24.8, fy in 0...256 within the row.
    @inline(__always)
    private mutating func rowSegment(_ ey: Int, _ x1: Int, _ fy1: Int, _ x2: Int, _ fy2: Int) {
        if fy1 == fy2 { return }
        let one = Fixed24_8.one
        let ex1 = x1 >> 8, ex2 = x2 >> 8
        let fx1 = x1 & 255, fx2 = x2 & 255
        if ex1 == ex2 {
            addCell(ex1, ey, fy2 - fy1, (fy2 - fy1) * (fx1 + fx2))
            return
        }
        let dx = x2 - x1, dy = fy2 - fy1
        var fyPrev = fy1
        if dx > 0 {
            var ex = ex1
            var xb = (ex1 + 1) << 8
            var fxStart = fx1
            while ex < ex2 {
                let fyb = fy1 + dy * (xb - x1) / dx
                addCell(ex, ey, fyb - fyPrev, (fyb - fyPrev) * (fxStart + one))
                fyPrev = fyb
                fxStart = 0
                ex += 1
                xb += one
            }
            addCell(ex2, ey, fy2 - fyPrev, (fy2 - fyPrev) * fx2)
        } else {
            var ex = ex1
            var xb = ex1 << 8
            var fxStart = fx1
            while ex > ex2 {
                let fyb = fy1 + dy * (xb - x1) / dx
                addCell(ex, ey, fyb - fyPrev, (fyb - fyPrev) * fxStart)
                fyPrev = fyb
                fxStart = one
                ex -= 1
                xb -= one
            }
            addCell(ex2, ey, fy2 - fyPrev, (fy2 - fyPrev) * (one + fx2))
        }
    }

    @inline(__always)
    private mutating func addCell(_ x: Int, _ y: Int, _ cover: Int, _ area: Int) {
        if x == curX && y == curY {
            curCover &+= cover
            curArea &+= area
            return
        }
        flushCell()
        curX = x
        curY = y
        curCover = cover
        curArea = area
        curEdge = groupTag ?? walkingEdge
    }

    @inline(__always)
    private mutating func flushCell() {
        if curCover == 0 && curArea == 0 { return }
        if firstCellIndex < 0 {
            firstCellIndex = cellCount
            firstCellX = curX
            firstCellY = curY
        } else if curX == firstCellX && curY == firstCellY && firstCellIndex < cellCount {
            cells[firstCellIndex].cover &+= Int32(truncatingIfNeeded: curCover)
            cells[firstCellIndex].area &+= Int32(truncatingIfNeeded: curArea)
            curCover = 0
            curArea = 0
            return
        }
        if cellCount == cellCapacity { growCells() }
        cells[cellCount] = Cell(
            x: Int32(truncatingIfNeeded: curX), y: Int32(truncatingIfNeeded: curY),
            cover: Int32(truncatingIfNeeded: curCover), area: Int32(truncatingIfNeeded: curArea),
            edge: Int32(truncatingIfNeeded: curEdge))
        cellCount += 1
        curCover = 0
        curArea = 0
    }

    private mutating func growCells() {
        let bigger = cellCapacity * 2
        let c = UnsafeMutablePointer<Cell>.allocate(capacity: bigger)
        c.update(from: cells, count: cellCount)
        cells.deallocate()
        sorted.deallocate()
        cells = c
        sorted = .allocate(capacity: bigger)
        cellCapacity = bigger
    }

    private mutating func growEdges() {
        let bigger = edgeCapacity * 2
        let e = UnsafeMutablePointer<FixedEdge>.allocate(capacity: bigger)
        e.update(from: edges, count: edgeCount)
        let t = UnsafeMutablePointer<Int32>.allocate(capacity: bigger)
        t.update(from: edgeTags, count: edgeCount)
        let a = UnsafeMutablePointer<Int32>.allocate(capacity: bigger)
        a.update(from: edgeArc, count: edgeCount)
        edges.deallocate()
        edgeTags.deallocate()
        edgeArc.deallocate()
        edgeArc = a
        edgeOrder.deallocate()
        activeEdges.deallocate()
        rowEdges.deallocate()
        crossings.deallocate()
        edges = e
        edgeTags = t
        edgeOrder = .allocate(capacity: bigger)
        activeEdges = .allocate(capacity: bigger)
        rowEdges = .allocate(capacity: bigger)
        crossings = .allocate(capacity: bigger)
        edgeCapacity = bigger
        rowEdgesFor = Int.min
    }

    // MARK: - Sweep

    /// Finishes the shape and delivers its coverage to `sink`, row by row.
    mutating func sweep<S: SpanSink>(rule: FillRule, into sink: inout S) {
        close()
        if banded {
            sweepBanded(rule: rule, into: &sink)
            return
        }
        flushCell()
        curX = Int.min
        curY = Int.min
        let n = cellCount
        if n == 0 { return }

        // Counting sort by row (rows are inside the clip).
        let rows = clipY1 - clipY0
        let starts = rowStarts
        starts.initialize(repeating: 0, count: rows + 2)
        for i in 0..<n {
            let r = Int(cells[i].y) - clipY0
            starts[r + 2] &+= 1
        }
        var minRow = rows, maxRow = -1
        for r in 0..<rows where starts[r + 2] != 0 {
            if r < minRow { minRow = r }
            maxRow = r
        }
        for r in 0..<rows { starts[r + 2] &+= starts[r + 1] }
        for i in 0..<n {
            let r = Int(cells[i].y) - clipY0
            let at = Int(starts[r + 1])
            sorted[at] = cells[i]
            starts[r + 1] = Int32(at + 1)
        }
        // Now row r occupies sorted[starts[r] ..< starts[r + 1]].
        if maxRow < 0 { return }
        for r in minRow...maxRow {
            let lo = Int(starts[r]), hi = Int(starts[r + 1])
            if lo == hi { continue }
            sortRow(lo, hi)
            sweepRow(y: r + clipY0, lo, hi, rule: rule, into: &sink)
        }
    }

    /// The banded path: every edge is in a simple group, so the winding number is
    /// 0 or +-1 everywhere and the area integral is every pixel's exact coverage.
    /// Edges are ordered by the band holding their top, then each band of
    /// `DenseBand.rows` rows takes the edges crossing it and is swept.
    private mutating func sweepBanded<S: SpanSink>(rule: FillRule, into sink: inout S) {
        let n = edgeCount
        if n == 0 { return }
        // The shape's box within the clip: the band's columns and rows. (Edges
        // run top to bottom; an arc piece lies within its ends' box.) Rows
        // outside it hold no cell, columns left of it no coverage, and
        // columns right of it none either, as the winding is back to 0 there;
        // edges left of the clip still give the clip's first column their
        // cover. Bands start at the box's top: where they split an edge does
        // not change its cells (see `DenseBand.walk`).
        var minX = Int(edges[0].x0), maxX = minX, minY = Int(edges[0].y0), maxY = Int(edges[0].y1)
        for i in 0..<n {
            let e = edges[i]
            minX = min(minX, Int(min(e.x0, e.x1)))
            maxX = max(maxX, Int(max(e.x0, e.x1)))
            minY = min(minY, Int(e.y0))
            maxY = max(maxY, Int(e.y1))
        }
        // (Three columns more on the right, within the clip: the sweep blends
        // four pixels from a touched column, and a quad reaching past the
        // band's last column takes the slow way, pixel by pixel.)
        let originX = max(clipX0, minX >> 8), endX = min(clipX1, (maxX >> 8) &+ 4)
        let firstRow = max(clipY0, minY >> 8), endRow = min(clipY1, (maxY &+ Fixed24_8.mask) >> 8)
        if endX <= originX || endRow <= firstRow { return }
        let bandRows = DenseBand.rows
        let bandCount = (endRow &- firstRow &+ bandRows &- 1) / bandRows
        // Counting sort of edge indices by top band (`rowStarts` has room for
        // a counter per row, hence per band).
        let starts = rowStarts
        starts.initialize(repeating: 0, count: bandCount &+ 2)
        for i in 0..<n {
            let e = edges[i]
            starts[max(0, Int(e.y0) >> 8 &- firstRow) / bandRows &+ 2] &+= 1
        }
        for b in 0..<bandCount { starts[b &+ 2] &+= starts[b &+ 1] }
        for i in 0..<n {
            let e = edges[i]
            let b = max(0, Int(e.y0) >> 8 &- firstRow) / bandRows
            let at = Int(starts[b &+ 1])
            edgeOrder[at] = Int32(truncatingIfNeeded: i)
            starts[b &+ 1] = Int32(truncatingIfNeeded: at &+ 1)
        }
        // Now band b's new edges are edgeOrder[starts[b] ..< starts[b + 1]].
        band.prepare(originX: originX, width: endX &- originX, clipWidth: clipX1 &- clipX0)
        var active = 0
        for b in 0..<bandCount {
            for k in Int(starts[b])..<Int(starts[b &+ 1]) {
                activeEdges[active] = edgeOrder[k]
                active &+= 1
            }
            if active == 0 { continue }
            let topRow = firstRow &+ b &* bandRows, bottomRow = min(topRow &+ bandRows, endRow)
            let top = topRow << 8, bottom = bottomRow << 8
            band.topRow = topRow
            var kept = 0
            for k in 0..<active {
                let index = Int(activeEdges[k])
                let e = edges[index]
                let sign: Int64 = edgeTags[index] & 1 != 0 ? -1 : 1
                let arc = Int(edgeArc[index])
                if arc >= 0 {
                    band.walkArc(e, arcs[arc], sign: sign, top: top, bottom: bottom)
                } else {
                    band.walk(e, sign: sign, top: top, bottom: bottom)
                }
                if Int(e.y1) > bottom {
                    activeEdges[kept] = Int32(truncatingIfNeeded: index)
                    kept &+= 1
                }
            }
            active = kept
            for r in 0..<(bottomRow &- topRow) {
                S.sweepBandRow(&band, r, y: topRow &+ r, buffer: coverageRow, into: &sink)
            }
        }
    }

    /// Sorts a row's cells by x: insertion sort, as rows hold few cells,
    /// mostly already in order; a row of many (a path of many edges, whose
    /// cells arrive in any order) by the standard library's sort, as insertion
    /// would take the square of their count.
    @inline(__always)
    private func sortRow(_ lo: Int, _ hi: Int) {
        if hi - lo > 64 {
            var row = UnsafeMutableBufferPointer(start: sorted + lo, count: hi - lo)
            row.sort { $0.x < $1.x }
            return
        }
        var i = lo + 1
        while i < hi {
            let c = sorted[i]
            var j = i - 1
            if sorted[j].x > c.x {
                while j >= lo && sorted[j].x > c.x {
                    sorted[j + 1] = sorted[j]
                    j -= 1
                }
                sorted[j + 1] = c
            }
            i += 1
        }
    }

    @inline(__always)
    static func coverage(_ area: Int, _ rule: FillRule) -> UInt8 {
        var a = area < 0 ? -area : area
        switch rule {
        case .nonZero:
            if a > AreaCoverage.full { a = AreaCoverage.full }
        case .evenOdd:
            a &= 2 * AreaCoverage.full - 1
            if a > AreaCoverage.full { a = 2 * AreaCoverage.full - a }
        }
        return UInt8(truncatingIfNeeded: (a &* 255 &+ (AreaCoverage.full >> 1)) >> AreaCoverage.shift)
    }

    /// Coverage of pixel (x, y) under the fill rule, from the edges themselves:
    /// 64 horizontal sub-scanlines, each crossing the edges at exact x positions,
    /// so the covered length of each sub-scanline within the pixel is exact and
    /// only the vertical direction is sampled (error at most 1/128 of a pixel's
    /// height per horizontal edge). Used only at pixels where the shape overlaps
    /// itself, where the area integral over-counts.
    ///
    /// Each sub-scanline takes the winding left of the pixel from the crossings
    /// there and sorts only the crossings inside the pixel: a pixel costs 64
    /// passes over the row's edges. Rows crossed by more than
    /// `exactEdgeLimit` edges keep `areaCoverage` (a pixel would cost
    /// millions of steps: a path that winds round a circle many times).
    private mutating func exactCoverage(x: Int, y: Int, rule: FillRule, areaCoverage: UInt8) -> UInt8 {
        if rowEdgesFor != y {
            rowEdgeCount = 0
            let top = Int32(y << 8), bottom = Int32((y + 1) << 8)
            for i in 0..<edgeCount {
                let e = edges[i]
                if min(e.y0, e.y1) < bottom && max(e.y0, e.y1) > top {
                    rowEdges[rowEdgeCount] = e
                    rowEdgeCount += 1
                }
            }
            rowEdgesFor = y
        }
        if rowEdgeCount > Self.exactEdgeLimit { return areaCoverage }
        let subRows = 64
        let left = Double(x), right = Double(x + 1)
        @inline(__always) func inside(_ w: Double) -> Bool {
            rule == .nonZero ? w != 0 : Int(w.magnitude) % 2 == 1
        }
        var covered = 0.0
        for k in 0..<subRows {
            let sy = (Double(y) + (Double(k) + 0.5) / Double(subRows)) * 256
            var w = 0.0  // the winding left of the pixel
            var n = 0  // crossings inside it, sorted by x
            for i in 0..<rowEdgeCount {
                let e = rowEdges[i]
                let y0 = Double(e.y0), y1 = Double(e.y1)
                let (lo, hi, dir) = y0 < y1 ? (y0, y1, 1.0) : (y1, y0, -1.0)
                guard sy >= lo && sy < hi else { continue }
                let xs = (Double(e.x0) + (Double(e.x1) - Double(e.x0)) * (sy - y0) / (y1 - y0)) / 256
                if xs < left {
                    w += dir
                } else if xs < right {
                    var j = n
                    while j > 0 && crossings[j - 1].x > xs {
                        crossings[j] = crossings[j - 1]
                        j -= 1
                    }
                    crossings[j] = SIMD2(xs, dir)
                    n += 1
                }
            }
            var from = left
            for j in 0..<n {
                if inside(w) { covered += crossings[j].x - from }
                w += crossings[j].y
                from = crossings[j].x
            }
            if inside(w) { covered += right - from }
        }
        return UInt8((covered / Double(subRows) * 255).rounded())
    }

    /// The most edges crossing a row for which `exactCoverage` resolves the
    /// pixels where a shape overlaps itself: up to 64 x 1024 crossings a pixel.
    static let exactEdgeLimit = 1024

    private mutating func sweepRow<S: SpanSink>(y: Int, _ lo: Int, _ hi: Int, rule: FillRule, into sink: inout S) {
        let buf = coverageRow
        var acc = 0  // running cover sum, in 1/256 pixel heights
        var spanX = 0, spanLen = 0  // pending per-pixel span in buf[0 ..< spanLen]
        var i = lo
        let shift = Fixed24_8.fractionBits + 1
        while i < hi {
            let x = Int(sorted[i].x)
            var cover = 0, area = 0
            var firstEdge = sorted[i].edge, lastEdge = firstEdge
            repeat {
                cover &+= Int(sorted[i].cover)
                area &+= Int(sorted[i].area)
                firstEdge = min(firstEdge, sorted[i].edge)
                lastEdge = max(lastEdge, sorted[i].edge)
                i += 1
            } while i < hi && Int(sorted[i].x) == x
            if x >= clipX1 { break }
            let after = acc &+ cover
            let c: UInt8
            // The accumulated area is the integral of the winding number over the
            // pixel. It is the exact coverage under either rule whenever the pixel
            // holds only two adjacent winding values (k and k + 1), as it does when
            // one connected run of edges crosses it (even if the run leaves the
            // pixel and comes back through the next edge). Two cases break that,
            // and both are computed exactly instead:
            // - cell entries of non-adjacent edges in one pixel: separate runs meet
            //   (the shape crosses or overlaps itself, or is thinner than a pixel);
            // - an average winding beyond +-1 on the pixel's left or right side:
            //   horizontal edges leave no cells, so a crossing with one shows this way.
            // Not detected: a horizontal edge crossing a contour of the opposite
            // orientation inside one pixel (windings -1, 0, 1); such a pixel keeps
            // the area-integral value.
            let one = Fixed24_8.one
            let areaCoverage = Self.coverage((after << shift) &- area, rule)
            if (lastEdge &- firstEdge > 1 || acc > one || acc < -one || after > one || after < -one)
                && x >= clipX0
            {
                c = exactCoverage(x: x, y: y, rule: rule, areaCoverage: areaCoverage)
            } else {
                c = areaCoverage
            }
            acc = after
            if x >= clipX0 {
                if spanLen > 0 && spanX + spanLen != x {
                    sink.blendSpan(y: y, x: spanX, count: spanLen, coverage: buf)
                    spanLen = 0
                }
                if spanLen == 0 { spanX = x }
                buf[spanLen] = c
                spanLen += 1
            }
            let next = min(i < hi ? Int(sorted[i].x) : clipX1, clipX1)
            let runStart = max(x + 1, clipX0)
            if next > runStart && acc != 0 {
                let rc = Self.coverage(acc << shift, rule)
                if rc != 0 {
                    if spanLen > 0 {
                        sink.blendSpan(y: y, x: spanX, count: spanLen, coverage: buf)
                        spanLen = 0
                    }
                    sink.blendRun(y: y, x: runStart, count: next - runStart, coverage: rc)
                }
            }
        }
        if spanLen > 0 { sink.blendSpan(y: y, x: spanX, count: spanLen, coverage: buf) }
    }
}
