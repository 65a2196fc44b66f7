#if canImport(Glibc)
    import Glibc
#endif

/// Dense cells for a band of rows: the scan converter's fast path for shapes
/// whose winding number is 0 or +-1 everywhere (see `CellRasterizer.sweep`).
///
/// Every pixel of the band has a cell, so an edge adds its cover and area in
/// place: no cell list, no sorting, no merging of entries. One bit per cell
/// marks the cells an edge touched; the sweep visits only those (a bit scan per
/// 64 columns), four cells at a time from the first touched one (`quad`:
/// coverages in SIMD lanes), turns the stretch up to the next touched cell
/// into a constant run, and clears what it read, so the buffers are all zero
/// again when a band is done.
///
/// A cell holds cover (signed height, 1/256 pixel) and area (cover times the
/// sum of the edge's two x offsets in the cell) packed in one `Int64` as
/// `cover << 32 + area`: adding packed values adds both, and the sign of the
/// area borrows from the cover half in a way the unpacking undoes.
struct DenseBand: ~Copyable {
    /// Rows per band: 48 rows of an 800-pixel clip take 300 KB of cells (of
    /// address space: `zeroed`'s pages take memory where edges touch them).
    /// Every piece of a shape starts a walk in each band it crosses; from 32
    /// to 64 rows the cost barely changes, and where the bands' edges fall on
    /// the shapes matters as much as their height (measured:
    /// docs/performance.md, "Tuned constants").
    static let rows = 48
    /// For sinks that shade spans, runs up to this long join the span before
    /// them: one shader call instead of two (a covered quad of opaque colours
    /// is a copy). Longer ones stay runs, which an opaque paint copies from
    /// the shaded colours (the length measured on the gradient scene:
    /// docs/performance.md, "Tuned constants").
    static let joinedRun = 64

    private var cells: UnsafeMutablePointer<Int64>
    private var bits: UnsafeMutablePointer<UInt64>
    private var capacityColumns = 0
    /// Cells per row: the band's width plus one column on its right, where the
    /// scan converter projects the parts of edges right of the clip, plus three
    /// that stay zero, so that four cells from any column up to the extra one
    /// lie in the row (see `quad`).
    private var stride = 1
    /// Bitmap words a row uses (`stride` columns), and words per row in memory:
    /// one more, the sentinel, which is never zero, so the sweep's scan for
    /// the next touched word needs no bound.
    private var words = 1
    private var wordStride = 1
    private var originX = 0
    private var width = 0
    /// The band's first row, in surface pixels.
    var topRow = 0

    init() {
        cells = Self.zeroed(0)
        bits = .allocate(capacity: 0)
    }

    deinit {
        free(cells)
        bits.deallocate()
    }

    /// `count` cells of zero from `calloc`: a large block comes straight from
    /// `mmap`, and its pages take memory only once a shape's edges touch them
    /// (a wide clip's band is mostly untouched; writing the zeros would make
    /// every page resident).
    private static func zeroed(_ count: Int) -> UnsafeMutablePointer<Int64> {
        guard let p = calloc(max(1, count), MemoryLayout<Int64>.stride) else { fatalError("out of memory") }
        return p.assumingMemoryBound(to: Int64.self)
    }

    /// Sets up the band for columns `originX ..< originX + width` (the
    /// shape's, within the clip). Its memory is sized for `clipWidth`
    /// columns at least, once: shapes of one canvas come in every width.
    mutating func prepare(originX: Int, width: Int, clipWidth: Int) {
        self.originX = originX
        self.width = width
        stride = width &+ 4
        let used = (stride &+ 63) >> 6
        if stride > capacityColumns {
            free(cells)
            bits.deallocate()
            capacityColumns = max(stride, clipWidth &+ 4, 2 &* capacityColumns)
            wordStride = ((capacityColumns &+ 63) >> 6) &+ 1
            cells = Self.zeroed(capacityColumns &* Self.rows)
            bits = .allocate(capacity: wordStride &* Self.rows)
            bits.initialize(repeating: 0, count: wordStride &* Self.rows)
            words = 0
        }
        if used != words {
            // The sentinels move to the word after the ones in use.
            var at = bits
            for _ in 0..<Self.rows {
                at[words] = 0
                at[used] = 1
                at += wordStride
            }
            words = used
        }
    }

