import PanelGauge

/// Draws a ``Layout`` with given values into a surface: the background, then
/// each gauge in its PanelGauge style in its rectangle.
///
/// PanelGauge clips every gauge to the pixels its rectangle touches, so a
/// gauge's damage is exactly its frame.
final class PanelRenderer {
    let layout: Layout
    /// Logical screen size the layout is drawn at.
    let width: Int
    let height: Int
    private var canvas: Canvas?
    private let fonts: FontCache

    init(layout: Layout, width: Int, height: Int, fonts: FontCache = .shared) {
        self.layout = layout
        self.width = width
        self.height = height
        self.fonts = fonts
    }

    /// Where each gauge lands on this screen (the layout rect, or the whole screen),
    /// clipped to the screen.
    func frame(of gauge: LayoutGauge) -> IntRect {
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
                    g.gauge(showing: values[g.name] ?? g.range.lower).draw(in: Rect(f), on: c, fonts: fonts)
                }
            }
        }
    }

    /// The whole screen.
    func drawAll(_ surface: Surface, values: [String: Double]) {
        draw(surface, rects: [surface.bounds], values: values)
    }
}
