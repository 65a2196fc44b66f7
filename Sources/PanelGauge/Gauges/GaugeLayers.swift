#if canImport(Glibc)
    import Glibc
#endif

/// The parts of a gauge that a draw call paints: what stays put while the value
/// changes (``static``) and what moves with it (``dynamic``).
///
/// A program that redraws a gauge on every value change can keep a picture of
/// the static layer and paint only the dynamic layer over it (paneld does): the
/// result is the same as drawing ``all``, because built-in styles draw every
/// static part before any dynamic one.
///
/// Built-in styles put the background-side parts in the static layer (track,
/// threshold zones, the label, the minimum and maximum labels) and the value
/// indicator and the current-value label in the dynamic one; only
/// `.accessoryCircular` keeps the labels in its opening dynamic, because they
/// are drawn over the marker, which reaches them at the ends. A custom style
/// draws everything in the dynamic layer unless it declares
/// ``GaugeStyle/separatesLayers``: correct, just not cacheable.
///
/// ```swift
/// gauge.draw(in: rect, on: pictureCanvas, layers: .static)   // once
/// gauge.withValue(v).draw(in: rect, on: canvas, layers: .dynamic)   // over a copy of the picture
/// ```
public struct GaugeLayers: OptionSet, Sendable, Hashable {
    /// The bits of the set: 1 static, 2 dynamic.
    public let rawValue: UInt8
    /// Creates a set from its bits (see ``rawValue``).
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// What does not depend on the value (as long as ``GaugeLayering/staticKey`` stays the same).
    public static let `static` = GaugeLayers(rawValue: 1)
    /// The value indicator and the current-value label.
    public static let dynamic = GaugeLayers(rawValue: 2)
    /// Both layers: the whole drawing.
    public static let all: GaugeLayers = [.static, .dynamic]
}

/// How one gauge's drawing in one rectangle splits into ``GaugeLayers``: what
/// its static layer depends on, and where its dynamic layer can paint.
public struct GaugeLayering {
    /// Two drawings of the same gauge (differing only in the value and what
    /// follows from it: current-value label, threshold colour) in the same
    /// rectangle have identical static layers when their keys are equal. A key
    /// that changes with the value only makes the static layer uncacheable.
    public var staticKey: AnyHashable
    /// Rectangles holding every pixel the dynamic layer can change; nil when
    /// that can be anywhere in the gauge's rectangle.
    public var dynamicBounds: [Rect]?

    /// The value indicator, when it is an arc stroked from a layout's start to
    /// the value; a value change then changes only the arc between the two
    /// values (see ``changedBounds(to:)``).
    public var valueArc: ValueArc?

    /// The dynamic layer as the parts it paints, in order, when the style
    /// gives them: drawing every part in order is the style's dynamic layer.
    /// A program that repaints a rectangle of the layer can draw only the
    /// parts whose bounds meet it (paneld does), without the gauge's body
    /// (which lays the gauge out again), and a value change damages only the
    /// parts that change (``changedBounds(to:)``).
    public var dynamicParts: [DynamicPart]?

    /// Creates a layering.
    ///
    /// - Parameters:
    ///   - staticKey: A value equal for every drawing with the same static layer.
    ///   - dynamicBounds: Rectangles holding every pixel the dynamic layer can change, or nil for anywhere.
    ///   - valueArc: The value indicator, when it is an arc stroked from the layout's start to the value.
    ///   - dynamicParts: The dynamic layer as the parts it paints, in order, or nil when not known.
    public init(
        staticKey: AnyHashable, dynamicBounds: [Rect]?, valueArc: ValueArc? = nil, dynamicParts: [DynamicPart]? = nil
    ) {
        self.staticKey = staticKey
        self.dynamicBounds = dynamicBounds
        self.valueArc = valueArc
        self.dynamicParts = dynamicParts
    }

