import PanelGauge

/// Damage bookkeeping: which rectangles a frame must repaint.
package enum Damage {
    /// More clip rectangles than this are merged into their bounding box: drivers
    /// walk the list per plane update, and one large copy beats many tiny ones.
    package static let maxRects = 8

    /// `rects` clipped to `bounds`, without empty rectangles or ones contained in
    /// another, overlapping ones merged; collapsed into one bounding box when more
    /// than ``maxRects`` remain. The result covers every pixel of the input inside
    /// `bounds` and its rectangles do not overlap.
    package static func normalize(_ rects: [IntRect], in bounds: IntRect) -> [IntRect] {
        var work = rects.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        // Merge overlapping rectangles until none overlap. Overlap is rare in
        // practice (gauges do not overlap), so the quadratic loop stays small.
        var merged = true
        while merged {
            merged = false
            outer: for i in work.indices {
                for j in work.indices where j > i && work[i].intersects(work[j]) {
                    work[i] = work[i].union(work[j])
                    work.remove(at: j)
                    merged = true
                    break outer
                }
            }
        }
        if work.count > maxRects {
            return [work.reduce(IntRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }]
        }
        return work
    }

    /// More rectangles than this and ``repaint(_:in:)`` merges them.
    package static let maxRepaintRects = 128

    /// What a frame repaints: `rects` clipped to `bounds`, without empty ones
    /// and ones that another holds (the first of equal ones stays); they may
    /// overlap. ``normalize(_:in:)`` when more than ``maxRepaintRects`` remain.
    /// Merging overlaps into boxes would repaint pixels that did not change (two
    /// bands of a ring that share a row make the box of both), and the
    /// renderer repaints an overlap twice with the same pixels; the driver's
    /// clip list is `normalize`d separately.
    package static func repaint(_ rects: [IntRect], in bounds: IntRect) -> [IntRect] {
        var kept: [IntRect] = []
        kept.reserveCapacity(rects.count)
        for r in rects {
            let c = r.intersection(bounds)
            if c.isEmpty || kept.contains(where: { $0.contains(c) }) { continue }
            kept.removeAll { c.contains($0) }
            kept.append(c)
        }
        return kept.count > maxRepaintRects ? normalize(kept, in: bounds) : kept
    }
}
