import PanelGauge

/// How the logical picture is turned on the physical panel, clockwise.
///
/// Convention: with `.clockwise90` the logical picture's top-left pixel lands at
/// the panel's top-right corner, so a landscape layout fills a portrait panel
/// read with the panel turned 90 degrees counter-clockwise. Logical size is the
/// panel size for 0 and 180 degrees and swapped for 90 and 270. Rotation is done
/// in software because many display controllers (the Pi's among them) cannot
/// rotate a plane by 90 degrees.
public enum PanelRotation: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// Upright.
    case none = 0
    /// A quarter turn clockwise.
    case clockwise90 = 90
    /// A half turn.
    case upsideDown = 180
    /// Three quarter turns clockwise (a quarter turn counter-clockwise).
    case clockwise270 = 270

    /// Parses `0`, `90`, `180` or `270`.
    public init?(degrees text: String) {
        guard let d = Int(text), let r = PanelRotation(rawValue: d) else { return nil }
        self = r
    }

    /// The angle in degrees.
    public var description: String { "\(rawValue)" }

    package var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The logical size for a panel of `width` x `height` pixels.
    package func logicalSize(panelWidth width: Int, panelHeight height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// The panel rectangle covering logical `rect` in a logical area of
    /// `logicalWidth` x `logicalHeight`.
    package func panelRect(_ rect: IntRect, logicalWidth w: Int, logicalHeight h: Int) -> IntRect {
        switch self {
        case .none: rect
        case .clockwise90: IntRect(x: h - rect.maxY, y: rect.minX, width: rect.height, height: rect.width)
        case .upsideDown: IntRect(x: w - rect.maxX, y: h - rect.maxY, width: rect.width, height: rect.height)
        case .clockwise270: IntRect(x: rect.minY, y: w - rect.maxX, width: rect.height, height: rect.width)
        }
    }

    /// Copies logical `rect` of `source` (logical size) into `destination` (panel
    /// size), turned by this rotation. Both surfaces must have the same format;
    /// rows are addressed by each surface's own stride.
    package func copy(_ rect: IntRect, from source: Surface, to destination: Surface) {
        precondition(source.format == destination.format, "rotation copies pixels; formats must match")
        let (pw, ph) = logicalSize(panelWidth: source.width, panelHeight: source.height)
        precondition(destination.width == pw && destination.height == ph, "panel surface has the wrong size")
        let r = rect.intersection(source.bounds)
        guard !r.isEmpty else { return }
        switch source.format {
        case .xrgb8888: copyPixels(UInt32.self, r, source, destination)
        case .rgb565: copyPixels(UInt16.self, r, source, destination)
        }
    }

    private func copyPixels<P>(_: P.Type, _ r: IntRect, _ src: Surface, _ dst: Surface) {
        let w = src.width, h = src.height
        let target = panelRect(r, logicalWidth: w, logicalHeight: h)
        // Walk the panel rectangle row by row (sequential writes into the scanout
        // buffer, which is often uncached) and fetch each pixel's logical source.
        for py in target.minY..<target.maxY {
            let out = dst.row(py).assumingMemoryBound(to: P.self)
            switch self {
            case .none:
                let inp = src.row(py).assumingMemoryBound(to: P.self)
                for px in target.minX..<target.maxX { out[px] = inp[px] }
            case .upsideDown:
                let inp = src.row(h - 1 - py).assumingMemoryBound(to: P.self)
                for px in target.minX..<target.maxX { out[px] = inp[w - 1 - px] }
            case .clockwise90:
                // panel (px, py) shows logical (py, h - 1 - px)
                for px in target.minX..<target.maxX {
                    out[px] = src.row(h - 1 - px).assumingMemoryBound(to: P.self)[py]
                }
            case .clockwise270:
                // panel (px, py) shows logical (w - 1 - py, px)
                let lx = w - 1 - py
                for px in target.minX..<target.maxX {
                    out[px] = src.row(px).assumingMemoryBound(to: P.self)[lx]
                }
            }
        }
    }
}
