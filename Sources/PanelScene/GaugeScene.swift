import Glibc
import PanelGauge

/// Gauges and text widgets placed on a screen, drawn with given values, that
/// repaints only what a change touches: ``damage(for:from:to:)`` says which
/// rectangles change, ``draw(_:rects:state:)`` repaints them.
///
/// A program keeps the ``SceneState`` it last showed; for the next frame it
/// asks for the damage between that state and the new one, and hands it to
/// its output (PanelDisplay's `FrameOutput.present(damage:_:)` repaints the
/// rectangles of whichever buffer it draws into).
///
/// A repaint must give exactly the pixels of a full redraw. It relies on the
/// promises PanelGauge's rasterizer states in one place (`RasterPromises`, each
/// with the test that enforces it): a gauge's dynamic layer (arcs without
/// dashes, discs, capsules, rounded rectangles, glyph bitmaps) drawn through a
/// clip has the pixels it has unclipped inside the clip; a gradient pixel
/// depends only on its position; an arc away from its ends does not depend on
/// its sweep. So a gauge with a cached static layer is repainted per
/// rectangle: the picture put back there, then the dynamic layer drawn clipped
/// to it. A value arc's rectangles are copied instead, row by row, from the
/// static picture and from a picture of the whole arc (see `copySectors`),
/// and the dynamic layer is drawn only over the arc's ends and the label
/// (from the layering's arc and text when it gives them, else through the
/// gauge's body).
/// Bands along a value arc away from its label are copied only where the
/// whole arc's kept runs lie (`RepaintPlan.copiesRunsOnly`): that takes the surface to
/// show a frame this scene drew since the gauge's picture was made, with
/// the rectangles holding every pixel changed since (what the outputs pass),
/// or the rectangles to hold the gauge's whole frame. Gauges that overlap
/// (and gauges without a cached static layer) are redrawn in whole frames.
/// Either may rewrite pixels next to the rectangles asked for (a merged box),
/// and rectangles may overlap: always with the values those pixels have in the
/// new frame. Which of these a repaint does where is decided by `RepaintPlan`
/// from plain values (frames, clusters, which pictures are good, the arc's
/// exact boxes and label zone); `draw` applies its operations.
///
/// A value change damages only where the gauge's dynamic layer (value
/// indicator, current value) changes (PanelGauge's `GaugeLayering.changedBounds(to:)`):
/// for a value arc, the arc between the old and new value in bands along the
/// ring and the label's glyphs that differ; otherwise where the layer was or
/// now is. With ``cachesPictures``, each gauge whose frame overlaps no
/// other gauge keeps a picture of its frame with the background and its static
/// layer (track, zones, labels) in the surface's pixel format, drawn the first
/// time the frame is repainted and redrawn when the style's static key
/// changes; a value-arc gauge keeps the whole-arc picture with it. A picture
/// keeps the box around what is not plain background (at most the frame).
///
/// A stale gauge (one named in ``SceneState/stale``) is drawn dimmed: its
/// indicator in the scene's ``staleTint`` (no tint or thresholds, so that an
/// old value never reads as a state: a red "alarm", a green "fine"), a dash
/// for its current value, and its whole frame faded toward the background by
/// ``staleFade``. It is drawn from scratch in whole frames, without pictures
/// (its own are dropped, so it gets new ones when it is fresh again); going
/// stale or fresh damages its whole frame.
///
/// A gauge missing from the values has none (never set, or cleared): it is
/// drawn without a value (`Gauge.withoutValue(_:)` with its item's text), in
/// whole frames as a stale one is; getting or losing a value damages its
/// whole frame.
///
/// A widget (``SceneWidget``) is drawn whole over its cleared frame from its
/// text in the state, a chart (``SceneChart``) from its ``ChartFrame``; a
/// change of either damages its frame alone.
public final class GaugeScene {
    /// The gauges and widgets, in drawing order.
    public let items: [SceneItem]
    /// The screen's width in pixels: the surfaces drawn into have this size.
    public let width: Int
    /// The screen's height in pixels.
    public let height: Int
    /// What the screen shows where no item draws.
    public let background: Color
    /// The colour of a stale gauge's indicator.
    public let staleTint: Color
    /// Whether repaints start from pictures of the gauges' static layers; off
    /// for one-shot renders (nothing to reuse) and for measuring a redraw
    /// from scratch.
    public let cachesPictures: Bool
    private var canvas: Canvas?
    private let fonts: FontCache
    /// Per item, in order: everything the scene keeps for it.
    private let slots: [Slot]
    /// Parts of the dynamic layer repainted from a value arc's `text`, not
    /// through the gauge's body (for tests).
    package private(set) var textDraws = 0
    /// What a stale gauge shows for its value: an em dash, or a hyphen-minus
    /// when the first gauge's font has no em dash.
    public let staleDash: String

