import Testing
@testable import PanelGauge

@Suite struct GaugeModelTests {
    @Test func initializerShapesMatchSwiftUI() throws {
        let plain = try Gauge(value: 0.4) { "CPU" }
        #expect(plain.range == 0...1)
        #expect(plain.label?.text == "CPU")
        #expect(plain.currentValueLabel == nil && plain.minimumValueLabel == nil)

        let withCurrent = try Gauge(value: 40, in: 0...200) {
            "Fan"
        } currentValueLabel: {
            "40 rpm"
        }
        #expect(withCurrent.currentValueLabel?.text == "40 rpm")
        #expect(withCurrent.normalizedValue == 0.2)

        let full = try Gauge(value: 21.5, in: -10...40) {
            "Temp"
        } currentValueLabel: {
            "21.5"
        } minimumValueLabel: {
            "-10"
        } maximumValueLabel: {
            "40"
        }
        #expect(full.minimumValueLabel?.text == "-10" && full.maximumValueLabel?.text == "40")
        #expect(full.normalizedValue == 31.5 / 50)

        let ends = try Gauge(value: 0.5) {
            "Load"
        } minimumValueLabel: {
            "0"
        } maximumValueLabel: {
            "1"
        }
        #expect(ends.currentValueLabel == nil && ends.maximumValueLabel?.text == "1")

        let integer = try Gauge(value: 7, in: 0...10, label: "Steps")
        #expect(integer.normalizedValue == 0.7 && integer.label?.text == "Steps")

        let bare = try Gauge(value: Float(0.25))
        #expect(bare.label == nil && bare.normalizedValue == 0.25)
    }

    @Test func outOfRangeValuesClamp() throws {
        let high = try Gauge(value: 150, in: 0...100)
        #expect(high.value == 150)
        #expect(high.clampedValue == 100 && high.normalizedValue == 1)
        let low = try Gauge(value: -3, in: 0...100)
        #expect(low.clampedValue == 0 && low.normalizedValue == 0)
        #expect(try low.withValue(73).normalizedValue == 0.73)
    }

