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

/// An 8-bit RGB triple, for exact pixel expectations.
struct RGB: Hashable, CustomStringConvertible {
    var r: UInt8, g: UInt8, b: UInt8
    init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }
    init(_ c: Color) { self.init(c.red, c.green, c.blue) }
    var description: String { "(\(r), \(g), \(b))" }

    /// Largest per-channel difference.
    func distance(_ o: RGB) -> Int {
        max(abs(Int(r) - Int(o.r)), abs(Int(g) - Int(o.g)), abs(Int(b) - Int(o.b)))
    }
}

enum Expect {
    /// `src` with its alpha composited over the opaque `dst`, as the scene spec
    /// defines compositing: alpha in 8 bits `a = round(255 alpha)`, each channel
    /// `round((src a + dst (255 - a)) / 255)`.
    static func over(_ src: Color, _ dst: Color) -> RGB {
        let a = Int((src.alpha * 255).rounded())
        func ch(_ s: UInt8, _ d: UInt8) -> UInt8 {
            UInt8((Double(Int(s) * a + Int(d) * (255 - a)) / 255).rounded())
        }
        return RGB(ch(src.red, dst.red), ch(src.green, dst.green), ch(src.blue, dst.blue))
    }

    /// A pixel inside accessoryCircularCapacity's track: the tint at the
    /// style's track opacity over the environment's track over `dst`.
    static func capacityTrack(_ tint: Color, over dst: Color) -> RGB {
        let t = over(GaugeEnvironment().track, dst)
        return over(
            tint.opacity(AccessoryCircularCapacityGaugeStyle.trackOpacity), Color(red: t.r, green: t.g, blue: t.b))
    }
}

extension Image {
    func rgb(_ x: Int, _ y: Int) -> RGB {
        let p = surface.pixel(x: x, y: y)
        return RGB(p.red, p.green, p.blue)
    }

    /// The pixel whose square contains `p`.
    func rgb(at p: Point) -> RGB { rgb(Int(p.x.rounded(.down)), Int(p.y.rounded(.down))) }

    /// Pixels satisfying `keep`, with their centres.
    func pixels(where keep: (Int, Int, RGB) -> Bool) -> [(x: Int, y: Int)] {
        var out = [(x: Int, y: Int)]()
        for y in 0..<height {
            for x in 0..<width where keep(x, y, rgb(x, y)) { out.append((x, y)) }
        }
        return out
    }

    /// The bounding box of the pixels that differ from `background` inside `region`.
    func inkBounds(in region: IntRect, background: RGB) -> IntRect? {
        var box: IntRect?
        let r = region.intersection(surface.bounds)
        for y in r.minY..<r.maxY {
            for x in r.minX..<r.maxX where rgb(x, y) != background {
                let p = IntRect(x: x, y: y, width: 1, height: 1)
                box = box.map { $0.union(p) } ?? p
            }
        }
        return box
    }

    /// Whether two images hold the same pixels.
    func samePixels(as other: Image) -> Bool {
        width == other.width && height == other.height && surface.rgbBytes() == other.surface.rgbBytes()
    }
}

/// Renders one gauge into a `w` x `h` panel filling it.
func render(_ gauge: Gauge, width w: Int, height h: Int) -> Image {
    let (img, canvas) = Panel.image(width: w, height: h)
    gauge.draw(in: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), on: canvas)
    return img
}

/// The angle of pixel (x, y)'s centre about `c`, in [0, 360), screen convention.
func angleOfPixel(_ x: Int, _ y: Int, about c: Point) -> Double {
    let a = Angle(radians: atan2(Double(y) + 0.5 - c.y, Double(x) + 0.5 - c.x)).degrees
    return a < 0 ? a + 360 : a
}
