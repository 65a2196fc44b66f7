#if canImport(Glibc)
    import Glibc
#endif
import PanelGauge

/// The "dial-panel" scene of shared/bench/SCENE-B.md, drawn with PanelGauge's
/// canvas: four dials, each a track, three coloured sections, 41 ticks in two
/// strokes, a value arc, a needle and a hub. Every frame rasterizes every
/// operation; nothing is cached across frames. A butt-capped segment is the
/// rectangle around it, and each stroke of ticks one path of those
/// rectangles (they never overlap), filled nonzero.
struct DialPanelScene {
    let width: Int, height: Int

    static let background = Color(hex: 0x101418)
    static let track = Color(hex: 0x3A3F44)
    static let sections = [
        (0.0, 0.60, Color(hex: 0x34C759)), (0.60, 0.85, Color(hex: 0xFF9500)), (0.85, 1.0, Color(hex: 0xFF3B30)),
    ]
    static let ticks = Color(hex: 0xD0D4D8)
    static let needle = Color(hex: 0xFF3B30)
    static let hub = Color(hex: 0xE0E0E0)
    static let valueArc = Color(hex: 0x0A84FF)

    /// The fraction of the scale dial `q` shows for frame value `v`.
    static func fraction(dial q: Int, v: Double) -> Double {
        switch q {
        case 0: return v
        case 1: return 1 - v
        case 2: return 0.5 + 0.4 * (v - 0.5)
        default: return fmod(v * 3, 1)
        }
    }

    /// The scale's angle for fraction `p`: 135 degrees clockwise over the top to 405.
    static func angle(_ p: Double) -> Double { 135 + 270 * p }

    func draw(_ canvas: Canvas, v: Double) {
        let w = Double(width), h = Double(height)
        let s = min(w, h) / 2, k = s / 240
        canvas.clear(Self.background)
        for q in 0..<4 {
            let col = Double(q % 2), row = Double(q / 2)
            let c = Point(x: (2 * col + 1) * w / 4, y: (2 * row + 1) * h / 4)
            let p = Self.fraction(dial: q, v: v)
            // 1. track, 2-4. sections
            canvas.strokeArc(
                center: c, radius: 0.3825 * s, startAngle: 135, sweep: 270, width: 0.035 * s, cap: .butt,
                paint: .solid(Self.track))
            for (from, to, color) in Self.sections {
                canvas.strokeArc(
                    center: c, radius: 0.39 * s, startAngle: Angle(degrees: Self.angle(from)),
                    sweep: Angle(degrees: 270 * (to - from)), width: 0.02 * s, cap: .butt, paint: .solid(color))
            }
            // 5. minor ticks, 6. major ticks
            for major in [false, true] {
                var path = Path()
                let inner = major ? 0.275 * s : 0.315 * s, outer = 0.355 * s
                let half = (major ? 3 : 1.5) * k / 2
                for t in 0...40 where (t % 4 == 0) == major {
                    let a = Self.angle(Double(t) / 40) * Double.pi / 180
                    let d = Point(x: cos(a), y: sin(a)), n = Point(x: -sin(a), y: cos(a))
                    func at(_ r: Double, _ side: Double) -> Point {
                        Point(x: c.x + r * d.x + side * n.x, y: c.y + r * d.y + side * n.y)
                    }
                    path.move(to: at(inner, half))
                    path.line(to: at(outer, half))
                    path.line(to: at(outer, -half))
                    path.line(to: at(inner, -half))
                    path.closeSubpath()
                }
                canvas.fill(path, paint: .solid(Self.ticks))
            }
            // 7. value arc
            canvas.strokeArc(
                center: c, radius: 0.255 * s, startAngle: 135, sweep: Angle(degrees: 270 * p), width: 4 * k,
                cap: .round, paint: .solid(Self.valueArc))
            // 8. needle
            let a = Self.angle(p) * Double.pi / 180
            let d = Point(x: cos(a), y: sin(a)), n = Point(x: -sin(a), y: cos(a))
            var needle = Path()
            needle.move(to: Point(x: c.x + 0.015 * s * n.x, y: c.y + 0.015 * s * n.y))
            needle.line(to: Point(x: c.x + 0.34 * s * d.x + 0.002 * s * n.x, y: c.y + 0.34 * s * d.y + 0.002 * s * n.y))
            needle.line(to: Point(x: c.x + 0.34 * s * d.x - 0.002 * s * n.x, y: c.y + 0.34 * s * d.y - 0.002 * s * n.y))
            needle.line(to: Point(x: c.x - 0.015 * s * n.x, y: c.y - 0.015 * s * n.y))
            needle.closeSubpath()
            canvas.fill(needle, paint: .solid(Self.needle))
            // 9. hub
            canvas.fillDisc(center: c, radius: 0.05 * s, paint: .solid(Self.hub))
        }
    }
}