    /// One part of a dynamic layer (a needle, a hub, a value arc, a line of
    /// text): where it paints, what it depends on, and how to paint it.
    public struct DynamicPart {
        /// What a part's pixels depend on, so that two drawings of a part (at
        /// two values) can tell where they differ (``changedBounds(to:)``).
        public enum Change {
            /// The part paints the same pixels as another whose key is equal.
            case key(AnyHashable)
            /// A line of text in `color`: two lines differ only in the glyphs
            /// that differ.
            case glyphs([DrawnGlyph], color: Color)
            /// An arc stroked from its layout's start to its value (its `others`
            /// are not used): two on the same circle, with the same ends and
            /// paint, differ only in the arc between their values.
            case arc(ValueArc)
        }

        /// Rectangles holding every pixel the part paints.
        public var bounds: [Rect]
        /// What the part's pixels depend on.
        public var change: Change
        /// Paints the part; the canvas's clip applies, and the part's pixels
        /// inside a clip are those it paints unclipped (`RasterPromises`, promise 1).
        public var draw: (Canvas) -> Void

        /// Creates a part.
        ///
        /// - Parameters:
        ///   - bounds: Rectangles holding every pixel the part paints.
        ///   - change: What the part's pixels depend on.
        ///   - draw: Paints the part on a canvas.
        public init(bounds: [Rect], change: Change, draw: @escaping (Canvas) -> Void) {
            self.bounds = bounds
            self.change = change
            self.draw = draw
        }

        /// Rectangles holding every pixel in which this part and `new` differ.
        public func changedBounds(to new: DynamicPart) -> [Rect] {
            switch (change, new.change) {
            case (.key(let a), .key(let b)) where a == b:
                return []
            case (.glyphs(let a, let ca), .glyphs(let b, let cb)) where ca == cb:
                return DrawnGlyph.changedBoxes(a, b)
            case (.arc(let a), .arc(let b)):
                return a.arcChange(to: b) ?? bounds + new.bounds
            default:
                return bounds + new.bounds
            }
        }
    }

    /// A dynamic layer whose value indicator is an arc along `layout` from its
    /// start to normalized `value`, in a paint fixed by `paint`, and whose other
    /// parts (the current-value label) lie in `others`.
    ///
    /// The rasterizer walks a circular arc as the exact circle, so the arc's
    /// pixels away from its ends do not depend on its sweep, and a stroke drawn
    /// through a clip has the pixels it has unclipped inside that clip: a
    /// style may declare one only when its arc is drawn that way (undashed, or
    /// dashed with butt ends from a fixed phase) and its paint is laid over the
    /// whole arc, not the value's sweep.
    public struct ValueArc {
        /// The arc's geometry: centre, radius, stroke width, start and sweep.
        public var layout: CircularGaugeLayout
        /// The normalized value, in 0...1, the arc is stroked to.
        public var value: Double
        /// The shape of the arc's ends.
        public var cap: LineCap
        /// A value equal for every drawing whose arc has the same paint.
        public var paint: AnyHashable
        /// Rectangles of the dynamic layer's other parts, such as the current-value label.
        public var others: [Rect]
        /// How the arc is stroked, when the style draws it with
        /// ``CircularGaugeLayout/strokeValueArc(to:cap:_:on:)``: a program can
        /// then keep a picture of the whole arc (at value 1) over the static
        /// layer, and copy the arc's pixels away from its ends from there
        /// instead of shading them again (paneld does). Nil: not known.
        public var stroke: Stroke?
        /// The glyphs of the current-value label, when `others` holds exactly
        /// that label's box: a value change then damages only the glyphs that
        /// differ (a digit, not the whole number).
        public var glyphs: [DrawnGlyph]?
        /// The current-value label as a line of text, when the arc (stroked
        /// with `stroke`) and this text, drawn in that order, are the whole
        /// dynamic layer: a program can then draw them itself where it
        /// repaints part of the layer (paneld does).
        public var text: DrawnText?