    @Test func nonFiniteValuesAndBadRangesAreRefused() throws {
        #expect(throws: GaugeError.valueNotFinite(.infinity)) { try Gauge(value: Double.infinity) }
        #expect(throws: GaugeError.self) { try Gauge(value: Double.nan) }
        #expect(throws: GaugeError.rangeNotFinite(0...Double.infinity)) {
            try Gauge(value: 1, in: 0...Double.infinity)
        }
        #expect(throws: GaugeError.emptyRange(5...5)) { try Gauge(value: 5, in: 5...5) }
        #expect(throws: GaugeError.rangeNotFinite(-1e308...1e308)) { try Gauge(value: 0, in: -1e308...1e308) }
        let g = try Gauge(value: 0.5)
        #expect(throws: GaugeError.self) { try g.withValue(.nan) }
        #expect(GaugeError.valueNotFinite(.nan).description.contains("not a finite number"))
    }

    @Test func stylesReadLikeSwiftUI() throws {
        let g = try Gauge(value: 0.5) { "A" }
        #expect(g.style is LinearCapacityGaugeStyle)
        #expect(g.gaugeStyle(.accessoryCircular).style is AccessoryCircularGaugeStyle)
        #expect(g.gaugeStyle(.accessoryCircularCapacity).style is AccessoryCircularCapacityGaugeStyle)
        #expect(g.gaugeStyle(.accessoryLinear).style is AccessoryLinearGaugeStyle)
        #expect(g.gaugeStyle(.accessoryLinearCapacity).style is AccessoryLinearCapacityGaugeStyle)
        #expect(g.gaugeStyle(.ring).style is RingGaugeStyle)
        #expect((g.gaugeStyle(.stepped(segments: 5)).style as? SteppedGaugeStyle)?.segments == 5)
    }

    @Test func tintTakesAColourOrAGradient() throws {
        let g = try Gauge(value: 0.5)
        #expect(g.tint(.red).tint == .color(.red))
        #expect(g.tint == nil && g.resolvedTint == .color(.blue))  // SwiftUI's default accent
        #expect(g.gaugeStyle(.ring).resolvedTint == .gradient([.red, .green]))  // the article's ring
        #expect(g.gaugeStyle(.ring).tint(.purple).resolvedTint == .color(.purple))
        #expect(g.tint(Gradient(colors: [.red, .green])).tint == .gradient([.red, .green]))
        let grad = g.tint(.gradient([.red, .green]))
        #expect(grad.indicatorColor == Color.lerp(.red, .green, 0.5))
        // A gradient's ends are its first and last colours.
        #expect(Tint.gradient([.red, .yellow, .green]).color(at: 0) == .red)
        #expect(Tint.gradient([.red, .yellow, .green]).color(at: 1) == .green)
        #expect(Tint.gradient([.red, .yellow, .green]).color(at: 0.5) == .yellow)
    }

    @Test func thresholdZones() throws {
        let amber = Color(hex: 0xFFBF00)
        let zones = try Thresholds(.green, (60, amber), (85, .red))
        #expect(zones.color(for: 10) == .green)
        #expect(zones.color(for: 59.999) == .green)
        #expect(zones.color(for: 60) == amber)  // a boundary belongs to the zone above it
        #expect(zones.color(for: 84.9) == amber)
        #expect(zones.color(for: 85) == .red)
        #expect(zones.color(for: 1000) == .red)

        // Thresholds override the tint; out of range the out-of-range colour overrides both.
        let g = try Gauge(value: 100, in: 0...100).tint(.blue).thresholds(zones)
        #expect(g.indicatorColor == .red)
        #expect(g.configuration.tint == .color(.red))
        let over = try g.withValue(120)
        #expect(over.indicatorColor == over.environment.outOfRange)
        #expect(over.configuration.tint == .color(over.environment.outOfRange))
        #expect(try g.withValue(30).configuration.tint == .color(.green))

        // Without a base colour, values below the first step keep the tint.
        let upper = try Thresholds(base: nil, steps: [.init(from: 85, color: .red)])
        #expect(upper.color(for: 50) == nil && upper.color(for: 90) == .red)
        let graded = try Gauge(value: 50, in: 0...100).tint(.gradient([.green, .yellow])).thresholds(upper)
        #expect(graded.configuration.tint == .gradient([.green, .yellow]))
        #expect(graded.indicatorColor == Color.lerp(.green, .yellow, 0.5))
        #expect(try graded.withValue(95).configuration.tint == .color(.red))

        #expect(throws: ThresholdsError.notIncreasing(85, 60)) { try Thresholds(.green, (85, .red), (60, amber)) }
        #expect(throws: ThresholdsError.self) { try Thresholds(.green, (.nan, .red)) }
        #expect(throws: ThresholdsError.boundNotFinite(.infinity)) { try Thresholds(.green, (.infinity, .red)) }
    }

    /// Issue 38 item 1: the text shows the real value, the indicator pins
    /// at the end, the gauge says which side it left the range on.
    @Test func outOfRangeTextShowsTheRealValue() throws {
        let t = try Gauge(value: -273.15, in: 0...40).valueFormat(.number(decimals: 2, unit: "°C"))
        #expect(t.configuration.currentValueLabel?.text == "-273.15 °C")
        #expect(t.configuration.value == 0)
        #expect(t.rangePosition == .below && t.configuration.rangePosition == .below)
        let w = try Gauge(value: 99999, in: 0...3000).valueFormat(.number(decimals: 0, unit: "W"))
        #expect(w.configuration.currentValueLabel?.text == "99999 W")
        #expect(w.configuration.value == 1)
        #expect(w.rangePosition == .above)
        #expect(try w.withValue(3000).rangePosition == .within)
        #expect(try w.withValue(0).rangePosition == .within)
        // The track takes the colour too (visible when the indicator is empty).
        #expect(t.configuration.environment.track != t.environment.track)
        #expect(try t.withValue(20).configuration.environment.track == t.environment.track)
        // A ring without a format writes the real percentage.
        let ring = try Gauge(value: 1.5).gaugeStyle(RingGaugeStyle())
        #expect(ring.configuration.currentValueLabel?.text == "150 %")
    }

    /// Issue 38 item 2: a gauge without a value shows no reading.
    @Test func withoutValueShowsNoReading() throws {
        let g = try Gauge(value: 30, in: 0...40).valueFormat(.number(decimals: 0, unit: "°C"))
            .thresholds(try Thresholds(.green, (35, .red)))
        let none = g.withoutValue()
        #expect(!none.hasValue && none.configuration.hasValue == false)
        #expect(none.configuration.currentValueLabel?.text == "no data")
        #expect(none.configuration.tint == .color(.clear))
        #expect(none.configuration.thresholds == nil)
        #expect(g.withoutValue("offline").configuration.currentValueLabel?.text == "offline")
        #expect(try none.withValue(12).hasValue)
    }

    /// Issue 38 item 3: SI and binary prefixes.
    @Test func prefixesScaleTheNumber() {
        let si = ValueFormat.number(decimals: 1, unit: "W", prefixes: .si)
        #expect(si.string(for: 12_400, in: 0...1e6) == "12.4 kW")
        #expect(si.string(for: 999, in: 0...1e6) == "999.0 W")
        #expect(si.string(for: 999_960, in: 0...1e6) == "1.0 MW")  // the rounding carries to the next prefix
        #expect(si.string(for: -2_500_000, in: -1e7...0) == "-2.5 MW")
        #expect(ValueFormat.number(decimals: 0, prefixes: .si).string(for: 3e12, in: 0...1e12) == "3 T")
        let bin = ValueFormat.number(decimals: 1, unit: "B", prefixes: .binary)
        #expect(bin.string(for: 3.1 * 1024 * 1024 * 1024, in: 0...1e12) == "3.1 GiB")
        #expect(bin.string(for: 512, in: 0...1e12) == "512.0 B")
        // The widest number under each prefix sizes the slot.
        #expect(si.widestCandidates(in: 0...1e6).contains("999.0 kW"))
    }

    /// Issue 38 item 3: value mappings.
    @Test func mappingsNameValues() throws {
        var f = ValueFormat.number(decimals: 0, unit: "W")
        f.mappings = [0: "off", 1: "on"]
        #expect(f.string(for: 0, in: 0...3000) == "off")
        #expect(f.string(for: 1, in: 0...3000) == "on")
        #expect(f.string(for: 2, in: 0...3000) == "2 W")
        #expect(f.widestCandidates(in: 0...3000).contains("off"))
    }

    @Test func valueFormatting() {
        let pct = ValueFormat.percent()
        #expect(pct.string(for: 0.73, in: 0...1) == "73 %")
        #expect(pct.string(for: 73, in: 0...100) == "73 %")
        #expect(pct.string(for: 1.5, in: 0...1) == "150 %")  // the value, not the end it pins at
        #expect(pct.string(for: -0.2, in: 0...1) == "-20 %")
        #expect(ValueFormat.percent(decimals: 1).string(for: 0.7345, in: 0...1) == "73.5 %")
        #expect(ValueFormat.number().string(for: 0.73, in: 0...1) == "0.73")
        #expect(ValueFormat.number(decimals: 1, unit: "°C").string(for: 21.54, in: -10...40) == "21.5 °C")
        #expect(ValueFormat.number(decimals: 0, unit: "rpm").string(for: 1234.5, in: 0...5000) == "1235 rpm")
        #expect(ValueFormat.number(decimals: 2).string(for: 0.125, in: 0...1) == "0.13")  // ties away from zero
        #expect(ValueFormat.number(decimals: 2).string(for: -0.001, in: -1...1) == "0.00")  // never "-0.00"
        #expect(ValueFormat.number(decimals: 1).string(for: -2.25, in: -5...5) == "-2.3")
        #expect(ValueFormat.number(decimals: 3).string(for: 0.5, in: 0...1) == "0.500")
        #expect(pct.widestCandidates(in: 0...1) == ["0 %", "100 %"])
        // Digits a Double does not have are not invented: fewer decimals instead.
        #expect(ValueFormat.fixed(12_345_678.125, decimals: 9) == "12345678.12500000")  // 8 of 9 fit below 2^53
        #expect(ValueFormat.fixed(-2.5e20, decimals: 2) == "-2.5e+20")
    }

    @Test func configurationCarriesNormalizedValueAndLabels() throws {
        let g = try Gauge(value: 73, in: 0...100) { "CPU" }.valueFormat(.percent())
        let c = g.configuration
        #expect(c.value == 0.73)
        #expect(c.label?.text == "CPU")
        #expect(c.currentValueLabel?.text == "73 %")  // generated from the format
        #expect(c.sizingText == ["0 %", "100 %"])
        // An explicit current-value label wins over the format.
        let explicit = try Gauge(value: 73, in: 0...100) {
            "CPU"
        } currentValueLabel: {
            "hot"
        }.valueFormat(.percent())
        #expect(explicit.configuration.currentValueLabel?.text == "hot")
        // Without a format there is no generated label.
        #expect(try Gauge(value: 0.5).configuration.currentValueLabel == nil)
    }
}