    /// Adds the part of edge (x0, y0) -> (x1, y1) (24.8 fixed point, inside the
    /// clip, y0 < y1) between `top` and `bottom` (24.8, the band's limits).
    /// `sign` is -1 for an edge that runs upwards in the contour.
    ///
    /// Edges are walked downwards whatever their direction, and the x where one
    /// crosses a row boundary is computed from its upper end: two edges over the
    /// same segment in opposite directions leave exactly opposite cells, in any
    /// band.
    // Not inlined: inlined into the band loop it costs more (register pressure).
    @inline(never)
    mutating func walk(_ e: FixedEdge, sign: Int64, top: Int, bottom: Int) {
        // Wrapping arithmetic: 24.8 coordinates within a clip of at most 2^15
        // pixels, so products stay below 2^47.
        let x0 = Int(e.x0), y0 = Int(e.y0), x1 = Int(e.x1), y1 = Int(e.y1)
        let dx = x1 &- x0, dy = y1 &- y0
        var ya = y0, xa = x0
        if y0 < top {
            ya = top
            xa = x0 &+ dx &* (top &- y0) / dy
        }
        var yb = y1, xb = x1
        if y1 > bottom {
            yb = bottom
            xb = x0 &+ dx &* (bottom &- y0) / dy
        }
        let one = Fixed24_8.one
        let ey0 = ya >> 8, ey1 = yb >> 8
        let fy0 = ya & Fixed24_8.mask, fy1 = yb & Fixed24_8.mask
        if ey0 == ey1 {
            segment(ey0 &- topRow, xa, fy0, xb, fy1, sign)
            return
        }
        var xPrev = xa, fyPrev = fy0
        var ey = ey0, yr = (ey0 &+ 1) << 8
        while ey < ey1 {
            let xr = x0 &+ dx &* (yr &- y0) / dy
            segment(ey &- topRow, xPrev, fyPrev, xr, one, sign)
            xPrev = xr
            fyPrev = 0
            ey &+= 1
            yr &+= one
        }
        if fy1 != 0 { segment(ey1 &- topRow, xPrev, 0, xb, fy1, sign) }
    }

    /// Adds the part of a circle piece between `top` and `bottom` (24.8, the
    /// band's limits). The piece runs from (x0, y0) to (x1, y1) (24.8, y0 < y1)
    /// within one quadrant of its circle, so x and y are monotone along it.
    ///
    /// The walk goes from one pixel boundary crossing to the next: where the
    /// circle meets the next row boundary, unless it meets a column boundary
    /// first (each computed from the circle, in floating point, then rounded to
    /// 24.8). Consecutive crossings lie in one pixel, so each step adds to one
    /// cell with no division. Between two crossings the circle bulges beyond
    /// the chord by a circular segment of area about L^3 / (12 r) (chord length
    /// L, at most 1.5 pixels): that area is added to the cell, on the side away
    /// from the centre. Without it a cap of radius 7 was off by 8 levels.
    @inline(never)
    mutating func walkArc(_ e: FixedEdge, _ circle: ArcPiece, sign: Int64, top: Int, bottom: Int) {
        let x0 = Int(e.x0), y0 = Int(e.y0), x1 = Int(e.x1), y1 = Int(e.y1)
        let right = x1 >= x0
        // Crossings computed from the circle stay between the ends (rounding).
        @inline(__always) func between(_ v: Int, _ a: Int, _ b: Int) -> Int {
            right ? min(max(v, a), b) : max(min(v, a), b)
        }
        var y = y0, x = x0
        if y0 < top {
            y = top
            x = between(circle.x(atY: top), x0, x1)
        }
        var yEnd = y1, xEnd = x1
        if y1 > bottom {
            yEnd = bottom
            xEnd = between(circle.x(atY: bottom), x0, x1)
        }
        if min(x0, x1) >= originX << 8 && max(x0, x1) <= (originX &+ width) << 8 {
            if right {
                walkArcInsideRight(x, y, xEnd, yEnd, circle, sign)
            } else {
                walkArcInsideLeft(x, y, xEnd, yEnd, circle, sign)
            }
        } else {
            walkArcClamped(right: right, x, y, xEnd, yEnd, circle, sign)
        }
    }

