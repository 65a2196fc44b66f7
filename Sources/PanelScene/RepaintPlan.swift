import PanelGauge

/// What a retained repaint does, decided from plain values: which rectangles
/// get the background, which gauges are drawn from scratch, stale or as
/// widgets, and, for a gauge with a cached static picture, what is put back
/// from its pictures and what of its dynamic layer is drawn again. No pixels:
/// ``GaugeScene`` applies the operations in order (see its description for
/// why each gives the pixels of a full redraw).
enum RepaintPlan {
    /// One gauge slot as a repaint sees it.
    struct Slot: Equatable {
        /// Where the gauge lands on the screen; empty on other pages.
        let frame: IntRect
        /// The slots whose frames overlap this one, directly or through others
        /// (itself included), ascending. They are drawn together.
        let cluster: [Int]
        let kind: Kind
        /// The gauge's cached pictures, when they are good for this repaint
        /// (its static key and the output's pixel format). Only a fresh gauge
        /// that overlaps no other repaints from them.
        let picture: Picture?
        /// Whether the slot repaints from its pictures rather than in its
        /// whole frame. (Stored: `make` reads it in place, per rectangle; a
        /// computed property copied the slot with its arrays, about 2 % of
        /// panel800's `cpu` update.)
        let repaintsFromPicture: Bool

        init(frame: IntRect, cluster: [Int], kind: Kind = .gauge, picture: Picture? = nil) {
            self.frame = frame
            self.cluster = cluster
            self.kind = kind
            self.picture = picture
            repaintsFromPicture = picture != nil && kind == .gauge && cluster.count == 1
        }
    }

    enum Kind: Equatable {
        /// A gauge showing its value.
        case gauge
        /// A gauge drawn dimmed (stale), or without a value.
        case stale
        /// A widget (``SceneWidget``) showing its text.
        case widget
    }

    enum Picture: Equatable {
        /// The static layer: restored, then the dynamic layer drawn over it.
        case staticLayer
        /// The static layer, with the dynamic layer as parts
        /// (``GaugeLayering/dynamicParts``): restored, then the parts that
        /// meet each box drawn; boxes are merged up to ``partSlack``.
        case staticLayerWithParts
        /// The static layer and the whole value arc: the arc copied away from
        /// its ends and the label. (Boxed: a slot is then copied and tested
        /// for a picture as a pointer, not as the arc's fields.)
        indirect case valueArc(ValueArc)
    }

    /// A value arc copied from the pictures (``GaugeLayering/ValueArc``, in
    /// whole pixels).
    struct ValueArc: Equatable {
        /// Boxes drawn exactly: the arc's two ends and the other parts.
        var exact: [IntRect]
        /// The other parts of the dynamic layer (the current-value label).
        var others: [IntRect]
        var cap: LineCap
        /// Whether the layering gives the label's text to draw alone;
        /// without it the dynamic layer is drawn through the gauge's body.
        var hasText: Bool
        /// A box holding every pixel that the other parts painted in the
        /// frames drawn since the picture was made (the whole frame once a
        /// frame was drawn without the whole arc's picture).
        var labelZone: IntRect?

        init(exact: [IntRect], others: [IntRect], cap: LineCap, hasText: Bool, labelZone: IntRect?) {
            self.exact = exact
            self.others = others
            self.cap = cap
            self.hasText = hasText
            self.labelZone = labelZone
        }
    }

    enum Operation: Equatable {
        /// The background over the rectangle.
        case clear(IntRect)
        /// Adds the box to the slot's label zone, before the copies that read it.
        case noteLabelZone(slot: Int, IntRect)
        /// The gauge over its cleared frame, every layer; a gauge that owns
        /// its frame makes its pictures on the way.
        case drawFromScratch(slot: Int)
        /// The gauge dimmed over its cleared frame; its pictures are dropped.
        case drawStale(slot: Int)
        /// The widget over its cleared frame.
        case drawWidget(slot: Int)
        /// The static picture over the rectangle, then the whole dynamic layer
        /// clipped to it.
        case restoreAndDrawDynamic(slot: Int, IntRect)
        /// The rectangle copied row by row from the static picture and the
        /// whole arc's picture; `runsOnly`: only where the whole arc's kept
        /// runs lie (``copiesRunsOnly(_:frame:labelZone:cap:)``).
        case copyArcSectors(slot: Int, IntRect, runsOnly: Bool)
        /// The static picture over the rectangle, then the value arc stroked
        /// clipped to it, and the label's text too `withText`.
        case restoreAndStrokeArc(slot: Int, IntRect, withText: Bool)
    }

