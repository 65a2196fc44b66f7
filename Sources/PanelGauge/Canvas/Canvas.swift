#if canImport(Glibc)
    import Glibc
#endif

extension CellRasterizer: ContourSink {}

/// Draws anti-aliased shapes into a ``Surface``.
///
/// Conventions (shared with ``Point``, ``Angle`` and ``Color``): coordinates in
/// pixels from the surface's top-left corner, y down; angles in degrees from
/// 3 o'clock, clockwise on screen; a stroke's `radius` is its **centre line**
/// (the stroke extends `width / 2` to each side); colours are non-premultiplied
/// sRGB composited source-over on 8-bit values.
///
/// Every draw call is limited to ``clip`` (and the surface bounds). To draw into
/// part of a surface with its own origin, make a canvas over
/// `surface.subsurface(rect)`.
///
/// A canvas owns its scratch memory (cells, coverage rows, gradient table) and
/// reuses it: after the first frames, drawing does not allocate. Not thread-safe;
/// use one canvas per thread.
public final class Canvas {
    /// Everything the canvas changes while drawing. It lives behind one pointer
    /// rather than in stored properties: each access to a class's stored `var` is
    /// checked for exclusivity at run time (`swift_beginAccess`, about 3 % of a
    /// gauge frame's instructions at 320x240), while through a pointer it is a
    /// plain load or store. Only this class reaches it, never re-entrantly.
    private struct State: ~Copyable {
        var surface: Surface
        var clip: IntRect?
        var raster = CellRasterizer()
        var flattener = Flattener()
        /// The rays of the last few conic gradients' start angles (a panel's gauges
        /// share one or two).
        var conicRays: [ConicRays] = []
        var colors: UnsafeMutablePointer<UInt32>
        /// A row's edge quads, for `InPlaceShaderSink`.
        var quadStash: UnsafeMutablePointer<StashedQuad>
        var coverageRow: UnsafeMutablePointer<UInt8>
        var scratchWidth: Int
        /// The dashes of the stroke being drawn (kept: no allocation per frame).
        var dashSpans: [(Double, Double)] = []
        var sectors: [AnnularSector] = []
        var sectorDashes = 0
        var shadesInPlace = true
        var spansShadedInPlace = 0
    }
    private let state: UnsafeMutablePointer<State>

    /// The surface the canvas draws into; change it with ``retarget(_:)``.
    public private(set) var surface: Surface {
        get { state.pointee.surface }
        set { state.pointee.surface = newValue }
    }
    /// Draw calls touch only pixels inside this rectangle (intersected with the
    /// surface bounds). `nil` means the whole surface.
    public var clip: IntRect? {
        get { state.pointee.clip }
        set { state.pointee.clip = newValue }
    }

    /// Maximum distance between a curve and its polygon, in pixels.
    public var flatness: Double {
        get { flattener.tolerance }
        set { flattener.tolerance = min(1, max(1.0 / 1024, newValue)) }
    }

    private var raster: CellRasterizer {
        _read { yield state.pointee.raster }
        _modify { yield &state.pointee.raster }
    }
    private var flattener: Flattener {
        _read { yield state.pointee.flattener }
        _modify { yield &state.pointee.flattener }
    }
    private let table = GradientTable()
    private var conicRays: [ConicRays] {
        _read { yield state.pointee.conicRays }
        _modify { yield &state.pointee.conicRays }
    }
    private var colors: UnsafeMutablePointer<UInt32> { state.pointee.colors }
    private var quadStash: UnsafeMutablePointer<StashedQuad> { state.pointee.quadStash }
    private var coverageRow: UnsafeMutablePointer<UInt8> { state.pointee.coverageRow }
    private var dashSpans: [(Double, Double)] {
        _read { yield state.pointee.dashSpans }
        _modify { yield &state.pointee.dashSpans }
    }
    private var sectors: [AnnularSector] {
        _read { yield state.pointee.sectors }
        _modify { yield &state.pointee.sectors }
    }
    /// How many dashes of the last translucent butt-dashed stroke were drawn
    /// as annular sectors rather than with cells (for tests).
    private(set) var sectorDashes: Int {
        get { state.pointee.sectorDashes }
        set { state.pointee.sectorDashes = newValue }
    }
    /// Whether opaque gradients swept onto XRGB8888 are shaded in place
    /// (`InPlaceShaderSink`); tests compare both ways.
    var shadesInPlace: Bool {
        get { state.pointee.shadesInPlace }
        set { state.pointee.shadesInPlace = newValue }
    }
    /// Spans shaded in place so far (for tests).
    private(set) var spansShadedInPlace: Int {
        get { state.pointee.spansShadedInPlace }
        set { state.pointee.spansShadedInPlace = newValue }
    }