    // Each direction a function of its own: with both in `walkArc` the walk
    // kept its row pointers on the stack.
    @inline(never)
    private mutating func walkArcInsideRight(
        _ x: Int, _ y: Int, _ xEnd: Int, _ yEnd: Int, _ circle: ArcPiece, _ sign: Int64
    ) {
        walkArcSteps(right: true, clamp: false, x, y, xEnd, yEnd, circle, sign)
    }

    @inline(never)
    private mutating func walkArcInsideLeft(
        _ x: Int, _ y: Int, _ xEnd: Int, _ yEnd: Int, _ circle: ArcPiece, _ sign: Int64
    ) {
        walkArcSteps(right: false, clamp: false, x, y, xEnd, yEnd, circle, sign)
    }

    /// A piece reaching past the clip's columns (rare: the walk clamps them).
    @inline(never)
    private mutating func walkArcClamped(
        right: Bool, _ x: Int, _ y: Int, _ xEnd: Int, _ yEnd: Int, _ circle: ArcPiece, _ sign: Int64
    ) {
        if right {
            walkArcSteps(right: true, clamp: true, x, y, xEnd, yEnd, circle, sign)
        } else {
            walkArcSteps(right: false, clamp: true, x, y, xEnd, yEnd, circle, sign)
        }
    }

    /// The steps of `walkArc` from (x, y) to (xEnd, yEnd) (inside the band),
    /// with the band's pointers in locals and the row's cells followed from row
    /// to row. With `clamp`, columns outside the clip go where `add` puts them;
    /// a piece within the clip's columns needs no clamping. Clamped or not, the
    /// crossings are the same, so a shape gives the same pixels through any clip.
    @inline(__always)
    private mutating func walkArcSteps(
        right: Bool, clamp: Bool, _ x: Int, _ y: Int, _ xEnd: Int, _ yEnd: Int, _ circle: ArcPiece, _ sign: Int64
    ) {
        let mask = Fixed24_8.mask, one = Fixed24_8.one
        @inline(__always) func between(_ v: Int, _ a: Int, _ b: Int) -> Int {
            right ? min(max(v, a), b) : max(min(v, a), b)
        }
        let row = (y >> 8) &- topRow, originX = self.originX, width = self.width
        var cellRow = cells + row &* stride, bitRow = bits + row &* wordStride
        let stride = self.stride, wordStride = self.wordStride
        var x = x, y = y
        // The next row crossing, and the next column boundary.
        var rowY = (y | mask) &+ 1, rowX: Int
        if rowY >= yEnd {
            rowY = yEnd
            rowX = xEnd
        } else {
            rowX = between(circle.x(atY: rowY), x, xEnd)
        }
        // The first column boundary past x in the walk's direction.
        @inline(__always) func boundary(after x: Int) -> Int { right ? (x | mask) &+ 1 : (x &- 1) & ~mask }
        var colX = boundary(after: x)
        if y >= yEnd { return }
        while true {
            let nx: Int, ny: Int
            // Left or right of the clip, the rest of the row is one step: its
            // column steps would all add to the clamped column, with area 0
            // on the left; on the right, the extra column's area shows nowhere.
            let outside =
                clamp
                && (right
                    ? rowX <= originX << 8 || x >> 8 > originX &+ width
                    : x <= originX << 8 || rowX >> 8 > originX &+ width)
            if !outside && (right ? colX < rowX : colX > rowX) {
                nx = colX
                ny = min(max(circle.y(atX: colX), y), rowY)
                colX = right ? colX &+ one : colX &- one
            } else {
                nx = rowX
                ny = rowY
                if outside { colX = boundary(after: rowX) }
            }
            let cover = ny &- y
            if cover != 0 {
                let ex = (right ? x : nx) >> 8
                let base2 = ex << 9
                var area = cover &* (x &+ nx &- base2)
                let dx = right ? nx &- x : x &- nx
                // (|dx| + cover bounds the chord: most steps stop at that test.)
                if dx &+ cover >= circle.bulgeReach {
                    let l2 = dx &* dx &+ cover &* cover
                    if l2 >= circle.bulgeFrom {
                        let d = Double(l2)
                        area &+= Fixed24_8.nearest(d * d.squareRoot() * circle.bulge)
                    }
                }
                var col = ex &- originX
                if clamp && col < 0 {
                    col = 0
                    area = 0
                } else if clamp && col > width {
                    col = width
                    area = 0
                }
                cellRow[col] &+= (Int64(cover) << 32 &+ Int64(area)) &* sign
                bitRow[col >> 6] |= 1 &<< UInt64(col & 63)
            }
            x = nx
            y = ny
            if y == rowY {
                // Into the next row (the last ends at yEnd).
                if y == yEnd { return }
                cellRow += stride
                bitRow += wordStride
                rowY = y &+ one
                if rowY >= yEnd {
                    rowY = yEnd
                    rowX = xEnd
                } else {
                    rowX = between(circle.x(atY: rowY), x, xEnd)
                }
            }
        }
    }