    /// How far a stale gauge's frame is faded toward the background: its
    /// pixels keep 45 % of their contrast, readable but clearly inactive.
    public static let staleFade = 0.55

    /// A scene of `items` over `background` on a `width` x `height` screen.
    /// An item's frame may lie partly or wholly off the screen (only what lies
    /// on it is drawn). The first item of a name is the one its value sets.
    public init(
        width: Int, height: Int, items: [SceneItem], background: Color, staleTint: Color = .white,
        cachesPictures: Bool = true, fonts: FontCache = .shared
    ) {
        self.items = items
        self.width = width
        self.height = height
        self.background = background
        self.staleTint = staleTint
        self.cachesPictures = cachesPictures
        self.fonts = fonts
        let screen = IntRect(x: 0, y: 0, width: width, height: height)
        let frames = items.map { $0.frame.intersection(screen) }
        var named: Set<String> = []
        slots = zip(items, zip(frames, GaugeScene.overlapClusters(frames))).map { item, placed in
            Slot(
                name: item.name, isFirstOfName: named.insert(item.name).inserted, isWidget: item.widget != nil,
                frame: placed.0, cluster: placed.1)
        }
        let font = items.first?.environment.font ?? .default
        let hasDash = (try? fonts.font(font, pixelSize: 16))?.hasGlyph(for: "\u{2014}") ?? true
        staleDash = hasDash ? "\u{2014}" : "-"
    }

    /// For each rectangle, the indices of the rectangles connected to it by
    /// overlaps (itself included), ascending. Pure.
    static func overlapClusters(_ frames: [IntRect]) -> [[Int]] {
        var cluster = Array(frames.indices)  // each index's representative
        func root(_ i: Int) -> Int { cluster[i] == i ? i : root(cluster[i]) }
        for i in frames.indices {
            for j in frames.indices where j > i && frames[i].intersects(frames[j]) {
                cluster[root(j)] = root(i)
            }
        }
        return frames.indices.map { i in frames.indices.filter { root($0) == root(i) } }
    }

    /// The rectangles that change when the scene goes from showing `old` to
    /// showing `new`: per item whose value, staleness, peaks or text differs (only
    /// those in `names`, when given), where its dynamic layer changes; its
    /// whole frame when its static layer changes too, its style cannot say
    /// where it draws, it is a widget, or it is stale before or after; the
    /// frames of every item it overlaps.
    public func damage(for names: Set<String>? = nil, from old: SceneState, to new: SceneState) -> [IntRect] {
        var rects: [IntRect] = []
        for (i, slot) in slots.enumerated() where slot.isFirstOfName {
            let name = slot.name
            if let names, !names.contains(name) { continue }
            let f = slot.frame
            if f.isEmpty { continue }
            let from = old.values[name], to = new.values[name]
            let stale = (old.stale.contains(name), new.stale.contains(name))
            if names == nil {
                let same =
                    slot.isWidget
                    ? old.texts[name] == new.texts[name] && old.charts[name] == new.charts[name]
                    : from == to && stale.0 == stale.1 && old.peaks[name] == new.peaks[name]
                if same { continue }
            }
            guard !slot.isWidget, slot.cluster.count == 1, !stale.0, !stale.1, let from, let to else {
                rects += slot.cluster.map { slots[$0].frame }
                continue
            }
            let a = layering(i, value: from, peaks: old.peaks[name])
            let b = layering(i, value: to, peaks: new.peaks[name])
            guard a.staticKey == b.staticKey, let changed = a.changedBounds(to: b) else {
                rects.append(f)
                continue
            }
            let parts = changed.map { IntRect(covering: $0).intersection(f) }.filter { !$0.isEmpty }
            if (a.valueArc != nil && b.valueArc != nil) || (a.dynamicParts != nil && b.dynamicParts != nil) {
                // The arc between the values in bands that hug the ring, the
                // label's glyphs that change, a needle's strips: a rectangle
                // costs copies of its rows or the parts that meet it (see
                // `draw`), so they are not merged (the outputs drop the ones
                // that others hold).
                rects += parts
            } else if let first = parts.first {
                // One box: close boxes of a bar and its labels are cheaper merged.
                rects.append(parts.dropFirst().reduce(first) { $0.union($1) })
            }
        }
        return rects
    }

