import PanelGauge

/// Draws a ``Layout`` with given values into a surface, with PanelGauge's ``Canvas``.
///
/// Interim gauge drawings (ring, arc, bar) until the gauge styles land in
/// PanelGauge; labels and value text are not drawn yet. Geometry, per gauge
/// frame `f` (the layout rect, or the whole screen):
/// - ring: a full track and a value arc from 12 o'clock, clockwise, centre line
///   at 80% of half the shorter side, 20% of it wide;
/// - arc: the same over 270 degrees, open at the bottom (from 135 to 405 degrees);
/// - bar: a horizontal capsule, 40% of the frame's height, 4% side margins.
/// The track is the value colour at 20% over the background.
final class PanelRenderer {
    let layout: Layout
    /// Logical screen size the layout is drawn at.
    let width: Int
    let height: Int
    private var canvas: Canvas?

    init(layout: Layout, width: Int, height: Int) {
        self.layout = layout
        self.width = width
        self.height = height
    }

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
        let c: Canvas
        if let existing = canvas {
            existing.retarget(surface)
            c = existing
        } else {
            c = Canvas(surface: surface)
            canvas = c
        }
        c.clip = nil
        for rect in rects {
            c.withClip(rect) {
                if c.effectiveClip.isEmpty { return }
                c.clear(layout.background)
                for g in layout.gauges {
                    let f = frame(of: g)
                    guard f.intersects(c.effectiveClip) else { continue }
                    drawGauge(g, value: values[g.name] ?? g.range.lower, in: f, canvas: c)
                }
            }
        }
    }

    /// The whole screen.
    func drawAll(_ surface: Surface, values: [String: Double]) {
        draw(surface, rects: [surface.bounds], values: values)
    }

    private func drawGauge(_ g: GaugeSpec, value: Double, in f: IntRect, canvas: Canvas) {
        let t = g.range.fraction(value)
        let threshold = g.thresholds.last(where: { value >= $0.value })
        let track = Paint.solid(Color.lerp(layout.background, g.color(at: g.range.lower), 0.2))
        let frame = Rect(f)
        switch g.style {
        case .ring, .arc:
            let half = min(frame.width, frame.height) / 2
            let width = max(1, half * 0.2)
            let radius = half * 0.8
            let (start, total): (Angle, Double) = g.style == .ring ? (270, 360) : (135, 270)
            let paint = threshold.map { Paint.solid($0.color) } ?? self.paint(g.paint, conicFrom: start, over: total, center: frame.center)
            canvas.strokeArc(center: frame.center, radius: radius, startAngle: start, sweep: Angle(degrees: total), width: width, paint: track)
            if t > 0 {
                canvas.strokeArc(
                    center: frame.center, radius: radius, startAngle: start, sweep: Angle(degrees: total * t), width: width,
                    paint: paint)
            }
        case .bar:
            let h = max(2, frame.height * 0.4)
            let bar = Rect(x: frame.minX + frame.width * 0.04, y: frame.midY - h / 2, width: frame.width * 0.92, height: h)
            canvas.fillCapsule(bar, paint: track)
            if t > 0 {
                let paint: Paint
                if let threshold {
                    paint = .solid(threshold.color)
                } else {
                    switch g.paint {
                    case .tint(let c): paint = .solid(c)
                    case .gradient(let stops):
                        paint = .linearGradient(
                            Gradient(colors: stops), start: Point(x: bar.minX, y: bar.midY), end: Point(x: bar.maxX, y: bar.midY))
                    }
                }
                // Round ends need at least the bar's height; below that, clip a full-height capsule.
                let w = bar.width * t
                if w >= h {
                    canvas.fillCapsule(Rect(x: bar.minX, y: bar.minY, width: w, height: h), paint: paint)
                } else {
                    canvas.withClip(IntRect(covering: Rect(x: bar.minX, y: bar.minY, width: w, height: h))) {
                        canvas.fillCapsule(Rect(x: bar.minX, y: bar.minY, width: h, height: h), paint: paint)
                    }
                }
            }
        }
    }

    /// A tint, or a gradient laid along the sweep (`over` degrees from `start`).
    private func paint(_ p: GaugePaint, conicFrom start: Angle, over: Double, center: Point) -> Paint {
        switch p {
        case .tint(let c): return .solid(c)
        case .gradient(let colors):
            let span = over / 360
            let stops = colors.enumerated().map { k, c in
                Gradient.Stop(color: c, location: span * Double(k) / Double(colors.count - 1))
            }
            return .conicGradient(Gradient(stops: stops), center: center, startAngle: start)
        }
    }
}