    /// The part of an edge inside band row `row`, from (x1, fy1) to (x2, fy2)
    /// with fy1 < fy2; x in 24.8, fy in 0...256 within the row.
    @inline(__always)
    private mutating func segment(_ row: Int, _ x1: Int, _ fy1: Int, _ x2: Int, _ fy2: Int, _ sign: Int64) {
        let one = Fixed24_8.one
        let ex1 = x1 >> 8, ex2 = x2 >> 8
        let fx1 = x1 & Fixed24_8.mask, fx2 = x2 & Fixed24_8.mask
        if ex1 == ex2 {
            add(row, ex1, fy2 &- fy1, (fy2 &- fy1) &* (fx1 &+ fx2), sign)
            return
        }
        let dx = x2 &- x1, dy = fy2 &- fy1
        var fyPrev = fy1
        if dx > 0 {
            var ex = ex1, xb = (ex1 &+ 1) << 8, fxStart = fx1
            while ex < ex2 {
                let fyb = fy1 &+ dy &* (xb &- x1) / dx
                add(row, ex, fyb &- fyPrev, (fyb &- fyPrev) &* (fxStart &+ one), sign)
                fyPrev = fyb
                fxStart = 0
                ex &+= 1
                xb &+= one
            }
            add(row, ex2, fy2 &- fyPrev, (fy2 &- fyPrev) &* fx2, sign)
        } else {
            var ex = ex1, xb = ex1 << 8, fxStart = fx1
            while ex > ex2 {
                let fyb = fy1 &+ dy &* (xb &- x1) / dx
                add(row, ex, fyb &- fyPrev, (fyb &- fyPrev) &* fxStart, sign)
                fyPrev = fyb
                fxStart = one
                ex &-= 1
                xb &-= one
            }
            add(row, ex2, fy2 &- fyPrev, (fy2 &- fyPrev) &* (one &+ fx2), sign)
        }
    }

    /// Adds to the cell of column `ex`. Edges are not clipped in x (see
    /// `CellRasterizer.near`): what lies left of the clip adds its cover to the
    /// first column with no area (the pixels right of it are inside), what lies
    /// right of it goes to the extra column, which only closes the runs. A walk
    /// step never straddles a column boundary, so this is exact.
    @inline(__always)
    private mutating func add(_ row: Int, _ ex: Int, _ cover: Int, _ area: Int, _ sign: Int64) {
        var col = ex &- originX
        var area = area
        if col < 0 {
            col = 0
            area = 0
        } else if col > width {
            col = width
        }
        cells[row &* stride &+ col] &+= (Int64(cover) << 32 &+ Int64(area)) &* sign
        bits[row &* wordStride &+ col >> 6] |= 1 &<< UInt64(col & 63)
    }

    /// The coverage of a cell's accumulated area. The winding number is 0 or
    /// +-1, so both fill rules give the same value: nonzero's, the cheaper.
    @inline(__always)
    static func coverage(_ area: Int) -> UInt8 { CellRasterizer.coverage(area, .nonZero) }

