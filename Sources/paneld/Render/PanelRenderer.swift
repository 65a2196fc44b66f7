import PanelGauge

/// Draws a ``Layout`` with given values into a surface: the background, then
/// each gauge in its PanelGauge style in its rectangle.
///
/// A repaint must give exactly the pixels of a full redraw, and PanelGauge's
/// rasterizer gives the same pixels for a shape only when the shape is clipped
/// the same way (cutting a shape with a clip edge can move an edge pixel by one
/// level). So a gauge is always drawn clipped to its own frame, as in a full
/// redraw, and a repaint redraws whole drawing units, not parts of them: a
/// gauge's dynamic layer over its cached static layer, or, for gauges that
/// overlap (and gauges without a cached static layer), their whole frames.
/// That may rewrite pixels next to the rectangles asked for, always with the
/// values they already have in the new frame.
///
/// A value change damages only where the gauge's dynamic layer (value
/// indicator, current value) was or now is (``GaugeLayering``). With
/// ``cachesStaticLayers``, each gauge whose frame overlaps no other gauge keeps
/// a picture of its frame with the background and its static layer (track,
/// zones, labels) in the output's pixel format, drawn the first time the frame
/// is repainted and redrawn when the style's static key changes. The pictures
/// cost one frame-sized buffer per such gauge.
final class PanelRenderer {
    let layout: Layout
    /// Logical screen size the layout is drawn at.
    let width: Int
    let height: Int
    /// Whether repaints start from cached static layers; off for one-shot
    /// renders (nothing to reuse) and for measuring a redraw from scratch.
    let cachesStaticLayers: Bool
    private var canvas: Canvas?
    private let fonts: FontCache
    /// Per gauge, in layout order: where it lands on this screen (the layout
    /// rect, or the whole screen), clipped to the screen.
    private let frames: [IntRect]
    /// Per gauge: the gauges whose frames overlap its frame, directly or through
    /// others (itself included), in layout order. They are redrawn together.
    private let clusters: [[Int]]
    private var pictures: [StaticPicture?]
    /// Per gauge: the last layering asked for, and the value it was for (a
    /// change asks for the old and the new value; the next change starts from
    /// this one's new value).
    private var layerings: [(value: Double, layering: GaugeLayering)?]