@Suite struct EasingTests {
    @Test func easeInMatchesTheCubicBezierOfCoreAnimation() {
        let c = TimingCurve.easeIn
        #expect(c.progress(at: 0) == 0 && c.progress(at: 1) == 1)
        // Reference values of the Bézier (0.42, 0), (1, 1) solved independently
        // (60 bisection steps in double precision).
        #expect(abs(c.progress(at: 0.5) - 0.315_356_812_572_539) < 1e-9)
        #expect(abs(c.progress(at: 0.25) - 0.093_464_650_718_825) < 1e-9)
        var last = 0.0
        for i in 1...100 {
            let p = c.progress(at: Double(i) / 100)
            #expect(p >= last)
            last = p
        }
        #expect(TimingCurve.linear.progress(at: 0.3) == 0.3)
        #expect(c.progress(at: -1) == 0 && c.progress(at: 7) == 1 && c.progress(at: .nan) == 0)
    }

    @Test func defaultAnimationIsEaseInOverPointTwoSeconds() {
        #expect(GaugeAnimation.default == .easeIn(duration: 0.2))
        #expect(GaugeAnimation.default.duration == 0.2 && GaugeAnimation.default.curve == .easeIn)
        var v = AnimatedValue(0)
        v.set(1, at: 10)
        #expect(v.value(at: 9) == 0)
        #expect(v.value(at: 10) == 0)
        #expect(abs(v.value(at: 10.1) - TimingCurve.easeIn.progress(at: 0.5)) < 1e-9)
        #expect(v.value(at: 10.2) == 1)
        #expect(v.isAnimating(at: 10.1) && !v.isAnimating(at: 10.2))
    }

