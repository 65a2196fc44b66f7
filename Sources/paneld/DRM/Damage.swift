import PanelGauge

/// Damage bookkeeping: which rectangles a frame must repaint.
enum Damage {
    /// More clip rectangles than this are merged into their bounding box: drivers
    /// walk the list per plane update, and one large copy beats many tiny ones.
    static let maxRects = 8

    /// `rects` clipped to `bounds`, without empty rectangles or ones contained in
    /// another, overlapping ones merged; collapsed into one bounding box when more
    /// than ``maxRects`` remain. The result covers every pixel of the input inside
    /// `bounds` and its rectangles do not overlap.
    static func normalize(_ rects: [IntRect], in bounds: IntRect) -> [IntRect] {
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

    /// More pieces than this and ``disjoint(_:in:)`` gives up cutting.
    static let maxPieces = 128

    /// `rects` clipped to `bounds`, without the ones that others hold, cut into
    /// rectangles that do not overlap and cover exactly the same pixels (each
    /// rectangle less the ones before it);
    /// ``normalize(_:in:)`` when that takes more than ``maxPieces``. What a
    /// frame repaints: merging overlaps into boxes would repaint pixels that
    /// did not change (two arcs of a ring that meet at a corner make the
    /// ring's box); the driver's clip list is `normalize`d separately.
    static func disjoint(_ rects: [IntRect], in bounds: IntRect) -> [IntRect] {
        let clipped = rects.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        // Without the rectangles that others hold (the first of equal ones stays).
        let kept = clipped.enumerated().filter { i, r in
            !clipped.enumerated().contains { j, o in j != i && o.contains(r) && (o != r || j < i) }
        }.map(\.element)
        var pieces: [IntRect] = []
        for r in kept {
            var parts = [r]
            for p in pieces where p.intersects(r) {
                parts = parts.flatMap { $0.subtracting(p) }
            }
            pieces += parts
            if pieces.count > maxPieces { return normalize(rects, in: bounds) }
        }
        return pieces
    }
}
