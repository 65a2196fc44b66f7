import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import PanelGauge

/// Every built-in style, in the variants whose static layer or dynamic bounds
/// follow the value (threshold colours, zones, a current value that moves the
/// bar, a gradient track), for layer tests here and in paneld's renderer tests.
enum LayeredGauges {
    static func all() throws -> [(name: String, gauge: Gauge)] {
        let red = Color(hex: 0xFF3B30), green = Color(hex: 0x34C759), orange = Color(hex: 0xFF9F0A)
        let thresholds = try Thresholds(green, (60, orange), (85, red))
        let gradient = Gradient(colors: [green, orange, red])
        let number = ValueFormat.number(decimals: 1, unit: "°C")
        func zones(_ g: Gauge) -> Gauge { g.thresholds(thresholds).environment { $0.showsThresholdZones = true } }
        let ends = try Gauge(value: 0, in: 0...100) {
            "CPU"
        } currentValueLabel: {
            "0"
        } minimumValueLabel: {
            "0"
        } maximumValueLabel: {
            "100"
        }
        let plain = try Gauge(value: 0, in: 0...100) { "Load" }.valueFormat(.percent())
        return [
            ("accessoryCircular ends", ends.gaugeStyle(.accessoryCircular).valueFormat(number)),
            (
                "accessoryCircular gradient thresholds",
                plain.gaugeStyle(.accessoryCircular).tint(gradient).thresholds(
                    try Thresholds(base: nil, steps: [.init(from: 70, color: red)]))
            ),
            ("accessoryCircular zones", zones(plain.gaugeStyle(.accessoryCircular))),
            (
                "accessoryCircularCapacity thresholds",
                plain.gaugeStyle(.accessoryCircularCapacity).thresholds(thresholds)
            ),
            ("accessoryCircularCapacity zones", zones(plain.gaugeStyle(.accessoryCircularCapacity))),
            ("ring", try Gauge(value: 0, in: 0...100).gaugeStyle(.ring)),
            (
                "ring number gradient",
                try Gauge(value: 0, in: -20...120).gaugeStyle(.ring).valueFormat(number).tint(gradient)
            ),
            ("ring zones", zones(try Gauge(value: 0, in: 0...100).gaugeStyle(.ring))),
            ("stepped", plain.gaugeStyle(.stepped(segments: 10))),
            ("linearCapacity ends", ends.gaugeStyle(.linearCapacity).tint(gradient)),
            ("linearCapacity zones", zones(plain.gaugeStyle(.linearCapacity))),
            // No end labels: the current value sits at the leading edge and moves the bar.
            ("accessoryLinear leading value", plain.gaugeStyle(.accessoryLinear).valueFormat(number)),
            ("accessoryLinear ends gradient", ends.gaugeStyle(.accessoryLinear).tint(gradient).thresholds(thresholds)),
            ("accessoryLinearCapacity", plain.gaugeStyle(.accessoryLinearCapacity).thresholds(thresholds)),
            (
                "linearCapacity vertical ends scale",
                ends.gaugeStyle(LinearCapacityGaugeStyle(scale: LinearScale(), axis: .vertical)).tint(gradient)
            ),
            (
                "accessoryLinear vertical",
                plain.gaugeStyle(AccessoryLinearGaugeStyle(axis: .vertical)).valueFormat(number)
            ),
            (
                "accessoryLinearCapacity vertical zones",
                zones(plain.gaugeStyle(AccessoryLinearCapacityGaugeStyle(axis: .vertical)))
            ),
            ("dial thresholds", plain.gaugeStyle(.dial).thresholds(thresholds)),
            (
                "dial value arc, tail, labels outside",
                plain.gaugeStyle(
                    DialGaugeStyle(
                        labels: DialGaugeStyle.ScaleLabels(placement: .outside),
                        needle: DialGaugeStyle.Needle(tail: 0.2),
                        valueArc: 0.04)
                ).tint(gradient)
            ),
        ]
    }

    /// Values across the range: both ends, threshold crossings, repeats, small steps.
    static let fractions: [Double] = [0, 0.42, 0.43, 1, 0.05, 0.86, 0.86, 0.61, 0.59, 0.999, 0.001, 0.3, 0.72]

