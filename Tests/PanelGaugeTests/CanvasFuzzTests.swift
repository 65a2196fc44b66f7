import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import PanelGauge

/// Random draw calls of every kind, with parameters from ordinary to hostile
/// (1e300, tiny, negative, huge sweeps and angles, far gradient centres), on
/// small surfaces of both formats under random clips: each must finish without
/// trapping (a checked build traps where paneld's unchecked one would read
/// garbage) and leave every pixel outside its clip as it was. Set FUZZ_TRACE
/// to print each call before it is drawn. The cases after it are the ones it
/// found (each trapped or hung before its fix).
struct CanvasFuzzTests {
    /// The draw calls' parameters, from `BlendTests.Random`'s numbers.
    struct RNG {
        var random: BlendTests.Random
        mutating func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        mutating func int(_ n: Int) -> Int { random.below(n) }
        mutating func coord(_ size: Double) -> Double {
            switch int(12) {
            case 0: return [1e300, -1e300, 1e12, -1e12, 3e6, -3e6, 65536, -65536][int(8)]
            case 1: return Double(int(Int(size) + 4) - 2)
            case 2: return Double(int(Int(size) + 4) - 2) + 0.5
            case 3: return (unit() - 0.5) * 1e-9
            case 4: return (unit() * 3 - 1) * size * 20
            default: return (unit() * 1.6 - 0.3) * size
            }
        }
        mutating func length(_ size: Double) -> Double {
            switch int(10) {
            case 0: return [0, 1e-9, 1e300, 1e12, 3e6, -1, -1e-9, 65536][int(8)]
            case 1: return unit() * 2
            case 2: return unit() * size * 30
            default: return unit() * size
            }
        }
        mutating func angle() -> Angle {
            switch int(8) {
            case 0: return Angle(degrees: [0, 360, -360, 720, 1e300, -1e18, 1e-12, 359.9999999][int(8)])
            case 1: return Angle(degrees: Double(int(9) * 45 - 180))
            default: return Angle(degrees: (unit() - 0.5) * 900)
            }
        }
        mutating func color() -> Color {
            Color(
                red: UInt8(int(256)), green: UInt8(int(256)), blue: UInt8(int(256)),
                alpha: [1, 1, 0.5, 0.2, 0, 0.999, 0.001][int(7)])
        }
        mutating func paint(_ size: Double) -> Paint {
            switch int(6) {
            case 0:
                let n = 2 + int(5)
                let base = [color(), color()]
                let g = Gradient(colors: (0..<n).map { _ in int(3) == 0 ? color() : base[int(2)] })
                return .conicGradient(g, center: Point(x: coord(size), y: coord(size)), startAngle: angle())
            case 1:
                let g = Gradient(colors: [color(), color(), color()])
                return .linearGradient(
                    g, start: Point(x: coord(size), y: coord(size)), end: Point(x: coord(size), y: coord(size)))
            default: return .solid(color())
            }
        }
    }