    /// Creates a canvas that draws into a surface's pixels.
    ///
    /// The canvas allocates its scratch memory for rows of the surface's width here;
    /// drawing into the surface writes through its ``Surface/base`` pointer, which must
    /// stay valid while the canvas draws into it.
    ///
    /// - Parameter surface: The pixels to draw into.
    public init(surface: Surface) {
        let width = max(1, surface.width)
        let scratch = Self.allocateScratch(width)
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(
                surface: surface, colors: scratch.colors, quadStash: scratch.quadStash,
                coverageRow: scratch.coverageRow, scratchWidth: width))
    }

    deinit {
        freeScratch()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Points the canvas at another surface, keeping its scratch memory.
    public func retarget(_ surface: Surface) {
        self.surface = surface
        if surface.width > state.pointee.scratchWidth {
            freeScratch()
            let scratch = Self.allocateScratch(surface.width)
            state.pointee.scratchWidth = surface.width
            state.pointee.colors = scratch.colors
            state.pointee.quadStash = scratch.quadStash
            state.pointee.coverageRow = scratch.coverageRow
        }
    }

    /// The scratch rows for a surface `width` pixels wide.
    private static func allocateScratch(_ width: Int) -> (
        colors: UnsafeMutablePointer<UInt32>, quadStash: UnsafeMutablePointer<StashedQuad>,
        coverageRow: UnsafeMutablePointer<UInt8>
    ) {
        (
            .allocate(capacity: width + ConicShader.outputSlack), .allocate(capacity: stashCapacity(width)),
            .allocate(capacity: width)
        )
    }

    private func freeScratch() {
        state.pointee.colors.deallocate()
        state.pointee.quadStash.deallocate()
        state.pointee.coverageRow.deallocate()
    }

    /// The most quads a row of `width` pixels holds (they do not overlap).
    private static func stashCapacity(_ width: Int) -> Int { width / 4 + 1 }

    /// Runs `body` with ``clip`` narrowed to `rect`, then restores it.
    public func withClip(_ rect: IntRect, _ body: () throws -> Void) rethrows {
        let saved = clip
        clip = effectiveClip.intersection(rect)
        defer { clip = saved }
        try body()
    }

    /// The clip rectangle actually applied.
    public var effectiveClip: IntRect { (clip ?? surface.bounds).intersection(surface.bounds) }

    // MARK: - Drawing

    /// Replaces every pixel in the clip (or in `rect` within it) with `color`,
    /// ignoring its alpha (source copy).
    public func clear(_ color: Color, in rect: IntRect? = nil) {
        let r = rect.map { effectiveClip.intersection($0) } ?? effectiveClip
        if r.isEmpty { return }
        let c = UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
        let format = surface.format
        func fill(_ row: UnsafeMutableRawPointer, _ x: Int, _ count: Int) {
            switch format {
            case .xrgb8888: XRGB8888Blender.fill(row: row, x: x, count: count, color: c)
            case .rgb565: RGB565Blender.fill(row: row, x: x, count: count, color: c)
            }
        }
        // Whole rows of a surface without padding are one run.
        if r.minX == 0 && r.width == surface.width && surface.stride == format.bytesPerPixel * r.width {
            return fill(surface.row(r.minY), 0, r.width * r.height)
        }
        for y in r.minY..<r.maxY { fill(surface.row(y), r.minX, r.width) }
    }

    /// Fills a rectangle (anti-aliased at fractional edges).
    public func fill(_ rect: Rect, paint: Paint) {
        guard rect.width > 0, rect.height > 0, begin(bounds: rect) else { return }
        raster.beginSimpleGroup()
        raster.move(rect.minX, rect.minY)
        raster.line(rect.maxX, rect.minY)
        raster.line(rect.maxX, rect.maxY)
        raster.line(rect.minX, rect.maxY)
        raster.endSimpleGroup()
        finish(rule: .nonZero, paint: paint)
    }

    /// Fills the disc of `radius` about `center`.
    public func fillDisc(center: Point, radius: Double, paint: Paint) {
        guard radius > 0,
            begin(bounds: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
        else { return }
        if case .solid = paint {
            let disc = StadiumFill(cx: center.x, cy: center.y, r: radius)
            if disc.fits { return render(.stadium(disc), paint: paint) }
        }
        raster.beginSimpleGroup()
        flattener.arc(
            &raster, cx: center.x, cy: center.y, radius: radius, start: 0, sweep: 2 * Double.pi, moveFirst: true)
        raster.endSimpleGroup()
        finish(rule: .nonZero, paint: paint)
    }

    /// Fills a rectangle with circular corners (radius limited to half the shorter side).
    public func fillRoundedRect(_ rect: Rect, cornerRadius: Double, paint: Paint) {
        guard rect.width > 0, rect.height > 0, cornerRadius.isFinite, begin(bounds: rect) else { return }
        roundedRectCells(rect, cornerRadius: cornerRadius, paint: paint)
    }

    /// A rounded rectangle through the cell rasterizer, once `begin` took it.
    private func roundedRectCells(_ rect: Rect, cornerRadius: Double, paint: Paint) {
        raster.beginSimpleGroup()  // a convex outline
        flattener.roundedRect(&raster, rect, cornerRadius: cornerRadius)
        raster.endSimpleGroup()
        finish(rule: .nonZero, paint: paint)
    }

    /// Fills a capsule: the rounded rectangle whose corner radius is half the
    /// shorter side (a horizontal capsule for a wide rect, a vertical one for a
    /// tall rect, a disc for a square).
    ///
    /// A standing capsule (taller than wide) with a straight part at least
    /// two pixels long is drawn in three pieces that share no pixel: between
    /// the first and last whole pixel rows of its straight part, an aligned
    /// rectangle (exact area coverage, no cells: `fill(rects:paint:)`'s
    /// kernel); above and below, each round end with its bit of straight
    /// side, through the cell rasterizer, which would otherwise walk both
    /// long edges and sweep cells through every row. A capsule lying down
    /// has few rows: it stays one piece.
    public func fillCapsule(_ rect: Rect, paint: Paint) {
        // (`begin` rejects what lies off the clip or is not finite, for both paths.)
        guard rect.width > 0, rect.height > 0, begin(bounds: rect) else { return }
        if case .solid = paint {
            let capsule = StadiumFill(capsule: rect)
            if capsule.fits { return render(.stadium(capsule), paint: paint) }
        }
        // (Lying down, a capsule has few rows, each two edge cells and a
        // run: one piece is cheaper than three.)
        let r = min(rect.width, rect.height) / 2
        // The straight part's first and last whole pixel rows.
        let s0 = (rect.minY + r).rounded(.up), s1 = (rect.maxY - r).rounded(.down)
        guard rect.height > rect.width, s1 - s0 >= 2, abs(rect.minY) < Double(1 << 30),
            abs(rect.maxY) < Double(1 << 30)
        else { return roundedRectCells(rect, cornerRadius: r, paint: paint) }
        let q = AlignedRect(Rect(x: rect.minX, y: s0, width: rect.width, height: s1 - s0))
        if !effectiveClip.intersection(q.pixels).isEmpty { render(.rect(q), paint: paint) }
        // Each end: its half disc and the straight sides up to its seam row.
        for top in [true, false] {
            let box =
                top
                ? Rect(x: rect.minX, y: rect.minY, width: rect.width, height: s0 - rect.minY)
                : Rect(x: rect.minX, y: s1, width: rect.width, height: rect.maxY - s1)
            guard begin(bounds: box) else { continue }
            let seam = top ? s0 : s1
            // Clockwise from the left side over the top, or from the right side under the bottom.
            let (from, to) = top ? (rect.minX, rect.maxX) : (rect.maxX, rect.minX)
            raster.beginSimpleGroup()  // a convex outline
            raster.move(from, seam)
            flattener.arc(
                &raster, cx: rect.midX, cy: top ? rect.minY + r : rect.maxY - r, radius: r,
                start: Angle(degrees: top ? 180 : 0).radians, sweep: Angle(degrees: 180).radians, moveFirst: false)
            raster.line(to, seam)
            raster.close()
            raster.endSimpleGroup()
            finish(rule: .nonZero, paint: paint)
        }
    }

    /// Strokes a circular arc.
    ///
    /// - Parameters:
    ///   - center: the circle's centre.
    ///   - radius: the stroke's centre line.
    ///   - startAngle: where the arc starts (degrees, 0 = 3 o'clock, clockwise).
    ///   - sweep: how far it runs; positive is clockwise on screen. 360 or more
    ///     draws a full ring (caps then do not show).
    ///   - width: stroke width, centred on the radius.
    ///   - cap: ends of the arc, and of every dash.
    ///   - dash: optional dash pattern, lengths along the centre line, starting at `startAngle`.
    ///   - paint: the stroke's colour or gradient.
    public func strokeArc(
        center: Point, radius: Double, startAngle: Angle, sweep: Angle, width: Double,
        cap: LineCap = .butt, dash: DashPattern? = nil, paint: Paint
    ) {
        guard radius >= 0, width > 0, startAngle.degrees.isFinite, sweep.degrees.isFinite, sweep.degrees != 0
        else { return }
        let e = radius + width / 2
        guard begin(bounds: Rect(x: center.x - e, y: center.y - e, width: 2 * e, height: 2 * e)) else { return }
        if let dash {
            sectorDashes = 0
            let sw = min(abs(sweep.radians), 2 * Double.pi) * (sweep.degrees < 0 ? -1 : 1)
            if cap == .butt, case .solid(let c) = paint, c.alpha8 <= AnnularSector.maximumAlpha,
                AnnularSector.fits(inner: radius - width / 2, outer: radius + width / 2)
            {
                return strokeDashSectors(
                    center: center, radius: radius, start: startAngle.radians.truncatingRemainder(dividingBy: 2 * .pi),
                    sweep: sw, width: width, dash: dash, paint: paint)
            }
            flattener.dashedArcStroke(
                &raster, cx: center.x, cy: center.y, radius: radius, start: startAngle.radians, sweep: sw,
                width: width, cap: cap, dash: dash)
        } else {
            flattener.arcStroke(
                &raster, cx: center.x, cy: center.y, radius: radius, start: startAngle.radians,
                sweep: sweep.radians, width: width, cap: cap)
        }
        finish(rule: .nonZero, paint: paint)
    }

    /// The butt-capped dashes of a translucent arc stroke: each dash that
    /// shares no pixel with another (``AnnularSector``'s spacing) is drawn as
    /// an annular sector, without cells; the others (the last and the first
    /// dash of a ring that nearly meet, say) go to the cell rasterizer
    /// together. Dashes are disjoint, so the order does not matter.
    private func strokeDashSectors(
        center: Point, radius r: Double, start: Double, sweep: Double, width: Double, dash: DashPattern,
        paint: Paint
    ) {
        let dir: Double = sweep < 0 ? -1 : 1
        let length = abs(sweep) * r
        dashSpans.removeAll(keepingCapacity: true)
        dash.forEachDash(along: length) { u0, u1 in dashSpans.append((u0, u1)) }
        let inner = r - width / 2, outer = r + width / 2
        // Lengths along the centre line, at the inner radius.
        let scale = inner / r, spacing = AnnularSector.minimumSpacing
        let closed = abs(sweep) >= 2 * Double.pi
        sectors.removeAll(keepingCapacity: true)
        var cells = false
        let n = dashSpans.count
        for i in 0..<n {
            let (u0, u1) = dashSpans[i]
            var before = i > 0 ? u0 - dashSpans[i - 1].1 : Double.infinity
            var after = i + 1 < n ? dashSpans[i + 1].0 - u1 : Double.infinity
            if closed && i == 0 { before = u0 + length - dashSpans[n - 1].1 }
            if closed && i == n - 1 { after = dashSpans[0].0 + length - u1 }
            let a0 = start + dir * u0 / r, a1 = start + dir * u1 / r
            if min(before, after) * scale >= spacing && (u1 - u0) * scale >= spacing
                && (u1 - u0) / r <= AnnularSector.maximumSweep && (u1 - u0) * width <= AnnularSector.maximumArea
            {
                sectors.append(
                    AnnularSector(
                        cx: center.x, cy: center.y, inner: inner, outer: outer, start: min(a0, a1), end: max(a0, a1)))
            } else {
                cells = true
                flattener.arcStroke(
                    &raster, cx: center.x, cy: center.y, radius: r, start: a0, sweep: a1 - a0, width: width, cap: .butt,
                    mayGroup: true)
            }
        }
        if cells { finish(rule: .nonZero, paint: paint) }
        sectorDashes = sectors.count
        if !sectors.isEmpty { render(.sectors, paint: paint) }
    }

    /// Strokes a full circle (a ring), optionally dashed from angle 0.
    public func strokeRing(
        center: Point, radius: Double, width: Double, dash: DashPattern? = nil, cap: LineCap = .butt, paint: Paint
    ) {
        strokeArc(
            center: center, radius: radius, startAngle: 0, sweep: 360, width: width, cap: cap, dash: dash, paint: paint)
    }

    /// Fills axis-aligned rectangles (tick marks, bars), each with its exact
    /// area coverage, its edges placed at 1/256 px as the rasterizer places
    /// a path's: one pass over each rectangle's pixels, no edge list and no
    /// sweep. Rectangles that overlap are composited one over the other.
    public func fill(rects: [Rect], paint: Paint) {
        for r in rects {
            // (Within +-2^30 px, as every shape: 24.8 fixed point in an Int.)
            let limit = Double(1 << 30)
            guard r.width > 0, r.height > 0, [r.minX, r.maxX, r.minY, r.maxY].allSatisfy({ abs($0) < limit })
            else { continue }
            let q = AlignedRect(r)
            guard !effectiveClip.intersection(q.pixels).isEmpty else { continue }
            render(.rect(q), paint: paint)
        }
    }

    /// Fills a path with the given fill rule. Convex contours that do not
    /// overlap (tick marks, needles, a capsule at any angle) take the banded
    /// path, as discs and arcs do (`Path.isDisjointConvex`).
    public func fill(_ path: Path, rule: FillRule = .nonZero, paint: Paint) {
        guard let b = path.bounds, b.minX.isFinite, b.maxX.isFinite, b.minY.isFinite, b.maxY.isFinite,
            begin(bounds: b)
        else { return }
        if path.isDisjointConvex {
            // Winding 0 or +-1 everywhere: either rule gives the same pixels.
            raster.beginSimpleGroup()
            flattener.path(&raster, path)
            raster.endSimpleGroup()
        } else {
            flattener.path(&raster, path)
        }
        finish(rule: rule, paint: paint)
    }

    /// Fills `pieces`, convex shapes that share no area (their edges may
    /// touch), as one shape with `paint`: their coverages add up in one mask
    /// (at most full), then the paint is composited through it once. Where
    /// two pieces share an edge a pixel gets the sum of their parts, the
    /// union's exact area, so the seams do not show, as they would drawn one
    /// after the other; and each piece takes the convex path, never the
    /// rasterizer's exact fallback for a shape overlapping itself. A chart's
    /// line is drawn so (`Path.roundPolylinePieces`).
    public func fillPieces(_ shapes: [Path], paint: Paint) {
        let clip = effectiveClip
        var box: IntRect?
        for shape in shapes {
            guard let b = shape.bounds, b.minX.isFinite, b.maxX.isFinite, b.minY.isFinite, b.maxY.isFinite else {
                continue
            }
            let r = IntRect(covering: Rect(x: b.minX - 1, y: b.minY - 1, width: b.width + 2, height: b.height + 2))
                .intersection(clip)
            if r.isEmpty { continue }
            box = box.map { $0.union(r) } ?? r
        }
        guard let r = box, paint.isFinite else { return }
        let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: r.width * r.height)
        let rowStart = UnsafeMutablePointer<Int>.allocate(capacity: r.height)
        let rowEnd = UnsafeMutablePointer<Int>.allocate(capacity: r.height)
        defer {
            mask.deallocate()
            rowStart.deallocate()
            rowEnd.deallocate()
        }
        mask.initialize(repeating: 0, count: r.width * r.height)
        rowStart.initialize(repeating: r.width, count: r.height)
        rowEnd.initialize(repeating: 0, count: r.height)
        do {
            var sink = SumMaskSink(
                mask: mask, pitch: r.width, x: r.minX, y: r.minY, rowStart: rowStart, rowEnd: rowEnd)
            for shape in shapes {
                guard let b = shape.bounds, begin(bounds: b) else { continue }
                if shape.isDisjointConvex {
                    raster.beginSimpleGroup()
                    flattener.path(&raster, shape)
                    raster.endSimpleGroup()
                } else {
                    flattener.path(&raster, shape)
                }
                raster.sweep(rule: .nonZero, into: &sink)
            }
        }
        // Each row's covered columns alone (a thin line's rows are mostly empty).
        for row in 0..<r.height where rowStart[row] < rowEnd[row] {
            let span = IntRect(
                x: r.minX + rowStart[row], y: r.minY + row, width: rowEnd[row] - rowStart[row], height: 1)
            render(.mask(mask, pitch: r.width, x: r.minX, y: r.minY, rect: span), paint: paint)
        }
    }

    /// Composites `paint` through an 8-bit coverage mask (e.g. a glyph bitmap)
    /// whose top-left pixel lands at (x, y). `pitch` is the distance between mask rows.
    public func fillMask(
        _ mask: UnsafePointer<UInt8>, width: Int, height: Int, pitch: Int, x: Int, y: Int, paint: Paint
    ) {
        let r = effectiveClip.intersection(IntRect(x: x, y: y, width: width, height: height))
        if r.isEmpty { return }
        render(.mask(mask, pitch: pitch, x: x, y: y, rect: r), paint: paint)
    }

    // MARK: - Pipeline

    /// Starts a shape whose geometry lies within `bounds`: false if nothing of it
    /// can be visible.
    private func begin(bounds: Rect) -> Bool {
        guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else {
            return false
        }
        let clip = effectiveClip
        // One pixel of margin: vertex rounding and the flattener's outward offset.
        let lo = Rect(
            x: Double(clip.minX) - 1, y: Double(clip.minY) - 1, width: Double(clip.width) + 2,
            height: Double(clip.height) + 2)
        if bounds.maxX < lo.minX || bounds.minX > lo.maxX || bounds.maxY < lo.minY || bounds.minY > lo.maxY {
            return false
        }
        let b = IntRect(
            covering: Rect(
                x: max(bounds.minX, lo.minX) - 1, y: max(bounds.minY, lo.minY) - 1,
                width: min(bounds.maxX, lo.maxX) - max(bounds.minX, lo.minX) + 2,
                height: min(bounds.maxY, lo.maxY) - max(bounds.minY, lo.minY) + 2))
        let r = clip.intersection(b)
        if r.isEmpty { return false }
        raster.reset(clip: r)
        return true
    }

    /// The rays for a conic gradient starting at `startTurns`, kept for the
    /// next draw calls (the last four start angles).
    private func rays(startTurns: Double) -> ConicRays {
        if let i = conicRays.firstIndex(where: { $0.startTurns == startTurns }) {
            let r = conicRays[i]
            if i != 0 {
                conicRays.remove(at: i)
                conicRays.insert(r, at: 0)
            }
            return r
        }
        let r = ConicRays(startTurns: startTurns)
        if conicRays.count == 4 { conicRays.removeLast() }
        conicRays.insert(r, at: 0)
        return r
    }

    private func finish(rule: FillRule, paint: Paint) {
        render(.sweep(rule), paint: paint)
    }

    /// What produces the coverage for a paint: the rasterizer's sweep or a mask.
    private enum CoverageSource {
        case sweep(FillRule)
        case mask(UnsafePointer<UInt8>, pitch: Int, x: Int, y: Int, rect: IntRect)
        /// The canvas's `sectors` (solid paints only).
        case sectors
        /// A disc or a capsule (solid paints only).
        case stadium(StadiumFill)
        /// An axis-aligned rectangle's exact coverage.
        case rect(AlignedRect)
    }

    private func run<S: SpanSink>(_ source: CoverageSource, _ sink: inout S) {
        switch source {
        case .sweep(let rule):
            raster.sweep(rule: rule, into: &sink)
        case .mask(let mask, let pitch, let x, let y, let r):
            for row in r.minY..<r.maxY {
                sink.blendSpan(y: row, x: r.minX, count: r.width, coverage: mask + (row - y) * pitch + (r.minX - x))
            }
        case .rect(let q):
            q.render(clip: effectiveClip, into: &sink)
        case .sectors, .stadium:
            // Solid paints only (`strokeDashSectors`, `fillDisc`, `fillCapsule`), which `render` takes apart.
            preconditionFailure("sectors, discs and capsules need a solid paint")
        }
    }

    /// Builds the sink for `paint` and the surface's format and feeds it.
    private func render(_ source: CoverageSource, paint: Paint) {
        switch surface.format {
        case .xrgb8888: render(source, paint: paint, XRGB8888Blender.self)
        case .rgb565: render(source, paint: paint, RGB565Blender.self)
        }
    }

    private func render<B: PixelBlender>(_ source: CoverageSource, paint: Paint, _: B.Type) {
        // (A conic gradient's first entry of a span came from converting a NaN
        // angle to an integer, which traps in a checked build.)
        guard paint.isFinite else { return }
        let base = surface.base, stride = surface.stride
        switch paint {
        case .solid(let c):
            guard c.alpha > 0 else { return }
            var sink = SolidSink<B>(
                base: base, stride: stride,
                color: UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue), alpha: UInt32(c.alpha8))
            if case .sectors = source, let first = sectors.first {
                let clip = effectiveClip
                // (The sectors of one stroke share their radii.)
                let band = AnnularSector.Band(inner: first.inner, outer: first.outer, alpha: sink.alpha)
                for s in sectors { s.render(clip: clip, band: band, into: sink) }
            } else if case .stadium(let shape) = source {
                shape.render(clip: effectiveClip, into: sink)
            } else {
                run(source, &sink)
            }
        case .linearGradient(let g, let start, let end):
            table.fill(g)
            shade(
                source, LinearShader(table: table.entries, start: start, end: end, origin: (0, 0)), B.self)
        case .conicGradient(let g, let center, let startAngle):
            table.fill(g)
            shade(
                source,
                ConicShader(
                    table: table, rays: rays(startTurns: ConicShader.turns(startAngle)), center: center, origin: (0, 0)),
                B.self)
        }
    }

    /// Feeds `shader`'s sink: an opaque gradient swept onto XRGB8888 is
    /// shaded in place (`InPlaceShaderSink`), anything else through `colors`.
    private func shade<S: Shader, B: PixelBlender>(_ source: CoverageSource, _ shader: S, _: B.Type) {
        let base = surface.base, stride = surface.stride
        if case .sweep = source, B.self == XRGB8888Blender.self, table.opaque, shadesInPlace {
            var sink = InPlaceShaderSink(
                buffered: ShaderSink(base: base, stride: stride, shader: shader, colors: colors, opaque: true),
                width: surface.width, stash: quadStash)
            run(source, &sink)
            spansShadedInPlace &+= sink.spans
        } else {
            var sink = ShaderSink<B, S>(
                base: base, stride: stride, shader: shader, colors: colors, opaque: table.opaque)
            run(source, &sink)
        }
    }
}