    /// `g` at fraction `f` of its range; with `peaks`, marking peaks that
    /// move with it: a low one below it, a high one above (past the range
    /// from 0.8 on), and none at all at 0.3.
    static func gauge(_ g: Gauge, at f: Double, peaks: Bool) throws -> Gauge {
        let lo = g.range.lowerBound, w = g.range.upperBound - g.range.lowerBound
        let v = try g.withValue(lo + f * w)
        guard peaks else { return v }
        return v.peaks(f == 0.3 ? nil : GaugePeaks(low: lo + 0.6 * f * w, high: lo + (f + 0.3) * w))
    }
}

@Suite struct GaugeLayersTests {
    static let rect = Rect(x: 3, y: 5, width: 150, height: 120)

    /// `g` drawn over the panel background with one draw call per entry of `layers`.
    func draw(_ g: Gauge, layers: [GaugeLayers], format: PixelFormat) -> Image {
        let img = Image(width: 160, height: 130, format: format)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(Color(hex: 0x101418))
        for l in layers { g.draw(in: Self.rect, on: canvas, layers: l) }
        return img
    }

    /// The pixels of `layers` drawn as by ``draw(_:layers:format:)``.
    func pixels(_ g: Gauge, layers: [GaugeLayers], format: PixelFormat = .xrgb8888) -> [UInt8] {
        let img = draw(g, layers: layers, format: format)
        return withExtendedLifetime(img) { img.surface.rgbBytes() }
    }