    @Test(arguments: 0..<8) func randomDrawsFinishAndStayInTheirClip(seed: Int) throws {
        var rng = RNG(random: BlendTests.Random(state: UInt64(seed) &* 7919))
        for trial in 0..<400 {
            let w = 1 + rng.int(90), h = 1 + rng.int(70)
            let format: PixelFormat = rng.int(2) == 0 ? .xrgb8888 : .rgb565
            let img = Image(width: w, height: h, format: format, stride: nil)
            let canvas = Canvas(surface: img.surface)
            canvas.clear(.black)
            let before = img.surface.rgbBytes()
            let clip = IntRect(
                x: rng.int(w + 4) - 2, y: rng.int(h + 4) - 2, width: rng.int(w + 2), height: rng.int(h + 2))
            let size = Double(max(w, h))
            let op = rng.int(9)
            let paint = rng.paint(size)
            var desc = "trial \(trial) op \(op) \(w)x\(h) clip \(clip) \(paint)"
            let trace = getenv("FUZZ_TRACE") != nil
            func note(_ s: String) {
                desc += s
                if trace { _ = (desc + "\n").withCString { write(2, $0, strlen($0)) } }
            }
            canvas.withClip(clip) {
                switch op {
                case 0:
                    let c = Point(x: rng.coord(size), y: rng.coord(size)), r = rng.length(size)
                    note(" disc \(c) \(r)")
                    canvas.fillDisc(center: c, radius: r, paint: paint)
                case 1, 2:
                    let c = Point(x: rng.coord(size), y: rng.coord(size)), r = rng.length(size)
                    let a = rng.angle(), s = rng.angle(), width = rng.length(size / 3)
                    let cap: LineCap = rng.int(2) == 0 ? .butt : .round
                    var dash: DashPattern? = nil
                    if op == 2 {
                        let n = 1 + rng.int(4)
                        dash = try? DashPattern((0..<n).map { _ in rng.length(size / 4) }, phase: rng.length(size))
                    }
                    note(" arc \(c) r \(r) \(a.degrees) \(s.degrees) w \(width) \(cap) \(String(describing: dash))")
                    canvas.strokeArc(
                        center: c, radius: r, startAngle: a, sweep: s, width: width, cap: cap, dash: dash,
                        paint: paint)
                case 3:
                    let r = Rect(
                        x: rng.coord(size), y: rng.coord(size), width: rng.length(size), height: rng.length(size))
                    note(" capsule \(r)")
                    canvas.fillCapsule(r, paint: paint)
                case 4:
                    let r = Rect(
                        x: rng.coord(size), y: rng.coord(size), width: rng.length(size), height: rng.length(size))
                    let cr = rng.length(size)
                    note(" rrect \(r) \(cr)")
                    canvas.fillRoundedRect(r, cornerRadius: cr, paint: paint)
                case 5:
                    let r = Rect(
                        x: rng.coord(size), y: rng.coord(size), width: rng.length(size), height: rng.length(size))
                    note(" rect \(r)")
                    canvas.fill(r, paint: paint)
                case 6, 7:
                    var p = Path()
                    for _ in 0..<(1 + rng.int(3)) {
                        p.move(to: Point(x: rng.coord(size), y: rng.coord(size)))
                        for _ in 0..<(1 + rng.int(6)) {
                            let q = Point(x: rng.coord(size), y: rng.coord(size))
                            switch rng.int(5) {
                            case 0: p.quadCurve(to: q, control: Point(x: rng.coord(size), y: rng.coord(size)))
                            case 1:
                                p.curve(
                                    to: q, control1: Point(x: rng.coord(size), y: rng.coord(size)),
                                    control2: Point(x: rng.coord(size), y: rng.coord(size)))
                            case 2:
                                p.addArc(
                                    center: Point(x: rng.coord(size), y: rng.coord(size)), radius: rng.length(size),
                                    startAngle: rng.angle(), sweep: rng.angle())
                            default: p.line(to: q)
                            }
                        }
                        if rng.int(2) == 0 { p.closeSubpath() }
                    }
                    note(" path \(p)")
                    canvas.fill(p, rule: rng.int(2) == 0 ? .nonZero : .evenOdd, paint: paint)
                default:
                    let mw = rng.int(20), mh = rng.int(20)
                    let mask = (0..<(mw * mh)).map { _ in UInt8(rng.int(256)) }
                    let x = Int(max(-1e6, min(1e6, rng.coord(size)))), y = Int(max(-1e6, min(1e6, rng.coord(size))))
                    note(" mask \(mw)x\(mh) at \(x),\(y)")
                    mask.withUnsafeBufferPointer {
                        canvas.fillMask($0.baseAddress!, width: mw, height: mh, pitch: mw, x: x, y: y, paint: paint)
                    }
                }
            }
            let after = img.surface.rgbBytes()
            let inside = canvas.effectiveClip.intersection(clip)
            var outside = 0
            for y in 0..<h {
                for x in 0..<w where !(x >= inside.minX && x < inside.maxX && y >= inside.minY && y < inside.maxY) {
                    let at = (y * w + x) * 3
                    for c in 0..<3 where after[at + c] != before[at + c] { outside += 1 }
                }
            }
            #expect(outside == 0, "\(desc)")
        }
    }

