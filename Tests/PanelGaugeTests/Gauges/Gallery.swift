import Glibc
@testable import PanelGauge

/// The gallery: every style at several values, with a solid and a gradient tint.
enum Gallery {
    struct Entry: Sendable {
        let name: String
        let render: @Sendable () throws -> Image
    }

    static let solid = Tint.color(.blue)
    static let gradient = Tint.gradient([.green, .yellow, .red])
    static let values: [Double] = [0, 0.35, 0.73, 1]

    /// One row per tint (solid, gradient), one column per value.
    static func strip(
        cell: (w: Int, h: Int), values: [Double] = values, _ make: (Double, Tint) throws -> Gauge
    ) throws -> Image {
        let cols = values.count
        let (img, canvas) = Panel.image(width: cell.w * cols, height: cell.h * 2)
        for (row, tint) in [solid, gradient].enumerated() {
            for (col, v) in values.enumerated() {
                let g = try make(v, tint)
                let r = Rect(
                    x: Double(col * cell.w), y: Double(row * cell.h), width: Double(cell.w), height: Double(cell.h))
                g.draw(in: r.insetBy(6), on: canvas)
            }
        }
        return img
    }

    /// `gauges` on a `w` x `h` panel, in a grid of `columns` x `rows` cells
    /// (8 px gaps and margin), each on the type scale of its cell.
    static func grid(_ w: Int, _ h: Int, columns: Int, rows: Int, _ gauges: [Gauge]) -> Image {
        let (img, canvas) = Panel.image(width: w, height: h)
        let cells = PanelLayout.grid(
            in: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), columns: columns, rows: rows, spacing: 8,
            padding: 8)
        for (g, cell) in zip(gauges, cells) { g.typeScale(TypeScale()).draw(in: cell, on: canvas) }
        return img
    }

    static func percent(_ v: Double) -> GaugeLabel { .text(ValueFormat.percent().string(for: v, in: 0...1)) }

    static let entries: [Entry] =
        [
            Entry(name: "linearCapacity") {
                try strip(cell: (150, 64)) { v, tint in
                    try Gauge(value: v) {
                        "CPU"
                    } currentValueLabel: {
                        percent(v)
                    } minimumValueLabel: {
                        "0"
                    } maximumValueLabel: {
                        "1"
                    }
                    .gaugeStyle(.linearCapacity).tint(tint)
                }
            },
            Entry(name: "accessoryLinear") {
                try strip(cell: (150, 40)) { v, tint in
                    try Gauge(value: v) {
                        "Temp"
                    } currentValueLabel: {
                        percent(v)
                    } minimumValueLabel: {
                        "0"
                    } maximumValueLabel: {
                        "1"
                    }
                    .gaugeStyle(.accessoryLinear).tint(tint)
                }
            },
            Entry(name: "accessoryLinearCapacity") {
                try strip(cell: (150, 64)) { v, tint in
                    try Gauge(value: v) {
                        "Battery"
                    } currentValueLabel: {
                        percent(v)
                    }
                    .gaugeStyle(.accessoryLinearCapacity).tint(tint)
                }
            },
            Entry(name: "accessoryCircular") {
                try strip(cell: (90, 90)) { v, tint in
                    try Gauge(value: v * 100, in: 0...100) {
                        "Speed"
                    } minimumValueLabel: {
                        "0"
                    } maximumValueLabel: {
                        "100"
                    }
                    .valueFormat(.number(decimals: 0)).gaugeStyle(.accessoryCircular).tint(tint)
                }
            },
            Entry(name: "accessoryCircularCapacity") {
                try strip(cell: (90, 90)) { v, tint in
                    try Gauge(value: v).valueFormat(.percent()).gaugeStyle(.accessoryCircularCapacity).tint(tint)
                }
            },
            Entry(name: "ring") {
                try strip(cell: (100, 100)) { v, tint in
                    try Gauge(value: v).gaugeStyle(.ring).tint(tint.isGradient ? .gradient([.red, .green]) : tint)
                }
            },
            Entry(name: "stepped") {
                try strip(cell: (90, 90)) { v, tint in
                    let steps = try SteppedGauge(segments: 8, step: Int((v * 8).rounded()))
                    return try Gauge(value: steps.value(at: 0)).gaugeStyle(.stepped(segments: 8)).tint(tint)
                }
            },
            Entry(name: "ringCustomCentre") {
                // The article's custom centres: a fixed text, and a drawing that sizes itself.
                let (img, canvas) = Panel.image(width: 300, height: 130)
                let text = try Gauge(value: 0.6) {
                    ""
                } currentValueLabel: {
                    "fixed text"
                }
                .gaugeStyle(.ring(fontSize: 14)).tint(.gradient([.red, .green]))
                text.draw(in: Rect(x: 0, y: 0, width: 150, height: 130).insetBy(4), on: canvas)
                let bolt = Draw(size: { _, _ in Size(width: 34, height: 34) }) { r, canvas, _ in
                    var p = Path()
                    let pts: [(Double, Double)] = [
                        (0.6, 0), (0.1, 0.58), (0.45, 0.58), (0.35, 1), (0.9, 0.38), (0.52, 0.38),
                    ]
                    p.move(to: Point(x: r.minX + pts[0].0 * r.width, y: r.minY + pts[0].1 * r.height))
                    for q in pts.dropFirst() {
                        p.line(to: Point(x: r.minX + q.0 * r.width, y: r.minY + q.1 * r.height))
                    }
                    p.closeSubpath()
                    canvas.fill(p, paint: .solid(.yellow))
                }
                let icon = try Gauge(value: 0.35) {
                    ""
                } currentValueLabel: {
                    .custom(bolt)
                }
                .gaugeStyle(.ring).tint(.gradient([.red, .green]))
                icon.draw(in: Rect(x: 150, y: 0, width: 150, height: 130).insetBy(4), on: canvas)
                return img
            },
            Entry(name: "loader") {
                let (img, canvas) = Panel.image(width: 260, height: 100)
                for (i, t) in [0.0, 0.35].enumerated() {
                    Loader(progress: 0.6).loaderStyle(.primary).body(at: t).draw(
                        in: Rect(x: Double(i) * 90, y: 0, width: 90, height: 100), on: canvas, context: DrawContext())
                }
                Loader(progress: 0.6).loaderStyle(.secondary).body(at: 0.6).draw(
                    in: Rect(x: 180, y: 0, width: 80, height: 100), on: canvas, context: DrawContext())
                return img
            },
            Entry(name: "thresholdZones") {
                // Zones along the track (green, orange from 60, red from 85); the
                // indicator takes its zone's colour.
                let zones = try Thresholds(.green, (60, .orange), (85, .red))
                let (img, canvas) = Panel.image(width: 400, height: 150)
                for (i, v) in [30.0, 70, 92].enumerated() {
                    let x = Double(i) * 133
                    try Gauge(value: v, in: 0...100) {
                        ""
                    } minimumValueLabel: {
                        "0"
                    } maximumValueLabel: {
                        "100"
                    }
                    .valueFormat(.number(decimals: 0)).gaugeStyle(.accessoryCircular).thresholds(zones)
                    .environment { $0.showsThresholdZones = true }
                    .draw(in: Rect(x: x, y: 0, width: 133, height: 96).insetBy(4), on: canvas)
                    try Gauge(value: v, in: 0...100) {
                        "Load"
                    } currentValueLabel: {
                        .text("\(Int(v)) %")
                    }
                    .gaugeStyle(.linearCapacity).thresholds(zones).environment { $0.showsThresholdZones = true }
                    .draw(in: Rect(x: x, y: 96, width: 133, height: 54).insetBy(6), on: canvas)
                }
                return img
            },
            Entry(name: "panel") {
                // Several gauges sharing a 320x240 panel, with threshold zones.
                let (img, canvas) = Panel.image(width: 320, height: 240)
                let zones = try Thresholds(.green, (60, .orange), (85, .red))
                let cells = PanelLayout.grid(
                    in: Rect(x: 0, y: 0, width: 320, height: 240), columns: 3, rows: 2, spacing: 6, padding: 6)
                let gauges: [Gauge] = [
                    try Gauge(value: 42, in: 0...100) { "CPU" }.valueFormat(.percent()).gaugeStyle(
                        .accessoryCircularCapacity
                    ).thresholds(zones),
                    try Gauge(value: 71, in: 0...100) { "GPU" }.valueFormat(.percent()).gaugeStyle(
                        .accessoryCircularCapacity
                    ).thresholds(zones),
                    try Gauge(value: 93, in: 0...100) { "Disk" }.valueFormat(.percent()).gaugeStyle(
                        .accessoryCircularCapacity
                    ).thresholds(zones),
                    try Gauge(value: 47.5, in: 20...90) {
                        "Temp"
                    } minimumValueLabel: {
                        "20"
                    } maximumValueLabel: {
                        "90"
                    }
                    .valueFormat(.number(decimals: 0)).gaugeStyle(.accessoryCircular).tint(
                        .gradient([.blue, .green, .yellow, .red])),
                    try Gauge(value: 0.73).gaugeStyle(.ring).tint(.gradient([.red, .green])),
                    try Gauge(value: 5, in: 0...8).gaugeStyle(.stepped(segments: 8)).valueFormat(
                        .number(decimals: 0, unit: "/ 8")
                    ).tint(.purple),
                ]
                for (g, cell) in zip(gauges, cells) { g.draw(in: cell, on: canvas) }
                return img
            },
        ] + dials + scales + vertical + charts + peaks

    /// Linear scales and marked values on a panel of each size: a capacity
    /// bar with a scale and sections from thresholds, a marker bar with a
    /// scale, a thin bar and a dial with marked values instead of numbers.
    static let scales: [Entry] = dialSizes.map { w, h in
        Entry(name: "scales-\(w)x\(h)") {
            let zones = try Thresholds(.blue, (70, .orange), (90, .red))
            return grid(
                w, h, columns: 2, rows: 2,
                [
                    try Gauge(value: 73, in: 0...100) { "CPU" }.valueFormat(.percent())
                        .gaugeStyle(LinearCapacityGaugeStyle(scale: LinearScale())).thresholds(zones),
                    try Gauge(value: 47.5, in: 20...90) { "Temp" }.valueFormat(.number(decimals: 1, unit: "°C"))
                        .gaugeStyle(AccessoryLinearGaugeStyle(scale: LinearScale())).title(.top),
                    try Gauge(value: 64, in: 0...100) {
                        "Tank"
                    } currentValueLabel: {
                        "64 %"
                    } markedValueLabels: {
                        [GaugeLabel("empty").tag(0), GaugeLabel("low").tag(25), GaugeLabel("full").tag(100)]
                    }
                    .gaugeStyle(.accessoryLinearCapacity),
                    try Gauge(value: 62, in: 0...100) {
                        "Fuel"
                    } currentValueLabel: {
                        "62 %"
                    } markedValueLabels: {
                        [
                            GaugeLabel("E").tag(0), GaugeLabel("¼").tag(25), GaugeLabel("½").tag(50),
                            GaugeLabel("¾").tag(75), GaugeLabel("F").tag(100),
                        ]
                    }
                    .gaugeStyle(.dial),
                ])
        }
    }

    /// Vertical bars on a panel of each size, side by side: a capacity bar
    /// with a scale and sections from thresholds, one with a gradient and
    /// end labels, a marker bar with a scale, a thin bar with marked values.
    static let vertical: [Entry] = dialSizes.map { w, h in
        Entry(name: "vertical-\(w)x\(h)") {
            return grid(
                w, h, columns: 4, rows: 1,
                [
                    try Gauge(value: 64, in: 0...100) { "Tank" }.valueFormat(.number(decimals: 0, unit: "%"))
                        .gaugeStyle(LinearCapacityGaugeStyle(scale: LinearScale(), axis: .vertical))
                        .thresholds(try Thresholds(.blue, (80, .orange), (95, .red))),
                    try Gauge(value: 47.5, in: 20...90) {
                        "Temp"
                    } minimumValueLabel: {
                        "20"
                    } maximumValueLabel: {
                        "90"
                    }
                    .valueFormat(.number(decimals: 1, unit: "°C"))
                    .gaugeStyle(LinearCapacityGaugeStyle(axis: .vertical)).tint(
                        .gradient([.blue, .green, .yellow, .red])),
                    try Gauge(value: 1.37, in: 0...4) { "Load" }.valueFormat(.number(decimals: 2))
                        .gaugeStyle(AccessoryLinearGaugeStyle(scale: LinearScale(), axis: .vertical)).title(.top),
                    try Gauge(value: 22, in: 0...100) {
                        "Fuel"
                    } currentValueLabel: {
                        "22 %"
                    } markedValueLabels: {
                        [GaugeLabel("E").tag(0), GaugeLabel("½").tag(50), GaugeLabel("F").tag(100)]
                    }
                    .gaugeStyle(AccessoryLinearCapacityGaugeStyle(axis: .vertical)),
                ])
        }
    }

    /// The three dials of the gallery, each alone on a panel of each size.
    static let dialSizes = [(320, 240), (800, 480)]

    /// A plain dial, one with sections from thresholds, one with a value arc and labels outside.
    static func dialGauges() throws -> [(name: String, gauge: Gauge)] {
        let zones = try Thresholds(.green, (60, .orange), (85, .red))
        return [
            (
                "dial",
                try Gauge(value: 73, in: 0...100) { "Speed" }.valueFormat(.number(decimals: 0, unit: "km/h"))
                    .gaugeStyle(.dial)
            ),
            (
                "dialSections",
                try Gauge(value: 71, in: 0...100) { "Load" }.valueFormat(.percent()).gaugeStyle(.dial)
                    .thresholds(zones)
            ),
            (
                "dialValueArc",
                try Gauge(value: 23.5, in: -20...40) { "Outside" }.valueFormat(.number(decimals: 1, unit: "°C"))
                    .gaugeStyle(
                        DialGaugeStyle(
                            majorTicks: DialGaugeStyle.Ticks(count: 7, length: 0.15, width: 0.025),
                            labels: DialGaugeStyle.ScaleLabels(placement: .outside), valueArc: 0.035)
                    ).tint(.blue)
            ),
        ]
    }

    static let dials: [Entry] = dialSizes.flatMap { w, h in
        (0..<3).map { k in
            Entry(name: ["dial", "dialSections", "dialValueArc"][k] + "-\(w)x\(h)") {
                let (img, canvas) = Panel.image(width: w, height: h)
                let g = try dialGauges()[k].gauge.environment { $0.typeScale = TypeScale() }
                g.draw(in: Rect(x: 0, y: 0, width: Double(w), height: Double(h)).insetBy(6), on: canvas)
                return img
            }
        }
    }

    /// An hour of a temperature sampled every 10 s: a slow wave, a spike
    /// shorter than a bucket at 40 min ago, no data from 25 to 20 min ago.
    static func temperatureHistory(now: Double, points: Int) throws -> ValueHistory {
        var h = try ValueHistory(span: 3600, points: points)
        for k in 0..<360 {
            let t = now - 3600 + Double(k) * 10
            let age = now - t
            if age < 1500 && age >= 1200 { continue }
            let wave: Double = 9 * sin(Double(k) / 40)
            var v: Double = 52 + wave + 3 * sin(Double(k) / 7)
            if k == 120 { v = 83 }
            h.record(v, at: t)
        }
        return h
    }

    /// Two loads over 10 minutes, sampled every 2 s.
    static func loadHistories(now: Double, points: Int) throws -> [ValueHistory] {
        var a = try ValueHistory(span: 600, points: points), b = try ValueHistory(span: 600, points: points)
        for k in 0..<300 {
            let t = now - 600 + Double(k) * 2
            a.record(1.2 + sin(Double(k) / 23) + 0.4 * sin(Double(k) / 3), at: t)
            b.record(0.6 + 0.5 * cos(Double(k) / 31), at: t)
        }
        return [a, b]
    }

    /// History charts on a panel of each size: a temperature with threshold
    /// bands, a spike and a gap; two loads; a gauge with a sparkline under it.
    static let charts: [Entry] = dialSizes.map { w, h in
        Entry(name: "charts-\(w)x\(h)") {
            let (img, canvas) = Panel.image(width: w, height: h)
            let now = 1_790_000_000.0
            let cells = PanelLayout.grid(
                in: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), columns: 2, rows: 2, spacing: 8,
                padding: 8)
            let temp = HistoryChart(
                series: [.init("CPU", color: .green)], title: "CPU temp",
                thresholds: try Thresholds(
                    base: nil, steps: [.init(from: 70, color: .orange), .init(from: 80, color: .red)]),
                format: .number(decimals: 1, unit: "°C"))
            let whole = IntRect(x: 8, y: 8, width: w - 16, height: Int(cells[0].height))
            temp.draw([try temperatureHistory(now: now, points: w / 3)], now: now, in: whole, on: canvas)
            let loads = HistoryChart(
                series: [.init("load", color: .blue), .init("io", color: .orange)], title: "Load",
                format: .number(decimals: 2), fillsArea: false)
            loads.draw(try loadHistories(now: now, points: 120), now: now, in: IntRect(covering: cells[2]), on: canvas)
            let empty = HistoryChart(
                series: [.init("fan", color: .purple)], title: "Fan", format: .number(decimals: 0, unit: "rpm"))
            empty.draw([nil], now: now, in: IntRect(covering: cells[3]), on: canvas)
            return img
        }
    }

    /// Peak marks in every built-in style on a panel of each size: the
    /// lowest and highest values shown, one high peak past the range.
    static let peaks: [Entry] = dialSizes.map { w, h in
        Entry(name: "peaks-\(w)x\(h)") {
            let temp = ValueFormat.number(decimals: 1, unit: "°C")
            return grid(
                w, h, columns: 4, rows: 2,
                [
                    try Gauge(value: 58.5, in: 20...90) { "CPU" }.valueFormat(temp)
                        .gaugeStyle(LinearCapacityGaugeStyle(scale: LinearScale()))
                        .peaks(GaugePeaks(low: 41.2, high: 77.8)),
                    try Gauge(value: 64, in: 0...100) { "Tank" }.valueFormat(.number(decimals: 0, unit: "%"))
                        .gaugeStyle(LinearCapacityGaugeStyle(axis: .vertical))
                        .thresholds(try Thresholds(.blue, (80, .orange), (95, .red)))
                        .peaks(GaugePeaks(low: 30, high: 88)),
                    try Gauge(value: 1.37, in: 0...4) { "Load" }.valueFormat(.number(decimals: 2))
                        .gaugeStyle(.accessoryLinear).title(.top).peaks(GaugePeaks(low: 0.4, high: 4.6)),
                    try Gauge(value: 0.42, in: 0...1) { "Disk" }.valueFormat(.percent())
                        .gaugeStyle(.accessoryLinearCapacity).peaks(GaugePeaks(low: 0.2, high: 0.71)),
                    try Gauge(value: 23.5, in: -20...40) { "Out" }.valueFormat(.number(decimals: 1))
                        .gaugeStyle(.accessoryCircular).tint(.gradient([.blue, .green, .orange]))
                        .peaks(GaugePeaks(low: 4.5, high: 31)),
                    try Gauge(value: 0.62, in: 0...1) { "Mem" }.valueFormat(.percent())
                        .gaugeStyle(.accessoryCircularCapacity).title(.top).peaks(GaugePeaks(low: 0.35, high: 0.9)),
                    try Gauge(value: 0.55, in: 0...1).gaugeStyle(.ring).peaks(GaugePeaks(low: 0.2, high: 0.8)),
                    try Gauge(value: 73, in: 0...100) { "Speed" }.valueFormat(.number(decimals: 0, unit: "km/h"))
                        .gaugeStyle(.dial).peaks(GaugePeaks(low: 12, high: 91)),
                ])
        }
    }
}
