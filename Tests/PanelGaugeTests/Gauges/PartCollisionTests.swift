import Testing

@testable import PanelGauge

/// No two parts of a gauge meet at any value: title, label, current value,
/// end labels and marker, for every style, at the range's ends, the middle
/// and beyond the range (clamped), in cells of several shapes.
@Suite struct PartCollisionTests {
    static let sizes: [(Double, Double)] = [(110, 120), (96, 108), (200, 160), (320, 240), (160, 70)]
    static let values: [Double] = [0, 50, 100, -20, 130, 3, 97]

    static func gauge(_ style: any GaugeStyle, value: Double, ends: Bool) throws -> Gauge {
        var g = try Gauge(
            checkedValue: min(100, max(0, value)), range: 0...100, label: "CPU load", current: nil,
            minimum: ends ? "0" : nil, maximum: ends ? "100" : nil)
        g = try g.withValue(value)
        g.style = style
        g.valueFormat = .number(decimals: 0, unit: "%")
        return g.typeScale(TypeScale()).title(.automatic)
    }

    /// Pairs of parts whose boxes share pixels (touching edges do not count).
    static func collisions(_ parts: [GaugePart: [Rect]]) -> [String] {
        var out: [String] = []
        let all = parts.sorted { $0.key.rawValue < $1.key.rawValue }
        for (i, a) in all.enumerated() {
            for b in all[(i + 1)...] {
                for ra in a.value {
                    for rb in b.value {
                        let w = min(ra.maxX, rb.maxX) - max(ra.minX, rb.minX)
                        let h = min(ra.maxY, rb.maxY) - max(ra.minY, rb.minY)
                        if w > 0.01 && h > 0.01 {
                            out.append("\(a.key) \(ra) meets \(b.key) \(rb) by \(w) x \(h)")
                        }
                    }
                }
            }
        }
        return out
    }

    @Test(arguments: 0..<TitleTests.styles.count)
    func noTwoPartsMeetAtAnyValue(index: Int) throws {
        let (name, style) = TitleTests.styles[index]
        for ends in [true, false] {
            for (w, h) in Self.sizes {
                let rect = Rect(x: 0, y: 0, width: w, height: h)
                for v in Self.values {
                    let parts = try Self.gauge(style, value: v, ends: ends).partBounds(in: rect)
                    let found = Self.collisions(parts)
                    #expect(found.isEmpty, "\(name) \(Int(w))x\(Int(h)) at \(v), end labels \(ends): \(found)")
                    for (part, boxes) in parts {
                        for b in boxes where b.minX < -0.01 || b.minY < -0.01 || b.maxX > w + 0.01 || b.maxY > h + 0.01
                        {
                            Issue.record("\(name) \(Int(w))x\(Int(h)) at \(v): \(part) \(b) is outside the gauge")
                        }
                    }
                }
            }
        }
    }

    /// Every style reports its title and current value, the styles with a
    /// marker and end labels those too (so the check above has something to
    /// check), and a marker over an end label is found.
    @Test func theCheckSeesMarkersAndEndLabels() throws {
        for (name, style) in TitleTests.styles {
            let parts = try Self.gauge(style, value: 50, ends: false).partBounds(
                in: Rect(x: 0, y: 0, width: 110, height: 120))
            #expect(parts[.currentValue] != nil && (parts[.title] != nil || parts[.label] != nil), "\(name): \(parts)")
        }
        for style in [AccessoryCircularGaugeStyle() as any GaugeStyle, AccessoryLinearGaugeStyle()] {
            let parts = try Self.gauge(style, value: 0, ends: true).partBounds(
                in: Rect(x: 0, y: 0, width: 110, height: 120))
            #expect(parts[.marker] != nil && parts[.minimumValue] != nil && parts[.maximumValue] != nil)
        }
        let overlapping: [GaugePart: [Rect]] = [
            .marker: [Rect(x: 0, y: 0, width: 10, height: 10)], .minimumValue: [Rect(x: 9, y: 9, width: 5, height: 5)],
        ]
        #expect(Self.collisions(overlapping).count == 1)
        #expect(
            Self.collisions([
                .marker: [Rect(x: 0, y: 0, width: 10, height: 10)], .title: [Rect(x: 10, y: 0, width: 5, height: 5)],
            ]).isEmpty)
    }
}
