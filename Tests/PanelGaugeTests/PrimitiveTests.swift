#if canImport(Glibc)
    import Glibc
#endif
import Testing
@testable import PanelGauge

@Suite struct DashPatternTests {
    @Test func rejectsInvalidPatterns() {
        #expect(throws: DashPattern.Error.self) { try DashPattern([]) }
        #expect(throws: DashPattern.Error.self) { try DashPattern([0, 0]) }
        #expect(throws: DashPattern.Error.self) { try DashPattern([3, -1]) }
        #expect(throws: DashPattern.Error.self) { try DashPattern([.nan, 2]) }
        #expect(throws: DashPattern.Error.self) { try DashPattern([.infinity, 2]) }
        #expect(throws: DashPattern.Error.self) { try DashPattern([2, 2], phase: .nan) }
    }

    @Test func oddCountRepeats() throws {
        let d = try DashPattern([4])
        #expect(d.lengths == [4, 4])
        #expect(d.period == 8)
    }

    @Test func intervalsFollowPhase() throws {
        func dashes(_ d: DashPattern, _ length: Double) -> [[Double]] {
            var out: [[Double]] = []
            d.forEachDash(along: length) { out.append([$0, $1]) }
            return out
        }
        #expect(dashes(try DashPattern([2, 3]), 11) == [[0, 2], [5, 7], [10, 11]])
        // A phase of 1 starts one unit into the first dash.
        #expect(dashes(try DashPattern([2, 3], phase: 1), 10) == [[0, 1], [4, 6], [9, 10]])
        // A negative phase shifts the pattern forwards: -1 starts one unit into the gap.
        #expect(dashes(try DashPattern([2, 3], phase: -1), 10) == [[1, 3], [6, 8]])
    }

    @Test func patternFinerThanAPixelIsBounded() throws {
        var n = 0
        try DashPattern([1e-9, 1e-9]).forEachDash(along: 1e6) { _, _ in n += 1 }
        #expect(n == 100_000)
    }
}

@Suite struct ColorTests {
    @Test func parsesCSSHex() {
        #expect(Color(css: "#FF3B30") == Color(hex: 0xFF3B30))
        #expect(Color(css: "0a84ff") == Color(hex: 0x0A84FF))
        #expect(Color(css: "#fff") == Color(hex: 0xFFFFFF))
        #expect(Color(css: "#00000080")?.alpha8 == 0x80)
        #expect(Color(css: "#12345") == nil)
        #expect(Color(css: "red") == Color(hex: 0xFF0000))  // a CSS colour name
        #expect(Color(css: "rouge") == nil)
        #expect(Color(css: "#+12345") == nil)
    }

    @Test func alphaIsClamped() {
        #expect(Color(hex: 0, alpha: 7).alpha == 1)
        #expect(Color(hex: 0, alpha: -1).alpha == 0)
        #expect(Color(hex: 0, alpha: .nan).alpha == 0)
    }

    @Test func div255IsCorrectlyRounded() {
        for x in UInt32(0)...(255 * 255) {
            #expect(div255(x) == UInt32((Double(x) / 255).rounded()), "x = \(x)")
            if div255(x) != UInt32((Double(x) / 255).rounded()) { break }
        }
    }

    @Test func blendMatchesFormulaForRandomColours() {
        // Every alpha, random colours (X bytes included): each channel is
        // round((src * a + dst * (255 - a)) / 255), X comes out 0xFF.
        var state: UInt64 = 7
        func next() -> UInt32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 32)
        }
        for a in UInt32(0)...255 {
            for _ in 0..<200 {
                let dst = next(), src = next() & 0xFF_FFFF
                var want: UInt32 = 0xFF00_0000
                for shift: UInt32 in [0, 8, 16] {
                    let s = Double((src >> shift) & 0xFF), d = Double((dst >> shift) & 0xFF)
                    want |= UInt32(((s * Double(a) + d * Double(255 - a)) / 255).rounded()) << shift
                }
                #expect(blendXRGB(dst, src, a) == want)
            }
        }
    }

    @Test func blendMatchesFormulaPerChannel() {
        // dst = round(src * a + dst * (1 - a)) for every channel, a in 8-bit units.
        for a in stride(from: UInt32(0), through: 255, by: 17) {
            let out = blendXRGB(0x0010_80F0, 0x00FF_3B30, a)
            func ch(_ s: UInt32, _ d: UInt32) -> UInt32 {
                UInt32(((Double(s) * Double(a) + Double(d) * Double(255 - a)) / 255).rounded())
            }
            #expect(out == 0xFF00_0000 | ch(0xFF, 0x10) << 16 | ch(0x3B, 0x80) << 8 | ch(0x30, 0xF0))
        }
    }
}

