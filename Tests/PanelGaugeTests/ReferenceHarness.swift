import Foundation
import Testing
@testable import PanelGauge

/// Renders the cases of `References/<feature>/cases.json` with PanelGauge and
/// compares them with the images `make_references.py` computed from exact
/// geometry (never from this code).
///
/// Tolerance, and why: PanelGauge's coverage is the exact area of a polygon
/// whose vertices are rounded to 1/256 px and whose curves are flattened to
/// within 1/128 px of the true curve (``Flattener`` straddles the curve), then
/// quantised to 8 bits and composited in integers with correct rounding at every
/// operation; the reference composites in floating point and rounds once. An
/// edge pixel can therefore differ by a few 8-bit units (a 1/128 px shift of a
/// full-contrast edge is 2 units; the per-operation rounding adds up to 1 per
/// operation). We allow at most 4 units in any channel of any pixel, and a mean
/// error over all pixels of at most 0.05 units (about 0.5 on edge pixels).
/// RGB565 surfaces keep 5/6 bits per channel: there the expected image is the
/// reference rounded to RGB565, and a channel may be off by one RGB565 level
/// (8 units for red and blue, 4 for green) because every operation rounds.
enum ReferenceHarness {
    struct Case: Decodable {
        var name: String
        var width: Int
        var height: Int
        var background: String
        var format: String?
        var clip: [Double]?
        var ops: [Op]
    }

    struct Op: Decodable {
        var op: String
        var paint: PaintSpec
        var clip: [Double]?
        // arc
        var cx, cy, r, width, start, sweep: Double?
        var cap: String?
        var dash: [Double]?
        var phase: Double?
        // rect, rounded rect
        var x, y, w, h, radius: Double?
        var capsule: Bool?
        // path
        var rule: String?
        var contours: [[[JSONScalar]]]?
    }

