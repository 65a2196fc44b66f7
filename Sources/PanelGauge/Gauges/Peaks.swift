#if canImport(Glibc)
    import Glibc
#endif

/// The lowest and highest values a gauge has shown (since a program
/// started, or over a window of time: the program that feeds the gauge
/// keeps them), in the gauge's units. A gauge with peaks
/// (``Gauge/peaks(_:)``) marks each on its track: a short line across a
/// bar or a ring at the value, in the foreground colour with a clear edge
/// in the background colour so it reads over the fill and over the track
/// alike; a dial marks them with a small pointer at its ticks, in the
/// colour its needle would have there. A peak out
/// of the range is marked at the end it passed, in
/// ``GaugeEnvironment/outOfRange``. A peak that is nil or not finite is not
/// marked.
public struct GaugePeaks: Sendable, Hashable {
    /// The lowest value shown, or nil for none.
    public var low: Double?
    /// The highest value shown, or nil for none.
    public var high: Double?

    /// Peaks of `low` and `high`.
    ///
    /// - Parameters:
    ///   - low: The lowest value shown, or nil for none.
    ///   - high: The highest value shown, or nil for none.
    public init(low: Double?, high: Double?) {
        self.low = low
        self.high = high
    }
}

/// Where a style marks a gauge's peaks (``GaugePeaks``): across its track at
/// a normalized value. Pure geometry; built-in styles give one
/// (``GaugeStyle/peakTrack(configuration:in:context:)``).
public struct PeakTrack: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A straight bar: the centre line's points of values 0 and 1, the
        /// bar's two ends on that line, and its half thickness (its ends
        /// are round, of that radius).
        case bar(zero: Point, one: Point, start: Point, end: Point, halfThickness: Double)
        /// Between two radii, value 0 at `start`, turning `sweep` to value
        /// 1: a line across a ring, or (`pointed`) a dial's pointer from
        /// `outer` in toward `inner` (the span of its ticks).
        case radial(center: Point, inner: Double, outer: Double, start: Angle, sweep: Angle, pointed: Bool)
    }

    let kind: Kind
    /// The mark's width along the track, in pixels.
    let width: Double
    /// The clear edge on each side of the mark, in pixels.
    let halo: Double
    /// A pointer's colour when the needle has one of its own; else a
    /// pointer takes the colour the indicator has at its value, and a line
    /// the foreground colour.
    var needleColor: Color?

    /// Whether a mark takes the colour the indicator has at its value (a
    /// dial's pointer, as its needle would be there).
    var isPointer: Bool {
        if case .radial(_, _, _, _, _, true) = kind { return true }
        return false
    }

    /// Marks across a straight bar of `thickness` running from `start` to
    /// `end` (its centre line), value 0 at `zero` and 1 at `one`.
    init(bar zero: Point, one: Point, start: Point, end: Point, thickness: Double) {
        kind = .bar(zero: zero, one: one, start: start, end: end, halfThickness: thickness / 2)
        (width, halo) = Self.size(across: thickness)
    }

    /// Marks across a ring from radius `inner` to `outer`.
    init(ring center: Point, inner: Double, outer: Double, start: Angle, sweep: Angle) {
        kind = .radial(center: center, inner: inner, outer: outer, start: start, sweep: sweep, pointed: false)
        (width, halo) = Self.size(across: outer - inner)
    }

    /// Pointers from radius `outer` in to `inner`, `base` wide at `outer`.
    init(
        pointer center: Point, inner: Double, outer: Double, base: Double, start: Angle, sweep: Angle, color: Color?
    ) {
        kind = .radial(center: center, inner: inner, outer: outer, start: start, sweep: sweep, pointed: true)
        width = max(4, base)
        halo = max(1, (0.15 * width).rounded())
        needleColor = color
    }

    /// A mark's width and clear edge for a track `thickness` across: a
    /// fifth of it, 2 to 5 px, and a clear edge of a third of that, at least 1 px.
    static func size(across thickness: Double) -> (width: Double, halo: Double) {
        let w = min(5, max(2, 0.2 * thickness))
        return (w, max(1, (w / 3).rounded()))
    }

    /// The mark at normalized value `v` (clamped to 0...1): the polygon in
    /// the mark's colour and the larger one of its clear edge under it.
    public func mark(at v: Double) -> (mark: [Point], edge: [Point]) {
        let t = v.isNaN ? 0 : min(1, max(0, v))
        switch kind {
        case .bar(let zero, let one, let start, let end, let r):
            let length = ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y)).squareRoot()
            guard length > 0 else { return ([], []) }
            let ux = (end.x - start.x) / length, uy = (end.y - start.y) / length
            // Along the bar from `start`, kept where the mark and its edge fit.
            let a = width / 2 + halo
            var s = (zero.x + (one.x - zero.x) * t - start.x) * ux + (zero.y + (one.y - zero.y) * t - start.y) * uy
            s = min(max(s, min(a, length / 2)), max(length - a, length / 2))
            // Across: the bar's height there (a chord of a round end near one).
            let d = min(s, length - s)
            let h = d >= r ? r : (r * r - (r - d) * (r - d)).squareRoot()
            let c = Point(x: start.x + ux * s, y: start.y + uy * s)
            func box(_ half: Double) -> [Point] {
                [
                    Point(x: c.x - ux * half - uy * h, y: c.y - uy * half + ux * h),
                    Point(x: c.x + ux * half - uy * h, y: c.y + uy * half + ux * h),
                    Point(x: c.x + ux * half + uy * h, y: c.y + uy * half - ux * h),
                    Point(x: c.x - ux * half + uy * h, y: c.y - uy * half - ux * h),
                ]
            }
            return (box(width / 2), box(a))
        case .radial(let center, let inner, let outer, let start, let sweep, let pointed):
            let u = center.onCircle(radius: 1, angle: start + sweep * t)
            let ux = u.x - center.x, uy = u.y - center.y
            // The point `r` from the centre along the value's ray, `side` across it.
            func at(_ r: Double, _ side: Double) -> Point {
                Point(x: center.x + ux * r - uy * side, y: center.y + uy * r + ux * side)
            }
            let half = width / 2
            if pointed {
                // The edge: wider by `halo` each side, its tip further in.
                let edgeHalf = half + halo, edgeTip = inner - 2 * halo
                return (
                    [at(outer, half), at(outer, -half), at(inner, 0)],
                    [at(outer, edgeHalf), at(outer, -edgeHalf), at(edgeTip, 0)]
                )
            }
            func box(_ h: Double) -> [Point] { [at(inner, h), at(outer, h), at(outer, -h), at(inner, -h)] }
            return (box(half), box(half + halo))
        }
    }
}

