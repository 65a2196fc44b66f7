import Testing
@testable import PanelGauge

/// Regression images: every style at 0, a middle value, the maximum and out of
/// range, with a solid and a gradient tint, compared exactly with the PNGs in
/// Tests/PanelGaugeTests/References/Gauges/.
///
/// These catch *changes*; the style suites check the geometry itself. Record
/// again, after checking the new pictures, with
///
///     PANELGAUGE_RECORD=1 swift test --filter GoldenImageTests
///
/// On a mismatch the test writes `<name>.actual.png` and `<name>.diff.png`
/// (differing pixels red over a dimmed copy of the expected image) next to the
/// expected file. Text makes these depend on the DejaVu Sans and FreeType
/// versions (Debian 12's fonts-dejavu-core 2.37, libfreetype 2.12).
@Suite struct GoldenImageTests {
    static let folder = Paths.repoRoot + "/Tests/PanelGaugeTests/References/Gauges"
    static let values: [Double] = [0, 0.5, 1, 1.4]

    static let cases: [(name: String, render: @Sendable () throws -> Image)] = [
        (
            "linearCapacity",
            {
                try Gallery.strip(cell: (100, 52), values: values) { v, tint in
                    try Gauge(value: v) {
                        "CPU"
                    } currentValueLabel: {
                        Gallery.percent(v)
                    } minimumValueLabel: {
                        "0"
                    } maximumValueLabel: {
                        "1"
                    }
                    .gaugeStyle(.linearCapacity).tint(tint)
                }
            }
        ),
        (
            "accessoryLinear",
            {
                try Gallery.strip(cell: (100, 28), values: values) { v, tint in
                    try Gauge(value: v) {
                        "T"
                    } minimumValueLabel: {
                        "0"
                    } maximumValueLabel: {
                        "1"
                    }.gaugeStyle(.accessoryLinear).tint(tint)
                }
            }
        ),
        (
            "accessoryLinearCapacity",
            {
                try Gallery.strip(cell: (100, 52), values: values) { v, tint in
                    try Gauge(value: v) {
                        "Disk"
                    } currentValueLabel: {
                        Gallery.percent(v)
                    }.gaugeStyle(.accessoryLinearCapacity).tint(tint)
                }
            }
        ),
        (
            "accessoryCircular",
            {
                try Gallery.strip(cell: (64, 64), values: values) { v, tint in
                    try Gauge(value: v) {
                        ""
                    } minimumValueLabel: {
                        "0"
                    } maximumValueLabel: {
                        "1"
                    }
                    .valueFormat(.percent()).gaugeStyle(.accessoryCircular).tint(tint)
                }
            }
        ),
        (
            "accessoryCircularCapacity",
            {
                try Gallery.strip(cell: (64, 64), values: values) { v, tint in
                    try Gauge(value: v).valueFormat(.percent()).gaugeStyle(.accessoryCircularCapacity).tint(tint)
                }
            }
        ),
        (
            "ring",
            {
                try Gallery.strip(cell: (72, 72), values: values) { v, tint in
                    try Gauge(value: v).gaugeStyle(.ring).tint(tint)
                }
            }
        ),
        (
            "stepped",
            {
                try Gallery.strip(cell: (56, 56), values: values) { v, tint in
                    try Gauge(value: v).gaugeStyle(.stepped(segments: 6)).tint(tint)
                }
            }
        ),
    ]

    @Test(arguments: cases.map(\.name))
    func matchesReference(name: String) throws {
        let img = try #require(Self.cases.first { $0.name == name }).render()
        try compare(img, to: name)
    }

    @Test func thresholdZonesMatchReference() throws {
        try compare(try #require(Gallery.entries.first { $0.name == "thresholdZones" }).render(), to: "thresholdZones")
    }

    @Test func loaderMatchesReference() throws {
        let (img, canvas) = Panel.image(width: 160, height: 80)
        for (i, t) in [0.0, 0.3].enumerated() {
            Loader(progress: 0.6).loaderStyle(.primary).body(at: t).draw(
                in: Rect(x: Double(i) * 80, y: 0, width: 80, height: 80), on: canvas, context: DrawContext())
        }
        try compare(img, to: "loader")
    }

    func compare(_ img: Image, to name: String) throws {
        let path = Self.folder + "/" + name + ".png"
        let actual = try PNG.encode(img.surface)
        if Environment.flag("PANELGAUGE_RECORD") {
            Paths.makeDirectory(Self.folder)
            try Paths.write(actual, to: path)
            return
        }
        guard let data = Paths.read(path) else {
            Issue.record("no reference image \(path); record it with PANELGAUGE_RECORD=1")
            return
        }
        let expected = try PNG.decode(data)
        let rgb = img.surface.rgbBytes()
        guard expected.width == img.width, expected.height == img.height else {
            try Paths.write(actual, to: Self.folder + "/" + name + ".actual.png")
            Issue.record("\(name): size \(img.width)x\(img.height), reference \(expected.width)x\(expected.height)")
            return
        }
        var diff = [UInt8](repeating: 0, count: rgb.count)
        var differing = 0
        var first: (Int, Int)?
        for i in stride(from: 0, to: rgb.count, by: 3) {
            if rgb[i..<i + 3] == expected.rgb[i..<i + 3] {
                for k in 0..<3 { diff[i + k] = expected.rgb[i + k] / 4 }
            } else {
                differing += 1
                if first == nil { first = ((i / 3) % img.width, (i / 3) / img.width) }
                diff[i] = 255
            }
        }
        if differing > 0 {
            try Paths.write(actual, to: Self.folder + "/" + name + ".actual.png")
            try Paths.write(
                PNG.encode(rgb: diff, width: img.width, height: img.height), to: Self.folder + "/" + name + ".diff.png")
            Issue.record(
                "\(name): \(differing) pixels differ from the reference, first at \(first!); see \(name).diff.png")
        }
    }
}