@Suite struct FastMathTests {
    @Test func atan2TurnsIsAccurate() {
        var worst: Float = 0
        for i in 0..<3600 {
            let a = Double(i) / 3600 * 2 * Double.pi + 0.0001
            for r in [0.5, 3.0, 170.0] {
                let x = Float(r * cos(a)), y = Float(r * sin(a))
                var expected = Float(atan2(Double(y), Double(x)) / (2 * Double.pi))
                if expected < 0 { expected += 1 }
                var d = abs(FastMath.atan2Turns(y, x) - expected)
                d = min(d, 1 - d)  // wrap-around at 0/1
                worst = max(worst, d)
            }
        }
        #expect(worst < 5e-6, "worst error \(worst) turns")
    }

    /// Against libm: within two units in the last place of 1 (the values lie
    /// in [-1, 1]), over gauge angles, whole turns around, the quadrant
    /// boundaries where the reduction switches kernels, and large arguments.
    @Test func cosSinMatchesLibm() {
        var rng = BlendTests.Random(state: 5)
        var angles: [Double] = []
        for k in -64...64 {
            let quarter = Double(k) * (Double.pi / 2)
            angles += [quarter / 2, quarter + 1e-9]
        }
        let unit = Double(1 << 30)
        for _ in 0..<20_000 { angles.append(Double(rng.below(1 << 30)) / unit * 40 - 20) }
        for _ in 0..<2_000 { angles.append(Double(rng.below(1 << 30)) / unit * 2e6 - 1e6) }
        var worst = 0.0, at = 0.0
        for a in angles {
            let (c, s) = FastMath.cosSin(a)
            let e = max(abs(c - cos(a)), abs(s - sin(a))) / (1.0).ulp
            if e > worst { (worst, at) = (e, a) }
        }
        #expect(worst <= 2, "\(worst) ulp at \(at)")
    }
}

@Suite struct SurfaceTests {
    @Test func subsurfaceDrawsAtItsOriginAndRespectsStride() {
        let img = Image(width: 20, height: 10, format: .xrgb8888, stride: 32 * 4)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(.black)
        let sub = img.surface.subsurface(IntRect(x: 5, y: 3, width: 6, height: 4))
        Canvas(surface: sub).clear(.white)
        for y in 0..<10 {
            for x in 0..<20 {
                let inside = (5..<11).contains(x) && (3..<7).contains(y)
                #expect(img.surface.pixel(x: x, y: y).red == (inside ? 255 : 0), "(\(x), \(y))")
            }
        }
        // The padding beyond each row stays untouched.
        let pad = img.surface.row(0).load(fromByteOffset: 25 * 4, as: UInt32.self)
        #expect(pad == 0)
    }

    @Test func clipLimitsEveryDrawCall() {
        let img = Image(width: 24, height: 24)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(.black)
        canvas.clip = IntRect(x: 4, y: 6, width: 10, height: 7)
        canvas.fillDisc(center: Point(x: 12, y: 12), radius: 30, paint: .solid(.white))
        canvas.strokeArc(
            center: Point(x: 12, y: 12), radius: 8, startAngle: 0, sweep: 360, width: 4, paint: .solid(.red))
        canvas.fill(
            Rect(x: -5, y: -5, width: 50, height: 50),
            paint: .linearGradient(Gradient(colors: [.red, .blue]), start: Point(x: 0, y: 0), end: Point(x: 24, y: 0)))
        canvas.clear(.green)
        for y in 0..<24 {
            for x in 0..<24 {
                let inside = (4..<14).contains(x) && (6..<13).contains(y)
                let p = img.surface.pixel(x: x, y: y)
                #expect((p.red, p.green, p.blue) == (inside ? (0x34, 0xC7, 0x59) : (0, 0, 0)), "(\(x), \(y))")
            }
        }
    }

