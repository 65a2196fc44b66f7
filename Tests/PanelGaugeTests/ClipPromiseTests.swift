import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import PanelGauge

/// `RasterPromises`' first promise: a shape drawn through a clip gets,
/// inside the clip, exactly the pixels it gets drawn whole, and nothing
/// outside. Random ordinary shapes of every kind (discs, plain, capped and
/// dashed arcs, capsules, rounded rectangles, rectangles, paths with curves
/// and arcs), solid and gradient paints, both pixel formats, random clips.
struct ClipPromiseTests {
    @Test(arguments: 0..<8) func aClippedDrawIsTheWholeDrawInsideTheClip(seed: Int) throws {
        var rng = CanvasFuzzTests.RNG(random: BlendTests.Random(state: UInt64(seed) &* 104_729 &+ 1))
        func coord(_ size: Double) -> Double { (rng.unit() * 1.4 - 0.2) * size }
        func length(_ size: Double) -> Double { rng.unit() * size }
        func paint(_ size: Double) -> Paint {
            let c = Color(red: UInt8(rng.int(256)), green: UInt8(rng.int(256)), blue: UInt8(rng.int(256)))
            let d = Color(red: UInt8(rng.int(256)), green: 90, blue: UInt8(rng.int(256)))
            switch rng.int(4) {
            case 0:
                return .conicGradient(
                    Gradient(colors: [c, d, c]), center: Point(x: coord(size), y: coord(size)),
                    startAngle: Angle(degrees: rng.unit() * 360))
            case 1:
                return .linearGradient(
                    Gradient(colors: [c, d]), start: Point(x: coord(size), y: coord(size)),
                    end: Point(x: coord(size), y: coord(size)))
            case 2: return .solid(c.opacity(0.6))
            default: return .solid(c)
            }
        }
        for trial in 0..<150 {
            let w = 8 + rng.int(110), h = 8 + rng.int(80)
            let size = Double(max(w, h))
            let format: PixelFormat = rng.int(3) == 0 ? .rgb565 : .xrgb8888
            let op = rng.int(7)
            let p = paint(size)
            let center = Point(x: coord(size), y: coord(size))
            let r = length(size / 2) + 1
            let rect = Rect(x: coord(size), y: coord(size), width: length(size), height: length(size))
            let start = Angle(degrees: rng.unit() * 720 - 360), sweep = Angle(degrees: rng.unit() * 500 - 250)
            let width = 1 + length(size / 6)
            let cap: LineCap = rng.int(2) == 0 ? .butt : .round
            let dash = rng.int(2) == 0 ? nil : try DashPattern([2 + length(12), 1 + length(8)])
            // op 5: a star-shaped polygon (a simple outline); op 6: any path,
            // curves and arcs that may cross each other.
            var path = Path()
            if op == 5 {
                let c = Point(x: coord(size), y: coord(size)), n = 3 + rng.int(12)
                for k in 0..<n {
                    let a = (Double(k) + rng.unit() * 0.8) * 2 * Double.pi / Double(n), rr = 1 + length(size / 2)
                    let q = Point(x: c.x + rr * cos(a), y: c.y + rr * sin(a))
                    if k == 0 { path.move(to: q) } else { path.line(to: q) }
                }
            } else {
                path.move(to: Point(x: coord(size), y: coord(size)))
                for _ in 0..<(2 + rng.int(5)) {
                    let q = Point(x: coord(size), y: coord(size))
                    switch rng.int(3) {
                    case 0: path.quadCurve(to: q, control: Point(x: coord(size), y: coord(size)))
                    case 1:
                        path.addArc(
                            center: Point(x: coord(size), y: coord(size)), radius: length(size / 2),
                            startAngle: Angle(degrees: rng.unit() * 360), sweep: Angle(degrees: rng.unit() * 300 - 150))
                    default: path.line(to: q)
                    }
                }
            }
            path.closeSubpath()
            let rule: FillRule = rng.int(2) == 0 ? .nonZero : .evenOdd
            let cornerRadius = length(size / 4)
            let clip = IntRect(x: rng.int(w), y: rng.int(h), width: 1 + rng.int(w), height: 1 + rng.int(h))
            func draw(_ canvas: Canvas) {
                switch op {
                case 0: canvas.fillDisc(center: center, radius: r, paint: p)
                case 1:
                    canvas.strokeArc(
                        center: center, radius: r, startAngle: start, sweep: sweep, width: width, cap: cap,
                        dash: dash, paint: p)
                case 2: canvas.fillCapsule(rect, paint: p)
                case 3: canvas.fillRoundedRect(rect, cornerRadius: cornerRadius, paint: p)
                case 4: canvas.fill(rect, paint: p)
                default: canvas.fill(path, rule: rule, paint: p)
                }
            }
            let whole = Image(width: w, height: h, format: format, stride: nil)
            let wholeCanvas = Canvas(surface: whole.surface)
            wholeCanvas.clear(Color(red: 30, green: 40, blue: 50))
            let background = whole.surface.rgbBytes()
            draw(wholeCanvas)
            let clipped = Image(width: w, height: h, format: format, stride: nil)
            let clippedCanvas = Canvas(surface: clipped.surface)
            clippedCanvas.clear(Color(red: 30, green: 40, blue: 50))
            clippedCanvas.withClip(clip) { draw(clippedCanvas) }
            let a = whole.surface.rgbBytes(), b = clipped.surface.rgbBytes()
            // Exact for the banded shapes, sectors and stadiums. Within one level
            // for general paths and round-capped dashes, whose edges are cut at
            // the clip's top and bottom and rounded to 1/256 pixel there; two
            // where a path overlaps itself (those pixels are sampled on 64
            // sub-scanlines across the cut edges). In RGB565 one level can move
            // a 5-bit channel one step, 8 or 9 in 8 bits.
            let levels = op == 6 ? 2 : op == 5 || (op == 1 && dash != nil && cap == .round) ? 1 : 0
            let tolerance = format == .rgb565 && levels > 0 ? 9 : levels
            var wrong: [(Int, Int)] = []
            var maxDiff = 0
            for y in 0..<h {
                for x in 0..<w {
                    let i = (y * w + x) * 3
                    let inside = x >= clip.minX && x < clip.maxX && y >= clip.minY && y < clip.maxY
                    let expected = inside ? a[i..<(i + 3)] : background[i..<(i + 3)]
                    let diff = zip(b[i..<(i + 3)], expected).map { abs(Int($0) - Int($1)) }.max()!
                    maxDiff = max(maxDiff, diff)
                    if diff > (inside ? tolerance : 0) { wrong.append((x, y)) }
                }
            }
            #expect(
                wrong.isEmpty,
                "trial \(trial) op \(op) c \(center) r \(r) \(start.degrees) \(sweep.degrees) w \(width) \(cap) \(String(describing: dash)) \(format) \(p) max \(maxDiff) \(w)x\(h) clip \(clip): \(wrong.count) pixels, \(wrong.prefix(4))"
            )
        }
    }
}
