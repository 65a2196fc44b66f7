import Glibc
import PanelGauge

/// Draws a ``Layout`` with given values into a surface: the background, then
/// each gauge in its PanelGauge style in its rectangle.
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
/// show a frame this renderer drew since the gauge's picture was made, with
/// the rectangles holding every pixel changed since (what the outputs pass),
/// or the rectangles to hold the gauge's whole frame. Gauges that overlap
/// (and gauges without a cached static layer) are redrawn in whole frames.
/// Either may rewrite pixels next to the rectangles asked for (a merged box),
/// and rectangles may overlap: always with the values those pixels have in the
/// new frame. Which of these a repaint does where is decided by ``RepaintPlan``
/// from plain values (frames, clusters, which pictures are good, the arc's
/// exact boxes and label zone); `draw` applies its operations.
///
/// A value change damages only where the gauge's dynamic layer (value
/// indicator, current value) changes (``GaugeLayering/changedBounds(to:)``):
/// for a value arc, the arc between the old and new value in bands along the
/// ring and the label's glyphs that differ; otherwise where the layer was or
/// now is. With ``cachesStaticLayers``, each gauge whose frame overlaps no
/// other gauge keeps a picture of its frame with the background and its static
/// layer (track, zones, labels) in the output's pixel format, drawn the first
/// time the frame is repainted and redrawn when the style's static key
/// changes; a value-arc gauge keeps the whole-arc picture with it. A picture
/// keeps the box around what is not plain background (at most the frame).
///
/// A stale gauge (``Staleness``) is drawn dimmed: its indicator in the
/// layout's text colour (no tint or thresholds, so that an old value never
/// reads as a state: a red "alarm", a green "fine"), a dash for its current
/// value, and its whole frame faded
/// toward the background by ``staleFade``. It is drawn from scratch in whole
/// frames, without pictures (its own are dropped, so it gets new ones when it
/// is fresh again); going stale or fresh damages its whole frame.
///
/// A gauge missing from the values has none (never set, or cleared): it is
/// drawn as "no data" (``LayoutGauge/gauge(showing:)`` with nil), in whole
/// frames as a stale one is; getting or losing a value damages its whole frame.
///
/// A renderer draws one page of the layout: slots of other pages have no
/// frame (they are neither drawn nor damaged). Widgets (``LayoutWidget``)
/// are drawn whole over their cleared frame from the texts passed in; a
/// change of a widget's text damages its frame alone.
package final class PanelRenderer {
    let layout: Layout
    /// The page drawn (an index in ``Layout/pages``).
    let page: Int
    /// Logical screen size the layout is drawn at.
    let width: Int
    let height: Int
    /// Whether repaints start from cached static layers; off for one-shot
    /// renders (nothing to reuse) and for measuring a redraw from scratch.
    let cachesStaticLayers: Bool
    private var canvas: Canvas?
    private let fonts: FontCache
    /// Per gauge, in layout order: everything the renderer keeps for it.
    private let slots: [Slot]
    /// The widgets' largest text steps: those of the page's gauges on the type
    /// scale, the value step at most the largest value they show.
    private let widgetCap: TextSizes?
    /// Parts of the dynamic layer repainted from a value arc's `text`, not
    /// through the gauge's body (for tests).
    private(set) var textDraws = 0
    /// What a stale gauge shows for its value: an em dash, or a hyphen-minus
    /// when the layout's font has no em dash.
    let staleDash: String

    /// The smallest share of the largest value size in a group of frames of
    /// one size that the group's shared value size may fall to.
    static let sharedValueFloor = 0.5

    /// How far a stale gauge's frame is faded toward the background: its
    /// pixels keep 45 % of their contrast, readable but clearly inactive.
    static let staleFade = 0.55

    package init(
        layout: Layout, width: Int, height: Int, page: Int = 0, cachesStaticLayers: Bool = true,
        fonts: FontCache = .shared
    ) {
        self.page = page
        self.width = width
        self.height = height
        self.cachesStaticLayers = cachesStaticLayers
        self.fonts = fonts
        let screen = IntRect(x: 0, y: 0, width: width, height: height)
        let placed = layout.placement(screen: (width, height)).frames
        let none = IntRect(x: 0, y: 0, width: 0, height: 0)
        let frames = layout.gauges.indices.map { i in
            layout.gauges[i].page == page && i < placed.count ? placed[i].intersection(screen) : none
        }
        self.layout = Self.uniformText(layout, frames: frames)
        slots = zip(frames, PanelRenderer.overlapClusters(frames)).map { Slot(frame: $0, cluster: $1) }
        let onScale = layout.gauges.indices.filter {
            layout.gauges[$0].widget == nil && layout.gauges[$0].gauge.environment.typeScale != nil
        }
        var cap = TextSizes.smallest(of: onScale.map { frames[$0] })
        // A clock or a text widget is never larger than the largest value the
        // page's gauges show: the values are the page's first texts.
        let shown = self.layout
        let values = onScale.compactMap { i in
            frames[i].isEmpty ? nil : shown.gauges[i].gauge.currentValueSize(in: Rect(frames[i]))
        }
        if let largest = values.max(), largest > 0, let c = cap { cap?.value = min(c.value, largest) }
        widgetCap = cap
        let font = layout.gauges.first?.gauge.environment.font ?? .default
        let hasDash = (try? fonts.font(font, pixelSize: 16))?.hasGlyph(for: "\u{2014}") ?? true
        staleDash = hasDash ? "\u{2014}" : "-"
    }

    /// `layout` with one title size and one end-label size on the page: every
    /// gauge on the type scale takes at most what the smallest such gauge's
    /// frame gets (frames of other pages are empty and count for nothing; text
    /// widgets and clocks neither) (``TypeScale/uniform(over:)``), so a gauge spanning two grid
    /// cells shows its title at its neighbours' size; and one value size for
    /// gauges in frames of one size, whatever their styles.
    static func uniformText(_ layout: Layout, frames: [IntRect]) -> Layout {
        let onScale = layout.gauges.indices.filter {
            $0 < frames.count && layout.gauges[$0].widget == nil && layout.gauges[$0].gauge.environment.typeScale != nil
        }
        let cells = onScale.map { Size(width: Double(frames[$0].width), height: Double(frames[$0].height)) }
        var uniform = layout
        for i in onScale {
            uniform.gauges[i].gauge.environment.typeScale = layout.gauges[i].gauge.environment.typeScale?.uniform(
                over: cells)
        }
        // Gauges in frames of one size: one value size, the smallest any of
        // them chooses (a dial's value has less room than a ring's).
        var groups: [String: [(index: Int, size: Double)]] = [:]
        for i in onScale where !frames[i].isEmpty {
            guard let size = uniform.gauges[i].gauge.currentValueSize(in: Rect(frames[i])), size > 0 else { continue }
            groups["\(frames[i].width)x\(frames[i].height)", default: []].append((i, size))
        }
        // A gauge whose value is much smaller than the largest of the group
        // (a wide value, see `LayoutReader.matchValueSizes`), or smaller than
        // the group's titles (a dial's value in its scale's opening), keeps
        // its own size and sets no limit: one gauge never shrinks its
        // neighbours' values below their titles.
        for members in groups.values where members.count > 1 {
            let largest = members.map(\.size).max()!
            let title =
                members.map { m in
                    let frame = frames[m.index]
                    return uniform.gauges[m.index].gauge.environment.typeScale?.sizes(
                        for: Size(width: Double(frame.width), height: Double(frame.height))
                    ).title ?? 0
                }.max() ?? 0
            let readable = members.filter { $0.size >= max(Self.sharedValueFloor * largest, title) }
            guard let smallest = readable.map(\.size).min() else { continue }
            for m in readable { uniform.gauges[m.index].gauge.environment.typeScale?.valueLimit = smallest }
        }
        // The titles a step below the smallest value that reaches their size,
        // so the value is each gauge's largest text (a value that cannot
        // reach it in its place, such as a dial's in a small cell, does not
        // shrink every title).
        let titles = onScale.compactMap { i -> Double? in
            let f = frames[i]
            return f.isEmpty
                ? nil
                : uniform.gauges[i].gauge.environment.typeScale?.sizes(
                    for: Size(width: Double(f.width), height: Double(f.height))
                ).title
        }
        if let title = titles.max() {
            let values = onScale.compactMap { i -> Double? in
                frames[i].isEmpty ? nil : uniform.gauges[i].gauge.currentValueSize(in: Rect(frames[i]))
            }.filter { $0 >= title }
            if let value = values.min(), value <= title + 1e-9 || value < 1.2 * title,
                let below = TypeScale.steps.last(where: { $0 < value })
            {
                for i in onScale {
                    guard var scale = uniform.gauges[i].gauge.environment.typeScale else { continue }
                    scale.titleLimit = max(scale.minimum, min(scale.titleLimit ?? below, below))
                    uniform.gauges[i].gauge.environment.typeScale = scale
                }
            }
        }
        return uniform
    }

    /// The text size of widget `i` (a text widget or a clock) in its frame.
    func widgetPixelSize(_ i: Int) -> Double {
        let g = layout.gauges[i]
        return g.widget?.pixelSize(in: slots[i].frame, cap: widgetCap, font: g.gauge.environment.font, fonts: fonts)
            ?? 0
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

    /// The rectangles that change when the named gauges go from the values in
    /// `old` to those in `new`, and from the stale gauges `stale.old` to
    /// `stale.new`: per gauge, where its dynamic layer changes; its whole frame
    /// when its static layer changes too, its style cannot say where it draws,
    /// or it is stale before or after; the frames of every gauge it overlaps.
    func damage(
        for names: Set<String>, from old: [String: Double], to new: [String: Double],
        stale: (old: Set<String>, new: Set<String>) = ([], [])
    ) -> [IntRect] {
        var rects: [IntRect] = []
        for (i, g) in layout.gauges.enumerated() where names.contains(g.name) {
            let slot = slots[i]
            let f = slot.frame
            if f.isEmpty { continue }
            guard g.widget == nil, slot.cluster.count == 1, !stale.old.contains(g.name), !stale.new.contains(g.name),
                let from = old[g.name], let to = new[g.name]
            else {
                rects += slot.cluster.map { slots[$0].frame }
                continue
            }
            let a = layering(i, value: from)
            let b = layering(i, value: to)
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

    /// Repaints `rects` of `surface`: the background, and every gauge that
    /// meets them, drawn in whole units (see the type's description); the
    /// gauges named in `stale` dimmed; each widget showing its text in `texts`.
    /// What is drawn where is ``RepaintPlan``'s; this applies its operations.
    package func draw(
        _ surface: Surface, rects: [IntRect], values: [String: Double], stale: Set<String> = [],
        texts: [String: String] = [:]
    ) {
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
            let name = layout.gauges[i].name
            let kind: RepaintPlan.Kind =
                layout.gauges[i].widget != nil
                ? .widget : stale.contains(name) || values[name] == nil ? .stale : .gauge
            var picture: RepaintPlan.Picture?
            if kind == .gauge && slot.cluster.count == 1 && rects.contains(where: { slot.frame.intersects($0) }) {
                let v = values[name]!
                if let staticPicture = self.picture(i, value: v, format: format) {
                    if let (overlay, arc) = arcPicture(i, value: v) {
                        let sector = ArcSector(arc.layout, upTo: arc.value)
                        repaint = Repaint(
                            value: v,
                            arc: ArcRepaint(overlay: overlay, picture: staticPicture, arc: arc, sector: sector))
                        picture = .valueArc(
                            RepaintPlan.ValueArc(
                                exact: arc.exactBounds.map { IntRect(covering: $0) },
                                others: arc.others.map { IntRect(covering: $0) }, cap: arc.cap,
                                hasText: arc.text != nil,
                                labelZone: slot.labelZone))
                    } else {
                        repaint = Repaint(value: v, arc: nil)
                        picture = layering(i, value: v).dynamicParts == nil ? .staticLayer : .staticLayerWithParts
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
                c.withClip(r) { c.clear(layout.background) }
            case .noteLabelZone(let i, let box):
                slots[i].note(box)
            case .drawFromScratch(let i):
                drawFromScratch(i, value: values[layout.gauges[i].name] ?? layout.gauges[i].range.lower, on: c)
            case .drawStale(let i):
                if let v = values[layout.gauges[i].name] {
                    drawStale(i, value: v, on: c)
                } else {
                    drawWithoutValue(i, on: c)
                }
            case .drawWidget(let i):
                let f = slots[i].frame, gauge = layout.gauges[i]
                c.withClip(f) {
                    gauge.widget?.draw(
                        texts[gauge.name] ?? "", in: f, cap: widgetCap, on: c, environment: gauge.gauge.environment,
                        fonts: fonts)
                }
            case .restoreAndDrawDynamic(let i, let r):
                if i != shownSlot { (shown, shownSlot) = (repaints[i], i) }
                drawDynamicLayer(i, value: shown!.value, in: r, on: c)
            case .copyArcSectors(let i, let r, let runsOnly):
                if i != shownSlot { (shown, shownSlot) = (repaints[i], i) }
                copySectors(r, runsOnly: runsOnly, shown!.arc!, on: surface)
            case .restoreAndStrokeArc(let i, let part, let withText):
                if i != shownSlot { (shown, shownSlot) = (repaints[i], i) }
                strokeArc(shown!.arc!, in: part, withText: withText, on: c)
            }
        }
    }

    /// A gauge repainted from its pictures in one `draw`: the value it shows,
    /// and its value arc when that is copied (``ArcRepaint`` is a class: the
    /// operations read the arc by reference, not as copies).
    private struct Repaint {
        let value: Double
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
    var pictureBytes: Int {
        slots.reduce(0) { $0 + ($1.picture?.bytes ?? 0) + ($1.arcPicture?.picture.bytes ?? 0) }
    }

    /// The whole screen.
    func drawAll(
        _ surface: Surface, values: [String: Double], stale: Set<String> = [], texts: [String: String] = [:]
    ) {
        draw(surface, rects: [surface.bounds], values: values, stale: stale, texts: texts)
    }

    /// Gauge `i`'s picture of its static layer, when it is good for `value`.
    private func picture(_ i: Int, value: Double, format: PixelFormat) -> StaticPicture? {
        guard layout.gauges[i].widget == nil, let p = slots[i].picture, p.format == format,
            p.key == layering(i, value: value).staticKey
        else { return nil }
        return p
    }

    /// Gauge `i`'s picture with the whole value arc, and the value arc at
    /// `value`, when that picture gives the arc's pixels away from its ends:
    /// same static layer, circle, ends and paint, and an arc that follows the circle.
    private func arcPicture(_ i: Int, value: Double) -> (ArcOverlay, GaugeLayering.ValueArc)? {
        guard let (picture, key) = slots[i].arcPicture, let arc = layering(i, value: value).valueArc,
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
        a.picture.restore(part, on: c, background: layout.background)
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
    private func drawDynamicLayer(_ i: Int, value: Double, in area: IntRect, on c: Canvas) {
        let slot = slots[i], f = slot.frame
        let area = area.intersection(f)
        guard !area.isEmpty else { return }
        slot.picture!.restore(area, on: c, background: layout.background)
        c.withClip(area) {
            if let parts = layering(i, value: value).dynamicParts {
                for part in parts where part.bounds.contains(where: { IntRect(covering: $0).intersects(area) }) {
                    part.draw(c)
                }
            } else {
                layout.gauges[i].gauge(showing: value).draw(in: Rect(f), on: c, fonts: fonts, layers: .dynamic)
            }
        }
    }

    /// Gauge `i` over a cleared frame: every layer, clipped to its frame. A
    /// gauge that owns its frame keeps a picture of its static layer on the way.
    private func drawFromScratch(_ i: Int, value: Double, on c: Canvas) {
        let slot = slots[i], f = slot.frame
        let gauge = layout.gauges[i].gauge(showing: value)
        guard cachesStaticLayers, slot.cluster.count == 1 else {
            c.withClip(f) { gauge.draw(in: Rect(f), on: c, fonts: fonts) }
            return
        }
        c.withClip(f) { gauge.draw(in: Rect(f), on: c, fonts: fonts, layers: .static) }
        let l = layering(i, value: value)
        let picture = StaticPicture(of: f, on: c, background: layout.background, key: l.staticKey)
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
            picture.restore(f, on: c, background: layout.background)
        }
        c.withClip(f) { gauge.draw(in: Rect(f), on: c, fonts: fonts, layers: .dynamic) }
    }

    /// Gauge `i` stale over a cleared frame, clipped to it: the gauge with
    /// the stale tint and dash, then the frame faded toward the background.
    /// Its pictures are dropped: they show it fresh, and the surface no
    /// longer does.
    private func drawStale(_ i: Int, value: Double, on c: Canvas) {
        let slot = slots[i], f = slot.frame
        slot.dropPictures()
        let gauge = layout.gauges[i].staleGauge(showing: value, dash: staleDash, tint: layout.foreground)
        c.withClip(f) {
            gauge.draw(in: Rect(f), on: c, fonts: fonts)
            c.fill(Rect(f), paint: .solid(layout.background.opacity(Self.staleFade)))
        }
    }

    /// Gauge `i` without a value over a cleared frame, clipped to it: no
    /// indicator, and "no data" (or its layout's text) where it shows its
    /// current value. Drawn like a stale gauge in whole frames, without
    /// pictures, and not faded: the text says what it is.
    private func drawWithoutValue(_ i: Int, on c: Canvas) {
        let slot = slots[i], f = slot.frame
        slot.dropPictures()
        let gauge = layout.gauges[i].gauge(showing: nil)
        c.withClip(f) { gauge.draw(in: Rect(f), on: c, fonts: fonts) }
    }

    private func layering(_ i: Int, value: Double) -> GaugeLayering {
        let slot = slots[i]
        if let memo = slot.layering, memo.value == value { return memo.layering }
        let l = layout.gauges[i].gauge(showing: value).layering(in: Rect(slot.frame), fonts: fonts)
        slot.layering = (value, l)
        return l
    }

    /// One gauge of the layout on this screen: where it lands, and what the
    /// renderer keeps for it between repaints.
    private final class Slot {
        /// Where the gauge lands on this screen (its rect or grid cell,
        /// ``Layout/placement(screen:)``), clipped to the screen; empty for
        /// gauges of other pages.
        let frame: IntRect
        /// The slots whose frames overlap this one, directly or through others
        /// (itself included), in layout order. They are redrawn together.
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
        var layering: (value: Double, layering: GaugeLayering)?
        /// With a picture: a box holding every pixel that the other parts of
        /// the dynamic layer (the current-value label) painted in the frames
        /// drawn since the picture was made; the whole frame once a frame was
        /// drawn without the whole arc's picture (``RepaintPlan/copiesRunsOnly(_:frame:labelZone:cap:)``).
        var labelZone: IntRect?

        init(frame: IntRect, cluster: [Int]) {
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

/// What a picture of a whole value arc was drawn for (over the static picture
/// it is kept with, whose key the renderer checks first).
private struct ArcKey: Equatable {
    var layout: CircularGaugeLayout
    var cap: LineCap
    var stroke: GaugeLayering.ValueArc.Stroke

    /// Nil when the arc's stroke is not known.
    init?(_ arc: GaugeLayering.ValueArc) {
        guard let stroke = arc.stroke else { return nil }
        layout = arc.layout
        cap = arc.cap
        self.stroke = stroke
    }
}

/// The pixels of a frame that differ from its static picture (the whole value
/// arc drawn over it), row by row as runs: a ring's annulus, not its frame.
private final class ArcOverlay {
    private struct Run {
        var x0: Int32
        var x1: Int32
        /// Byte offset of the run's pixels in `pixels`.
        var offset: Int32
        /// Byte offset of the static picture's pixel under x0 in its kept
        /// pixels (`StaticPicture.offset(of:)`), or -1 when the run does not
        /// lie in them.
        var under: Int32
    }

    private let frame: IntRect
    /// The static picture the runs were found over (whose pixels `Run.under` points into).
    private let base: StaticPicture
    private let bpp: Int
    /// Row y's runs are `runs[rowStarts[y - frame.minY] ..< rowStarts[y - frame.minY + 1]]`.
    /// (Immutable pointers, not arrays: an array in a class property is
    /// checked for exclusive access at every read.)
    private let rowStarts: UnsafeMutablePointer<Int32>
    private let runs: UnsafeMutablePointer<Run>
    private let pixels: UnsafeMutableRawPointer
    let bytes: Int

    /// Differing pixels closer than this join one run (fewer runs to look
    /// up; the pixels between are the static picture's, kept twice).
    private static let joinGap = 8

    /// Keeps what `surface` shows in `frame` where it differs from `picture`.
    init(of frame: IntRect, on surface: Surface, over picture: StaticPicture) {
        self.frame = frame
        base = picture
        let bpp = surface.format.bytesPerPixel
        self.bpp = bpp
        var rowStarts: [Int32] = [], runs: [Run] = [], pixels: [UInt8] = []
        let line = Image(width: max(1, frame.width), height: 1, format: surface.format)
        let under = line.surface.row(0)
        rowStarts.reserveCapacity(frame.height + 1)
        for y in frame.minY..<frame.maxY {
            rowStarts.append(Int32(runs.count))
            // The static row, its column frame.minX at the start of `line`.
            picture.restoreRow(y, columns: frame.minX..<frame.maxX, into: under - frame.minX * bpp)
            let row = surface.row(y) + frame.minX * bpp
            var x = 0
            while x < frame.width {
                if memcmp(row + x * bpp, under + x * bpp, bpp) == 0 {
                    x += 1
                    continue
                }
                // A run of differing pixels, gaps under `joinGap` included.
                var end = x + 1, same = 0
                while end < frame.width && same < Self.joinGap {
                    same = memcmp(row + end * bpp, under + end * bpp, bpp) == 0 ? same + 1 : 0
                    end += 1
                }
                end -= same
                let x0 = frame.minX + x, x1 = frame.minX + end
                let under = picture.offset(of: IntRect(minX: x0, minY: y, maxX: x1, maxY: y + 1)) ?? -1
                runs.append(Run(x0: Int32(x0), x1: Int32(x1), offset: Int32(pixels.count), under: Int32(under)))
                pixels.append(contentsOf: UnsafeRawBufferPointer(start: row + x * bpp, count: (end - x) * bpp))
                x = end
            }
        }
        rowStarts.append(Int32(runs.count))
        self.rowStarts = .allocate(capacity: rowStarts.count)
        self.rowStarts.initialize(from: rowStarts, count: rowStarts.count)
        self.runs = .allocate(capacity: max(1, runs.count))
        self.runs.initialize(from: runs, count: runs.count)
        let kept = UnsafeMutableRawPointer.allocate(byteCount: max(1, pixels.count), alignment: 16)
        pixels.withUnsafeBytes { kept.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        self.pixels = kept
        bytes = pixels.count + runs.count * MemoryLayout<Run>.stride + rowStarts.count * 4
    }

    deinit {
        rowStarts.deallocate()
        runs.deallocate()
        pixels.deallocate()
    }

    /// Copies onto `surface` the pixels of the kept runs within `rect`: the
    /// runs' own, or `picture`'s (the static one) when given.
    func copyRuns(in rect: IntRect, on surface: Surface, from picture: StaticPicture?) {
        let y0 = max(rect.minY, frame.minY), y1 = min(rect.maxY, frame.maxY)
        guard y0 < y1 else { return }
        if let picture, picture === base, let kept = picture.keptPixels {
            // A run in the picture's kept pixels is copied from there at once.
            // (A loop of its own: the test for the picture inside the copy
            // loop would cost every run.)
            let runs = self.runs, bpp = self.bpp
            copyRuns(y0..<y1, rect.minX, rect.maxX, on: surface) { y, a, b, x0, k, row in
                let under = Int(runs[k].under)
                if under >= 0 {
                    (row + a &* bpp).copyMemory(from: kept + (under &+ (a &- x0) &* bpp), byteCount: (b &- a) &* bpp)
                } else {
                    picture.restoreRow(y, columns: a..<b, into: row)
                }
            }
        } else if let picture {
            copyRuns(y0..<y1, rect.minX, rect.maxX, on: surface) { y, a, b, _, _, row in
                picture.restoreRow(y, columns: a..<b, into: row)
            }
        } else {
            let pixels = self.pixels, bpp = self.bpp
            let runs = self.runs
            copyRuns(y0..<y1, rect.minX, rect.maxX, on: surface) { _, a, b, x0, k, row in
                let offset = Int(runs[k].offset)
                (row + a &* bpp).copyMemory(from: pixels + (offset &+ (a &- x0) &* bpp), byteCount: (b &- a) &* bpp)
            }
        }
    }

    /// Copies onto `surface` the pixels of the kept runs within `rect`: the
    /// runs' own where their centres lie in `sector`, `picture`'s (the static
    /// one) elsewhere.
    func copyRuns(in rect: IntRect, on surface: Surface, split sector: ArcSector, over picture: StaticPicture) {
        let y0 = max(rect.minY, frame.minY), y1 = min(rect.maxY, frame.maxY)
        guard y0 < y1 else { return }
        let pixels = self.pixels, bpp = self.bpp
        let runs = self.runs
        copyRuns(y0..<y1, rect.minX, rect.maxX, on: surface) { y, a, b, x0, k, row in
            let offset = Int(runs[k].offset)
            // The pieces between the row's cuts each lie on one side (their
            // middle pixel tells which). `ArcSector.forEachRun` splits a row
            // the same way, but its closure costs the default ring's update
            // more, so the pieces are copied here.
            let cuts = sector.cuts(row: y)
            var from = a
            @inline(__always) func piece(to end: Int) {
                let to = min(end, b)
                guard to > from else { return }
                if sector.contains(columns: from, to, row: y) {
                    (row + from &* bpp).copyMemory(
                        from: pixels + (offset &+ (from &- x0) &* bpp), byteCount: (to &- from) &* bpp)
                } else {
                    picture.restoreRow(y, columns: from..<to, into: row)
                }
                from = to
            }
            piece(to: cuts.0)
            piece(to: cuts.1)
            piece(to: cuts.2)
            piece(to: b)
        }
    }

    /// The parts within columns lo ..< hi of the runs of rows `rows`, to `copy`
    /// (row, columns a ..< b, the run's first column and index, and the
    /// surface row's address). The loop's values in locals: read through
    /// `self`, they were loaded again after every copy.
    @inline(__always)
    private func copyRuns(
        _ rows: Range<Int>, _ lo: Int, _ hi: Int, on surface: Surface,
        _ copy: (Int, Int, Int, Int, Int, UnsafeMutableRawPointer) -> Void
    ) {
        let rowStarts = self.rowStarts, runs = self.runs, minY = frame.minY, stride = surface.stride
        var row = surface.row(rows.lowerBound)
        var k = Int(rowStarts[rows.lowerBound &- minY])
        for y in rows {
            // A row's runs lie left to right.
            let end = Int(rowStarts[y &- minY &+ 1])
            while k < end {
                let run = runs[k]
                let x0 = Int(run.x0), x1 = Int(run.x1)
                if x0 >= hi { break }
                k &+= 1
                if x1 <= lo { continue }
                copy(y, max(x0, lo), min(x1, hi), x0, k &- 1, row)
            }
            k = end
            row += stride
        }
    }

    /// Puts the whole-arc picture back over `columns` of row `y`: the kept
    /// pixels, and `picture` (the static one) between them.
    func restoreRow(_ y: Int, columns: Range<Int>, on surface: Surface, over picture: StaticPicture) {
        guard y >= frame.minY && y < frame.maxY else {
            return picture.restoreRow(y, columns: columns, on: surface)
        }
        let row = surface.row(y)
        var x = columns.lowerBound
        let r = y &- frame.minY
        for k in Int(rowStarts[r])..<Int(rowStarts[r &+ 1]) {
            let run = runs[k]
            let lo = max(Int(run.x0), x), hi = min(Int(run.x1), columns.upperBound)
            if lo >= hi { continue }
            if x < lo { picture.restoreRow(y, columns: x..<lo, into: row) }
            let offset: Int = Int(run.offset) &+ (lo &- Int(run.x0)) &* bpp
            let source = pixels + offset
            (row + lo &* bpp).copyMemory(from: source, byteCount: (hi &- lo) &* bpp)
            x = hi
        }
        if x < columns.upperBound { picture.restoreRow(y, columns: x..<columns.upperBound, into: row) }
    }
}

/// One gauge's frame with the background and the gauge's static layer, in a
/// surface format, as drawn for one static key. Only the box around what
/// differs from the background is kept (a ring filling the screen needs its
/// square, not the screen); the rest is cleared to the background again, as a
/// full redraw does.
private final class StaticPicture {
    let frame: IntRect
    let format: PixelFormat
    let key: AnyHashable
    /// The part of the frame that is not plain background, and its pixels.
    let extent: IntRect
    private let image: Image?
    /// A row of the frame cleared to the background, as `Canvas.clear` paints it.
    private let backgroundLine: Image
    /// The first rows of `image` and `backgroundLine` (kept alive by them), and
    /// the image's stride: what `restoreRow` reads, without touching the images.
    private let pixels: UnsafeRawPointer?
    private let pixelStride: Int
    private let backgroundRow: UnsafeRawPointer

    /// Keeps the static layer that `canvas`'s surface now shows in `frame`
    /// (drawn over the frame cleared to `background`).
    init(of frame: IntRect, on canvas: Canvas, background: Color, key: AnyHashable) {
        let surface = canvas.surface
        self.frame = frame
        format = surface.format
        self.key = key
        extent = Self.inkedBox(of: frame, on: canvas, background: background)
        image = extent.isEmpty ? nil : Image(width: extent.width, height: extent.height, format: format)
        if let image { Self.copyRows(extent.height, from: surface.subsurface(extent), to: image.surface) }
        backgroundLine = Image(width: max(1, frame.width), height: 1, format: format)
        Canvas(surface: backgroundLine.surface).clear(background)
        pixels = image.map { UnsafeRawPointer($0.surface.base) }
        pixelStride = image?.surface.stride ?? 0
        backgroundRow = UnsafeRawPointer(backgroundLine.surface.base)
    }

    /// Puts the picture back over `rect` (screen coordinates, within the frame).
    func restore(_ rect: IntRect, on canvas: Canvas, background: Color) {
        let rect = rect.intersection(frame)
        for part in rect.subtracting(extent) { canvas.withClip(part) { canvas.clear(background) } }
        let inked = rect.intersection(extent)
        guard let image, !inked.isEmpty else { return }
        let local = IntRect(x: inked.x - extent.x, y: inked.y - extent.y, width: inked.width, height: inked.height)
        Self.copyRows(inked.height, from: image.surface.subsurface(local), to: canvas.surface.subsurface(inked))
    }

    /// Where `rect`'s first pixel lies in the kept pixels (bytes from
    /// `keptPixels`), when `rect` lies in them.
    func offset(of rect: IntRect) -> Int? {
        guard pixels != nil, extent.contains(rect) else { return nil }
        return (rect.minY - extent.minY) * pixelStride + (rect.minX - extent.minX) * format.bytesPerPixel
    }

    /// The first kept pixel (nil when none is kept).
    var keptPixels: UnsafeRawPointer? { pixels }

    /// The pixels kept, and a background row.
    var bytes: Int { (extent.area + frame.width) * format.bytesPerPixel }

    /// Puts the picture back over `columns` of row `y` (within the frame).
    func restoreRow(_ y: Int, columns: Range<Int>, on surface: Surface) {
        restoreRow(y, columns: columns, into: surface.row(y))
    }

    /// `restoreRow` into the row whose column 0 is at `row`.
    // (Wrapping arithmetic: the values are pixel coordinates within the
    // screen; the checked forms cost a branch each in the repaint's row loop.)
    func restoreRow(_ y: Int, columns: Range<Int>, into row: UnsafeMutableRawPointer) {
        let bpp = format.bytesPerPixel
        var x = columns.lowerBound
        if let pixels, y >= extent.minY && y < extent.maxY {
            let lo = max(x, extent.minX), hi = min(columns.upperBound, extent.maxX)
            if lo < hi {
                if x < lo { (row + x &* bpp).copyMemory(from: backgroundRow, byteCount: (lo &- x) &* bpp) }
                let offset: Int = (y &- extent.minY) &* pixelStride &+ (lo &- extent.minX) &* bpp
                let source = pixels + offset
                (row + lo &* bpp).copyMemory(from: source, byteCount: (hi &- lo) &* bpp)
                x = hi
            }
        }
        if x < columns.upperBound {
            (row + x &* bpp).copyMemory(from: backgroundRow, byteCount: (columns.upperBound &- x) &* bpp)
        }
    }

    /// The box around the pixels of `frame` that differ from the background as
    /// `clear` paints it; each row is compared with a cleared copy of itself
    /// and then put back.
    private static func inkedBox(of frame: IntRect, on canvas: Canvas, background: Color) -> IntRect {
        let surface = canvas.surface
        let bpp = surface.format.bytesPerPixel
        let saved = UnsafeMutableRawPointer.allocate(byteCount: max(1, frame.width * bpp), alignment: 16)
        defer { saved.deallocate() }
        var box: IntRect?
        for y in frame.minY..<frame.maxY {
            let row = surface.row(y) + frame.x * bpp
            saved.copyMemory(from: row, byteCount: frame.width * bpp)
            canvas.withClip(IntRect(x: frame.x, y: y, width: frame.width, height: 1)) { canvas.clear(background) }
            if memcmp(row, saved, frame.width * bpp) != 0 {
                var first = 0, last = frame.width - 1
                while memcmp(row + first * bpp, saved + first * bpp, bpp) == 0 { first += 1 }
                while memcmp(row + last * bpp, saved + last * bpp, bpp) == 0 { last -= 1 }
                let inked = IntRect(x: frame.x + first, y: y, width: last - first + 1, height: 1)
                box = box.map { $0.union(inked) } ?? inked
                row.copyMemory(from: saved, byteCount: frame.width * bpp)
            }
        }
        return box ?? IntRect(x: frame.x, y: frame.y, width: 0, height: 0)
    }

    private static func copyRows(_ rows: Int, from source: Surface, to destination: Surface) {
        let bytes = source.width * source.format.bytesPerPixel
        for y in 0..<rows {
            destination.row(y).copyMemory(from: source.row(y), byteCount: bytes)
        }
    }
}

extension IntRect {
    /// The parts of this rectangle outside `other`: up to four rectangles
    /// (above, below, left and right of it), not overlapping.
    func subtracting(_ other: IntRect) -> [IntRect] {
        let o = intersection(other)
        if o.isEmpty { return isEmpty ? [] : [self] }
        return [
            IntRect(minX: minX, minY: minY, maxX: maxX, maxY: o.minY),
            IntRect(minX: minX, minY: o.maxY, maxX: maxX, maxY: maxY),
            IntRect(minX: minX, minY: o.minY, maxX: o.minX, maxY: o.maxY),
            IntRect(minX: o.maxX, minY: o.minY, maxX: maxX, maxY: o.maxY),
        ].filter { !$0.isEmpty }
    }
}
