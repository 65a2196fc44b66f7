import Testing

@testable import PanelGauge

/// Titles, the type scale and shortened labels: every style shows a gauge's
/// label (as a title where it has no place for it), gauges in equal cells
/// set equal text sizes, and text wider than its place ends in an ellipsis.
@Suite struct TitleTests {
    static let styles: [(String, any GaugeStyle)] = [
        ("linearCapacity", LinearCapacityGaugeStyle()), ("accessoryLinear", AccessoryLinearGaugeStyle()),
        ("accessoryLinearCapacity", AccessoryLinearCapacityGaugeStyle()),
        ("accessoryCircular", AccessoryCircularGaugeStyle()),
        ("accessoryCircularCapacity", AccessoryCircularCapacityGaugeStyle()), ("ring", RingGaugeStyle()),
        ("stepped", SteppedGaugeStyle(segments: 10)),
        ("linearCapacity vertical", LinearCapacityGaugeStyle(axis: .vertical)),
        ("accessoryLinear vertical", AccessoryLinearGaugeStyle(axis: .vertical)),
        ("accessoryLinearCapacity vertical", AccessoryLinearCapacityGaugeStyle(axis: .vertical)),
    ]

    static func gauge(_ style: any GaugeStyle, label: GaugeLabel? = "Hg") throws -> Gauge {
        var g = try Gauge(
            checkedValue: 40, range: 0...100, label: label, current: nil, minimum: "0", maximum: "100")
        g.style = style
        g.valueFormat = .number(decimals: 0, unit: "rpm")
        return g.typeScale(TypeScale()).title(.automatic)
    }

    /// With an automatic title, every style shows the label, and the picture
    /// differs from the same gauge without one.
    @Test(arguments: 0..<Self.styles.count)
    func everyStyleShowsTheLabel(index: Int) throws {
        let (name, style) = Self.styles[index]
        let g = try Self.gauge(style)
        #expect(g.shownLabels.contains(.label), "\(name)")
        let without = try Self.gauge(style, label: nil)
        #expect(!render(g, width: 110, height: 120).samePixels(as: render(without, width: 110, height: 120)), "\(name)")
    }

    /// Without a title (the library's default, as in SwiftUI) the styles that
    /// have no place for the label leave it out, and say so.
    @Test func withoutATitleOnlyStylesWithAPlaceShowTheLabel() throws {
        let shown = try Self.styles.filter { try Self.gauge($0.1).title(.none).shownLabels.contains(.label) }
        // accessoryCircular shows the label only without end labels, and these have them.
        #expect(
            shown.map(\.0) == [
                "linearCapacity", "accessoryLinearCapacity", "linearCapacity vertical",
                "accessoryLinearCapacity vertical",
            ])
        let open = try Gauge(value: 0.4) { "Hg" }.gaugeStyle(.accessoryCircular)
        #expect(open.shownLabels.contains(.label))
    }

    /// accessoryCircular keeps a label that fits its opening there; an
    /// automatic title takes one that does not (rather than shorten it).
    @Test func aLabelTooWideForTheOpeningBecomesTheTitle() throws {
        func gauge(_ label: GaugeLabel) throws -> Gauge {
            try Gauge(value: 0.5) { label }.gaugeStyle(.accessoryCircular).typeScale(TypeScale()).title(.automatic)
        }
        let bg = RGB(Panel.background)
        let top = IntRect(x: 0, y: 0, width: 100, height: 12)
        let short = render(try gauge("Hum"), width: 100, height: 113)
        let long = render(try gauge("Humidity of the cellar"), width: 100, height: 113)
        // The ring starts at the top of its square; a title pushes it down.
        #expect(short.inkBounds(in: top, background: bg) != nil)
        let ring = try #require(short.inkBounds(in: short.surface.bounds, background: bg))
        let titled = try #require(long.inkBounds(in: IntRect(x: 0, y: 12, width: 100, height: 101), background: bg))
        #expect(titled.minY > ring.minY + 8)
        // In the narrower opening the title does not fit either: it ends in an ellipsis, inside the cell.
        let titleInk = try #require(long.inkBounds(in: top, background: bg))
        #expect(titleInk.minX >= 0 && titleInk.maxX <= 100)
    }

    /// A title takes the top of the cell at the title size: gauges of
    /// different styles in cells of one size draw it with the same pixels.
    @Test func titlesOfEqualCellsAreEqual() throws {
        let circular = Self.styles.filter { !$0.0.contains("inear") }
        let strips = try circular.map { _, style -> [UInt8] in
            let img = render(try Self.gauge(style).title(.top), width: 110, height: 120)
            return img.surface.subsurface(IntRect(x: 0, y: 0, width: 110, height: 12)).rgbBytes()
        }
        #expect(strips.allSatisfy { $0 == strips[0] })
        // And the strip holds the title's ink.
        let img = render(try Self.gauge(RingGaugeStyle()).title(.top), width: 110, height: 120)
        let ink = try #require(
            img.inkBounds(in: IntRect(x: 0, y: 0, width: 110, height: 14), background: RGB(Panel.background)))
        #expect(ink.minY >= 0 && ink.height >= 8)
    }

    /// A bottom title goes under the gauge; the top of the cell stays clear.
    @Test func aBottomTitleIsBelowTheGauge() throws {
        let top = render(try Self.gauge(AccessoryLinearGaugeStyle()).title(.top), width: 150, height: 80)
        let bottom = render(try Self.gauge(AccessoryLinearGaugeStyle()).title(.bottom), width: 150, height: 80)
        // The marker dot (in the default blue) sits below a top title, above a bottom one.
        func dotRow(_ img: Image) throws -> Int {
            try #require(img.pixels { _, _, p in p == RGB(.blue) }.map(\.y).min())
        }
        let bg = RGB(Panel.background)
        let a = try dotRow(top), b = try dotRow(bottom)
        #expect(a > b)
        let titleTop = try #require(top.inkBounds(in: top.surface.bounds, background: bg)).minY
        let titleBottom = try #require(bottom.inkBounds(in: bottom.surface.bounds, background: bg)).maxY
        #expect(titleTop < a - 4 && titleBottom > b + 4)
    }

    /// The title is static: the static layer draws it, the dynamic one does not.
    @Test func theTitleIsInTheStaticLayer() throws {
        let g = try Self.gauge(RingGaugeStyle())
        let rect = Rect(x: 0, y: 0, width: 110, height: 120)
        let (a, ca) = Panel.image(width: 110, height: 120)
        g.draw(in: rect, on: ca, layers: .static)
        let (b, cb) = Panel.image(width: 110, height: 120)
        g.draw(in: rect, on: cb, layers: .dynamic)
        let strip = IntRect(x: 0, y: 0, width: 110, height: 12)
        #expect(a.inkBounds(in: strip, background: RGB(Panel.background)) != nil)
        #expect(b.inkBounds(in: strip, background: RGB(Panel.background)) == nil)
    }
}

