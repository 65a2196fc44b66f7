#if canImport(Glibc)
    import Glibc
#endif
import PanelGauge

/// The thin-stroke scene (`--scene strokes`): the shapes a dial and most
/// dashboards are drawn with, thin, on their own. A grid of six columns, one
/// per stroke width (1, 1.5, 2, 3, 4 and 6 px at 800x480, scaled with the
/// frame's shorter side, never under 1 px), and four rows: arcs with round
/// caps, arcs with butt caps, straight strokes with round caps, straight
/// strokes with butt caps. A cell holds three arcs on concentric circles
/// (sweeps short, half and nearly whole turns) or three straight strokes
/// from its centre (at angles a third of a turn apart), all moving with the
/// frame's value, opaque, in three colours. Every frame rasterizes every
/// shape; nothing is cached. A straight stroke is a filled path: a
/// rectangle along it, with a half disc at each end for round caps.
struct ThinStrokeScene {
    let width: Int, height: Int

    static let background = Color(hex: 0x101418)
    static let colours = [Color(hex: 0x0A84FF), Color(hex: 0xFF9500), Color(hex: 0xD0D4D8)]
    /// The stroke widths at 800x480.
    static let widths = [1.0, 1.5, 2, 3, 4, 6]

    func draw(_ canvas: Canvas, v: Double) {
        let w = Double(width), h = Double(height)
        let k = min(w, h) / 480
        canvas.clear(Self.background)
        let cellW = w / Double(Self.widths.count), cellH = h / 4
        for (column, width) in Self.widths.enumerated() {
            let lineWidth = max(1, width * k)
            for row in 0..<4 {
                let centre = Point(x: (Double(column) + 0.5) * cellW, y: (Double(row) + 0.5) * cellH)
                let reach = 0.42 * min(cellW, cellH)
                let cap: LineCap = row % 2 == 0 ? .round : .butt
                for i in 0..<3 {
                    let paint = Paint.solid(Self.colours[i])
                    // Each shape turns with the value at its own pace.
                    let turn = 360 * fmod(v * Double(i + 1) + Double(column) * 0.07 + Double(row) * 0.11, 1)
                    if row < 2 {
                        let sweeps = [20 + 40 * v, 150 + 60 * v, 300 + 50 * v]
                        canvas.strokeArc(
                            center: centre, radius: reach * (1 - 0.28 * Double(i)), startAngle: .degrees(turn),
                            sweep: .degrees(sweeps[i]), width: lineWidth, cap: cap, paint: paint)
                    } else {
                        let angle = Angle.degrees(turn + 120 * Double(i)).radians
                        let end = Point(x: centre.x + reach * cos(angle), y: centre.y + reach * sin(angle))
                        canvas.fill(Self.stroke(from: centre, to: end, width: lineWidth, cap: cap), paint: paint)
                    }
                }
            }
        }
    }

    /// A straight stroke from `a` to `b` as a path: the rectangle `width`
    /// wide along it, and for round caps a half disc over each end.
    static func stroke(from a: Point, to b: Point, width: Double, cap: LineCap) -> Path {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = max(1e-9, (dx * dx + dy * dy).squareRoot())
        // Half the width across the stroke.
        let nx = -dy / length * width / 2, ny = dx / length * width / 2
        var p = Path()
        p.move(to: Point(x: a.x + nx, y: a.y + ny))
        p.line(to: Point(x: b.x + nx, y: b.y + ny))
        if cap == .round {
            let heading = atan2(dy, dx) * 180 / Double.pi
            p.addArc(center: b, radius: width / 2, startAngle: .degrees(heading + 90), sweep: .degrees(-180))
        }
        p.line(to: Point(x: b.x - nx, y: b.y - ny))
        p.line(to: Point(x: a.x - nx, y: a.y - ny))
        if cap == .round {
            let heading = atan2(dy, dx) * 180 / Double.pi
            p.addArc(center: a, radius: width / 2, startAngle: .degrees(heading - 90), sweep: .degrees(-180))
        }
        p.closeSubpath()
        return p
    }
}