/// An axis-aligned rectangle with its edges in 1/256 px (24.8 fixed point,
/// rounded to the nearest as the rasterizer rounds a path's vertices), and
/// its exact area coverage per pixel: a row's coverage times a column's.
struct AlignedRect {
    let x0: Int, x1: Int, y0: Int, y1: Int

    init(_ r: Rect) {
        x0 = Int((r.minX * 256).rounded())
        x1 = Int((r.maxX * 256).rounded())
        y0 = Int((r.minY * 256).rounded())
        y1 = Int((r.maxY * 256).rounded())
    }

    /// The widest rectangle drawn a span a row (wider ones: a run of whole
    /// columns between the partial ones).
    static let narrow = 32

    /// The pixels it touches.
    var pixels: IntRect {
        let px0 = x0 >> 8, py0 = y0 >> 8
        return IntRect(x: px0, y: py0, width: ((x1 + 255) >> 8) - px0, height: ((y1 + 255) >> 8) - py0)
    }

    /// Hands every pixel it covers inside `clip` to `sink`: the inner
    /// columns of a row as one run, the partial end columns alone.
    func render<S: SpanSink>(clip: IntRect, into sink: inout S) {
        let r = pixels.intersection(clip)
        guard !r.isEmpty, x1 > x0, y1 > y0 else { return }
        func coverage(_ area: Int) -> UInt8 { UInt8(min(255, (area * 255 + 32768) >> 16)) }
        // A narrow rectangle (a bar standing upright) takes one span a row,
        // its columns' coverage times the row's, made again only where the
        // row's coverage changes: three runs a row would cost more in calls
        // than in pixels.
        if r.width <= Self.narrow {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: r.width) { row in
                guard let out = row.baseAddress else { return }
                var made = -1
                for py in r.minY..<r.maxY {
                    let cy = min(y1, (py + 1) << 8) - max(y0, py << 8)
                    if cy <= 0 { continue }
                    if cy != made {
                        for i in 0..<r.width {
                            let px = r.minX + i
                            row[i] = coverage(max(0, min(x1, (px + 1) << 8) - max(x0, px << 8)) * cy)
                        }
                        made = cy
                    }
                    sink.blendSpan(y: py, x: r.minX, count: r.width, coverage: out)
                }
            }
            return
        }
        for py in r.minY..<r.maxY {
            let cy = min(y1, (py + 1) << 8) - max(y0, py << 8)
            if cy <= 0 { continue }
            var px = r.minX
            while px < r.maxX {
                let cx = min(x1, (px + 1) << 8) - max(x0, px << 8)
                if cx >= 256 {
                    // The run of whole columns up to the right edge's pixel.
                    let end = min(r.maxX, x1 >> 8)
                    let c = coverage(256 * cy)
                    if c > 0 { sink.blendRun(y: py, x: px, count: end - px, coverage: c) }
                    px = end
                    continue
                }
                let c = coverage(max(0, cx) * cy)
                if c > 0 { sink.blendRun(y: py, x: px, count: 1, coverage: c) }
                px += 1
            }
        }
    }
}