        /// The paint and dashes of a value arc (its width is the layout's).
        public struct Stroke: Sendable, Hashable {
            /// The arc's paint.
            public var paint: Paint
            /// The arc's dashes, or nil for a solid stroke.
            public var dash: DashPattern?

            /// Creates a stroke description.
            ///
            /// - Parameters:
            ///   - paint: The arc's paint.
            ///   - dash: The arc's dashes, or nil for a solid stroke.
            public init(paint: Paint, dash: DashPattern? = nil) {
                self.paint = paint
                self.dash = dash
            }
        }

        /// Creates a value arc description.
        ///
        /// - Parameters:
        ///   - layout: The arc's geometry.
        ///   - value: The normalized value, in 0...1, the arc is stroked to.
        ///   - cap: The shape of the arc's ends.
        ///   - paint: A value equal for every drawing whose arc has the same paint.
        ///   - others: Rectangles of the dynamic layer's other parts.
        ///   - stroke: How the arc is stroked, or nil when not known.
        ///   - glyphs: The glyphs of the current-value label, when `others` holds exactly that label's box.
        ///   - text: The current-value label as a line of text, when the arc and this text are the whole dynamic layer.
        public init(
            layout: CircularGaugeLayout, value: Double, cap: LineCap, paint: AnyHashable, others: [Rect],
            stroke: Stroke? = nil, glyphs: [DrawnGlyph]? = nil, text: DrawnText? = nil
        ) {
            self.layout = layout
            self.value = value
            self.cap = cap
            self.paint = paint
            self.others = others
            self.stroke = stroke
            self.glyphs = glyphs
            self.text = text
        }

        /// Boxes around the parts of this arc that a copy from the whole arc's
        /// picture does not give: both ends of the arc (butt or round, as
        /// ``CircularGaugeLayout/strokeBounds(from:to:)`` grows them) and the
        /// other parts; only the other parts when the value is 0 (no arc).
        public var exactBounds: [Rect] {
            guard value > 0 else { return others }
            return [layout.strokeBounds(from: 0, to: 0), layout.strokeBounds(from: value, to: value)] + others
        }

        /// Bands holding every pixel in which this arc and `new` differ, when
        /// they differ only between their values: the same circle, ends and
        /// paint, both following the circle (``followsTheCircle``); nil otherwise.
        func arcChange(to new: ValueArc) -> [Rect]? {
            guard layout == new.layout, cap == new.cap, paint == new.paint, followsTheCircle, new.followsTheCircle
            else { return nil }
            let lo = min(value, new.value), hi = max(value, new.value)
            return lo == hi ? [] : layout.strokeBands(from: lo, to: hi)
        }

        /// Whether the arc's pixels away from its ends are those of the whole
        /// circle: no arc, a full turn, or a simple outline whose inner circle
        /// the rasterizer walks as a circle (`RasterPromises`, promise 3). Round ends that
        /// meet across the gap make the outline overlap itself, and it is then
        /// scan-converted as a polygon that depends on the sweep.
        public var followsTheCircle: Bool {
            let sweep = layout.angle(for: value).radians - layout.startAngle.radians
            if sweep == 0 || abs(sweep) >= 2 * Double.pi { return true }
            return RasterPromises.walksArcsAsCircles(radius: layout.radius - layout.lineWidth / 2)
                && Flattener.arcStrokeIsSimple(radius: layout.radius, sweep: sweep, width: layout.lineWidth, cap: cap)
        }
    }

    /// Rectangles holding every pixel in which this dynamic layer and `new`'s
    /// (the same gauge in the same rectangle at another value, with the same
    /// static key) differ; nil when that can be anywhere. With dynamic parts
    /// (as many on both sides), where each part differs from its counterpart
    /// (``DynamicPart/changedBounds(to:)``). With value arcs on the
    /// same circle in the same paint, that is the arc between the two values
    /// (both ends' caps included) and the other parts at both values; otherwise
    /// the dynamic bounds at both values.
    public func changedBounds(to new: GaugeLayering) -> [Rect]? {
        if let p = dynamicParts, let q = new.dynamicParts, p.count == q.count {
            return zip(p, q).flatMap { $0.changedBounds(to: $1) }
        }
        if let a = valueArc, let b = new.valueArc, let arc = a.arcChange(to: b) {
            if let g0 = a.glyphs, let g1 = b.glyphs {
                return arc + DrawnGlyph.changedBoxes(g0, g1)
            }
            return arc + a.others + b.others
        }
        guard let before = dynamicBounds, let after = new.dynamicBounds else { return nil }
        return before + after
    }

