import Glibc
import PanelGauge

/// Draws a ``Layout`` with given values into a surface.
///
/// Interim drawing, until the gauge styles land in PanelGauge: each pixel's
/// coverage of a ring/arc band or a bar is computed analytically at the pixel
/// centre (one pixel of anti-aliasing at every edge) and blended source-over in
/// 8-bit sRGB, the same compositing rule as PanelGauge's `Color`. Labels and
/// value text are not drawn yet.
struct PanelRenderer {
    let layout: Layout
    /// Logical screen size the layout is drawn at.
    let width: Int
    let height: Int

    /// Where each gauge lands on this screen (the layout rect, or the whole screen),
    /// clipped to the screen.
    func frame(of gauge: GaugeSpec) -> IntRect {
        let screen = IntRect(x: 0, y: 0, width: width, height: height)
        return (gauge.rect ?? screen).intersection(screen)
    }

    /// The rectangles that change when the named gauges change.
    func damage(for names: Set<String>) -> [IntRect] {
        layout.gauges.filter { names.contains($0.name) }.map(frame(of:))
    }

    /// Repaints `rects` of `surface` (background, then every gauge overlapping them).
    /// Touches no pixel outside `rects`.
    func draw(_ surface: Surface, rects: [IntRect], values: [String: Double]) {
        for rect in rects {
            let clip = rect.intersection(surface.bounds)
            if clip.isEmpty { continue }
            fill(surface, clip, layout.background)
            for g in layout.gauges {
                let f = frame(of: g)
                guard f.intersects(clip) else { continue }
                drawGauge(g, value: values[g.name] ?? g.range.lower, in: f, surface: surface, clip: clip)
            }
        }
    }

    /// The whole screen.
    func drawAll(_ surface: Surface, values: [String: Double]) {
        draw(surface, rects: [surface.bounds], values: values)
    }

    // MARK: - Gauges

    private func drawGauge(_ g: GaugeSpec, value: Double, in f: IntRect, surface: Surface, clip: IntRect) {
        let t = g.range.fraction(value)
        let color = g.color(at: value)
        let track = Color.lerp(layout.background, g.color(at: g.range.lower), 0.2)
        let area = f.intersection(clip)
        switch g.style {
        case .ring, .arc:
            let cx = Double(f.x) + Double(f.width) / 2, cy = Double(f.y) + Double(f.height) / 2
            let outer = Double(min(f.width, f.height)) / 2 * 0.92
            let thickness = max(2, outer * 0.2)
            let band = (inner: outer - thickness, outer: outer)
            // Angles in degrees, 0 = 3 o'clock, clockwise on screen (PanelGauge's Angle).
            let (start, total): (Double, Double) = g.style == .ring ? (270, 360) : (135, 270)
            arc(surface, area, cx, cy, band, start: start, sweep: total, track)
            if t > 0 { arc(surface, area, cx, cy, band, start: start, sweep: total * t, color) }
        case .bar:
            let h = max(2, Double(f.height) * 0.4)
            let y0 = Double(f.y) + (Double(f.height) - h) / 2
            let x0 = Double(f.x) + Double(f.width) * 0.04, x1 = Double(f.maxX) - Double(f.width) * 0.04
            box(surface, area, x0, y0, x1, y0 + h, track)
            if t > 0 { box(surface, area, x0, y0, x0 + (x1 - x0) * t, y0 + h, color) }
        }
    }

    /// An annular band from `start` sweeping clockwise by `sweep` degrees.
    private func arc(
        _ s: Surface, _ area: IntRect, _ cx: Double, _ cy: Double, _ band: (inner: Double, outer: Double),
        start: Double, sweep: Double, _ color: Color
    ) {
        let box = area.intersection(
            IntRect(covering: Rect(x: cx - band.outer - 1, y: cy - band.outer - 1, width: 2 * band.outer + 2, height: 2 * band.outer + 2)))
        if box.isEmpty { return }
        let full = sweep >= 360
        for y in box.minY..<box.maxY {
            let dy = Double(y) + 0.5 - cy
            for x in box.minX..<box.maxX {
                let dx = Double(x) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                var cov = min(1, max(0, min(d - band.inner, band.outer - d) + 0.5))
                if cov == 0 { continue }
                if !full {
                    var a = atan2(dy, dx) * 180 / Double.pi - start
                    a = a.truncatingRemainder(dividingBy: 360)
                    if a < 0 { a += 360 }
                    // Distance (in pixels along the circle) inside the sweep's nearer edge.
                    let inside = min(a, sweep - a) * Double.pi / 180 * d
                    let edge = a <= sweep ? inside : -min(a - sweep, 360 - a) * Double.pi / 180 * d
                    cov *= min(1, max(0, edge + 0.5))
                    if cov == 0 { continue }
                }
                blend(s, x, y, color, cov)
            }
        }
    }

    /// A rectangle with fractional edges (partial coverage on them).
    private func box(_ s: Surface, _ area: IntRect, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ color: Color) {
        let b = area.intersection(IntRect(covering: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)))
        if b.isEmpty { return }
        for y in b.minY..<b.maxY {
            let cy = min(Double(y + 1), y1) - max(Double(y), y0)
            for x in b.minX..<b.maxX {
                let cx = min(Double(x + 1), x1) - max(Double(x), x0)
                let cov = max(0, cx) * max(0, cy)
                if cov > 0 { blend(s, x, y, color, cov) }
            }
        }
    }

    private func fill(_ s: Surface, _ r: IntRect, _ c: Color) {
        for y in r.minY..<r.maxY {
            for x in r.minX..<r.maxX { store(s, x, y, c.red, c.green, c.blue) }
        }
    }

    /// Source-over of `color` at `coverage` x alpha onto pixel (x, y).
    private func blend(_ s: Surface, _ x: Int, _ y: Int, _ color: Color, _ coverage: Double) {
        let a = color.alpha * coverage
        if a >= 1 {
            store(s, x, y, color.red, color.green, color.blue)
            return
        }
        let d = s.pixel(x: x, y: y)
        func mix(_ src: UInt8, _ dst: UInt8) -> UInt8 { UInt8((Double(src) * a + Double(dst) * (1 - a)).rounded()) }
        store(s, x, y, mix(color.red, d.red), mix(color.green, d.green), mix(color.blue, d.blue))
    }

    private func store(_ s: Surface, _ x: Int, _ y: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) {
        switch s.format {
        case .xrgb8888:
            let w = 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            s.row(y).storeBytes(of: w.littleEndian, toByteOffset: x * 4, as: UInt32.self)
        case .rgb565:
            s.row(y).storeBytes(of: RGB565.pack(r, g, b).littleEndian, toByteOffset: x * 2, as: UInt16.self)
        }
    }
}
