import Synchronization

/// The geometry of a circular gauge in its rectangle: the largest centred
/// square, a stroke of `lineWidth` on a centre-line `radius`, over an arc from
/// `startAngle` clockwise through `sweep`. Pure, so tests can check drawings
/// against it.
public struct CircularGaugeLayout: Sendable, Hashable {
    /// The centre of the arc, in pixels.
    public var center: Point
    /// Centre line of the stroke.
    public var radius: Double
    /// The stroke's width, in pixels.
    public var lineWidth: Double
    /// Where the arc starts (value 0); see ``Angle`` for the convention.
    public var startAngle: Angle
    /// How far the arc turns clockwise from ``startAngle`` to value 1.
    public var sweep: Angle

    /// The angle of normalized value `v` on the arc.
    public func angle(for v: Double) -> Angle {
        startAngle + sweep * min(1, max(0, v))
    }

    /// The point on the centre line at normalized value `v`.
    public func point(for v: Double) -> Point {
        center.onCircle(radius: radius, angle: angle(for: v))
    }

    /// Radius of the stroke's inner edge.
    public var innerRadius: Double { max(0, radius - lineWidth / 2) }

    /// A full-turn stroke of `lineWidthFraction` of the side of the largest
    /// square centred in `rect`, drawn inside that square.
    public static func inscribed(in rect: Rect, lineWidthFraction: Double, startAngle: Angle) -> CircularGaugeLayout {
        let sq = PanelLayout.centredSquare(in: rect)
        let w = lineWidthFraction * sq.width
        return CircularGaugeLayout(
            center: sq.center, radius: max(0, sq.width / 2 - w / 2), lineWidth: w, startAngle: startAngle, sweep: 360)
    }

    /// Draws a label in the middle of the ring at `preferred` pixels, or smaller
    /// so that the widest of the configuration's sizing texts fits `fitting`
    /// pixels, so the size does not change with the value.
    public func drawCentre(
        _ label: GaugeLabel, _ c: GaugeStyleConfiguration, preferred: Double, fitting: Double, on canvas: Canvas,
        context: DrawContext
    ) {
        let (box, size) = centreBox(c, preferred: preferred, fitting: fitting, context: context)
        label.draw(in: box, on: canvas, context: context, pixelSize: size, color: c.environment.foreground)
    }

    /// Where ``drawCentre(_:_:preferred:fitting:on:context:)`` paints (see
    /// ``GaugeLabel/drawnBounds(in:context:pixelSize:alignment:vertical:)``).
    func centreBounds(
        _ label: GaugeLabel, _ c: GaugeStyleConfiguration, preferred: Double, fitting: Double, context: DrawContext
    ) -> [Rect]? {
        let (box, size) = centreBox(c, preferred: preferred, fitting: fitting, context: context)
        return label.drawnBounds(in: box, context: context, pixelSize: size)
    }

    private func centreBox(_ c: GaugeStyleConfiguration, preferred: Double, fitting: Double, context: DrawContext)
        -> (box: Rect, size: Double)
    {
        let size = centreTextSize(c, preferred: preferred, fitting: fitting, context)
        let r = innerRadius
        return (Rect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r), size)
    }
}

/// A circular gauge's size when offered `proposal`: the largest square in it.
@Sendable func squareSize(_ proposal: Size, _ context: DrawContext) -> Size {
    let side = min(proposal.width, proposal.height)
    return Size(width: side, height: side)
}

/// Adds `part` to the boxes of a dynamic layer; nil (anywhere) absorbs everything.
func adding(_ part: [Rect]?, to bounds: [Rect]?) -> [Rect]? {
    guard let bounds, let part else { return nil }
    return bounds + part
}