    /// All dynamic, anywhere, with a static layer that never changes: what a
    /// style that does not separate its layers gets.
    public static var unseparated: GaugeLayering { GaugeLayering(staticKey: AnyHashable(0), dynamicBounds: nil) }
}

extension Rect {
    /// The smallest rectangle holding both.
    func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }
}

extension CircularGaugeLayout {
    /// A box holding every pixel of the stroke from normalized value `from` to
    /// `to` (either end cap, round or butt; dashed or not): the centre line's
    /// bounding box grown by half the stroke, plus one pixel for anti-aliasing
    /// and the flattener's outward offset.
    public func strokeBounds(from v0: Double, to v1: Double) -> Rect {
        let a0 = angle(for: min(v0, v1)).degrees, a1 = angle(for: max(v0, v1)).degrees
        var box = Rect(x: point(for: v0).x, y: point(for: v0).y, width: 0, height: 0)
        func add(_ p: Point) { box = box.union(Rect(x: p.x, y: p.y, width: 0, height: 0)) }
        add(point(for: v1))
        // The circle's extremes (3, 6, 9 and 12 o'clock) that the arc passes.
        var a = (a0 / 90).rounded(.up) * 90
        while a < a1 {
            add(center.onCircle(radius: radius, angle: .degrees(a)))
            a += 90
        }
        return box.insetBy(-(lineWidth / 2 + 1))
    }

    /// Boxes that together hold every pixel of the stroke from normalized value
    /// `from` to `to`, as ``strokeBounds(from:to:)``, one per quarter turn the
    /// arc passes (split at 3, 6, 9 and 12 o'clock): a short arc gets one small
    /// box, a long one does not take in the circle's inside.
    public func strokePieces(from v0: Double, to v1: Double) -> [Rect] {
        let lo = min(v0, v1), hi = max(v0, v1)
        let a0 = angle(for: lo).degrees, a1 = angle(for: hi).degrees
        guard a1 > a0, sweep.degrees != 0 else { return [strokeBounds(from: lo, to: hi)] }
        // The values at which the arc crosses an axis, between the two ends.
        var cuts = [lo]
        var a = ((a0 / 90).rounded(.down) + 1) * 90
        while a < a1 {
            cuts.append(lo + (a - a0) / sweep.degrees)
            a += 90
        }
        cuts.append(hi)
        return zip(cuts, cuts.dropFirst()).map { strokeBounds(from: $0, to: $1) }
    }
}