/// A peak as a style draws it: the mark and its clear edge on the track,
/// and their colours.
struct PeakMark: Hashable {
    var mark: [Point]
    var edge: [Point]
    var color: Color
    var background: Color

    /// The box holding every pixel the mark paints.
    var bounds: Rect {
        let xs = edge.map(\.x), ys = edge.map(\.y)
        let x0 = xs.min()!, y0 = ys.min()!
        return Rect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0).insetBy(-1)
    }

    func draw(on canvas: Canvas) {
        canvas.fill(Path.polygon(edge), paint: .solid(background))
        canvas.fill(Path.polygon(mark), paint: .solid(color))
    }
}

extension GaugeStyle {
    /// Where peaks are marked: nowhere, for a custom style.
    ///
    /// The default implementation returns nil.
    ///
    /// - Parameters:
    ///   - configuration: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func peakTrack(configuration: Configuration, in rect: Rect, context: DrawContext) -> PeakTrack? { nil }
}

extension Gauge {
    /// Marks `peaks` on the gauge's track (see ``GaugePeaks``); nil marks none.
    public func peaks(_ peaks: GaugePeaks?) -> Gauge {
        var copy = self
        copy.peaks = peaks
        return copy
    }

    /// The low and the high peak's marks for the gauge's body `c` in
    /// `rect` (each nil when that peak is not marked); nil when the gauge
    /// has no peaks or its style no place for them.
    func peakMarks(_ c: GaugeStyleConfiguration, in rect: Rect, context: DrawContext) -> [PeakMark?]? {
        guard let peaks, let track = style.peakTrack(configuration: c, in: rect, context: context) else { return nil }
        return [peaks.low, peaks.high].map { p -> PeakMark? in
            guard let p, p.isFinite else { return nil }
            let v = Self.normalize(p, in: range)
            let (mark, edge) = track.mark(at: v)
            guard !mark.isEmpty else { return nil }
            let color =
                !range.contains(p)
                ? c.environment.outOfRange
                : !track.isPointer
                    ? c.environment.foreground
                    : track.needleColor ?? thresholds?.color(for: p) ?? resolvedTint.color(at: v)
            return PeakMark(mark: mark, edge: edge, color: color, background: c.environment.background)
        }
    }
}