/// SwiftUI's `.accessoryCircular`: a ring open at the bottom (270 degrees, from
/// 135 to 405, round ends), a marker dot at the value with clear padding, the
/// current value in the centre, and in the opening either the minimum and
/// maximum labels (under the two ends) or the label.
///
/// Proportions of the square side `D`: stroke width `0.1 D`; dot radius
/// `0.625 x` the stroke width, padding to `0.775 x`; the ring is inset so the
/// padded dot stays inside the square. The current value's size is `0.3 D`, or
/// less so its widest text fits `1.3 x` the ring's inner radius; the opening's
/// labels are `0.1 D` (at least 9 px where the square has room below the
/// ends): minimum and maximum centred under the two round ends, their line
/// starting where the marker's padding at that end stops (so the marker at
/// the minimum or the maximum never covers them) and no larger than the room
/// from there to the square's bottom, the label
/// centred `0.8 r` below the centre, as wide as the opening less a stroke. The ring shows a gradient tint in full along the arc
/// (solid tints draw it in the track colour) and the dot takes the tint's colour
/// at its position, as in SwiftUI.
public struct AccessoryCircularGaugeStyle: GaugeStyle {
    /// Creates the accessory circular gauge style.
    public init() {}

    /// The radii of the value marker: the dot in the tint and the halo of background colour around it.
    ///
    /// - Parameter w: The stroke width, in pixels.
    /// - Returns: `0.625 w` for the dot and `0.775 w` for the halo.
    public static func markerRadii(lineWidth w: Double) -> (dot: Double, halo: Double) { (0.625 * w, 0.775 * w) }

    /// The geometry of the style's arc in a rectangle: a 270° arc from 135° (bottom left) with a stroke of a tenth of
    /// the square's side, the halo kept inside the square.
    ///
    /// - Parameter rect: The gauge's rectangle, in pixels.
    public static func layout(in rect: Rect) -> CircularGaugeLayout {
        let sq = PanelLayout.centredSquare(in: rect)
        let d = sq.width
        let w = 0.1 * d
        return CircularGaugeLayout(
            center: sq.center, radius: max(0, d / 2 - markerRadii(lineWidth: w).halo), lineWidth: w,
            startAngle: 135, sweep: 270)
    }

    /// True: this style draws its static parts (the track) before any dynamic one (value, marker, labels).
    public var separatesLayers: Bool { true }

    /// The track's paint along the arc, when it is not the plain track colour.
    private func along(_ c: Configuration) -> Tint? { c.zoneTrack ?? (c.tint.isGradient ? c.tint : nil) }

    /// The labels in the opening, where they go, and their text size: the
    /// minimum and maximum centred under the two round ends, or else the label.
    private func openingLabels(_ l: CircularGaugeLayout, _ c: Configuration, _ context: DrawContext) -> [(
        GaugeLabel, Rect, Double
    )] {
        let halo = Self.markerRadii(lineWidth: l.lineWidth).halo
        let d: Double = 2 * (l.radius + halo)
        let end = l.point(for: 0)
        // 0.1 D, but at least 9 px where there is room below the ends, so small
        // gauges keep readable labels.
        let room = l.center.y + d / 2 - (end.y + halo)
        let small = context.textSizes?.endLabel ?? max(0.1 * d, min(9, room))
        if c.minimumValueLabel != nil || c.maximumValueLabel != nil {
            // Below the marker's padding at the end, so the marker never covers
            // them, and no larger than the room left there, so the square holds them.
            let small = max(1, min(small, room))
            let y = end.y + halo + small / 2
            return [(c.minimumValueLabel, end.x), (c.maximumValueLabel, 2 * l.center.x - end.x)].compactMap {
                label, x in
                label.map { ($0, Rect(x: x - l.radius / 2, y: y - small / 2, width: l.radius, height: small), small) }
            }
        }
        guard let label = c.label else { return [] }
        let y = l.center.y + l.radius * 0.8
        var size = context.textSizes?.title ?? small
        // Never larger than the value, the gauge's first text.
        if context.textSizes != nil, c.currentValueLabel != nil {
            let (preferred, fitting) = Self.centreSlot(l)
            size = min(size, centreTextSize(c, preferred: preferred, fitting: fitting, context))
        }
        // As wide as the opening between the round ends, less half a stroke
        // of air at each (a longer label ends in an ellipsis there instead of
        // running into them).
        let gap = max(0, 2 * (l.center.x - end.x) - 2 * l.lineWidth)
        return [(label, Rect(x: l.center.x - gap / 2, y: y - size / 2, width: gap, height: size), size)]
    }