    /// Walks band row `row` left to right and clears it: touched cells are read
    /// four at a time from the first one not read yet (`quad`). Before a quad
    /// that does not follow the previous one, `onGap(next, col, c)` gets the
    /// columns `next ..< col` between them, all of coverage `c` (the winding
    /// accumulated so far); then `onQuad(col, coverage)` gets the quad.
    /// Returns the first column not read. The three row sweeps below share it;
    /// what they do with gaps and quads is their sinks' kind.
    @inline(__always)
    private mutating func walkRow(
        _ row: Int, onGap: (_ next: Int, _ col: Int, _ coverage: UInt8) -> Void,
        onQuad: (_ col: Int, _ coverage: SIMD4<UInt32>) -> Void
    ) -> Int {
        let cellRow = cells + row &* stride, bitRow = bits + row &* wordStride
        let words = self.words
        let shift = Fixed24_8.fractionBits + 1
        var acc = SIMD4<Int32>()  // winding so far, in 1/256 pixel heights (every lane)
        var next = 0  // first column not read yet
        var wi = 0
        while true {
            // (A tight loop over empty words: as a `for` with `continue` it
            // compiled to twenty instructions a word.)
            // (The sentinel at `words` ends it.)
            while bitRow[wi] == 0 { wi &+= 1 }
            if wi == words { break }
            var w = bitRow[wi]
            bitRow[wi] = 0
            defer { wi &+= 1 }
            let wordStart = wi << 6
            // A quad from the previous word may have read the first columns.
            let skip = next &- wordStart
            if skip > 0 { w &= ~0 &<< UInt64(skip) }
            while w != 0 {
                // Four columns from the first touched one.
                let lead = w.trailingZeroBitCount
                let col = wordStart &+ lead
                if col > next {
                    onGap(next, col, acc[0] == 0 ? 0 : Self.coverage(Int(acc[0]) << shift))
                }
                onQuad(col, quad(cellRow, col, &acc))
                next = col &+ 4
                // The columns read so far off the word: the low lead + 4 bits (all
                // of them from lead 60 on; two shifts, each under 64).
                w &= (~0 &<< UInt64(lead)) &<< 4
            }
        }
        return next
    }

    /// Delivers band row `row` (surface row `y`) to a sink of spans: quads that
    /// follow each other make one span of per-pixel coverages in `buffer`
    /// (at least the clip's width plus four), and so does a short gap between
    /// them; a longer gap is one run.
    @inline(__always)
    mutating func sweepRowSpans<S: SpanSink>(
        _ row: Int, y: Int, buffer: UnsafeMutablePointer<UInt8>, into sink: inout S
    ) {
        let originX = self.originX, width = self.width
        var spanX = 0  // the pending span is columns spanX ..< next
        let next = walkRow(row) { next, col, c in
            if c != 0 && col &- next <= Self.joinedRun {
                // A short run joins the pending span (acc is not 0 before a
                // quad, so there is one): one shader call for both.
                (buffer + (next &- spanX)).update(repeating: c, count: col &- next)
            } else {
                if next > spanX {
                    sink.blendSpan(y: y, x: originX &+ spanX, count: next &- spanX, coverage: buffer)
                }
                if c != 0 { sink.blendRun(y: y, x: originX &+ next, count: col &- next, coverage: c) }
                spanX = col
            }
        } onQuad: { col, c in
            UnsafeMutableRawPointer(buffer + (col &- spanX)).storeBytes(
                of: SIMD4<UInt8>(truncatingIfNeeded: c), as: SIMD4<UInt8>.self)
        }
        // The span ends at the clip (the extra column is not a pixel).
        let end = min(next, width)
        if end > spanX { sink.blendSpan(y: y, x: originX &+ spanX, count: end &- spanX, coverage: buffer) }
    }