    @Test func interruptedChangeStartsFromTheShownValue() {
        var v = AnimatedValue(0, animation: .linear(duration: 1))
        v.set(1, at: 0)
        v.set(0, at: 0.25)  // shown value then: 0.25
        #expect(v.from == 0.25)
        #expect(abs(v.value(at: 0.75) - 0.125) < 1e-12)
        #expect(v.value(at: 1.25) == 0)
    }

    @Test func animationCanBeTurnedOffOrConfigured() {
        var off = AnimatedValue(0.2, animation: .none)
        off.set(0.9, at: 5)
        #expect(off.value(at: 5) == 0.9 && !off.isAnimating(at: 5))
        #expect(GaugeAnimation(duration: -1, curve: .easeIn).duration == 0)
        #expect(GaugeAnimation(duration: .nan, curve: .easeIn).duration == 0)
        var slow = AnimatedValue(0, animation: .easeIn(duration: 2))
        slow.set(1, at: 0)
        #expect(slow.value(at: 1.99) < 1 && slow.value(at: 2) == 1)
    }
}

@Suite struct SteppedGaugeTests {
    @Test func stepsUpAndDownWithinItsSegments() throws {
        var g = try SteppedGauge(segments: 4)
        #expect(g.step == 0 && g.fraction == 0)
        g.stepDown(at: 0)
        #expect(g.step == 0)
        for i in 1...6 { g.stepUp(at: Double(i)) }
        #expect(g.step == 4 && g.previousStep == 3 && g.fraction == 1)
        g.stepDown(at: 10)
        #expect(g.step == 3 && g.previousStep == 4 && g.fraction == 0.75)
        #expect(throws: SteppedGaugeError.noSegments(0)) { try SteppedGauge(segments: 0) }
        #expect(try SteppedGauge(segments: 3, step: 9).step == 3)
    }

