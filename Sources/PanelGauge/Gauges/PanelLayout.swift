/// Places several gauges on one panel: pure functions from a panel rectangle to
/// the rectangles the gauges are drawn into. Every gauge style fits the
/// rectangle it is given, so a layout only has to divide space.
public enum PanelLayout {
    /// `columns x rows` equal cells, row by row from the top-left, inside
    /// `rect` shrunk by `padding`, with `spacing` between neighbouring cells.
    /// Returns no cells if either count is below 1.
    public static func grid(
        in rect: Rect, columns: Int, rows: Int, spacing: Double = 0, padding: Double = 0
    ) -> [Rect] {
        guard columns >= 1, rows >= 1 else { return [] }
        let inner = rect.insetBy(padding)
        let w = max(0, (inner.width - spacing * Double(columns - 1)) / Double(columns))
        let h = max(0, (inner.height - spacing * Double(rows - 1)) / Double(rows))
        var cells = [Rect]()
        cells.reserveCapacity(columns * rows)
        for r in 0..<rows {
            for c in 0..<columns {
                cells.append(
                    Rect(
                        x: inner.x + Double(c) * (w + spacing), y: inner.y + Double(r) * (h + spacing),
                        width: w, height: h))
            }
        }
        return cells
    }

    /// `count` cells side by side.
    public static func row(in rect: Rect, count: Int, spacing: Double = 0, padding: Double = 0) -> [Rect] {
        grid(in: rect, columns: count, rows: 1, spacing: spacing, padding: padding)
    }

    /// `count` cells stacked from the top.
    public static func column(in rect: Rect, count: Int, spacing: Double = 0, padding: Double = 0) -> [Rect] {
        grid(in: rect, columns: 1, rows: count, spacing: spacing, padding: padding)
    }

    /// The largest square centred in `rect` (where a circular gauge goes).
    public static func centredSquare(in rect: Rect) -> Rect {
        let side = max(0, min(rect.width, rect.height))
        return Rect(x: rect.midX - side / 2, y: rect.midY - side / 2, width: side, height: side)
    }
}