    /// Whether the label (shown without end labels) is as narrow as the opening.
    public func labelFits(configuration c: Configuration, in rect: Rect, context: DrawContext) -> Bool {
        guard c.minimumValueLabel == nil, c.maximumValueLabel == nil, let label = c.label,
            let (_, box, size) = openingLabels(Self.layout(in: rect), c, context).first
        else { return true }
        return label.size(pixelSize: size, context: context).width <= box.width
    }

    /// The current value, and the end labels or else the label.
    public func shownLabels(configuration c: Configuration) -> GaugeLabelKinds {
        let given = GaugeLabelKinds(of: c)
        let ends = given.intersection([.minimumValue, .maximumValue])
        return ends.isEmpty ? [.currentValue, .label] : ends.union(.currentValue)
    }

    /// The track is static; the marker, the current value and the labels in the
    /// opening are dynamic: at the ends the marker's clear padding reaches the
    /// labels, which are drawn over it.
    public func layering(configuration c: Configuration, in rect: Rect, context: DrawContext) -> GaugeLayering {
        let l = Self.layout(in: rect)
        guard l.radius > 0 else { return GaugeLayering(staticKey: AnyHashable(0), dynamicBounds: []) }
        let halo = Self.markerRadii(lineWidth: l.lineWidth).halo
        let p = l.point(for: c.value)
        var bounds: [Rect]? = [Rect(x: p.x - halo, y: p.y - halo, width: 2 * halo, height: 2 * halo).insetBy(-1)]
        if let current = c.currentValueLabel {
            let (preferred, fitting) = Self.centreSlot(l)
            bounds = adding(
                l.centreBounds(current, c, preferred: preferred, fitting: fitting, context: context), to: bounds)
        }
        for (label, box, size) in openingLabels(l, c, context) {
            bounds = adding(label.drawnBounds(in: box, context: context, pixelSize: size), to: bounds)
        }
        return GaugeLayering(staticKey: AnyHashable(along(c)), dynamicBounds: bounds)
    }

    /// Boxes around the parts this style draws for a gauge, by part.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func partBounds(configuration c: Configuration, in rect: Rect, context: DrawContext) -> [GaugePart: [Rect]] {
        let l = Self.layout(in: rect)
        guard l.radius > 0 else { return [:] }
        let halo = Self.markerRadii(lineWidth: l.lineWidth).halo
        let p = l.point(for: c.value)
        var out: [GaugePart: [Rect]] = [
            .marker: [Rect(x: p.x - halo, y: p.y - halo, width: 2 * halo, height: 2 * halo)]
        ]
        if let current = c.currentValueLabel {
            let (preferred, fitting) = Self.centreSlot(l)
            out.add(.currentValue, l.centreBounds(current, c, preferred: preferred, fitting: fitting, context: context))
        }
        for (label, box, size) in openingLabels(l, c, context) {
            // The end labels when there are any (the minimum's on the left), else the label.
            let ends = c.minimumValueLabel != nil || c.maximumValueLabel != nil
            let part: GaugePart = !ends ? .label : box.midX < l.center.x ? .minimumValue : .maximumValue
            out.add(part, label.drawnBounds(in: box, context: context, pixelSize: size))
        }
        return out
    }

    /// Returns the drawing of a gauge in this style.
    ///
    /// - Parameter c: The gauge to draw.
    public func makeBody(configuration c: Configuration) -> some Drawable {
        Draw(size: squareSize) { rect, canvas, context in
            let l = Self.layout(in: rect)
            guard l.radius > 0 else { return }
            if context.layers.contains(.static) {
                let track =
                    along(c)?.arcPaint(center: l.center, arcStart: l.startAngle, arcSweep: l.sweep)
                    ?? .solid(c.environment.track)
                canvas.strokeArc(
                    center: l.center, radius: l.radius, startAngle: l.startAngle, sweep: l.sweep,
                    width: l.lineWidth, cap: .round, paint: track)
            }
            guard context.layers.contains(.dynamic) else { return }
            let p = l.point(for: c.value)
            let radii = Self.markerRadii(lineWidth: l.lineWidth)
            canvas.fillDisc(center: p, radius: radii.halo, paint: .solid(c.environment.background))
            canvas.fillDisc(center: p, radius: radii.dot, paint: .solid(c.tint.color(at: c.value)))
            if let current = c.currentValueLabel {
                let (preferred, fitting) = Self.centreSlot(l)
                l.drawCentre(current, c, preferred: preferred, fitting: fitting, on: canvas, context: context)
            }
            for (label, box, size) in openingLabels(l, c, context) {
                label.draw(in: box, on: canvas, context: context, pixelSize: size, color: c.environment.foreground)
            }
        }
    }
}