    @Test func hostileGeometryDrawsNothingAndDoesNotTrap() {
        let img = Image(width: 16, height: 16)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(.black)
        let white = Paint.solid(.white)
        canvas.fillDisc(center: Point(x: .nan, y: 3), radius: 4, paint: white)
        canvas.fillDisc(center: Point(x: 3, y: 3), radius: .infinity, paint: white)
        canvas.fillDisc(center: Point(x: 3, y: 3), radius: -2, paint: white)
        canvas.strokeArc(
            center: Point(x: 8, y: 8), radius: 4, startAngle: Angle(degrees: .nan), sweep: 90, width: 2, paint: white)
        canvas.strokeArc(
            center: Point(x: 8, y: 8), radius: 4, startAngle: 0, sweep: Angle(degrees: .infinity), width: 2,
            paint: white)
        canvas.fill(Rect(x: 0, y: 0, width: .nan, height: 4), paint: white)
        var p = Path()
        p.move(to: Point(x: 1, y: 1))
        p.line(to: Point(x: .nan, y: 5))
        p.line(to: Point(x: 1, y: 9))
        canvas.fill(p, paint: white)
        canvas.fillMask([UInt8](repeating: 255, count: 4), width: 2, height: 2, pitch: 2, x: -100, y: 5, paint: white)
        #expect(img.surface.rgbBytes().allSatisfy { $0 == 0 })
        // Enormous but finite geometry is clipped, not walked: this must finish at once.
        canvas.fillDisc(center: Point(x: 8, y: 8), radius: 1e9, paint: white)
        #expect(img.surface.pixel(x: 8, y: 8).red == 255)
    }

    /// Gradients whose points or angle are not finite draw nothing (and do not
    /// trap); ones with centres, ends and angles finite but far out of range
    /// draw their colours and finish. Opaque (shaded in place) and translucent
    /// (through the colour buffer), with a stretch of one colour (runs of the
    /// table cut into quarter turns).
    @Test func hostileGradientParametersDrawNothingOrFinish() {
        let opaque = Gradient(colors: [Color(hex: 0xFF3B30), Color(hex: 0xFF3B30), Color(hex: 0x34C759)])
        let translucent = Gradient(colors: [Color(hex: 0xFF3B30), Color(hex: 0x34C759).opacity(0.5)])
        let bad = [Point(x: .nan, y: 8), Point(x: 8, y: .infinity), Point(x: -.infinity, y: -.infinity)]
        let far = [
            Point(x: 1e300, y: 8), Point(x: -1e300, y: 8), Point(x: 8, y: 1e300), Point(x: 8, y: -1e18),
            Point(x: -3e15, y: 5e15), Point(x: 12.5, y: 10.5), Point(x: 12, y: 10.5 + 1e-12),
            Point(x: 1e300, y: 1e300), Point(x: -1e39, y: 5e38),
        ]
        let angles = [Angle(degrees: 1e300), Angle(degrees: -1e-300), Angle(degrees: 90)]
        let badAngles = [Angle(degrees: .nan), Angle(degrees: .infinity)]
        for g in [opaque, translucent] {
            var paints: [(Paint, drawn: Bool)] = []
            for p in bad {
                paints.append((.conicGradient(g, center: p, startAngle: 90), false))
                paints.append((.linearGradient(g, start: p, end: Point(x: 3, y: 4)), false))
                paints.append((.linearGradient(g, start: Point(x: 3, y: 4), end: p), false))
            }
            for a in badAngles { paints.append((.conicGradient(g, center: Point(x: 8, y: 8), startAngle: a), false)) }
            for p in far {
                for a in angles { paints.append((.conicGradient(g, center: p, startAngle: a), true)) }
                paints.append((.linearGradient(g, start: p, end: p), true))
                paints.append((.linearGradient(g, start: Point(x: 0, y: 0), end: p), true))
            }
            for (paint, drawn) in paints {
                let img = Image(width: 24, height: 20)
                let canvas = Canvas(surface: img.surface)
                canvas.clear(.black)
                canvas.fillDisc(center: Point(x: 12, y: 10), radius: 8, paint: paint)
                canvas.strokeArc(
                    center: Point(x: 12, y: 10), radius: 6, startAngle: 0, sweep: 300, width: 3, cap: .round,
                    paint: paint)
                canvas.fill(Rect(x: 1, y: 1, width: 22, height: 3), paint: paint)
                let m = img.surface.pixel(x: 12, y: 10)
                #expect((m.red > 0 || m.green > 0) == drawn, "\(paint)")
                if !drawn { #expect(img.surface.rgbBytes().allSatisfy { $0 == 0 }, "\(paint)") }
            }
        }
    }
}