    /// Delivers band row `row` (surface row `y`) to a sink that takes quads:
    /// each quad blended as it is read, each gap one run.
    @inline(__always)
    mutating func sweepRowQuads<S: QuadSink>(_ row: Int, y: Int, into sink: inout S) {
        let originX = self.originX, width = self.width
        // The surface row, once, not per quad.
        let pixelRow = sink.rowAddress(y)
        _ = walkRow(row) { next, col, c in
            if c != 0 { sink.blendRun(y: y, x: originX &+ next, count: col &- next, coverage: c) }
        } onQuad: { col, c in
            if col &+ 4 <= width {
                sink.blendQuad(row: pixelRow, x: originX &+ col, coverage: c)
            } else {
                // The last pixels of the clip (the extra column and the zero
                // cells after it are not pixels).
                Self.blendPixels(&sink, y: y, x: originX &+ col, count: width &- col, coverage: c)
            }
        }
    }

    /// Delivers band row `row` (surface row `y`) to a sink that shades in
    /// place: each quad is stashed for the span it lies in; a wholly covered
    /// gap is part of the span, any other ends it and is one run.
    @inline(__always)
    mutating func sweepRowInPlace<S: InPlaceShadingSink>(_ row: Int, y: Int, into sink: inout S) {
        let originX = self.originX, width = self.width
        let pixelRow = sink.rowAddress(y)
        var spanX = 0  // the pending span is columns spanX ..< next
        let next = walkRow(row) { next, col, c in
            if c != 255 {
                if next > spanX { sink.shadeSpan(y: y, x: originX &+ spanX, count: next &- spanX) }
                if c != 0 { sink.blendRun(y: y, x: originX &+ next, count: col &- next, coverage: c) }
                spanX = col
            }
        } onQuad: { col, c in
            // (The extra column and the zero cells after it are not pixels.)
            sink.stashQuad(row: pixelRow, x: originX &+ col, count: min(4, width &- col), coverage: c)
        }
        let end = min(next, width)
        if end > spanX { sink.shadeSpan(y: y, x: originX &+ spanX, count: end &- spanX) }
    }
}

extension DenseBand {
    /// The first `count` (under 4) pixels of a quad at the clip's right edge.
    /// (Out of line: inlined into the row sweep, it cost the quads around it.)
    @inline(never)
    static func blendPixels<S: QuadSink>(_ sink: inout S, y: Int, x: Int, count: Int, coverage c: SIMD4<UInt32>) {
        for i in 0..<count where c[i] != 0 {
            sink.blendPixel(y: y, x: x &+ i, coverage: UInt8(truncatingIfNeeded: c[i]))
        }
    }

    /// Coverages of the four cells from `col` on (cleared as they are read),
    /// given `acc`, the winding left of them, which moves past them.
    ///
    /// A cell no edge touched is zero and takes the winding so far, so four
    /// cells can be read from any column: the ones past a cluster get exactly
    /// the coverage of the run that follows it.
    @inline(__always)
    private func quad(_ cellRow: UnsafeMutablePointer<Int64>, _ col: Int, _ acc: inout SIMD4<Int32>) -> SIMD4<UInt32> {
        let raw = UnsafeMutableRawPointer(cellRow + col)
        let v = raw.loadUnaligned(as: SIMD8<Int32>.self)
        raw.storeBytes(of: SIMD8<Int32>(repeating: 0), as: SIMD8<Int32>.self)
        // Unpacking `cover << 32 + area`: a negative area borrowed one from the cover.
        let area = SIMD4<Int32>(v[0], v[2], v[4], v[6])
        let cover = SIMD4<Int32>(v[1], v[3], v[5], v[7]) &- (area &>> 31)
        // The winding at each cell: a running sum of the covers, by two whole-
        // register shifts (`acc` is in all four lanes).
        var wind = cover &+ Self.lanesUp(cover, by: 1)
        wind = wind &+ Self.lanesUp(wind, by: 2) &+ acc
        acc = SIMD4(repeating: wind[3])
        var a = (wind &<< Int32(Fixed24_8.fractionBits &+ 1)) &- area
        a = (a ^ (a &>> 31)) &- (a &>> 31)
        // min(a, full), in plain SSE2: full + (a - full where that is negative).
        let excess = a &- Int32(AreaCoverage.full)
        a = Int32(AreaCoverage.full) &+ (excess & (excess &>> 31))
        let c = (a &* 255 &+ Int32(AreaCoverage.full >> 1)) &>> Int32(AreaCoverage.shift)
        return SIMD4<UInt32>(truncatingIfNeeded: c)
    }
}