/// SwiftUI's `.accessoryCircularCapacity`: a full ring in the tint at 0.3
/// opacity over the environment's track (so it keeps the track's contrast
/// against the background), an arc in the tint from the top clockwise to the value (round
/// ends), the current value in the centre. Label, minimum and maximum are not
/// shown.
///
/// Stroke width `0.1 D` of the square side `D`; the ring touches the square.
/// Current value as in ``AccessoryCircularGaugeStyle``.
public struct AccessoryCircularCapacityGaugeStyle: GaugeStyle {
    /// Creates the accessory circular capacity gauge style.
    public init() {}

    /// The opacity of the tint in the full ring behind the value arc (0.3).
    public static let trackOpacity = 0.3

    /// The current value only, when given.
    public func shownLabels(configuration c: Configuration) -> GaugeLabelKinds {
        GaugeLabelKinds(of: c).intersection(.currentValue)
    }

    /// The geometry of the style's ring in a rectangle: a full turn from the top (270°), the stroke a tenth of the
    /// square's side.
    ///
    /// - Parameter rect: The gauge's rectangle, in pixels.
    public static func layout(in rect: Rect) -> CircularGaugeLayout {
        .inscribed(in: rect, lineWidthFraction: 0.1, startAngle: 270)
    }

    /// True: this style draws its static parts (the track) before any dynamic one (value, marker, labels).
    public var separatesLayers: Bool { true }

