import PanelGauge
import PanelScene

/// One page of a ``Layout`` on a screen as a ``GaugeScene``: the page's gauges
/// and widgets in their frames (``Layout/placement(screen:)``, clipped to
/// the screen), with the panel's text sizes shared (``uniformText(_:frames:)``)
/// and each widget's text at most the size of the values beside it. Slots of
/// other pages are not in the scene (neither drawn nor damaged).
package final class LayoutScene {
    /// The layout with the page's text sizes shared.
    let layout: Layout
    /// The page drawn (an index in ``Layout/pages``).
    let page: Int
    /// Logical screen size the layout is drawn at.
    let width: Int
    let height: Int
    /// Each gauge's frame, in layout order; empty for gauges of other pages.
    private let frames: [IntRect]
    /// The widgets' largest text steps: those of the page's gauges on the type
    /// scale, the value step at most the largest value they show.
    private let widgetCap: TextSizes?
    private let fonts: FontCache
    /// What draws and repaints the page.
    package let scene: GaugeScene
    /// The page indicator's strip, when the layout shows one.
    let indicator: IntRect?

    /// The smallest share of the largest value size in a group of frames of
    /// one size that the group's shared value size may fall to.
    static let sharedValueFloor = 0.5

    /// - Parameter alone: a gauge of the page shown by itself in the whole
    ///   screen (inside the grid's margin), without the page indicator (a
    ///   `"tap": "zoom"`); nil: the page as laid out.
    package init(
        layout: Layout, width: Int, height: Int, page: Int = 0, alone: Int? = nil, cachesStaticLayers: Bool = true,
        fonts: FontCache = .shared
    ) {
        self.page = page
        self.width = width
        self.height = height
        self.fonts = fonts
        let screen = IntRect(x: 0, y: 0, width: width, height: height)
        let placed = layout.placement(screen: (width, height)).frames
        let none = IntRect(x: 0, y: 0, width: 0, height: 0)
        var frames = layout.gauges.indices.map { i in
            layout.gauges[i].page == page && i < placed.count ? placed[i].intersection(screen) : none
        }
        if let a = alone, frames.indices.contains(a), !frames[a].isEmpty {
            let m = min(layout.grid?.margin ?? 0, (min(width, height) - 1) / 2)
            let whole = IntRect(x: m, y: m, width: width - 2 * m, height: height - 2 * m)
            frames = frames.indices.map { $0 == a ? whole : none }
        }
        // A gauge with a sparkline is drawn above it, in its frame less the sparkline's strip.
        var sparklines: [(index: Int, frame: IntRect)] = []
        for i in frames.indices where !frames[i].isEmpty && layout.gauges[i].sparkline != nil {
            let f = frames[i], h = LayoutSparkline.height(in: f.height)
            guard f.height - h >= 8 else { continue }
            frames[i] = IntRect(x: f.x, y: f.y, width: f.width, height: f.height - h)
            sparklines.append((i, IntRect(x: f.x, y: f.y + f.height - h, width: f.width, height: h)))
        }
        self.frames = frames
        let shown = Self.uniformText(layout, frames: frames)
        self.layout = shown
        let onScale = layout.gauges.indices.filter {
            layout.gauges[$0].widget == nil && layout.gauges[$0].gauge.environment.typeScale != nil
        }
        var cap = TextSizes.smallest(of: onScale.map { frames[$0] })
        // A clock or a text widget is never larger than the largest value the
        // page's gauges show: the values are the page's first texts.
        let values = onScale.compactMap { i in
            frames[i].isEmpty ? nil : shown.gauges[i].gauge.currentValueSize(in: Rect(frames[i]))
        }
        if let largest = values.max(), largest > 0, let c = cap { cap?.value = min(c.value, largest) }
        widgetCap = cap
        var items = shown.gauges.indices.compactMap { i -> SceneItem? in
            let g = shown.gauges[i], f = frames[i]
            guard !f.isEmpty else { return nil }
            guard let widget = g.widget else { return g.sceneItem(in: f) }
            if let chart = widget.chart {
                return SceneItem(
                    g.name, widget: SceneChart(chart.chart, fonts: fonts), in: f, environment: g.gauge.environment)
            }
            return SceneItem(
                g.name, widget: PlacedWidget(widget: widget, cap: cap, environment: g.gauge.environment, fonts: fonts),
                in: f, environment: g.gauge.environment)
        }
        for (i, f) in sparklines {
            let g = shown.gauges[i]
            items.append(
                SceneItem(
                    Self.sparklineName(g.name), widget: SceneChart(g.sparkline!.chart, fonts: fonts), in: f,
                    environment: g.gauge.environment))
        }
        indicator = alone == nil ? layout.pageIndicatorStrip(screen: (width, height)) : nil
        if let strip = indicator {
            let dots = PageIndicator(count: layout.pages.count, current: page, color: shown.foreground)
            items.append(SceneItem(PageIndicator.name, widget: dots, in: strip))
        }
        scene = GaugeScene(
            width: width, height: height, items: items, background: shown.background, staleTint: shown.foreground,
            cachesPictures: cachesStaticLayers, fonts: fonts)
    }

    /// The scene item name of gauge `name`'s sparkline (a name no slot can
    /// have: `#` is not in a gauge name).
    static func sparklineName(_ name: String) -> String { name + "#sparkline" }

    /// `layout` with one title size and one end-label size on the page: every
    /// gauge on the type scale takes at most what the smallest such gauge's
    /// frame gets (frames of other pages are empty and count for nothing; text
    /// widgets and clocks neither) (``TypeScale/uniform(over:)``), so a gauge spanning two grid
    /// cells shows its title at its neighbours' size; and one value size for
    /// gauges in frames of one size, whatever their styles.
    static func uniformText(_ layout: Layout, frames: [IntRect]) -> Layout {
        let onScale = layout.gauges.indices.filter {
            $0 < frames.count && layout.gauges[$0].widget == nil && layout.gauges[$0].gauge.environment.typeScale != nil
        }
        let cells = onScale.map { Size(width: Double(frames[$0].width), height: Double(frames[$0].height)) }
        var uniform = layout
        for i in onScale {
            uniform.gauges[i].gauge.environment.typeScale = layout.gauges[i].gauge.environment.typeScale?.uniform(
                over: cells)
        }
        // Gauges in frames of one size: one value size, the smallest any of
        // them chooses (a dial's value has less room than a ring's).
        var groups: [String: [(index: Int, size: Double)]] = [:]
        for i in onScale where !frames[i].isEmpty {
            guard let size = uniform.gauges[i].gauge.currentValueSize(in: Rect(frames[i])), size > 0 else { continue }
            groups["\(frames[i].width)x\(frames[i].height)", default: []].append((i, size))
        }
        // A gauge whose value is much smaller than the largest of the group
        // (a wide value, see `LayoutReader.matchValueSizes`), or smaller than
        // the group's titles (a dial's value in its scale's opening), keeps
        // its own size and sets no limit: one gauge never shrinks its
        // neighbours' values below their titles.
        for members in groups.values where members.count > 1 {
            let largest = members.map(\.size).max()!
            let title =
                members.map { m in
                    let frame = frames[m.index]
                    return uniform.gauges[m.index].gauge.environment.typeScale?.sizes(
                        for: Size(width: Double(frame.width), height: Double(frame.height))
                    ).title ?? 0
                }.max() ?? 0
            let readable = members.filter { $0.size >= max(Self.sharedValueFloor * largest, title) }
            guard let smallest = readable.map(\.size).min() else { continue }
            for m in readable { uniform.gauges[m.index].gauge.environment.typeScale?.valueLimit = smallest }
        }
        // The titles a step below the smallest value that reaches their size,
        // so the value is each gauge's largest text (a value that cannot
        // reach it in its place, such as a dial's in a small cell, does not
        // shrink every title).
        let titles = onScale.compactMap { i -> Double? in
            let f = frames[i]
            return f.isEmpty
                ? nil
                : uniform.gauges[i].gauge.environment.typeScale?.sizes(
                    for: Size(width: Double(f.width), height: Double(f.height))
                ).title
        }
        if let title = titles.max() {
            let values = onScale.compactMap { i -> Double? in
                frames[i].isEmpty ? nil : uniform.gauges[i].gauge.currentValueSize(in: Rect(frames[i]))
            }.filter { $0 >= title }
            if let value = values.min(), value <= title + 1e-9 || value < 1.2 * title,
                let below = TypeScale.steps.last(where: { $0 < value })
            {
                for i in onScale {
                    guard var scale = uniform.gauges[i].gauge.environment.typeScale else { continue }
                    scale.titleLimit = max(scale.minimum, min(scale.titleLimit ?? below, below))
                    uniform.gauges[i].gauge.environment.typeScale = scale
                }
            }
        }
        return uniform
    }

    /// The text size of widget `i` (a text widget or a clock) in its frame.
    func widgetPixelSize(_ i: Int) -> Double {
        let g = layout.gauges[i]
        return g.widget?.pixelSize(in: frames[i], cap: widgetCap, font: g.gauge.environment.font, fonts: fonts) ?? 0
    }

    /// The rectangles that change when the named gauges go from the values in
    /// `old` to those in `new`, and from the stale gauges `stale.old` to
    /// `stale.new`, and from the peaks `peaks.old` to `peaks.new`
    /// (``GaugeScene/damage(for:from:to:)``).
    func damage(
        for names: Set<String>, from old: [String: Double], to new: [String: Double],
        stale: (old: Set<String>, new: Set<String>) = ([], []),
        peaks: (old: [String: GaugePeaks], new: [String: GaugePeaks]) = ([:], [:])
    ) -> [IntRect] {
        scene.damage(
            for: names, from: SceneState(values: old, stale: stale.old, peaks: peaks.old),
            to: SceneState(values: new, stale: stale.new, peaks: peaks.new))
    }

    /// Repaints `rects` of `surface` with these values, stale gauges,
    /// widget texts, charts and peaks (``GaugeScene/draw(_:rects:state:)``).
    /// The index (in the layout's gauges) of the gauge or widget drawn at the
    /// logical point (`x`, `y`) on this page, the one drawn last where frames
    /// overlap; nil where there is none.
    package func gauge(atX x: Double, y: Double) -> Int? {
        frames.indices.last { Self.covers(frames[$0], x, y) }
    }

    /// Whether the logical point (`x`, `y`) is in `f`'s pixels (its right and bottom edges out).
    private static func covers(_ f: IntRect, _ x: Double, _ y: Double) -> Bool {
        !f.isEmpty && x >= Double(f.minX) && x < Double(f.maxX) && y >= Double(f.minY) && y < Double(f.maxY)
    }

    /// The page whose dot on the page indicator is nearest the logical point
    /// (`x`, `y`), when the point is in the indicator's strip.
    package func indicatedPage(atX x: Double, y: Double) -> Int? {
        guard let f = indicator, Self.covers(f, x, y) else { return nil }
        return PageIndicator.page(atX: x, count: layout.pages.count, in: f)
    }

    package func draw(
        _ surface: Surface, rects: [IntRect], values: [String: Double], stale: Set<String> = [],
        texts: [String: String] = [:], charts: [String: ChartFrame] = [:], peaks: [String: GaugePeaks] = [:]
    ) {
        scene.draw(
            surface, rects: rects,
            state: SceneState(values: values, stale: stale, texts: texts, charts: charts, peaks: peaks))
    }

    /// The whole screen.
    func drawAll(
        _ surface: Surface, values: [String: Double], stale: Set<String> = [], texts: [String: String] = [:],
        charts: [String: ChartFrame] = [:], peaks: [String: GaugePeaks] = [:]
    ) {
        draw(surface, rects: [surface.bounds], values: values, stale: stale, texts: texts, charts: charts, peaks: peaks)
    }

    /// Memory held by the scene's pictures, in bytes.
    var pictureBytes: Int { scene.pictureBytes }

    /// Parts of the dynamic layer the scene repainted from a value arc's text (for tests).
    var textDraws: Int { scene.textDraws }

    /// What a stale gauge shows for its value.
    var staleDash: String { scene.staleDash }
}

/// A layout's widget in its frame, at its text size on the page.
private struct PlacedWidget: SceneWidget {
    let widget: LayoutWidget
    let cap: TextSizes?
    let environment: GaugeEnvironment
    let fonts: FontCache

    func draw(_ text: String, in frame: IntRect, on canvas: Canvas) {
        widget.draw(text, in: frame, cap: cap, on: canvas, environment: environment, fonts: fonts)
    }
}
