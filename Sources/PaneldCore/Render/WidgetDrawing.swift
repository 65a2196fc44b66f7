import PanelGauge

extension LayoutWidget {
    /// The text's pixel size in `frame`: its step of the panel's type scale
    /// (``TypeScale``, as the gauges' title and value), at most the step of
    /// the gauges beside it (`cap`, see ``TextSizes/smallest(of:)``), so a
    /// widget spanning several cells shows text of the size its neighbours
    /// do. A clock at the value step takes the largest step, at most that,
    /// at which its widest text fits, so it never changes size with the time.
    func pixelSize(in frame: IntRect, cap: TextSizes?, font: FontDescriptor, fonts: FontCache) -> Double {
        var sizes = TypeScale().sizes(for: Size(width: Double(frame.width), height: Double(frame.height)))
        if let cap {
            sizes.title = min(sizes.title, cap.title)
            sizes.value = min(sizes.value, cap.value)
        }
        guard size == .value else { return sizes.title }
        guard let format = clockFormat else { return sizes.value }
        let widest = ClockFormat.text(format, at: ClockFormat.widestSample)
        var step = sizes.value
        while step > sizes.title {
            guard let f = try? fonts.font(font, pixelSize: step) else { return step }
            if f.advance(of: widest) <= Double(frame.width) - 2 * Self.padding(step) { return step }
            step = TypeScale.steps.last(where: { $0 < step }) ?? sizes.title
        }
        return max(step, sizes.title)
    }

    /// Room kept between the text and the frame's left and right edges.
    static func padding(_ pixelSize: Double) -> Double { (0.3 * pixelSize).rounded() }

    /// Draws `text` on one line in `frame` (the caller clips to it): at
    /// ``pixelSize(in:font:fonts:)``, aligned, its baseline placed from the
    /// font's ascender and descender (so it does not move with the letters
    /// shown), shortened with an ellipsis at a glyph boundary when wider than
    /// the frame less its padding.
    func draw(
        _ text: String, in frame: IntRect, cap: TextSizes?, on canvas: Canvas, environment: GaugeEnvironment,
        fonts: FontCache
    ) {
        let px = pixelSize(in: frame, cap: cap, font: environment.font, fonts: fonts)
        guard let font = try? fonts.font(environment.font, pixelSize: px) else { return }
        let pad = Self.padding(px)
        let shown = font.truncated(text, toWidth: Double(frame.width) - 2 * pad)
        guard !shown.isEmpty else { return }
        let w = font.advance(of: shown)
        let x: Double
        switch alignment {
        case .leading: x = Double(frame.minX) + pad
        case .center: x = (Double(frame.minX) + Double(frame.width) / 2 - w / 2).rounded(.down)
        case .trailing: x = Double(frame.maxX) - pad - w
        }
        let baseline = (Double(frame.minY) + Double(frame.height) / 2 + (font.ascender - font.descender) / 2).rounded()
        font.draw(shown, at: Point(x: x, y: baseline), on: canvas, paint: .solid(color ?? environment.foreground))
    }
}

extension TextSizes {
    /// The smallest title and value steps of the gauges in `frames` (those on
    /// the type scale); nil when there are none.
    static func smallest(of frames: [IntRect]) -> TextSizes? {
        let all = frames.filter { !$0.isEmpty }.map {
            TypeScale().sizes(for: Size(width: Double($0.width), height: Double($0.height)))
        }
        guard let first = all.first else { return nil }
        return all.dropFirst().reduce(first) {
            TextSizes(
                title: min($0.title, $1.title), value: min($0.value, $1.value), endLabel: min($0.endLabel, $1.endLabel))
        }
    }
}