    /// What the static layer depends on and where the dynamic layer paints.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func layering(configuration c: Configuration, in rect: Rect, context: DrawContext) -> GaugeLayering {
        let l = Self.layout(in: rect)
        guard l.radius > 0 else { return GaugeLayering(staticKey: AnyHashable(0), dynamicBounds: []) }
        var others: [Rect]? = []
        if let current = c.currentValueLabel {
            let (preferred, fitting) = Self.centreSlot(l)
            others = l.centreBounds(current, c, preferred: preferred, fitting: fitting, context: context)
        }
        let arc = c.value > 0 ? [l.strokeBounds(from: 0, to: c.value)] : []
        // The tint is laid over the whole ring (less the start cap), not the
        // value's sweep: a value change redraws only the arc between the values.
        let valueArc = others.map {
            GaugeLayering.ValueArc(
                layout: l, value: c.value, cap: .round, paint: AnyHashable(c.tint), others: $0,
                stroke: valueStroke(c, l))
        }
        // The track is the tint at low opacity, unless zones replace it.
        return GaugeLayering(
            staticKey: AnyHashable(c.zoneTrack ?? c.tint), dynamicBounds: adding(others, to: arc), valueArc: valueArc)
    }

    /// Boxes around the parts this style draws for a gauge, by part.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func partBounds(configuration c: Configuration, in rect: Rect, context: DrawContext) -> [GaugePart: [Rect]] {
        let l = Self.layout(in: rect)
        guard l.radius > 0, let current = c.currentValueLabel else { return [:] }
        let (preferred, fitting) = Self.centreSlot(l)
        var out: [GaugePart: [Rect]] = [:]
        out.add(.currentValue, l.centreBounds(current, c, preferred: preferred, fitting: fitting, context: context))
        return out
    }

    /// The value arc's paint: the tint over the ring less room at the seam for
    /// the round start cap's own colour.
    private func valueStroke(_ c: Configuration, _ l: CircularGaugeLayout) -> GaugeLayering.ValueArc.Stroke {
        GaugeLayering.ValueArc.Stroke(
            paint: c.tint.arcPaint(center: l.center, arcStart: l.startAngle, arcSweep: Self.paintSweep(l)))
    }

    private static func paintSweep(_ l: CircularGaugeLayout) -> Angle {
        .degrees(360 - 2 * Angle(radians: l.lineWidth / 2 / l.radius).degrees)
    }

    /// Returns the drawing of a gauge in this style.
    ///
    /// - Parameter c: The gauge to draw.
    public func makeBody(configuration c: Configuration) -> some Drawable {
        Draw(size: squareSize) { rect, canvas, context in
            let l = Self.layout(in: rect)
            guard l.radius > 0 else { return }
            let sweep = Self.paintSweep(l)
            if context.layers.contains(.static) {
                // Zones mark values, so they map onto the ring exactly (no squeeze).
                if let zones = c.zoneTrack {
                    canvas.strokeRing(
                        center: l.center, radius: l.radius, width: l.lineWidth,
                        paint: zones.arcPaint(center: l.center, arcStart: l.startAngle, arcSweep: l.sweep))
                } else {
                    // The tint at low opacity over the environment's track: the
                    // track's contrast against the background, in the tint's hue.
                    canvas.strokeRing(
                        center: l.center, radius: l.radius, width: l.lineWidth, paint: .solid(c.environment.track))
                    canvas.strokeRing(
                        center: l.center, radius: l.radius, width: l.lineWidth,
                        paint: c.tint.opacity(Self.trackOpacity).arcPaint(
                            center: l.center, arcStart: l.startAngle, arcSweep: sweep))
                }
            }
            guard context.layers.contains(.dynamic) else { return }
            l.strokeValueArc(to: c.value, cap: .round, valueStroke(c, l), on: canvas)
            if let current = c.currentValueLabel {
                let (preferred, fitting) = Self.centreSlot(l)
                l.drawCentre(current, c, preferred: preferred, fitting: fitting, on: canvas, context: context)
            }
        }
    }
}

/// The pixel size for a centre value: `preferred`, or smaller so that the
/// widest of the sizing texts (or the current text) is at most `width` wide.
/// Sizing by the widest text keeps the size from changing with the value.
/// With the context's text sizes, `preferred` is at most their value size and
/// the result is a step of ``TypeScale/steps``.
func centreTextSize(_ c: GaugeStyleConfiguration, preferred: Double, fitting width: Double, _ context: DrawContext)
    -> Double
{
    guard let sizes = context.textSizes else {
        return fittedCentreTextSize(c, preferred: preferred, fitting: width, context)
    }
    let size = fittedCentreTextSize(c, preferred: min(preferred, sizes.value), fitting: width, context)
    return TypeScale.step(atMost: size)
}

private func fittedCentreTextSize(
    _ c: GaugeStyleConfiguration, preferred: Double, fitting width: Double, _ context: DrawContext
) -> Double {
    var texts = c.sizingText
    if let t = c.currentValueLabel?.text { texts.append(t) }
    guard preferred >= 1, width > 0, !texts.isEmpty else { return max(1, preferred) }
    // Every draw and every damage computation asks again, with the same texts.
    let key = CentreSizeKey(
        fonts: ObjectIdentifier(context.fonts), font: context.environment.font, texts: texts, preferred: preferred,
        width: width)
    return remembered(key) { measuredCentreTextSize(texts, preferred: preferred, fitting: width, context) }
}

/// The widest advance of `texts` in the context's font at `size` (0 when
/// the font cannot be opened), remembered like ``centreTextSize``.
func widestAdvance(of texts: [String], size: Double, _ context: DrawContext) -> Double {
    let key = CentreSizeKey(
        fonts: ObjectIdentifier(context.fonts), font: context.environment.font, texts: texts, preferred: size,
        width: -1)
    return remembered(key) {
        let f = context.font(size: size)
        return texts.reduce(0) { max($0, f?.advance(of: $1) ?? 0) }
    }
}