    /// Repaints `rects` of `surface` to show `state`: the background, and
    /// every item that meets them, drawn in whole units (see the type's
    /// description). What is drawn where is `RepaintPlan`'s; this applies
    /// its operations.
    public func draw(_ surface: Surface, rects: [IntRect], state: SceneState) {
        let values = state.values, stale = state.stale, texts = state.texts, peaks = state.peaks
        let c: Canvas
        if let existing = canvas {
            existing.retarget(surface)
            c = existing
        } else {
            c = Canvas(surface: surface)
            canvas = c
        }
        c.clip = nil
        let format = surface.format
        // (In one array of the right capacity: `filter` grew its result an
        // append at a time, reallocating it six times for the default ring's
        // 24 rectangles.)
        var inside: [IntRect] = []
        inside.reserveCapacity(rects.count)
        for r in rects {
            let clipped = r.intersection(surface.bounds)
            if !clipped.isEmpty { inside.append(clipped) }
        }
        let rects = inside
        // Each slot as the plan sees it. Pictures are looked up only for a
        // fresh gauge alone in its frame that meets a rectangle (the others
        // are not laid out); what the operations on them need is kept here.
        var planned: [RepaintPlan.Slot] = []
        planned.reserveCapacity(slots.count)
        // (Appended: `Array(repeating:count:)` takes an unspecialized path here.)
        var repaints: [Repaint?] = []
        repaints.reserveCapacity(slots.count)
        for (i, slot) in slots.enumerated() {
            var repaint: Repaint?
            let name = slot.name
            let kind: RepaintPlan.Kind =
                slot.isWidget
                ? .widget : stale.contains(name) || values[name] == nil ? .stale : .gauge
            var picture: RepaintPlan.Picture?
            if kind == .gauge && slot.cluster.count == 1 && rects.contains(where: { slot.frame.intersects($0) }) {
                let v = values[name]!, p = peaks[name]
                if let staticPicture = self.picture(i, value: v, peaks: p, format: format) {
                    if let (overlay, arc) = arcPicture(i, value: v, peaks: p) {
                        let sector = ArcSector(arc.layout, upTo: arc.value)
                        repaint = Repaint(
                            value: v, peaks: p,
                            arc: ArcRepaint(overlay: overlay, picture: staticPicture, arc: arc, sector: sector))
                        picture = .valueArc(
                            RepaintPlan.ValueArc(
                                exact: arc.exactBounds.map { IntRect(covering: $0) },
                                others: arc.others.map { IntRect(covering: $0) }, cap: arc.cap,
                                hasText: arc.text != nil,
                                labelZone: slot.labelZone))
                    } else {
                        repaint = Repaint(value: v, peaks: p, arc: nil)
                        picture =
                            layering(i, value: v, peaks: p).dynamicParts == nil ? .staticLayer : .staticLayerWithParts
                    }
                }
            }
            planned.append(RepaintPlan.Slot(frame: slot.frame, cluster: slot.cluster, kind: kind, picture: picture))
            repaints.append(repaint)
        }
        // A slot's operations come one after the other: its repaint is looked
        // up once, not per rectangle.
        var shown: Repaint?, shownSlot = -1
        for operation in RepaintPlan.make(rects: rects, slots: planned) {
            switch operation {
            case .clear(let r):
                c.withClip(r) { c.clear(background) }
            case .noteLabelZone(let i, let box):
                slots[i].note(box)
            case .drawFromScratch(let i):
                let name = slots[i].name
                drawFromScratch(i, value: values[name] ?? items[i].gauge.range.lowerBound, peaks: peaks[name], on: c)
            case .drawStale(let i):
                if let v = values[slots[i].name] {
                    drawStale(i, value: v, peaks: peaks[slots[i].name], on: c)
                } else {
                    drawWithoutValue(i, peaks: peaks[slots[i].name], on: c)
                }
            case .drawWidget(let i):
                let f = slots[i].frame, item = items[i]
                c.withClip(f) {
                    if let chart = item.widget as? SceneChart {
                        chart.draw(state.charts[item.name], in: f, on: c)
                    } else {
                        item.widget?.draw(texts[item.name] ?? "", in: f, on: c)
                    }
                }
            case .restoreAndDrawDynamic(let i, let r):
                if i != shownSlot { (shown, shownSlot) = (repaints[i], i) }
                drawDynamicLayer(i, value: shown!.value, peaks: shown!.peaks, in: r, on: c)
            case .copyArcSectors(let i, let r, let runsOnly):
                if i != shownSlot { (shown, shownSlot) = (repaints[i], i) }
                copySectors(r, runsOnly: runsOnly, shown!.arc!, on: surface)
            case .restoreAndStrokeArc(let i, let part, let withText):
                if i != shownSlot { (shown, shownSlot) = (repaints[i], i) }
                strokeArc(shown!.arc!, in: part, withText: withText, on: c)
            }
        }
    }