extension DenseBand {
    /// `v` moved up by `lanes` (1 or 2) lanes, zeros shifted in: (0, v0, v1,
    /// v2) or (0, 0, v0, v1). Written as a byte shuffle it compiles to one
    /// SSE2 `pslldq`; written with the lanes (`SIMD4(0, v[0], v[1], v[2])`) a
    /// two-step running sum took twelve instructions instead of six.
    @inline(__always)
    static func lanesUp(_ v: SIMD4<Int32>, by lanes: Int) -> SIMD4<Int32> {
        let b = unsafeBitCast(v, to: SIMD16<UInt8>.self)
        let z: SIMD16<UInt8>
        if lanes == 1 {
            z = SIMD16(0, 0, 0, 0, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11])
        } else {
            z = SIMD16(0, 0, 0, 0, 0, 0, 0, 0, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7])
        }
        return unsafeBitCast(z, to: SIMD4<Int32>.self)
    }
}

/// A piece of a circle within one quadrant about its centre, so that x and y
/// are both monotone along it: what `DenseBand.walkArc` walks.
struct ArcPiece {
    var cx: Double
    var cy: Double
    var r2: Double
    /// -1 left of the centre, +1 right of it.
    var sx: Double
    /// -1 above the centre, +1 below it.
    var sy: Double
    /// The circular segment beyond a chord of squared length l2 (24.8 units)
    /// is l2^1.5 * bulge in cell area units (2 * 256 * 256 per pixel), signed
    /// by the side it lies on: sx / (1536 r).
    var bulge: Double
    /// The squared chord length from which the segment reaches a quarter of an
    /// 8-bit level (131072 / 255 / 4 area units); shorter chords skip it.
    var bulgeFrom: Int
    /// The least s with s^2 >= bulgeFrom: a step whose |dx| + |dy| is below it
    /// has a shorter chord.
    var bulgeReach: Int
    /// The centre and the squared radius in 24.8 units (scaled by powers of
    /// two: the crossings computed from them are the ones in pixel units,
    /// scaled, bit for bit).
    private var cx256: Double
    private var cy256: Double
    private var r2Fixed: Double

    init(cx: Double, cy: Double, r: Double, sx: Double, sy: Double, bulge: BulgeThreshold) {
        self.cx = cx
        self.cy = cy
        r2 = r * r
        self.sx = sx
        self.sy = sy
        self.bulge = sx / (1536 * r)
        bulgeFrom = bulge.from
        bulgeReach = bulge.reach
        cx256 = cx * 256
        cy256 = cy * 256
        r2Fixed = r2 * 65536
    }

    /// Where the segment term starts for one radius (see `bulgeFrom`, `bulgeReach`).
    struct BulgeThreshold {
        var from = 0
        var reach = 0
    }

    /// The thresholds for a circle of radius `r`: l2^1.5 / (1536 r) >= 131072 / 1020.
    static func bulgeThreshold(radius r: Double) -> BulgeThreshold {
        let from = Int(min(1e9, pow(1536 * r * 131_072 / 1020, 2.0 / 3)))
        var s = Int(Double(from).squareRoot())
        while s &* s < from { s &+= 1 }
        while s > 0 && (s &- 1) &* (s &- 1) >= from { s &-= 1 }
        return BulgeThreshold(from: from, reach: s)
    }

    /// Where the piece meets the horizontal line y (24.8), in 24.8.
    @inline(__always)
    func x(atY y: Int) -> Int {
        let dy: Double = Double(y) - cy256
        let d: Double = Swift.max(0.0, r2Fixed - dy * dy)
        return Fixed24_8.nearest(cx256 + sx * d.squareRoot())
    }

    /// Where the piece meets the vertical line x (24.8), in 24.8.
    @inline(__always)
    func y(atX x: Int) -> Int {
        let dx: Double = Double(x) - cx256
        let d: Double = Swift.max(0.0, r2Fixed - dx * dx)
        return Fixed24_8.nearest(cy256 + sy * d.squareRoot())
    }
}