/// `centreSizes[key]`, or `make()` kept there (the table is emptied when it
/// reaches 64 entries).
private func remembered(_ key: CentreSizeKey, _ make: () -> Double) -> Double {
    if let known = centreSizes.withLock({ $0[key] }) { return known }
    let value = make()
    centreSizes.withLock { table in
        if table.count >= 64 { table.removeAll(keepingCapacity: true) }
        table[key] = value
    }
    return value
}

/// What `centreTextSize` and `widestAdvance` (width -1) remember a result for.
private struct CentreSizeKey: Hashable {
    var fonts: ObjectIdentifier
    var font: FontDescriptor
    var texts: [String]
    var preferred: Double
    var width: Double
}

/// Sizes already worked out by `centreTextSize` (a pure function of its key:
/// font files do not change while they are open).
private let centreSizes = Mutex<[CentreSizeKey: Double]>([:])

private func measuredCentreTextSize(
    _ texts: [String], preferred: Double, fitting width: Double, _ context: DrawContext
) -> Double {
    func widest(_ size: Double) -> Double {
        guard let f = context.font(size: size) else { return 0 }
        return texts.map { f.advance(of: $0) }.max() ?? 0
    }
    // Advances grow about linearly with size: guess from a measurement at a
    // modest reference size (opening no huge font just to measure), then step
    // to the largest whole size whose hinted widths fit.
    let top = preferred.rounded(.down)
    let reference = min(top, 32)
    let w = widest(reference)
    var size = w > 0 ? min(top, max(1, (reference * width / w).rounded(.down))) : top
    while size < top && widest(size + 1) <= width { size += 1 }
    while size > 1 && widest(size) > width { size -= 1 }
    return size
}

extension GaugeStyle where Self == AccessoryCircularGaugeStyle {
    /// A gauge style that shows the value as a marker on an open ring, with the current value in the centre and the
    /// range or label in the opening.
    public static var accessoryCircular: Self { Self() }
}
extension GaugeStyle where Self == AccessoryCircularCapacityGaugeStyle {
    /// A gauge style that fills a ring clockwise from the top in proportion to the value, with the current value in the
    /// centre.
    public static var accessoryCircularCapacity: Self { Self() }
}

/// A circular style with its current value in the ring's centre, sized by
/// the slot its layout gives it.
protocol CentreValued: GaugeStyle {
    static func layout(in rect: Rect) -> CircularGaugeLayout
    /// The centre value's preferred text size and the width its widest text may take.
    static func centreSlot(_ l: CircularGaugeLayout) -> (preferred: Double, fitting: Double)
}

extension CentreValued {
    /// The centre value's text size in `rect`; nil without a current value.
    ///
    /// - Parameters:
    ///   - c: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func currentValueSize(configuration c: Configuration, in rect: Rect, context: DrawContext) -> Double? {
        let l = Self.layout(in: rect)
        guard l.radius > 0, c.currentValueLabel != nil else { return nil }
        let (preferred, fitting) = Self.centreSlot(l)
        return centreTextSize(c, preferred: preferred, fitting: fitting, context)
    }
}

extension AccessoryCircularGaugeStyle: CentreValued {
    /// The centre value's slot in a layout: its preferred text size (0.35 of
    /// the diameter to the marker's padding) and the width its widest text
    /// may take (1.6 inner radii: the value's box stays inside the track and
    /// clear of the label in the opening).
    static func centreSlot(_ l: CircularGaugeLayout) -> (preferred: Double, fitting: Double) {
        (0.7 * (l.radius + markerRadii(lineWidth: l.lineWidth).halo), 1.6 * l.innerRadius)
    }
}

extension AccessoryCircularCapacityGaugeStyle: CentreValued {
    /// The centre value's slot in a layout: its preferred text size (0.35 of
    /// the ring's outer diameter) and the width its widest text may take (1.6
    /// inner radii: the value's box stays inside the ring).
    static func centreSlot(_ l: CircularGaugeLayout) -> (preferred: Double, fitting: Double) {
        (0.35 * (2 * l.radius + l.lineWidth), 1.6 * l.innerRadius)
    }
}