    /// The whole screen.
    public func drawAll(_ surface: Surface, state: SceneState) {
        draw(surface, rects: [IntRect(x: 0, y: 0, width: width, height: height)], state: state)
    }

    /// A gauge repainted from its pictures in one `draw`: the value it shows,
    /// and its value arc when that is copied (``ArcRepaint`` is a class: the
    /// operations read the arc by reference, not as copies).
    private struct Repaint {
        let value: Double
        let peaks: GaugePeaks?
        let arc: ArcRepaint?
    }

    /// A value arc copied in one `draw`: the whole arc's picture and the static
    /// one, the arc at the value shown, and the sector it sweeps.
    private final class ArcRepaint {
        let overlay: ArcOverlay
        let picture: StaticPicture
        let arc: GaugeLayering.ValueArc
        let sector: ArcSector

        init(overlay: ArcOverlay, picture: StaticPicture, arc: GaugeLayering.ValueArc, sector: ArcSector) {
            self.overlay = overlay
            self.picture = picture
            self.arc = arc
            self.sector = sector
        }
    }

    /// Memory held by the pictures (static layers, whole value arcs), in bytes.
    public var pictureBytes: Int {
        slots.reduce(0) { $0 + ($1.picture?.bytes ?? 0) + ($1.arcPicture?.picture.bytes ?? 0) }
    }

    /// Gauge `i`'s picture of its static layer, when it is good for `value`.
    private func picture(_ i: Int, value: Double, peaks: GaugePeaks?, format: PixelFormat) -> StaticPicture? {
        guard !slots[i].isWidget, let p = slots[i].picture, p.format == format,
            p.key == layering(i, value: value, peaks: peaks).staticKey
        else { return nil }
        return p
    }

    /// Gauge `i`'s picture with the whole value arc, and the value arc at
    /// `value`, when that picture gives the arc's pixels away from its ends:
    /// same static layer, circle, ends and paint, and an arc that follows the circle.
    private func arcPicture(_ i: Int, value: Double, peaks: GaugePeaks?) -> (ArcOverlay, GaugeLayering.ValueArc)? {
        guard let (picture, key) = slots[i].arcPicture, let arc = layering(i, value: value, peaks: peaks).valueArc,
            ArcKey(arc) == key, arc.followsTheCircle
        else { return nil }
        return (picture, arc)
    }

