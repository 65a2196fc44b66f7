import PanelGauge
import PanelScene

/// The row of dots along the bottom of a layout with pages
/// (`"pageIndicator": true`): one dot a page, in the order they are shown,
/// the page shown in the foreground colour, the others at a third of it.
/// A tap in its strip shows the page of the nearest dot.
///
/// Its strip (``Layout/pageIndicatorStrip(width:height:)``) is the full
/// width of the screen; grid cells are placed above it, and a `rect` must
/// leave it free.
struct PageIndicator: SceneWidget {
    let count: Int
    let current: Int
    let color: Color

    /// The scene item's name: no gauge can have it (`#` is not in a name).
    static let name = "#pages"

    /// A dot's radius in a strip `stripHeight` high: a sixth of it, at least 2.5 px.
    static func radius(stripHeight: Int) -> Double { max(2.5, Double(stripHeight) / 6) }

    /// The centres' x of the dots in `frame`, centred, four radii apart.
    static func centres(count: Int, in frame: IntRect) -> [Double] {
        let pitch = 4 * radius(stripHeight: frame.height)
        let first = Double(frame.x) + Double(frame.width) / 2 - pitch * Double(count - 1) / 2
        return (0..<count).map { first + pitch * Double($0) }
    }

    /// The page whose dot is nearest to `x` in `frame`.
    static func page(atX x: Double, count: Int, in frame: IntRect) -> Int {
        let c = centres(count: count, in: frame)
        return c.indices.min { abs(c[$0] - x) < abs(c[$1] - x) } ?? 0
    }

    func draw(_ text: String, in frame: IntRect, on canvas: Canvas) {
        let r = Self.radius(stripHeight: frame.height)
        let y = Double(frame.y) + Double(frame.height) / 2
        for (i, x) in Self.centres(count: count, in: frame).enumerated() {
            canvas.fillDisc(
                center: Point(x: x, y: y), radius: r, paint: .solid(i == current ? color : color.opacity(0.35)))
        }
    }
}