    init(
        layout: Layout, width: Int, height: Int, cachesStaticLayers: Bool = true, fonts: FontCache = .shared
    ) {
        self.layout = layout
        self.width = width
        self.height = height
        self.cachesStaticLayers = cachesStaticLayers
        self.fonts = fonts
        let screen = IntRect(x: 0, y: 0, width: width, height: height)
        let frames = layout.gauges.map { ($0.rect ?? screen).intersection(screen) }
        self.frames = frames
        clusters = PanelRenderer.overlapClusters(frames)
        pictures = Array(repeating: nil, count: frames.count)
        layerings = Array(repeating: nil, count: frames.count)
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
    /// `old` to those in `new`: per gauge, the box around its dynamic layer at
    /// both values; its whole frame when its static layer changes too or its
    /// style cannot say where it draws; the frames of every gauge it overlaps.
    func damage(for names: Set<String>, from old: [String: Double], to new: [String: Double]) -> [IntRect] {
        var rects: [IntRect] = []
        for (i, g) in layout.gauges.enumerated() where names.contains(g.name) {
            let f = frames[i]
            if clusters[i].count > 1 {
                rects += clusters[i].map { frames[$0] }
                continue
            }
            let a = layering(i, value: old[g.name] ?? g.range.lower)
            let b = layering(i, value: new[g.name] ?? g.range.lower)
            guard a.staticKey == b.staticKey, let before = a.dynamicBounds, let after = b.dynamicBounds else {
                rects.append(f)
                continue
            }
            // One box per gauge: the dynamic layer is redrawn whole for each
            // rectangle that meets it, so two close boxes are cheaper merged.
            var box: IntRect?
            for r in before + after {
                let part = IntRect(covering: r).intersection(f)
                if !part.isEmpty { box = box.map { $0.union(part) } ?? part }
            }
            if let box { rects.append(box) }
        }
        return rects
    }

    /// Repaints `rects` of `surface`: the background, and every gauge that
    /// meets them, drawn in whole units (see the type's description).
    func draw(_ surface: Surface, rects: [IntRect], values: [String: Double]) {
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
        let rects = rects.map { $0.intersection(surface.bounds) }.filter { !$0.isEmpty }
        // The background where no cached picture will cover a whole rectangle.
        var cleared: [IntRect] = []
        for r in rects {
            let covered = frames.indices.contains {
                clusters[$0].count == 1 && frames[$0].contains(r)
                    && hasPicture($0, value: value(of: $0, in: values), format: format)
            }
            if !covered {
                c.withClip(r) { c.clear(layout.background) }
                cleared.append(r)
            }
        }
        // Then every unit that meets a rectangle, once.
        var done = Array(repeating: false, count: frames.count)
        for i in frames.indices where !done[i] {
            let met = rects.map { $0.intersection(frames[i]) }.filter { !$0.isEmpty }
            if met.isEmpty { continue }
            let v = value(of: i, in: values)
            if clusters[i].count == 1, hasPicture(i, value: v, format: format) {
                drawDynamicLayer(i, value: v, over: met.dropFirst().reduce(met[0]) { $0.union($1) }, on: c)
                done[i] = true
                continue
            }
            for j in clusters[i] where !cleared.contains(where: { $0.contains(frames[j]) }) {
                c.withClip(frames[j]) { c.clear(layout.background) }
            }
            for j in clusters[i] {
                drawFromScratch(j, value: value(of: j, in: values), on: c)
                done[j] = true
            }
        }
    }

    /// The whole screen.
    func drawAll(_ surface: Surface, values: [String: Double]) {
        draw(surface, rects: [surface.bounds], values: values)
    }

    private func value(of i: Int, in values: [String: Double]) -> Double {
        values[layout.gauges[i].name] ?? layout.gauges[i].range.lower
    }

    /// Whether gauge `i` has a picture of its static layer that is good for `value`.
    private func hasPicture(_ i: Int, value: Double, format: PixelFormat) -> Bool {
        guard let p = pictures[i], p.format == format else { return false }
        return p.key == layering(i, value: value).staticKey
    }

    /// The static picture over `area` (within the frame) and wherever the
    /// dynamic layer paints, then the dynamic layer over it, clipped to the frame.
    private func drawDynamicLayer(_ i: Int, value: Double, over area: IntRect, on c: Canvas) {
        let f = frames[i]
        var area = area
        if let bounds = layering(i, value: value).dynamicBounds {
            for b in bounds {
                let part = IntRect(covering: b).intersection(f)
                if !part.isEmpty { area = area.union(part) }
            }
        } else {
            area = f
        }
        pictures[i]!.restore(area, into: c.surface)
        c.withClip(f) {
            layout.gauges[i].gauge(showing: value).draw(in: Rect(f), on: c, fonts: fonts, layers: .dynamic)
        }
    }

    /// Gauge `i` over a cleared frame: every layer, clipped to its frame. A
    /// gauge that owns its frame keeps a picture of its static layer on the way.
    private func drawFromScratch(_ i: Int, value: Double, on c: Canvas) {
        let f = frames[i]
        let gauge = layout.gauges[i].gauge(showing: value)
        guard cachesStaticLayers, clusters[i].count == 1 else {
            c.withClip(f) { gauge.draw(in: Rect(f), on: c, fonts: fonts) }
            return
        }
        c.withClip(f) { gauge.draw(in: Rect(f), on: c, fonts: fonts, layers: .static) }
        let p =
            pictures[i].flatMap { $0.format == c.surface.format ? $0 : nil }
            ?? StaticPicture(frame: f, format: c.surface.format)
        p.key = layering(i, value: value).staticKey
        p.capture(from: c.surface)
        pictures[i] = p
        c.withClip(f) { gauge.draw(in: Rect(f), on: c, fonts: fonts, layers: .dynamic) }
    }

    private func layering(_ i: Int, value: Double) -> GaugeLayering {
        if let memo = layerings[i], memo.value == value { return memo.layering }
        let l = layout.gauges[i].gauge(showing: value).layering(in: Rect(frames[i]), fonts: fonts)
        layerings[i] = (value, l)
        return l
    }
}

/// One gauge's frame with the background and the gauge's static layer, in a
/// surface format, as drawn for one static key.
private final class StaticPicture {
    let frame: IntRect
    let image: Image
    var key: AnyHashable = AnyHashable(0)

    init(frame: IntRect, format: PixelFormat) {
        self.frame = frame
        image = Image(width: frame.width, height: frame.height, format: format)
    }

    var format: PixelFormat { image.format }

    /// Copies the frame out of `surface` (screen coordinates).
    func capture(from surface: Surface) {
        copyRows(of: frame, from: surface.subsurface(frame), to: image.surface)
    }

    /// Copies `rect` (screen coordinates, within the frame) back into `surface`.
    func restore(_ rect: IntRect, into surface: Surface) {
        let local = IntRect(x: rect.x - frame.x, y: rect.y - frame.y, width: rect.width, height: rect.height)
        copyRows(of: rect, from: image.surface.subsurface(local), to: surface.subsurface(rect))
    }

    private func copyRows(of rect: IntRect, from source: Surface, to destination: Surface) {
        let bytes = rect.width * source.format.bytesPerPixel
        for y in 0..<rect.height {
            destination.row(y).copyMemory(from: source.row(y), byteCount: bytes)
        }
    }
}