    /// Chord counts stay within 1 ... 16 384 for any radius and sweep; huge
    /// sweeps trapped converting to Int, and a radius under the tolerance had
    /// no limit (10^16 chords for a sweep of 10^18 degrees).
    @Test func arcChordCountsAreBounded() {
        let t = Flattener.defaultTolerance
        for r in [-1, 0, 1e-9, t, 1, 100, 1e14, 1e300] {
            for s in [0, 1e-300, 1, Double.pi, 1e18, 1e300, .infinity, .nan] {
                let n = Flattener.arcSegments(radius: r, sweep: s, tolerance: t)
                #expect(n >= 1 && n <= 16_384, "r \(r) sweep \(s): \(n)")
            }
        }
        // Ordinary arcs keep their counts: a half turn of radius 100.
        #expect(
            Flattener.arcSegments(radius: 100, sweep: .pi, tolerance: t)
                == Int((Double.pi / (2 * acos(1 - t / 100))).rounded(.up)))
        // Past 1e14 tolerances the angle comes from its half-angle form: a
        // short arc on a huge circle is one chord, not 16 384.
        #expect(Flattener.arcSegments(radius: 1e300, sweep: 1e-290, tolerance: t) == 1)
        #expect(Flattener.pieces(.nan, atMost: 1000) == 1000)
        #expect(Flattener.pieces(-.infinity, atMost: 1000) == 1)
        #expect(Flattener.pieces(2.5, atMost: 1000) == 3)
    }

    /// Shapes the fuzzer found: each draws and finishes, and stays in the surface.
    @Test func hostileShapesFinish() {
        let img = Image(width: 46, height: 55)
        let canvas = Canvas(surface: img.surface)
        let white = Paint.solid(.white)
        canvas.clear(.black)
        // A path arc of 1e300 degrees (chords trapped converting to Int), and
        // curves whose control points overflow their differences.
        var p = Path()
        p.move(to: Point(x: 5, y: 5))
        p.addArc(center: Point(x: 30, y: 30), radius: 20, startAngle: 10, sweep: Angle(degrees: 1e300))
        p.quadCurve(to: Point(x: 40, y: 9), control: Point(x: 1e308, y: -1e308))
        p.curve(to: Point(x: 2, y: 50), control1: Point(x: -1.5e308, y: 1e308), control2: Point(x: 1.5e308, y: 3))
        canvas.fill(p, rule: .evenOdd, paint: white)
        canvas.fill(p, rule: .nonZero, paint: white)
        // A start angle of 1e300 degrees on the cells' exact circles (Int of its quarter turns trapped).
        canvas.strokeArc(
            center: Point(x: 30, y: 20), radius: 6.4, startAngle: Angle(degrees: 1e300), sweep: -45, width: 0.2,
            paint: white)
        // A dashed stroke far wider than its radius, round caps (each dash took
        // thousands of chords, a hundred thousand times over).
        canvas.strokeArc(
            center: Point(x: -12, y: 49), radius: 1e12, startAngle: -45, sweep: 383, width: 1e300, cap: .round,
            dash: try? DashPattern([6, 374, 6]), paint: Paint.solid(Color(hex: 0x336699)))
        #expect(img.surface.pixel(x: 20, y: 20).blue == 0x99)
    }

    /// An arc starting a million radians or more on takes the chords (its
    /// quarter turns are not counted from such a start): the same quarter
    /// circle as from angle 0, within the chords' tolerance.
    @Test func anArcAtAHugeStartAngleIsTheSameArc() {
        func draw(_ start: Double) -> [UInt8] {
            let img = Image(width: 40, height: 40)
            let canvas = Canvas(surface: img.surface)
            canvas.clear(.black)
            canvas.strokeArc(
                center: Point(x: 20, y: 20), radius: 12, startAngle: Angle(degrees: start), sweep: 90, width: 5,
                cap: .butt, paint: .solid(.white))
            return img.surface.rgbBytes()
        }
        let near = draw(0), far = draw(360 * 1_048_576)
        #expect(near.reduce(0) { $0 + Int($1) } > 100 * 255)
        #expect(zip(near, far).allSatisfy { abs(Int($0) - Int($1)) <= 8 })
    }

    /// A path that overlaps itself along rows crossed by many edges: pixels
    /// where it overlaps itself are resolved exactly (each took the square
    /// of the row's edges, per pixel), and from `exactEdgeLimit` edges a row
    /// keeps the area's coverage. Both finish; the exact one matches 16 x 16
    /// samples of the winding number within the samples' error.
    @Test func pathsOfManyOverlappingEdgesFinish() {
        for (n, k) in [(101, 50), (1_801, 900)] {
            let points = (0..<n).map { i in
                let a = Double(i * k % n) * 2 * Double.pi / Double(n)
                return Point(x: 12 + 10 * cos(a), y: 12 + 10 * sin(a))
            }
            var path = Path()
            path.move(to: points[0])
            for q in points.dropFirst() { path.line(to: q) }
            path.closeSubpath()
            for rule in [FillRule.nonZero, .evenOdd] {
                let img = Image(width: 24, height: 24)
                let canvas = Canvas(surface: img.surface)
                canvas.clear(.black)
                canvas.fill(path, rule: rule, paint: .solid(.white))
                if n > 1_000 { continue }
                var worst = 0
                for y in 0..<24 {
                    for x in 0..<24 {
                        var inside = 0
                        for sy in 0..<16 {
                            for sx in 0..<16 {
                                let px = Double(x) + (Double(sx) + 0.5) / 16, py = Double(y) + (Double(sy) + 0.5) / 16
                                var w = 0
                                for i in 0..<n {
                                    let a = points[i], b = points[(i + 1) % n]
                                    if (a.y <= py) != (b.y <= py) {
                                        let cx = a.x + (py - a.y) * (b.x - a.x) / (b.y - a.y)
                                        if cx > px { w += a.y < b.y ? 1 : -1 }
                                    }
                                }
                                if rule == .nonZero ? w != 0 : w % 2 != 0 { inside += 1 }
                            }
                        }
                        let expected = Double(inside) / 256 * 255
                        worst = max(worst, Int(abs(Double(img.surface.pixel(x: x, y: y).red) - expected).rounded()))
                    }
                }
                #expect(worst <= 24, "\(n) edges, \(rule): \(worst)")
            }
        }
    }
}