    /// `rect`'s pixels row by row from `arcPicture` where their centres lie in
    /// the sector the arc sweeps, from `picture` elsewhere: what restoring the
    /// static layer and stroking the arc gives, except next to the arc's ends.
    /// (The arc's parts read from `a`, passed by reference: passed one by
    /// one, each was retained per rectangle.)
    private func copySectors(_ rect: IntRect, runsOnly: Bool, _ a: ArcRepaint, on surface: Surface) {
        let arc = a.arc, sector = a.sector, arcPicture = a.overlay, picture = a.picture
        @inline(__always) func restore(_ y: Int, _ columns: Range<Int>, arc inside: Bool) {
            if inside {
                arcPicture.restoreRow(y, columns: columns, on: surface, over: picture)
            } else {
                picture.restoreRow(y, columns: columns, on: surface)
            }
        }
        // In the hole the two pictures agree; away from both rays one gives all.
        let side = arc.layout.holeContains(rect) ? false : sector.side(of: rect)
        if runsOnly, let inside = side {
            arcPicture.copyRuns(in: rect, on: surface, from: inside ? nil : picture)
            return
        }
        if runsOnly {
            // A ray crosses the rectangle: each run split where the sector ends.
            arcPicture.copyRuns(in: rect, on: surface, split: sector, over: picture)
            return
        }
        if let inside = side {
            for y in rect.minY..<rect.maxY { restore(y, rect.minX..<rect.maxX, arc: inside) }
            return
        }
        for y in rect.minY..<rect.maxY {
            sector.forEachRun(row: y, columns: rect.minX..<rect.maxX) { columns, inside in
                restore(y, columns, arc: inside)
            }
        }
    }

    /// The static picture over `part`, then the value arc clipped to it, and
    /// the label's text `withText`: the dynamic layer (away from the other
    /// parts, the arc alone), drawn without the gauge's body (which sizes and
    /// lays out the label again).
    private func strokeArc(_ a: ArcRepaint, in part: IntRect, withText: Bool, on c: Canvas) {
        a.picture.restore(part, on: c, background: background)
        c.withClip(part) {
            if let stroke = a.arc.stroke {
                a.arc.layout.strokeValueArc(to: a.arc.value, cap: a.arc.cap, stroke, on: c)
            }
            if withText {
                a.arc.text?.draw(on: c)
                textDraws += 1
            }
        }
    }

    /// The static picture over `area` (within the frame), then the dynamic
    /// layer over it, clipped to `area`: the rasterizer gives a shape the same
    /// pixels inside a clip as unclipped, so this is what a full redraw shows
    /// there. With the layering's dynamic parts, only those whose bounds meet
    /// `area`, in order (the others paint nothing in it), without the gauge's body.
    private func drawDynamicLayer(_ i: Int, value: Double, peaks: GaugePeaks?, in area: IntRect, on c: Canvas) {
        let slot = slots[i], f = slot.frame
        let area = area.intersection(f)
        guard !area.isEmpty else { return }
        slot.picture!.restore(area, on: c, background: background)
        c.withClip(area) {
            if let parts = layering(i, value: value, peaks: peaks).dynamicParts {
                for part in parts where part.bounds.contains(where: { IntRect(covering: $0).intersects(area) }) {
                    part.draw(c)
                }
            } else {
                items[i].gauge(showing: value, peaks: peaks).draw(in: Rect(f), on: c, fonts: fonts, layers: .dynamic)
            }
        }
    }

    /// Gauge `i` over a cleared frame: every layer, clipped to its frame. A
    /// gauge that owns its frame keeps a picture of its static layer on the way.
    private func drawFromScratch(_ i: Int, value: Double, peaks: GaugePeaks?, on c: Canvas) {
        let slot = slots[i], f = slot.frame
        let gauge = items[i].gauge(showing: value, peaks: peaks)
        guard cachesPictures, slot.cluster.count == 1 else {
            c.withClip(f) { gauge.draw(in: Rect(f), on: c, fonts: fonts) }
            return
        }
        c.withClip(f) { gauge.draw(in: Rect(f), on: c, fonts: fonts, layers: .static) }
        let l = layering(i, value: value, peaks: peaks)
        let picture = StaticPicture(of: f, on: c, background: background, key: l.staticKey)
        slot.dropPictures()
        slot.picture = picture
        if let others = l.valueArc?.others {
            for o in others { slot.note(IntRect(covering: o)) }
        } else {
            slot.note(f)
        }
        if let arc = l.valueArc, let stroke = arc.stroke, let key = ArcKey(arc) {
            // The whole arc over the static layer, kept, then the static layer back.
            c.withClip(f) { arc.layout.strokeValueArc(to: 1, cap: arc.cap, stroke, on: c) }
            slot.arcPicture = (ArcOverlay(of: f, on: c.surface, over: picture), key)
            picture.restore(f, on: c, background: background)
        }
        c.withClip(f) { gauge.draw(in: Rect(f), on: c, fonts: fonts, layers: .dynamic) }
    }

