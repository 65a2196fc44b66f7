import Glibc
import PanelGauge
import PanelDisplayFakes
import Testing

@testable import PanelDisplay
@testable import PaneldCore

/// paneld's cached, damage-only updates against a full redraw from scratch:
/// the renderer keeps pictures of the gauges' static layers and repaints only
/// where the dynamic layers were or are, and the DRM output adds what its back
/// buffer missed; the panel must show exactly what a full redraw shows.
@Suite struct StaticLayerCacheTests {
    static let width = 320
    static let height = 240

    /// Every built-in style, in the variants whose static layer or dynamic
    /// bounds follow the value (threshold colours, zones, a current value that
    /// moves the bar, a gradient track), each in its own cell; a custom style
    /// without layers; and two gauges that overlap (drawn from scratch: neither
    /// owns its frame).
    static let layoutJSON = """
        {"mode": "320x240", "background": "#101418", "overlap": true, "gauges": [
          {"name": "arcEnds", "style": "arc", "rect": [0, 0, 78, 58], "range": [0, 100], "label": "CPU",
           "minimumLabel": "0", "maximumLabel": "100", "format": {"kind": "number", "decimals": 1}},
          {"name": "arcGradient", "style": "arc", "rect": [80, 0, 78, 58], "range": [20, 100], "label": "T",
           "gradient": ["#34C759", "#FF3B30"], "thresholds": [{"above": 70, "color": "#FF3B30"}]},
          {"name": "arcZones", "style": "arc", "rect": [160, 0, 78, 58], "range": [0, 1],
           "thresholds": [{"above": 0.6, "color": "#FF9F0A"}, {"above": 0.85, "color": "#FF3B30"}]},
          {"name": "capacity", "style": "accessoryCircularCapacity", "rect": [240, 0, 80, 58], "range": [0, 100],
           "units": "%", "thresholds": [{"above": 60, "color": "#FF9F0A"}]},
          {"name": "capacityZones", "style": "accessoryCircularCapacity", "rect": [0, 60, 78, 58], "range": [0, 100],
           "thresholds": [{"above": 60, "color": "#FF9F0A"}]},
          {"name": "ring", "style": "ring", "rect": [80, 60, 78, 58], "range": [0, 100]},
          {"name": "ringNumber", "style": "ring", "rect": [160, 60, 78, 58], "range": [-20, 120],
           "format": {"kind": "number", "decimals": 1}, "units": "C", "gradient": ["#34C759", "#FFCC00", "#FF3B30"]},
          {"name": "ringZones", "style": "ring", "rect": [240, 60, 80, 58], "range": [0, 100],
           "thresholds": [{"above": 50, "color": "#FF3B30"}]},
          {"name": "stepped", "style": "stepped", "rect": [0, 120, 78, 58], "range": [0, 10], "segments": 10},
          {"name": "bar", "style": "bar", "rect": [80, 120, 118, 58], "range": [0, 4], "label": "Load",
           "minimumLabel": "0", "maximumLabel": "4", "gradient": ["#5E5CE6", "#FF3B30"]},
          {"name": "barZones", "style": "linearCapacity", "rect": [200, 120, 120, 58], "range": [0, 4],
           "thresholds": [{"above": 3, "color": "#FF3B30"}]},
          {"name": "linear", "style": "accessoryLinear", "rect": [0, 180, 100, 28], "range": [0, 1000],
           "format": {"kind": "number", "decimals": 0}},
          {"name": "linearEnds", "style": "accessoryLinear", "rect": [0, 210, 100, 30], "range": [0, 1],
           "minimumLabel": "lo", "maximumLabel": "hi", "gradient": ["#34C759", "#FF3B30"],
           "thresholds": [{"above": 0.8, "color": "#FF3B30"}]},
          {"name": "linearCapacity", "style": "accessoryLinearCapacity", "rect": [100, 180, 100, 60], "range": [0, 100],
           "label": "Disk", "thresholds": [{"above": 90, "color": "#FF3B30"}]},
          {"name": "custom", "rect": [200, 180, 60, 60], "range": [0, 10]},
          {"name": "under", "style": "accessoryCircularCapacity", "rect": [260, 180, 60, 60], "range": [0, 1]},
          {"name": "over", "style": "bar", "rect": [270, 210, 50, 30], "range": [0, 1]}]}
        """