@Suite struct TypeScaleTests {
    @Test func sizesAreStepsThatGrowWithTheCell() {
        var last = TextSizes(title: 0, value: 0, endLabel: 0)
        for side in stride(from: 40.0, through: 600, by: 20) {
            let s = TypeScale().sizes(for: Size(width: side, height: side))
            for size in [s.title, s.value, s.endLabel] {
                #expect(TypeScale.steps.contains(size) || size.truncatingRemainder(dividingBy: 32) == 0)
            }
            #expect(s.title >= last.title && s.value >= last.value && s.endLabel >= last.endLabel)
            #expect(s.endLabel <= s.title && s.title < s.value || side < 60)
            last = s
        }
    }

    /// A long thin cell counts by its area, within 2.5 times its short side;
    /// no role asks for more than 0.3 of the short side.
    @Test func measureAndCaps() {
        #expect(TypeScale.measure(of: Size(width: 300, height: 50)) == (300.0 * 50).squareRoot())
        #expect(TypeScale.measure(of: Size(width: 800, height: 40)) == 100)
        let s = TypeScale().sizes(for: Size(width: 800, height: 30))
        #expect(s.value <= 9 && s.title <= 9)
        #expect(TypeScale.step(atMost: 17.9) == 16)
        #expect(TypeScale.step(atMost: 300) == 288)
        #expect(TypeScale.step(atMost: 3.5) == 3)
    }

    /// A panel's scale: every cell gets the smallest cell's title and end-label
    /// sizes, values still follow their cells; empty cells count for nothing.
    @Test func uniformOverAPanel() {
        let small = Size(width: 260, height: 220), wide = Size(width: 528, height: 220)
        let free = TypeScale()
        #expect(free.sizes(for: wide).title > free.sizes(for: small).title, "the case it is for")
        let panel = free.uniform(over: [small, wide, Size(width: 0, height: 90)])
        for cell in [small, wide] {
            #expect(panel.sizes(for: cell).title == free.sizes(for: small).title)
            #expect(panel.sizes(for: cell).endLabel == free.sizes(for: small).endLabel)
            #expect(panel.sizes(for: cell).value == free.sizes(for: cell).value)
        }
        // A cell smaller than the panel's smallest keeps its own (smaller) sizes.
        let tiny = Size(width: 90, height: 60)
        #expect(panel.sizes(for: tiny) == free.sizes(for: tiny))
        #expect(free.uniform(over: []) == free)
        #expect(panel.uniform(over: [small, wide]) == panel, "applying it again changes nothing")
    }