extension GaugeLayering {
    /// The peaks' marks as the dynamic layer's last parts, the low one
    /// first (each present when unmarked, with no bounds, so that two
    /// layerings of a gauge with peaks have as many parts). A value arc is
    /// no longer declared: a copy of the arc from a picture of the whole
    /// arc would paint over a mark on it.
    mutating func addPeaks(_ marks: [PeakMark?], clip: IntRect) {
        // A value arc whose stroke and text are the whole dynamic layer
        // becomes its parts: the arc (a value change still damages only
        // the arc between the values) and the text (only its glyphs that change).
        if dynamicParts == nil, let arc = valueArc, let stroke = arc.stroke, arc.text != nil || arc.others.isEmpty {
            dynamicParts = [
                DynamicPart(
                    bounds: arc.value > 0 ? arc.layout.strokePieces(from: 0, to: arc.value) : [], change: .arc(arc)
                ) { canvas in
                    canvas.withClip(clip) { arc.layout.strokeValueArc(to: arc.value, cap: arc.cap, stroke, on: canvas) }
                }
            ]
            if let text = arc.text {
                dynamicParts?.append(
                    DynamicPart(bounds: arc.others, change: .glyphs(text.glyphs, color: text.color)) { canvas in
                        canvas.withClip(clip) { text.draw(on: canvas) }
                    })
            }
        }
        valueArc = nil
        let parts = marks.map { m in
            DynamicPart(bounds: m.map { [$0.bounds] } ?? [], change: .key(AnyHashable(m))) { canvas in
                canvas.withClip(clip) { m?.draw(on: canvas) }
            }
        }
        dynamicParts? += parts
        dynamicBounds? += parts.flatMap(\.bounds)
    }
}

extension CircularGaugeLayout {
    /// Peaks marked across the stroke, from its inner to its outer edge.
    var peakTrack: PeakTrack? {
        guard radius > 0, lineWidth > 0 else { return nil }
        return PeakTrack(
            ring: center, inner: innerRadius, outer: radius + lineWidth / 2, start: startAngle, sweep: sweep)
    }
}

extension CentreValued {
    /// Peaks marked across the ring.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func peakTrack(configuration c: Configuration, in rect: Rect, context: DrawContext) -> PeakTrack? {
        Self.layout(in: rect).peakTrack
    }
}

extension RingGaugeStyle {
    /// Peaks marked across the ring.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func peakTrack(configuration c: Configuration, in rect: Rect, context: DrawContext) -> PeakTrack? {
        Self.layout(centreWidth: centre(c, in: rect, context: context).width, in: rect).ring.peakTrack
    }
}

extension SteppedGaugeStyle {
    /// Peaks marked across the ring of segments.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func peakTrack(configuration c: Configuration, in rect: Rect, context: DrawContext) -> PeakTrack? {
        layout(in: rect).peakTrack
    }
}

extension LinearLaidOut {
    /// Peaks marked across the bar where the value lies along it (a
    /// capacity bar's fill ends there, a marker's centre sits there).
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func peakTrack(configuration c: Configuration, in rect: Rect, context: DrawContext) -> PeakTrack? {
        let l = layout(c, in: rect, context: context)
        guard l.bar.width > 0, l.bar.height > 0 else { return nil }
        func point(_ v: Double) -> Point {
            l.axis == .vertical
                ? Point(x: l.bar.midX, y: l.position(for: v)) : Point(x: l.position(for: v), y: l.bar.midY)
        }
        return PeakTrack(bar: point(0), one: point(1), start: l.ends.0, end: l.ends.1, thickness: l.thickness)
    }
}

extension DialGaugeStyle {
    /// Peaks marked by pointers at the scale's ticks, from their outer
    /// ends in as far as a major tick reaches, four major ticks wide, in
    /// the colour the needle has at the peak.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func peakTrack(configuration c: Configuration, in rect: Rect, context: DrawContext) -> PeakTrack? {
        guard let l = layout(configuration: c, in: rect, context: context), l.radius > 0 else { return nil }
        let depth = max(l.majorTickLength, 0.08 * l.radius)
        return PeakTrack(
            pointer: l.center, inner: l.tickRadius - depth, outer: l.tickRadius, base: 4 * l.majorTickWidth,
            start: l.startAngle, sweep: l.sweep, color: needle.color)
    }
}