    static func layout() throws -> Layout {
        var layout = try LayoutReader.parse(Array(layoutJSON.utf8))
        for i in layout.gauges.indices {
            let name = layout.gauges[i].name
            if name.hasSuffix("Zones") {
                layout.gauges[i].gauge = layout.gauges[i].gauge.environment { $0.showsThresholdZones = true }
            }
            if name == "custom" { layout.gauges[i].gauge = layout.gauges[i].gauge.gaugeStyle(HalfFill()) }
        }
        return layout
    }

    /// Values across the range: both ends, threshold crossings, repeats, small steps.
    static let fractions: [Double] = [0, 0.42, 0.43, 1, 0.05, 0.86, 0.86, 0.61, 0.59, 0.999, 0.001, 0.3, 0.72]

    /// A user style that knows nothing of layers.
    struct HalfFill: GaugeStyle {
        func makeBody(configuration c: Configuration) -> some Drawable {
            Draw { rect, canvas, _ in
                canvas.fill(rect.insetBy(4), paint: .solid(.gray))
                canvas.fillDisc(
                    center: Point(x: rect.minX + 8 + c.value * (rect.width - 16), y: rect.midY), radius: 6,
                    paint: .solid(c.tint.color(at: c.value)))
            }
        }
    }

    /// Shows `layout` through a `DRMOutput` (on a fake card), then for each of
    /// `steps` steps lets `change` set new values (returning the gauges it
    /// changed), presents the damage-only update and expects the scanout to
    /// equal a full redraw from scratch, rotated as the panel shows it.
    /// Returns how many parts the renderer drew from a value arc's text.
    @discardableResult
    func expectUpdatesEqualFullRedraws(
        _ layout: Layout, format: PixelFormat, rotation: PanelRotation, steps: Int,
        change: (_ step: Int, _ values: inout [String: Double]) -> Set<String>
    ) throws -> Int {
        let (pw, ph) = rotation.swapsAxes ? (Self.height, Self.width) : (Self.width, Self.height)
        let fake = FakeDRM.bochs(width: UInt16(pw), height: UInt16(ph))
        let out = try DRMOutput(options: DRMOutputOptions(format: format, rotation: rotation), syscalls: fake)
        defer { out.close() }
        #expect((out.width, out.height) == (Self.width, Self.height))
        let renderer = LayoutScene(layout: layout, width: out.width, height: out.height)
        let reference = LayoutScene(layout: layout, width: out.width, height: out.height, cachesStaticLayers: false)

        var values = Dictionary(uniqueKeysWithValues: layout.gauges.map { ($0.name, $0.range.lower) })
        try out.present(damage: []) { renderer.draw($0, rects: $1, values: values) }
        var shown = values
        for step in 0..<steps {
            let changed = change(step, &values)
            let damage = renderer.damage(for: changed, from: shown, to: values)
            try out.present(damage: damage) { renderer.draw($0, rects: $1, values: values) }
            if out.isBusy { try out.handleEvents() }
            shown = values

            let expected = Image(width: Self.width, height: Self.height, format: format)
            reference.drawAll(expected.surface, values: values)
            let panel = Image(width: pw, height: ph, format: format)
            rotation.copy(expected.surface.bounds, from: expected.surface, to: panel.surface)
            let scan = fake.scanout(lastShownFB(fake), width: pw, height: ph, format: format)
            let rowBytes = pw * format.bytesPerPixel
            let differing = (0..<ph).filter { y in
                memcmp(scan.row(y), panel.surface.row(y), rowBytes) != 0
            }
            let xs =
                differing.first.map { y in
                    (0..<pw).filter { x in scan.pixel(x: x, y: y) != panel.surface.pixel(x: x, y: y) }
                } ?? []
            #expect(
                differing.isEmpty,
                "step \(step) (\(changed.sorted())) values \(values) damage \(damage): panel rows \(differing.prefix(5)) differ at x \(xs)"
            )
        }
        return renderer.textDraws
    }

    @Test(arguments: [PixelFormat.xrgb8888, .rgb565], [PanelRotation.none, .clockwise90])
    func cachedDamageOnlyUpdatesEqualAFullRedraw(format: PixelFormat, rotation: PanelRotation) throws {
        let layout = try Self.layout()
        let fractions = Self.fractions
        // Each step changes one to three gauges, a different mix every time.
        try expectUpdatesEqualFullRedraws(layout, format: format, rotation: rotation, steps: 18) { step, values in
            var changed: Set<String> = []
            for k in 0..<(1 + step % 3) {
                let g = layout.gauges[(step * 7 + k * 5) % layout.gauges.count]
                let f = fractions[(step + k * 3) % fractions.count]
                values[g.name] = g.range.lower + f * (g.range.upper - g.range.lower)
                changed.insert(g.name)
            }
            return changed
        }
    }

    /// Values out of range (pinned, in the out-of-range colour, the real
    /// value written), values taken away ("no data") and given back, in every
    /// style: cached, damage-only updates equal full redraws.
    static let outOfRangeFractions: [Double?] = [1.3, 1.3, 2.5, -0.4, nil, 0.5, -3, 1, nil, nil, 1.01, 0, -0.01, 0.7]

    @Test(arguments: [PixelFormat.xrgb8888, .rgb565])
    func outOfRangeAndNoDataUpdatesEqualAFullRedraw(format: PixelFormat) throws {
        var layout = try Self.layout()
        let dials = try LayoutReader.parse(
            Array(
                """
                {"mode": "320x240", "gauges": [
                  {"name": "dial", "style": "dial", "rect": [0, 0, 100, 100], "range": [950, 1050], "units": "hPa",
                   "valueArc": true}]}
                """.utf8))
        // The dial in the custom style's cell (its rect moved over it).
        let c = try #require(layout.gauges.firstIndex { $0.name == "custom" })
        layout.gauges[c] = dials.gauges[0]
        layout.gauges[c].rect = IntRect(x: 200, y: 180, width: 60, height: 60)
        let fractions = Self.outOfRangeFractions
        try expectUpdatesEqualFullRedraws(layout, format: format, rotation: .none, steps: 16) { step, values in
            var changed: Set<String> = []
            for (k, g) in layout.gauges.enumerated() where (k + step) % 2 == 0 {
                let f = fractions[(step + k) % fractions.count]
                values[g.name] = f.map { g.range.lower + $0 * (g.range.upper - g.range.lower) }
                changed.insert(g.name)
            }
            return changed
        }
    }

    /// Value arcs (rings, the capacity ring, the stepped ring), in gradient and
    /// solid tints, each repainted only between its old and new value.
    static let arcLayoutJSON = """
        {"mode": "320x240", "background": "#101418", "gauges": [
          {"name": "ringGradient", "style": "ring", "rect": [0, 0, 120, 120], "range": [0, 100],
           "gradient": ["#34C759", "#FFCC00", "#FF3B30"]},
          {"name": "ringSolid", "style": "ring", "rect": [120, 0, 100, 100], "range": [-20, 120], "tint": "#0A84FF",
           "format": {"kind": "number", "decimals": 1}, "units": "C"},
          {"name": "capacity", "style": "accessoryCircularCapacity", "rect": [220, 0, 100, 100], "range": [0, 100],
           "units": "%", "gradient": ["#5E5CE6", "#FF3B30"]},
          {"name": "capacitySolid", "style": "accessoryCircularCapacity", "rect": [220, 100, 100, 100],
           "range": [0, 1], "tint": "#FF9F0A"},
          {"name": "stepped", "style": "stepped", "rect": [0, 120, 120, 120], "range": [0, 12], "segments": 12,
           "gradient": ["#34C759", "#FF3B30"]},
          {"name": "ringThreshold", "style": "ring", "rect": [120, 100, 100, 140], "range": [0, 100],
           "thresholds": [{"above": 50, "color": "#FF3B30"}]}]}
        """

    /// Small steps, steps across the quarter turns, big jumps, both ends, jumps
    /// across the start (from near the maximum to near the minimum and back),
    /// values outside the range.
    static let arcFractions: [Double] = [
        0, 0.001, 0.002, 0.01, 0.011, 0.249, 0.251, 0.26, 0.5, 0.99, 0.999, 1, 0.02, 0.98, 0, 1, 0.5, 0.505,
        0.74, 0.76, 0.0005, 0.9995, 1.2, 0.37, -0.1, 0.3333, 0.6667, 0.667, 0.05, 0.95,
    ]

    /// Titles are static: with a label on every value arc, updates still equal
    /// full redraws and damage never reaches a title's line.
    @Test(arguments: [PixelFormat.xrgb8888, .rgb565])
    func titledGaugesKeepDamageOnlyUpdates(format: PixelFormat) throws {
        let json = Self.arcLayoutJSON.replacing("\"range\":", with: "\"label\": \"Title\", \"range\":")
        let layout = try LayoutReader.parse(Array(json.utf8))
        #expect(layout.gauges.allSatisfy { $0.gauge.title == .automatic && $0.gauge.label != nil })
        let fractions = Self.arcFractions
        let r = LayoutScene(layout: layout, width: Self.width, height: Self.height)
        for g in layout.gauges {
            let frame = try #require(g.rect)
            let damage = r.damage(for: [g.name], from: [g.name: g.range.lower], to: [g.name: g.range.upper])
            // Each cell is at least 100 px, so its title line is at least 9 px.
            let titleLine = IntRect(x: frame.minX, y: frame.minY, width: frame.width, height: 9)
            #expect(!damage.isEmpty && damage.allSatisfy { !$0.intersects(titleLine) }, "\(g.name)")
        }
        try expectUpdatesEqualFullRedraws(layout, format: format, rotation: .none, steps: 20) { step, values in
            let g = layout.gauges[step % layout.gauges.count]
            values[g.name] = g.range.lower + fractions[step % fractions.count] * (g.range.upper - g.range.lower)
            return [g.name]
        }
    }

    @Test(arguments: [PixelFormat.xrgb8888, .rgb565], [PanelRotation.none, .clockwise90])
    func valueArcUpdatesEqualAFullRedraw(format: PixelFormat, rotation: PanelRotation) throws {
        let layout = try LayoutReader.parse(Array(Self.arcLayoutJSON.utf8))
        let fractions = Self.arcFractions
        let textDraws = try expectUpdatesEqualFullRedraws(
            layout, format: format, rotation: rotation, steps: fractions.count
        ) { step, values in
            // Every gauge moves, each along the sequence from its own place;
            // one in three steps leaves the last gauge alone.
            var changed: Set<String> = []
            for (k, g) in layout.gauges.enumerated() where step % 3 != 0 || k < layout.gauges.count - 1 {
                let f = fractions[(step + 5 * k) % fractions.count]
                values[g.name] = g.range.lower + f * (g.range.upper - g.range.lower)
                changed.insert(g.name)
            }
            return changed
        }
        // The rings' labels were repainted from their text, next to the arc and away from it.
        #expect(textDraws > 0)
    }

    /// The built-in layout's screen-filling ring, as `paneld-bench --damage`
    /// drives it: jumps of about 37 % of the range, then steps of 1 % up and
    /// down, each copied from the whole arc's picture between the exact parts.
    @Test(arguments: [PixelFormat.xrgb8888, .rgb565], [PanelRotation.none, .clockwise90])
    func screenFillingRingUpdatesEqualAFullRedraw(format: PixelFormat, rotation: PanelRotation) throws {
        let layout = Layout.fallback
        let name = try #require(layout.gauges.first?.name)
        let range = layout.gauges[0].range
        let textDraws = try expectUpdatesEqualFullRedraws(layout, format: format, rotation: rotation, steps: 24) {
            step, values in
            let fraction =
                step < 12 ? 0.05 + 0.9 * Double((step + 1) * 37 % 101) / 100 : 0.5 + 0.01 * Double(step % 4 - 1)
            values[name] = range.lower + fraction * (range.upper - range.lower)
            return [name]
        }
        // The label's changed digits, each update and each back buffer's catch-up.
        #expect(textDraws >= 24)
    }

    /// Two dials (one with a value arc, threshold sections and units, one
    /// with a tail and its labels outside), moved by jumps across thresholds
    /// and by steps of 1 %: each repaint draws only the dynamic parts (needle,
    /// hub, value arc, value) that meet its rectangles, over the picture.
    @Test(arguments: [PixelFormat.xrgb8888, .rgb565], [PanelRotation.none, .clockwise90])
    func dialUpdatesEqualAFullRedraw(format: PixelFormat, rotation: PanelRotation) throws {
        let layout = try LayoutReader.parse(
            Array(
                """
                {"mode": "320x240", "gauges": [
                  {"name": "speed", "style": "dial", "rect": [0, 0, 170, 240], "range": [0, 100], "label": "Speed",
                   "units": "km/h", "valueArc": true,
                   "thresholds": [{"above": 60, "color": "#FF9500"}, {"above": 85, "color": "#FF3B30"}]},
                  {"name": "rpm", "style": "dial", "rect": [170, 30, 150, 180], "range": [0, 8],
                   "scale": {"labels": "outside"}, "needle": {"tail": 0.2}}]}
                """.utf8))
        var smallSteps: [Double] = []
        let renderer = LayoutScene(layout: layout, width: Self.width, height: Self.height)
        try expectUpdatesEqualFullRedraws(layout, format: format, rotation: rotation, steps: 24) { step, values in
            let fraction =
                step < 12 ? 0.05 + 0.9 * Double((step + 1) * 37 % 101) / 100 : 0.5 + 0.01 * Double(step % 4 - 1)
            var changed: Set<String> = []
            for g in layout.gauges where step % 5 != 0 || g.name == "speed" {
                let old = values[g.name] ?? g.range.lower
                values[g.name] = g.range.lower + fraction * (g.range.upper - g.range.lower)
                if step >= 12 {
                    let d = renderer.damage(for: [g.name], from: [g.name: old], to: values)
                    smallSteps.append(Double(d.reduce(0) { $0 + $1.area }))
                }
                changed.insert(g.name)
            }
            return changed
        }
        // A step of 1 % repaints strips along the needle, not the dial.
        let frame = 170.0 * 240
        #expect(!smallSteps.isEmpty && smallSteps.allSatisfy { $0 < 0.3 * frame }, "\(smallSteps)")
    }

    /// A value change damages less than the gauge's frame where the style knows
    /// its dynamic layer, the whole frame where it does not, and the frames of
    /// overlapping gauges together.
    @Test func damageIsTheDynamicLayerWhereTheStyleKnowsIt() throws {
        let layout = try Self.layout()
        let r = LayoutScene(layout: layout, width: Self.width, height: Self.height)
        for g in layout.gauges {
            let damage = r.damage(
                for: [g.name], from: [g.name: g.range.lower], to: [g.name: (g.range.lower + g.range.upper) / 2])
            let frame = try #require(g.rect)
            switch g.name {
            case "custom": #expect(damage == [frame])
            case "under", "over":
                #expect(
                    damage == [
                        IntRect(x: 260, y: 180, width: 60, height: 60), IntRect(x: 270, y: 210, width: 50, height: 30),
                    ])
            // The value at the leading edge has a slot as wide as the widest
            // value of the range, so the bar stays put: the marker and the value.
            case "linear":
                #expect(
                    !damage.isEmpty && damage.allSatisfy { frame.contains($0) }
                        && damage.reduce(0) { $0 + $1.area } < frame.area / 2, "\(damage)")
            // Value arcs: the arc between the values, in bands hugging the
            // ring, and the current value's boxes (a ring's: its glyphs).
            case "capacity", "capacityZones", "ring", "ringNumber", "ringZones", "stepped":
                #expect(!damage.isEmpty && damage.allSatisfy { frame.contains($0) }, "\(g.name)")
                #expect(damage.reduce(0) { $0 + $1.area } < frame.area, "\(g.name)")
            // Bars: the fill (or the marker) and the value's changed glyphs.
            default:
                #expect(
                    !damage.isEmpty && damage.allSatisfy { frame.contains($0) }
                        && damage.reduce(0) { $0 + $1.area } < frame.area, "\(g.name): \(damage)")
            }
        }
    }

    /// The built-in layout's ring fills the screen: its pictures keep the
    /// ring's square, and the repaints over it still equal full redraws.
    @Test func aScreenFillingRingKeepsOnlyItsSquare() throws {
        let layout = Layout.fallback
        let renderer = LayoutScene(layout: layout, width: 400, height: 240)
        let reference = LayoutScene(layout: layout, width: 400, height: 240, cachesStaticLayers: false)
        let screen = Image(width: 400, height: 240)
        var shown = ["value": 0.0]
        renderer.drawAll(screen.surface, values: shown)
        // Two pictures of the square (the static layer, the whole value arc),
        // each with a background row of the frame.
        #expect(renderer.pictureBytes > 240 * 240 * 4 && renderer.pictureBytes <= 2 * (240 * 240 + 400) * 4)
        for v in [73.0, 100, 12, 12.5, 0, 99.9] {
            let damage = renderer.damage(for: ["value"], from: shown, to: ["value": v])
            // Within the ring's square, plus the pixel of anti-aliasing margin.
            #expect(!damage.isEmpty && damage.allSatisfy { IntRect(x: 79, y: 0, width: 242, height: 240).contains($0) })
            renderer.draw(screen.surface, rects: damage, values: ["value": v])
            shown = ["value": v]
            let expected = Image(width: 400, height: 240)
            reference.drawAll(expected.surface, values: shown)
            let same = withExtendedLifetime((screen, expected)) {
                screen.surface.rgbBytes() == expected.surface.rgbBytes()
            }
            #expect(same, "value \(v)")
        }
    }

    /// The framebuffer the fake last showed.
    func lastShownFB(_ fake: FakeDRM) -> UInt32 {
        let line = fake.trace.last { $0.hasPrefix("setCrtc 38") || $0.hasPrefix("pageFlip") }!
        let words = line.split(separator: " ")
        return UInt32(words[words.firstIndex(of: "fb")! + 1])!
    }
}