    /// On a type scale a centred value is the same size at every value (sized
    /// by the widest value of the range) and stays inside the ring.
    @Test(arguments: [
        AnyStyle(.ring), AnyStyle(.accessoryCircular), AnyStyle(.accessoryCircularCapacity), AnyStyle(.stepped),
    ])
    func valueTextKeepsItsSizeAndFits(style: AnyStyle) throws {
        func ink(_ v: Double) throws -> IntRect {
            let g = try Gauge(value: v, in: 0...5000).gaugeStyle(style.style)
                .valueFormat(.number(decimals: 0, unit: "rpm")).typeScale(TypeScale())
            let img = render(g, width: 120, height: 120)
            // A band through the centre that no style's stroke enters.
            let box = IntRect(x: 20, y: 46, width: 80, height: 28)
            return try #require(img.inkBounds(in: box, background: RGB(Panel.background)), "\(style)")
        }
        let low = try ink(0), high = try ink(5000)
        // "0 rpm" and "5000 rpm" have the same ink height at the same size.
        #expect(low.height == high.height, "\(style)")
        // Every corner of the ink inside the stroke's inner circle (a ring's: 60 - 14).
        let square = Rect(x: 0, y: 0, width: 120, height: 120)
        var inner = 46.0
        if style.style is AccessoryCircularGaugeStyle {
            inner = AccessoryCircularGaugeStyle.layout(in: square).innerRadius
        }
        if style.style is AccessoryCircularCapacityGaugeStyle {
            inner = AccessoryCircularCapacityGaugeStyle.layout(in: square).innerRadius
        }
        for box in [low, high] {
            #expect(box.minX > 20 && box.maxX < 100 && box.minY > 46 && box.maxY < 74, "\(style): \(box) cut")
            for (x, y) in [
                (box.x, box.y), (box.x + box.width, box.y), (box.x, box.y + box.height),
                (box.x + box.width, box.y + box.height),
            ] {
                let (dx, dy) = (Double(x) - 60, Double(y) - 60)
                #expect((dx * dx + dy * dy).squareRoot() < inner, "\(style): \(box) beyond \(inner)")
            }
        }
    }

    /// The centre value's size is a step of the scale, at most its value size.
    @Test func centreValueSizeIsAStep() {
        let sizes = TypeScale().sizes(for: Size(width: 120, height: 120))
        let context = DrawContext(textSizes: sizes)
        let c = GaugeStyleConfiguration(value: 0.5, currentValueLabel: "5000 rpm", sizingText: ["5000 rpm", "0 rpm"])
        for width in stride(from: 20.0, through: 200, by: 7) {
            let size = centreTextSize(c, preferred: 1000, fitting: width, context)
            #expect((TypeScale.steps.contains(size) || size < TypeScale.steps[0]) && size <= sizes.value)
            #expect(Font.ellipsis.isEmpty || size <= 6 || context.font(size: size)!.advance(of: "5000 rpm") <= width)
        }
    }
}

/// A style to pass as a test argument.
struct AnyStyle: Sendable, CustomStringConvertible {
    let style: any GaugeStyle
    let description: String
    init(_ name: GaugeStyleName) {
        style = name.style(segments: 10)
        description = name.rawValue
    }
}

@Suite struct EllipsisTests {
    static let font = try! FontCache.shared.font(.default, pixelSize: 12)

    @Test(arguments: [0.0, 5, 11, 20, 40, 61, 90, 400])
    func aShortenedLineFitsAndEndsInAnEllipsisAtACharacter(width: Double) {
        let text = "Fan speed of the rear chassis"
        let line = Self.font.truncated(text, toWidth: width)
        #expect(Self.font.advance(of: line) <= width)
        if Self.font.advance(of: text) <= width {
            #expect(line == text)
        } else if !line.isEmpty {
            #expect(line.hasSuffix(Font.ellipsis))
            let kept = line.dropLast()
            #expect(text.hasPrefix(kept) && kept.last != " ")
            // The longest such prefix: one more character would not fit.
            let next = text.prefix(kept.count + 1)
            #expect(Self.font.advance(of: String(next) + Font.ellipsis) > width || next.last == " ")
        }
    }

    /// A label wider than its place paints only inside it, with whole glyphs.
    @Test func aLongLabelDrawsWholeGlyphsInsideItsRect() {
        let (img, canvas) = Panel.image(width: 100, height: 20)
        let rect = Rect(x: 20, y: 0, width: 60, height: 20)
        GaugeLabel.text("Temperature of the rear chassis").draw(
            in: rect, on: canvas, context: DrawContext(), pixelSize: 12, color: .white)
        let bg = RGB(Panel.background)
        let ink = img.inkBounds(in: img.surface.bounds, background: bg)!
        #expect(ink.minX >= 20 && ink.maxX <= 80)
        let drawn = GaugeLabel.text("Temperature of the rear chassis").drawnText(
            in: rect, context: DrawContext(), pixelSize: 12, color: .white)
        #expect(drawn?.string.hasSuffix(Font.ellipsis) == true)
    }
}