    /// The operations that repaint `rects` (within the surface, not empty) of
    /// `slots`: the background over each rectangle that no slot repainting
    /// from its picture holds; then, in slot order, each slot that meets a
    /// rectangle once: from its pictures where it has them, else its whole
    /// cluster over cleared frames (each slot drawn once).
    static func make(rects: [IntRect], slots: [Slot]) -> [Operation] {
        // (Slots are read by index, a field at a time: iterated, or bound to
        // a name, a slot is copied with its arrays.)
        var operations: [Operation] = []
        operations.reserveCapacity(2 * rects.count + 2 * slots.count)
        var cleared: [IntRect] = []
        for r in rects
        where !slots.indices.contains(where: { slots[$0].repaintsFromPicture && slots[$0].frame.contains(r) }) {
            operations.append(.clear(r))
            cleared.append(r)
        }
        // (`map`, not `Array(repeating:count:)`, which took an unspecialized path.)
        var done = slots.indices.map { _ in false }
        for i in slots.indices where !done[i] {
            let frame = slots[i].frame
            var met: [IntRect] = []
            met.reserveCapacity(rects.count)
            for r in rects {
                let m = r.intersection(frame)
                if !m.isEmpty { met.append(m) }
            }
            if met.isEmpty { continue }
            done[i] = true
            if slots[i].repaintsFromPicture {
                switch slots[i].picture {
                case .valueArc(let arc)?:
                    planValueArc(i, arc, frame: frame, met: met, into: &operations)
                case .staticLayer?, .staticLayerWithParts?, nil:
                    // Without the whole arc's picture: no runs to rely on later.
                    operations.append(.noteLabelZone(slot: i, frame))
                    // One box after the other, so that where two overlap the
                    // dynamic layer is laid over the picture once, not twice.
                    let slack = slots[i].picture == .staticLayerWithParts ? partSlack : mergeSlack
                    for r in merging(met, slack: slack) { operations.append(.restoreAndDrawDynamic(slot: i, r)) }
                }
                continue
            }
            for j in slots[i].cluster where !cleared.contains(where: { $0.contains(slots[j].frame) }) {
                operations.append(.clear(slots[j].frame))
            }
            for j in slots[i].cluster {
                switch slots[j].kind {
                case .widget: operations.append(.drawWidget(slot: j))
                case .stale: operations.append(.drawStale(slot: j))
                case .gauge: operations.append(.drawFromScratch(slot: j))
                }
                done[j] = true
            }
        }
        return operations
    }

    /// A value arc's gauge over `met` (its parts of the rectangles): the
    /// rectangles away from the exact boxes copied, then per exact box the
    /// box around its parts in the rectangles drawn (it may take in pixels
    /// outside them: it is drawn as a full redraw would, so they keep their
    /// values).
    private static func planValueArc(
        _ i: Int, _ arc: ValueArc, frame: IntRect, met: [IntRect], into operations: inout [Operation]
    ) {
        let exact = arc.exact, others = arc.others, cap = arc.cap
        var zone = arc.labelZone
        let noted = others.reduce(IntRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
        if !noted.isEmpty {
            operations.append(.noteLabelZone(slot: i, noted))
            zone = zone.map { $0.union(noted) } ?? noted
        }
        for r in met where !exact.contains(where: { $0.contains(r) }) {
            let runsOnly = copiesRunsOnly(r, frame: frame, labelZone: zone, cap: cap)
            operations.append(.copyArcSectors(slot: i, r, runsOnly: runsOnly))
        }
        var parts: [IntRect] = []
        parts.reserveCapacity(exact.count)
        for z in exact {
            var box = IntRect(x: 0, y: 0, width: 0, height: 0)
            for r in met { box = box.union(r.intersection(z)) }
            if !box.isEmpty { parts.append(box) }
        }
        for part in merging(parts, slack: exactSlack) {
            let meetsOthers = others.contains(where: { $0.intersects(part) })
            if meetsOthers && !arc.hasText {
                operations.append(.restoreAndDrawDynamic(slot: i, part))
            } else {
                operations.append(.restoreAndStrokeArc(slot: i, part, withText: meetsOthers))
            }
        }
    }

    /// Whether repainting `rect` of a value arc's gauge (in `frame`, its ends
    /// `cap`) needs only the pixels in the whole arc's kept runs, the others
    /// being the static picture's already. `rect` holds what changed since the
    /// frame the surface shows (a repaint's rectangles do), and that frame was
    /// drawn since the gauge's picture was made: a picture is made when its
    /// whole frame is repainted, and an output's repaint of a frame it missed
    /// holds that whole frame, which is never copied this way. So, outside the
    /// label zone, only the value arc can have painted in `rect`; with butt
    /// ends the arc at any value lies inside the whole arc and paints, at
    /// most, where the whole arc does: in its runs (a pixel that the whole arc
    /// leaves as the static picture has coverage 0 or its colour, and then so
    /// has the arc at any value). Round ends reach past the whole arc's end:
    /// never.
    static func copiesRunsOnly(_ rect: IntRect, frame: IntRect, labelZone: IntRect?, cap: LineCap) -> Bool {
        cap == .butt && !rect.contains(frame) && !(labelZone?.intersects(rect) ?? false)
    }

    /// Pixels a merged box may add before two rectangles of a gauge without a
    /// copied value arc are repainted apart: each costs a draw of the dynamic
    /// layer, about what restoring this many pixels costs (measured:
    /// docs/performance.md, "Tuned constants").
    static let mergeSlack = 32_768

    /// Pixels a merged box of exact parts may add before they are drawn apart.
    static let exactSlack = 4_096

    /// Pixels a merged box of a gauge with dynamic parts may add before they
    /// are drawn apart: each box sets up every part that meets it again (a
    /// dial's needle, arc, hub and value), which costs about what restoring
    /// and sweeping this many pixels does (measured: docs/performance.md,
    /// "Tuned constants").
    static let partSlack = 8_192

    /// `rects` with every two whose box adds at most `slack` pixels to the
    /// pixels of the two replaced by that box, until none are left.
    static func merging(_ rects: [IntRect], slack: Int) -> [IntRect] {
        var rects = rects
        var merged = true
        while merged {
            merged = false
            search: for i in rects.indices {
                for j in rects.indices where j > i {
                    let box = rects[i].union(rects[j])
                    let common = rects[i].intersects(rects[j]) ? rects[i].intersection(rects[j]).area : 0
                    if box.area <= rects[i].area + rects[j].area - common + slack {
                        rects[i] = box
                        rects.remove(at: j)
                        merged = true
                        break search
                    }
                }
            }
        }
        return rects
    }
}