extension CircularGaugeLayout {
    /// Boxes that together hold every pixel of the stroke from normalized
    /// value `from` to `to`, as ``strokePieces(from:to:)``, each piece cut into
    /// bands of at most `bandRows` rows (between multiples of `bandRows`) as
    /// wide as the piece is in them: within
    /// half the stroke and a pixel of the centre line's points whose rows lie
    /// within that distance of the band (so a long arc's boxes hug the ring).
    public func strokeBands(from v0: Double, to v1: Double, bandRows: Double = 32) -> [Rect] {
        let lo = min(v0, v1), hi = max(v0, v1)
        let a0 = angle(for: lo).radians, a1 = angle(for: hi).radians
        let pieces = strokePieces(from: lo, to: hi)
        guard a1 > a0, radius > 0, pieces.count > 0 else { return pieces }
        let e = lineWidth / 2 + 1
        // The pieces' angles, split where strokePieces splits them (at the axes).
        var cuts = [a0]
        var a = ((a0 / (Double.pi / 2)).rounded(.down) + 1) * (Double.pi / 2)
        while a < a1 {
            cuts.append(a)
            a += Double.pi / 2
        }
        cuts.append(a1)
        guard cuts.count == pieces.count + 1 else { return pieces }
        var bands: [Rect] = []
        for (k, box) in pieces.enumerated() {
            let (p0, p1) = (cuts[k], cuts[k + 1])
            // Along a piece inside one quadrant, the centre line's y is monotonic.
            func y(_ t: Double) -> Double { center.y + radius * sin(t) }
            func x(_ t: Double) -> Double { center.x + radius * cos(t) }
            let quarter = Double.pi / 2
            let mid = ((((p0 + p1) / 2) / quarter).rounded(.down) + 0.5) * quarter
            /// The angle in the piece where the centre line reaches row `target`
            /// (the nearer end when it does not): the solution of sin t = s in
            /// the piece's quadrant, clamped to the piece.
            func angle(atY target: Double) -> Double {
                let a = asin(min(1, max(-1, (target - center.y) / radius)))
                var best = a, gap = Double.infinity
                for c in [a, Double.pi - a] {
                    let t = c + 2 * Double.pi * ((mid - c) / (2 * Double.pi)).rounded()
                    if abs(t - mid) < gap { (best, gap) = (t, abs(t - mid)) }
                }
                return min(p1, max(p0, best))
            }
            // Bands end on multiples of `bandRows` (screen rows): two changes
            // over the same stretch of ring make the same bands, which an
            // output then repaints once (a band holds the other's, or equals it).
            var top = box.minY
            while top < box.maxY {
                let bottom = min(box.maxY, ((top / bandRows).rounded(.down) + 1) * bandRows)
                let t0 = angle(atY: top - e), t1 = angle(atY: bottom + e)
                // The extreme centre-line points are the range's ends (x is monotonic too).
                let left = max(box.minX, min(x(t0), x(t1)) - e), right = min(box.maxX, max(x(t0), x(t1)) + e)
                bands.append(Rect(x: left, y: top, width: max(0, right - left), height: bottom - top))
                top = bottom
            }
        }
        return bands
    }

    /// Whether `rect` lies in the ring's hole more than a pixel away from the
    /// stroke's inner edge (so no stroke along this circle paints in it).
    public func holeContains(_ rect: IntRect) -> Bool {
        let hole = radius - lineWidth / 2 - 2
        guard hole > 0 else { return false }
        // The farthest corner decides.
        let dx = max(abs(Double(rect.minX) - center.x), abs(Double(rect.maxX) - center.x))
        let dy = max(abs(Double(rect.minY) - center.y), abs(Double(rect.maxY) - center.y))
        return dx * dx + dy * dy < hole * hole
    }

    /// Strokes the value arc from the start to normalized `value` (nothing at
    /// 0): the one call styles that declare a ``GaugeLayering/ValueArc/stroke``
    /// draw their arc with, so that a picture of the arc at 1 matches it.
    public func strokeValueArc(
        to value: Double, cap: LineCap, _ stroke: GaugeLayering.ValueArc.Stroke, on canvas: Canvas
    ) {
        guard value > 0 else { return }
        // Nothing to draw through a clip in the ring's hole (a current value's box).
        if holeContains(canvas.effectiveClip) { return }
        canvas.strokeArc(
            center: center, radius: radius, startAngle: startAngle, sweep: sweep * value, width: lineWidth, cap: cap,
            dash: stroke.dash, paint: stroke.paint)
    }
}

extension DrawnGlyph {
    /// The boxes of the glyphs in one line and not in the other: where two
    /// lines of text (in one colour) differ.
    static func changedBoxes(_ a: [DrawnGlyph], _ b: [DrawnGlyph]) -> [Rect] {
        Set(a).symmetricDifference(b).map { Rect($0.box) }
    }
}