    @Test func eachChangeEasesInFromThePreviousStepOverPointTwoSeconds() throws {
        var g = try SteppedGauge(segments: 10, step: 2)
        g.stepUp(at: 100)
        #expect(g.value(at: 100) == 0.2)
        #expect(abs(g.value(at: 100.1) - (0.2 + 0.1 * TimingCurve.easeIn.progress(at: 0.5))) < 1e-12)
        #expect(g.value(at: 100.2) == 0.3)
        #expect(!g.isAnimating(at: 100.2))
    }
}

@Suite struct PanelLayoutTests {
    @Test func gridDividesThePanelExactly() {
        let cells = PanelLayout.grid(
            in: Rect(x: 0, y: 0, width: 320, height: 240), columns: 2, rows: 2, spacing: 8, padding: 4)
        #expect(
            cells == [
                Rect(x: 4, y: 4, width: 152, height: 112), Rect(x: 164, y: 4, width: 152, height: 112),
                Rect(x: 4, y: 124, width: 152, height: 112), Rect(x: 164, y: 124, width: 152, height: 112),
            ])
        #expect(PanelLayout.grid(in: Rect(x: 0, y: 0, width: 10, height: 10), columns: 0, rows: 1).isEmpty)
        let row = PanelLayout.row(in: Rect(x: 10, y: 20, width: 300, height: 50), count: 3, spacing: 15)
        #expect(row.map(\.x) == [10, 115, 220] && row.allSatisfy { $0.width == 90 && $0.height == 50 })
        #expect(PanelLayout.column(in: Rect(x: 0, y: 0, width: 40, height: 100), count: 2).map(\.y) == [0, 50])
    }

    @Test func circularGaugesUseTheLargestCentredSquare() {
        #expect(
            PanelLayout.centredSquare(in: Rect(x: 10, y: 0, width: 200, height: 100))
                == Rect(x: 60, y: 0, width: 100, height: 100))
        let l = AccessoryCircularGaugeStyle.layout(in: Rect(x: 0, y: 0, width: 300, height: 100))
        #expect(l.center == Point(x: 150, y: 50))
        // The padded marker stays inside the square: radius + halo = half the side.
        #expect(abs(l.radius + AccessoryCircularGaugeStyle.markerRadii(lineWidth: l.lineWidth).halo - 50) < 1e-12)
    }
}

@Suite struct LoaderModelTests {
    @Test func rotationIsAFunctionOfTime() {
        let l = Loader(progress: 0.6)
        #expect(l.rotation(at: 0) == 0)
        #expect(l.rotation(at: 0.25) == 90)
        #expect(l.rotation(at: 3.5) == 180)
        var slow = l
        slow.rotationPeriod = 2
        #expect(slow.rotation(at: 0.5) == 90)
        #expect(Loader(progress: 7).progress == 1 && Loader(progress: .nan).progress == 0)
    }
}

@Suite struct AnimatedGaugeTests {
    @Test func valueChangesEaseInAndEndOnTheNewValue() throws {
        var g = AnimatedGauge(try Gauge(value: 20, in: 0...100).valueFormat(.percent()))
        try g.setValue(60, at: 5)
        #expect(g.gauge(at: 5).value == 20)
        #expect(abs(g.gauge(at: 5.1).value - (20 + 40 * TimingCurve.easeIn.progress(at: 0.5))) < 1e-9)
        #expect(g.isAnimating(at: 5.1))
        #expect(g.gauge(at: 5.2).value == 60 && !g.isAnimating(at: 5.2))
        #expect(g.gauge(at: 5.2).configuration.currentValueLabel?.text == "60 %")
    }

