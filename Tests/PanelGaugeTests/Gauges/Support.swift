#if canImport(Glibc)
import Glibc
#endif
@testable import PanelGauge

enum Environment {
    static func flag(_ name: String) -> Bool {
        guard let v = getenv(name) else { return false }
        return String(cString: v) == "1"
    }
}

enum Paths {
    /// The package root, found from this file's path.
    static let repoRoot: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)  // Tests/PanelGaugeTests/Gauges/Support.swift
        return parts.joined(separator: "/")
    }()

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard let f = fopen(path, "wb") else { throw IOError(description: "cannot open \(path) for writing") }
        defer { fclose(f) }
        guard fwrite(bytes, 1, bytes.count, f) == bytes.count else {
            throw IOError(description: "short write to \(path)")
        }
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return out
    }

    static func makeDirectory(_ path: String) {
        var p = ""
        for part in path.split(separator: "/") {
            p += "/" + part
            mkdir(p, 0o755)
        }
    }
}

struct IOError: Error, CustomStringConvertible {
    let description: String
}

/// Test panels: a background like the scene spec's, drawn with the project's canvas.
enum Panel {
    static let background = Color(hex: 0x101418)

    static func image(width: Int, height: Int) -> (Image, Canvas) {
        let img = Image(width: width, height: height)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(background)
        return (img, canvas)
    }
}

/// The gallery: every style at several values, with a solid and a gradient tint.
enum Gallery {
    struct Entry: Sendable {
        let name: String
        let render: @Sendable () throws -> Image
    }

    static let solid = Tint.color(.blue)
    static let gradient = Tint.gradient([.green, .yellow, .red])
    static let values: [Double] = [0, 0.35, 0.73, 1]

    static func strip(
        cell: (w: Int, h: Int), _ make: (Double, Tint) throws -> Gauge
    ) throws -> Image {
        let cols = values.count
        let (img, canvas) = Panel.image(width: cell.w * cols, height: cell.h * 2)
        for (row, tint) in [solid, gradient].enumerated() {
            for (col, v) in values.enumerated() {
                let g = try make(v, tint)
                let r = Rect(x: Double(col * cell.w), y: Double(row * cell.h), width: Double(cell.w), height: Double(cell.h))
                g.draw(in: r.insetBy(6), on: canvas)
            }
        }
        return img
    }

    static func percent(_ v: Double) -> GaugeLabel { .text(ValueFormat.percent().string(for: v, in: 0...1)) }

    static let entries: [Entry] = [
        Entry(name: "linearCapacity") {
            try strip(cell: (150, 64)) { v, tint in
                try Gauge(value: v) { "CPU" } currentValueLabel: { percent(v) } minimumValueLabel: { "0" } maximumValueLabel: { "1" }
                    .gaugeStyle(.linearCapacity).tint(tint)
            }
        },
        Entry(name: "accessoryLinear") {
            try strip(cell: (150, 40)) { v, tint in
                try Gauge(value: v) { "Temp" } currentValueLabel: { percent(v) } minimumValueLabel: { "0" } maximumValueLabel: { "1" }
                    .gaugeStyle(.accessoryLinear).tint(tint)
            }
        },
        Entry(name: "accessoryLinearCapacity") {
            try strip(cell: (150, 64)) { v, tint in
                try Gauge(value: v) { "Battery" } currentValueLabel: { percent(v) }
                    .gaugeStyle(.accessoryLinearCapacity).tint(tint)
            }
        },
        Entry(name: "accessoryCircular") {
            try strip(cell: (90, 90)) { v, tint in
                try Gauge(value: v * 100, in: 0...100) { "Speed" } currentValueLabel: { .text(ValueFormat.number(decimals: 0).string(for: v * 100, in: 0...100)) } minimumValueLabel: { "0" } maximumValueLabel: { "100" }
                    .gaugeStyle(.accessoryCircular).tint(tint)
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
    ]
}
