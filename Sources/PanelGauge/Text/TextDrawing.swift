extension Font {
    /// The ink of `text` laid out with its pen starting at (0, 0) on the
    /// baseline: the union of the glyph bitmaps' non-empty boxes (y down, so the
    /// top of a capital is negative). Nil for text without ink (spaces).
    public func inkBounds(of text: String) -> IntRect? { inkBounds(of: layout(text)) }

    /// The ink of a laid-out run (see ``inkBounds(of:)-(String)``).
    public func inkBounds(of run: Run) -> IntRect? {
        var ink: IntRect?
        for (g, pen) in run.glyphs where g.width > 0 && g.height > 0 {
            let box = g.box(penX: pen, baseline: 0)
            ink = ink.map { $0.union(box) } ?? box
        }
        return ink
    }

    /// Where ``draw(_:at:on:paint:)`` puts the pen for `origin`: rounded to
    /// whole pixels; nil (nothing drawn) when not finite or beyond +-2^30.
    static func pen(at origin: Point) -> (x: Int, y: Int)? {
        guard [origin.x, origin.y].allSatisfy({ $0.isFinite && abs($0) < 1_073_741_824 }) else { return nil }
        return (Int(origin.x.rounded()), Int(origin.y.rounded()))
    }

    /// Draws `text` with its pen starting at `origin` on the baseline. The
    /// origin is rounded to whole pixels so that hinted glyphs stay on the grid.
    /// An origin that is not finite (or beyond +-2^30) draws nothing.
    public func draw(_ text: String, at origin: Point, on canvas: Canvas, paint: Paint) {
        guard let (x0, y0) = Self.pen(at: origin) else { return }
        for (g, pen) in layout(text).glyphs where g.width > 0 && g.height > 0 {
            let box = g.box(penX: x0 + pen, baseline: y0)
            g.coverage.withUnsafeBufferPointer { buf in
                canvas.fillMask(
                    buf.baseAddress!, width: g.width, height: g.height, pitch: g.width, x: box.minX, y: box.minY,
                    paint: paint)
            }
        }
    }
}

extension Glyph {
    /// Where the bitmap lands with the pen at column `penX` on the baseline row `baseline`.
    func box(penX: Int, baseline: Int) -> IntRect {
        IntRect(x: penX + left, y: baseline - top, width: width, height: height)
    }
}