    @Test func outOfRangeReadingsAnimateOnlyToTheEnd() throws {
        var g = AnimatedGauge(try Gauge(value: 0, in: 0...10), animation: .linear(duration: 1))
        try g.setValue(1000, at: 0)
        #expect(abs(g.gauge(at: 0.5).value - 5) < 1e-9)  // half way to 10, not to 1000
        #expect(g.gauge(at: 1).value == 1000 && g.gauge(at: 1).normalizedValue == 1)
    }

    @Test func garbageIsRefusedAndTheGaugeKeepsItsValue() throws {
        var g = AnimatedGauge(try Gauge(value: 0.3), animation: .none)
        #expect(throws: GaugeError.self) { try g.setValue(.nan, at: 1) }
        #expect(throws: GaugeError.self) { try g.setValue(-.infinity, at: 1) }
        #expect(g.gauge(at: 2).value == 0.3)
        try g.setValue(0.9, at: 3)
        #expect(g.gauge(at: 3).value == 0.9)  // animation off: at once
    }
}

@Suite struct GaugeFitsItsRectangleTests {
    /// Absurd environments (label sizes NaN, negative, zero, huge) draw what
    /// they can without trapping, and stay inside the cell.
    @Test(arguments: [Double.nan, -5, 0, 1e9, .infinity])
    func absurdLabelSizesDoNotTrap(size: Double) throws {
        for style in GaugeStyleName.allCases {
            let g = try Gauge(value: 0.5) {
                "L"
            } currentValueLabel: {
                "50"
            } minimumValueLabel: {
                "0"
            } maximumValueLabel: {
                "1"
            }
            .gaugeStyle(style.style()).environment { $0.labelSize = size }
            let (img, canvas) = Panel.image(width: 60, height: 40)
            g.draw(in: Rect(x: 10, y: 5, width: 40, height: 30), on: canvas)
            if let ink = img.inkBounds(in: img.surface.bounds, background: RGB(Panel.background)) {
                #expect(IntRect(x: 10, y: 5, width: 40, height: 30).contains(ink), "\(style)")
            }
        }
    }

    @Test func aRectangleThatIsNotFiniteDrawsNothing() throws {
        let (img, canvas) = Panel.image(width: 20, height: 20)
        let g = try Gauge(value: 0.5).gaugeStyle(.ring)
        for r in [
            Rect(x: .nan, y: 0, width: 10, height: 10), Rect(x: 0, y: 0, width: .infinity, height: 10),
            Rect(x: 1e300, y: 0, width: 10, height: 10),
        ] {
            g.draw(in: r, on: canvas)
            Loader(progress: 0.5).draw(in: r, on: canvas, at: 0)
        }
        try FontCache.shared.font(.default, pixelSize: 12).draw(
            "x", at: Point(x: .nan, y: 1e300), on: canvas, paint: .solid(.white))
        #expect(img.inkBounds(in: img.surface.bounds, background: RGB(Panel.background)) == nil)
    }

    /// Every style, given a cell too small for its labels, paints only inside
    /// the cell; and it does paint there.
    @Test(arguments: GaugeStyleName.allCases)
    func drawsOnlyInsideItsCell(style: GaugeStyleName) throws {
        let g = try Gauge(value: 0.6) {
            "Label"
        } currentValueLabel: {
            "60 %"
        } minimumValueLabel: {
            "0"
        } maximumValueLabel: {
            "100"
        }
        let (img, canvas) = Panel.image(width: 80, height: 40)
        let cell = IntRect(x: 25, y: 15, width: 30, height: 12)
        g.gaugeStyle(style.style(segments: 4)).environment { $0.labelSize = 14 }.tint(.red)
            .draw(in: Rect(cell), on: canvas)
        let ink = try #require(img.inkBounds(in: img.surface.bounds, background: RGB(Panel.background)))
        #expect(cell.contains(ink), "\(style) drew \(ink) outside \(cell)")
    }
}