    /// Gauge `i` stale over a cleared frame, clipped to it: the gauge with
    /// the stale tint and dash, then the frame faded toward the background.
    /// Its pictures are dropped: they show it fresh, and the surface no
    /// longer does.
    private func drawStale(_ i: Int, value: Double, peaks: GaugePeaks?, on c: Canvas) {
        let slot = slots[i], f = slot.frame
        slot.dropPictures()
        let gauge = items[i].staleGauge(showing: value, dash: staleDash, tint: staleTint, peaks: peaks)
        c.withClip(f) {
            gauge.draw(in: Rect(f), on: c, fonts: fonts)
            c.fill(Rect(f), paint: .solid(background.opacity(Self.staleFade)))
        }
    }

    /// Gauge `i` without a value over a cleared frame, clipped to it: no
    /// indicator, and its item's text for no value where it shows its
    /// current value. Drawn like a stale gauge in whole frames, without
    /// pictures, and not faded: the text says what it is.
    private func drawWithoutValue(_ i: Int, peaks: GaugePeaks?, on c: Canvas) {
        let slot = slots[i], f = slot.frame
        slot.dropPictures()
        let gauge = items[i].gauge(showing: nil, peaks: peaks)
        c.withClip(f) { gauge.draw(in: Rect(f), on: c, fonts: fonts) }
    }

    private func layering(_ i: Int, value: Double, peaks: GaugePeaks?) -> GaugeLayering {
        let slot = slots[i]
        if let memo = slot.layering, memo.value == value, memo.peaks == peaks { return memo.layering }
        let l = items[i].gauge(showing: value, peaks: peaks).layering(in: Rect(slot.frame), fonts: fonts)
        slot.layering = (value, peaks, l)
        return l
    }

    /// One item on the screen: where it lands, and what the scene keeps for
    /// it between repaints.
    private final class Slot {
        /// The item's name and whether it is a widget (read every frame: kept
        /// here, not copied out of the item).
        let name: String
        let isWidget: Bool
        /// Whether no item before it has its name (the one its value sets).
        let isFirstOfName: Bool
        /// The item's frame clipped to the screen (empty when it lies off it).
        let frame: IntRect
        /// The slots whose frames overlap this one, directly or through others
        /// (itself included), in order. They are redrawn together.
        let cluster: [Int]
        /// The frame with the background and the static layer, for the static key it was drawn for.
        var picture: StaticPicture?
        /// With a ``GaugeLayering/ValueArc`` whose stroke is known: the static
        /// picture with the whole value arc (at 1) drawn over it, kept as the
        /// pixels where it differs from the static picture (`ArcOverlay`), and
        /// what it was drawn for. Away from the arc's ends, a pixel of the arc
        /// at any value is the pixel of this picture, so a value change copies it.
        var arcPicture: (picture: ArcOverlay, arc: ArcKey)?
        /// The last layering asked for, and the value it was for (a change
        /// asks for the old and the new value; the next change starts from
        /// this one's new value).
        var layering: (value: Double, peaks: GaugePeaks?, layering: GaugeLayering)?
        /// With a picture: a box holding every pixel that the other parts of
        /// the dynamic layer (the current-value label) painted in the frames
        /// drawn since the picture was made; the whole frame once a frame was
        /// drawn without the whole arc's picture (``RepaintPlan/copiesRunsOnly(_:frame:labelZone:cap:)``).
        var labelZone: IntRect?

        init(name: String, isFirstOfName: Bool, isWidget: Bool, frame: IntRect, cluster: [Int]) {
            self.name = name
            self.isFirstOfName = isFirstOfName
            self.isWidget = isWidget
            self.frame = frame
            self.cluster = cluster
        }

        /// Adds `box` to the label zone.
        func note(_ box: IntRect) {
            if !box.isEmpty { labelZone = labelZone.map { $0.union(box) } ?? box }
        }

        /// Drops the pictures and the label zone that goes with them.
        func dropPictures() {
            picture = nil
            arcPicture = nil
            labelZone = nil
        }
    }
}