    /// The static layer, then the dynamic one over it, is the whole drawing; and
    /// the dynamic layer changes nothing outside its bounds; with peaks marked too.
    @Test(arguments: PixelFormat.allCases, [false, true])
    func staticThenDynamicEqualsTheWholeDrawing(format: PixelFormat, peaks: Bool) throws {
        for (name, gauge) in try LayeredGauges.all() {
            #expect(gauge.style.separatesLayers, "\(name)")
            for f in LayeredGauges.fractions {
                let g = try LayeredGauges.gauge(gauge, at: f, peaks: peaks)
                let whole = draw(g, layers: [.all], format: format)
                let same =
                    pixels(g, layers: [.static, .dynamic], format: format) == pixels(g, layers: [.all], format: format)
                #expect(same, "\(name) at \(f)")
                let bounds = try #require(g.layering(in: Self.rect).dynamicBounds, "\(name)").map(
                    IntRect.init(covering:))
                let staticOnly = draw(g, layers: [.static], format: format)
                var outside = 0
                for y in 0..<whole.height {
                    for x in 0..<whole.width
                    where whole.surface.pixel(x: x, y: y) != staticOnly.surface.pixel(x: x, y: y) {
                        let p = IntRect(x: x, y: y, width: 1, height: 1)
                        if !bounds.contains(where: { $0.contains(p) }) { outside += 1 }
                    }
                }
                withExtendedLifetime((whole, staticOnly)) {
                    #expect(outside == 0, "\(name) at \(f): dynamic pixels outside the dynamic bounds")
                }
            }
        }
    }

    /// Where a style gives its dynamic layer as parts, they are that layer:
    /// drawn in order over the static layer they make the whole drawing (with
    /// peaks marked too: their marks are the last parts); each
    /// paints only inside its bounds; and between two values every pixel that
    /// differs lies in the parts' changed bounds.
    @Test(arguments: [false, true]) func dynamicPartsAreTheDynamicLayer(peaks: Bool) throws {
        var withParts = 0
        for (name, gauge) in try LayeredGauges.all() {
            func at(_ f: Double) throws -> Gauge { try LayeredGauges.gauge(gauge, at: f, peaks: peaks) }
            guard gauge.layering(in: Self.rect).dynamicParts != nil else { continue }
            withParts += 1
            var previous: (gauge: Gauge, image: Image)?
            for f in LayeredGauges.fractions {
                let g = try at(f)
                let parts = try #require(g.layering(in: Self.rect).dynamicParts, "\(name)")
                let whole = draw(g, layers: [.all], format: .xrgb8888)
                let byParts = draw(g, layers: [.static], format: .xrgb8888)
                let canvas = Canvas(surface: byParts.surface)
                for part in parts {
                    let before = Image(width: byParts.width, height: byParts.height, format: .xrgb8888)
                    copy(byParts, to: before)
                    part.draw(canvas)
                    let boxes = part.bounds.map(IntRect.init(covering:))
                    let outside = differing(before, byParts).filter { p in !boxes.contains { $0.contains(p) } }
                    #expect(
                        outside.isEmpty, "\(name) at \(f): a part paints outside its bounds at \(outside.prefix(3))")
                }
                #expect(differing(whole, byParts).isEmpty, "\(name) at \(f): the parts are not the dynamic layer")
                if let (pg, pImage) = previous {
                    let a = pg.layering(in: Self.rect), b = g.layering(in: Self.rect)
                    if a.staticKey == b.staticKey {
                        let changed = try #require(a.changedBounds(to: b)).map(IntRect.init(covering:))
                        let missed = differing(pImage, whole).filter { p in !changed.contains { $0.contains(p) } }
                        #expect(missed.isEmpty, "\(name) to \(f): changed pixels outside the changed bounds")
                    }
                }
                previous = (g, whole)
            }
        }
        #expect(withParts >= 2)
    }

    /// The one-pixel rectangles where two images of one size differ.
    func differing(_ a: Image, _ b: Image) -> [IntRect] {
        var out: [IntRect] = []
        for y in 0..<a.height {
            for x in 0..<a.width where a.surface.pixel(x: x, y: y) != b.surface.pixel(x: x, y: y) {
                out.append(IntRect(x: x, y: y, width: 1, height: 1))
            }
        }
        return out
    }

    func copy(_ a: Image, to b: Image) {
        for y in 0..<a.height {
            memcpy(b.surface.row(y), a.surface.row(y), a.width * a.surface.format.bytesPerPixel)
        }
    }

    /// A style written before layers existed draws everything as its dynamic
    /// layer: nothing for `.static`, the whole drawing for `.dynamic`.
    @Test func aStyleWithoutLayersIsAllDynamic() throws {
        let g = try Gauge(value: 30, in: 0...40).gaugeStyle(Bar()).tint(.red)
        #expect(!g.style.separatesLayers)
        #expect(g.layering(in: Self.rect).dynamicBounds == nil)
        let background = pixels(g, layers: [])
        let staticOnly = pixels(g, layers: [.static]) == background
        #expect(staticOnly)
        let whole = pixels(g, layers: [.all])
        let dynamicIsAll = pixels(g, layers: [.dynamic]) == whole && pixels(g, layers: [.static, .dynamic]) == whole
        #expect(whole != background && dynamicIsAll)
    }

    /// The quarter-turn pieces cover the stroke's box between the same values
    /// (one piece per quarter the arc passes), and a capacity ring whose round
    /// ends meet near the maximum changes everywhere, so its change falls back
    /// to the whole dynamic boxes.
    @Test func valueArcChangesOnlyBetweenTheValuesWhileTheOutlineIsSimple() throws {
        let l = CircularGaugeLayout(center: Point(x: 50, y: 50), radius: 40, lineWidth: 8, startAngle: 90, sweep: 360)
        for (v0, v1, count) in [(0.1, 0.12, 1), (0.2, 0.3, 2), (0.0, 1.0, 4), (0.9, 0.3, 3)] {
            let pieces = l.strokePieces(from: v0, to: v1)
            let box = l.strokeBounds(from: v0, to: v1)
            #expect(pieces.count == count, "\(v0) -> \(v1)")
            let u = pieces.dropFirst().reduce(pieces[0]) { $0.union($1) }
            let gaps = [u.minX - box.minX, u.minY - box.minY, u.maxX - box.maxX, u.maxY - box.maxY]
            #expect(gaps.allSatisfy { abs($0) < 1e-9 }, "\(v0) -> \(v1)")
        }
        let rect = Rect(x: 0, y: 0, width: 100, height: 100)
        let capacity = try Gauge(value: 0, in: 0...100).gaugeStyle(.accessoryCircularCapacity)
        func layering(_ v: Double) throws -> GaugeLayering { try capacity.withValue(v).layering(in: rect) }
        let small = try #require(try layering(40).changedBounds(to: layering(41)))
        #expect(small.reduce(0) { $0 + $1.width * $1.height } < 0.1 * 100 * 100)
        let (a, b) = (try layering(40), try layering(99.5))
        #expect(a.changedBounds(to: b)?.count == a.dynamicBounds!.count + b.dynamicBounds!.count)
    }
}