    enum JSONScalar: Decodable {
        case string(String), number(Double)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) {
                self = .string(s)
            } else {
                self = .number(try c.decode(Double.self))
            }
        }
        var number: Double { if case .number(let d) = self { return d } else { return .nan } }
        var string: String { if case .string(let s) = self { return s } else { return "" } }
    }

    struct PaintSpec: Decodable {
        var solid: String?
        var alpha: Double?
        var linear: [String]?
        var conic: [String]?
        var start: JSONStartField?
        var end: [Double]?
        var cx, cy: Double?
    }

    /// `start` is a point for linear gradients and an angle for conic ones.
    enum JSONStartField: Decodable {
        case point([Double]), angle(Double)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let p = try? c.decode([Double].self) {
                self = .point(p)
            } else {
                self = .angle(try c.decode(Double.self))
            }
        }
    }

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("References")
    }

    static func cases(_ feature: String) throws -> [Case] {
        let data = try Data(contentsOf: root.appendingPathComponent(feature).appendingPathComponent("cases.json"))
        return try JSONDecoder().decode([Case].self, from: data)
    }

    static func color(_ s: String, _ alpha: Double = 1) -> Color {
        Color(css: s)!.opacity(alpha)
    }

    static func paint(_ p: PaintSpec) -> Paint {
        let a = p.alpha ?? 1
        if let s = p.solid { return .solid(color(s, a)) }
        if let l = p.linear, case .point(let s) = p.start, let e = p.end {
            return .linearGradient(
                Gradient(colors: l.map { color($0, a) }), start: Point(x: s[0], y: s[1]), end: Point(x: e[0], y: e[1]))
        }
        if let c = p.conic, case .angle(let s) = p.start {
            return .conicGradient(
                Gradient(colors: c.map { color($0, a) }), center: Point(x: p.cx!, y: p.cy!),
                startAngle: Angle(degrees: s))
        }
        fatalError("unknown paint in cases.json")
    }

    static func intRect(_ c: [Double]) -> IntRect {
        IntRect(x: Int(c[0]), y: Int(c[1]), width: Int(c[2]), height: Int(c[3]))
    }

    /// Draws one case with the public Canvas API.
    static func render(_ c: Case) throws -> Image {
        let format: PixelFormat = c.format == "rgb565" ? .rgb565 : .xrgb8888
        // Padded rows: the surface stride is deliberately larger than a row.
        let img = Image(width: c.width, height: c.height, format: format, stride: (c.width + 3) * format.bytesPerPixel)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(color(c.background))
        for op in c.ops {
            canvas.clip = (op.clip ?? c.clip).map(intRect)
            let p = paint(op.paint)
            switch op.op {
            case "arc":
                let dash = try op.dash.map { try DashPattern($0, phase: op.phase ?? 0) }
                canvas.strokeArc(
                    center: Point(x: op.cx!, y: op.cy!), radius: op.r!, startAngle: Angle(degrees: op.start!),
                    sweep: Angle(degrees: op.sweep!), width: op.width!, cap: op.cap == "round" ? .round : .butt,
                    dash: dash, paint: p)
            case "disc":
                canvas.fillDisc(center: Point(x: op.cx!, y: op.cy!), radius: op.r!, paint: p)
            case "rect":
                canvas.fill(Rect(x: op.x!, y: op.y!, width: op.w!, height: op.h!), paint: p)
            case "roundedRect":
                let r = Rect(x: op.x!, y: op.y!, width: op.w!, height: op.h!)
                if op.capsule == true {
                    canvas.fillCapsule(r, paint: p)
                } else {
                    canvas.fillRoundedRect(r, cornerRadius: op.radius!, paint: p)
                }
            case "path":
                var path = Path()
                for contour in op.contours! {
                    for seg in contour {
                        let n = seg.dropFirst().map(\.number)
                        func pt(_ i: Int) -> Point { Point(x: n[i], y: n[i + 1]) }
                        switch seg[0].string {
                        case "M": path.move(to: pt(0))
                        case "L": path.line(to: pt(0))
                        case "Q": path.quadCurve(to: pt(2), control: pt(0))
                        case "C": path.curve(to: pt(4), control1: pt(0), control2: pt(2))
                        default: fatalError("unknown path segment")
                        }
                    }
                    path.closeSubpath()
                }
                canvas.fill(path, rule: op.rule == "evenodd" ? .evenOdd : .nonZero, paint: p)
            default:
                fatalError("unknown op \(op.op)")
            }
        }
        return img
    }

    struct Comparison {
        var maxError = 0
        var meanError = 0.0
        var worst = (x: 0, y: 0)
    }

    /// Per-channel error of `actual` against `expected` (RGB triples); for RGB565
    /// the error is counted in RGB565 levels scaled back to 8-bit units.
    static func compare(_ actual: [UInt8], _ expected: [UInt8], width: Int, format: PixelFormat) -> (
        Comparison, [UInt8]
    ) {
        var cmp = Comparison()
        var diff = [UInt8](repeating: 0, count: actual.count)
        var sum = 0
        for i in 0..<actual.count {
            var e = Int(expected[i])
            if format == .rgb565 {
                // Round the exact reference to the RGB565 level, then widen as the surface does.
                let levels = i % 3 == 1 ? 63 : 31
                let q = (e * levels + 127) / 255
                e = levels == 63 ? (q << 2 | q >> 4) : (q << 3 | q >> 2)
            }
            let d = abs(Int(actual[i]) - e)
            sum += d
            diff[i] = UInt8(min(255, d * 16))
            if d > cmp.maxError {
                cmp.maxError = d
                cmp.worst = ((i / 3) % width, (i / 3) / width)
            }
        }
        cmp.meanError = Double(sum) / Double(actual.count)
        return (cmp, diff)
    }

    /// Renders every case of `feature`, compares with its reference image and records a test issue per failing case (writing
    /// `<case>.actual.png` and `<case>.diff.png` next to the reference).
    static func check(_ feature: String, maxError: Int = 4, meanError: Double = 0.05) throws {
        for c in try cases(feature) {
            try check(feature, c, maxError: maxError, meanError: meanError)
        }
    }

    private static func check(_ feature: String, _ c: Case, maxError: Int, meanError: Double) throws {
        let img = try render(c)
        let refPath = root.appendingPathComponent(feature).appendingPathComponent("\(c.name).png").path
        let ref = try PNG.read(refPath)
        #expect(ref.width == c.width && ref.height == c.height, "\(feature)/\(c.name): reference size")
        let actual = img.surface.rgbBytes()
        let (cmp, diff) = compare(actual, ref.rgb, width: c.width, format: img.format)
        let levelSlack = img.format == .rgb565 ? 8 : 0
        let ok = cmp.maxError <= maxError + levelSlack && cmp.meanError <= meanError + Double(levelSlack) / 4
        #expect(
            ok,
            "\(feature)/\(c.name): max error \(cmp.maxError) at \(cmp.worst), mean \(cmp.meanError)"
        )
        let base = refPath.dropLast(4)
        if !ok {
            try PNG.write(img.surface, to: base + ".actual.png")
            try FileIO.writeAtomically(
                try PNG.encode(rgb: diff, width: c.width, height: c.height), to: base + ".diff.png")
        }
    }
}
