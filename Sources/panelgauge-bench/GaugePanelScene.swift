import PanelGauge

/// The "gauge-panel" scene of shared/bench/SCENE.md, drawn with PanelGauge.
/// Every frame rasterizes every operation; nothing is cached across frames.
struct GaugePanelScene {
    let width: Int, height: Int
    let gradient: Bool
    private let ringTrackDash: DashPattern

    static let background = Color(hex: 0x101418)

    init(width: Int, height: Int, gradient: Bool) {
        self.width = width
        self.height = height
        self.gradient = gradient
        let h = Double(height)
        ringTrackDash = try! DashPattern([0.02 * h, 0.02 * h])  // two positive finite lengths
    }

    /// Frame `i` shows `v = 0.05 + 0.9 * (i mod 100) / 99`.
    static func value(frame i: Int) -> Double { 0.05 + 0.9 * Double(i % 100) / 99 }

    func draw(_ canvas: Canvas, v: Double) {
        let w = Double(width), h = Double(height)
        // 0. clear
        canvas.clear(Self.background)
        // Ring gauge
        let c1 = Point(x: 0.3 * w, y: 0.5 * h), r = 0.36 * h
        canvas.strokeArc(
            center: c1, radius: r, startAngle: 0, sweep: 360, width: 0.012 * h, cap: .butt, dash: ringTrackDash,
            paint: .solid(.white.opacity(0.2)))
        let valuePaint: Paint =
            gradient
            ? .conicGradient(
                Gradient(colors: [Color(hex: 0xFF3B30), Color(hex: 0x34C759)]), center: c1, startAngle: 90)
            : .solid(Color(hex: 0xFF3B30))
        canvas.strokeArc(
            center: c1, radius: r, startAngle: 90, sweep: Angle(degrees: 360 * v), width: 0.03 * h, cap: .round,
            paint: valuePaint)
        // Linear capacity bar
        let x0 = 0.62 * w, x1 = 0.95 * w, y0 = 0.2 * h, bh = 0.04 * h
        canvas.fillCapsule(Rect(x: x0, y: y0, width: x1 - x0, height: bh), paint: .solid(.white.opacity(0.2)))
        canvas.fillCapsule(Rect(x: x0, y: y0, width: v * (x1 - x0), height: bh), paint: .solid(Color(hex: 0x0A84FF)))
        // Accessory circular gauge
        let c2 = Point(x: 0.785 * w, y: 0.65 * h), r2 = 0.15 * h
        canvas.strokeArc(
            center: c2, radius: r2, startAngle: 135, sweep: 270, width: 0.04 * h, cap: .round,
            paint: .solid(.white.opacity(0.2)))
        let p = c2.onCircle(radius: r2, angle: Angle(degrees: 135 + 270 * v))
        canvas.fillDisc(center: p, radius: 0.031 * h, paint: .solid(Self.background))
        canvas.fillDisc(center: p, radius: 0.025 * h, paint: .solid(Color(hex: 0xFFD60A)))
    }
}
