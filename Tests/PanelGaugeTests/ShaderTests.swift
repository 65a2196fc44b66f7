import Testing

@testable import PanelGauge

#if canImport(Glibc)
    import Glibc
#endif

/// The conic shader computes an angle only at the start of a span and follows
/// the rays where the entry steps after that; these tests hold it to the angle
/// of every pixel computed on its own.
@Suite struct ShaderTests {
    /// A table whose entry i is `value(i)`: by default i, so a shaded pixel
    /// reads back as its index; with runs of equal entries, the shader steps
    /// from run to run.
    final class IndexTable {
        let entries = UnsafeMutablePointer<UInt32>.allocate(capacity: GradientTable.size)
        let runStart = UnsafeMutablePointer<Int16>.allocate(capacity: GradientTable.size)
        let runEnd = UnsafeMutablePointer<Int16>.allocate(capacity: GradientTable.size)
        init(_ value: (Int) -> UInt32 = { UInt32($0) }) {
            for i in 0..<GradientTable.size { entries[i] = value(i) }
            GradientTable.findRuns(entries, start: runStart, end: runEnd)
        }
        deinit {
            entries.deallocate()
            runStart.deallocate()
            runEnd.deallocate()
        }
    }

    /// The entry of pixel (x, y) for its angle computed on its own, in double
    /// precision; nil within 1e-9 of a step (or at the centre), where rounding
    /// may take either side.
    static func exactIndex(_ s: ConicShader, x: Int, y: Int) -> Int? {
        let dx = Double(x) + 0.5 - s.cx, dy = Double(y) + 0.5 - s.cy
        if dx == 0 && dy == 0 { return nil }
        var t = atan2(dy, dx) / (2 * Double.pi) - s.startTurns
        t -= t.rounded(.down)
        let p = t * Double(GradientTable.size - 1) + 0.5
        if abs(p - p.rounded()) < 1e-9 || t < 1e-9 || 1 - t < 1e-9 { return nil }
        return Int(p) & (GradientTable.size - 1)
    }

    /// Shades `count` pixels of row `y` from column `x` into `out`, and
    /// counts the pixels whose angle is clear of a step (`exactIndex`) and,
    /// of those, the ones whose colour is not `value` of their entry.
    static func shadeAndCompare(
        _ shader: inout ConicShader, y: Int, x: Int, count: Int, out: inout [UInt32],
        value: (Int) -> UInt32 = { UInt32($0) }
    ) -> (wrong: Int, pixels: Int) {
        out.withUnsafeMutableBufferPointer { shader.shade(y: y, x: x, count: count, into: $0.baseAddress!) }
        var wrong = 0, pixels = 0
        for i in 0..<count {
            guard let exact = exactIndex(shader, x: x + i, y: y) else { continue }
            if out[i] != value(exact) { wrong += 1 }
            pixels += 1
        }
        return (wrong, pixels)
    }

    /// A conic shader for `table` with its rays, for the duration of `body`.
    static func withConic(
        _ table: IndexTable, center: Point, start: Angle, _ body: (inout ConicShader) -> Void
    ) {
        let rays = ConicRays(startTurns: ConicShader.turns(start))
        withExtendedLifetime(rays) {
            var shader = ConicShader(
                table: table.entries, runStart: table.runStart, runEnd: table.runEnd, rays: rays, center: center,
                origin: (0, 0))
            body(&shader)
        }
    }

    /// A random centre within a quarter-pixel grid of 100 x 100 px from
    /// (200, 150), and a seam at 0, 90 or 180.2 degrees or anywhere, by
    /// `trial`.
    static func randomConic(_ rng: inout BlendTests.Random, trial: Int) -> (center: Point, start: Angle) {
        let center = Point(x: 200 + Double(rng.below(400)) / 4, y: 150 + Double(rng.below(400)) / 4)
        let start = [0, 90, 180.2, Double(rng.below(3600)) / 10][trial % 4]
        return (center, Angle(degrees: start))
    }

    @Test func conicMatchesTheAngleOfEveryPixel() {
        let table = IndexTable()
        var rng = BlendTests.Random(state: 11)
        var wrong = 0, pixels = 0
        var out = [UInt32](repeating: 0, count: 400)
        for trial in 0..<70 {
            // Centres on, between and off pixel centres; the seam anywhere: 90 degrees
            // as in the gauge scene, on the axes, and just past them (the row through
            // a centre on a pixel centre then starts right at the end of the table).
            // Every fifth centre far outside the rows: long runs between the rays.
            let far = trial % 5 == 4 ? Double(2000 + rng.below(2000)) : 0
            let center = Point(x: 200 - far + Double(rng.below(400)) / 4, y: 150 + Double(rng.below(400)) / 4)
            let start = [0, 90, 180, 270, 0.2, 180.2, Double(rng.below(3600)) / 10][trial % 7]
            Self.withConic(table, center: center, start: Angle(degrees: start)) { shader in
                for y in stride(from: rng.below(6), to: 600, by: 6) {
                    // The row in spans of random lengths with random gaps, left to right,
                    // as the rasterizer delivers them; sometimes a span goes back left.
                    var x = rng.below(20)
                    while x < 560 {
                        let count = 1 + rng.below(rng.below(2) == 0 ? 4 : 40)
                        let from = rng.below(8) == 0 ? max(0, x - rng.below(30)) : x
                        let r = Self.shadeAndCompare(&shader, y: y, x: from, count: count, out: &out)
                        wrong += r.wrong
                        pixels += r.pixels
                        x = from + count + rng.below(12)
                    }
                }
            }
        }
        #expect(pixels > 100_000)
        #expect(wrong == 0, "\(wrong) of \(pixels) pixels")
    }
}

extension ShaderTests {
    /// Tables with runs of equal entries (the shader then crosses only the
    /// rays where the colour changes): runs of 5 and 37 entries, one across the
    /// seam (entries 1021 ... 1023 equal to 0 and 1), alternating lengths, and a
    /// table of one colour. Every pixel still gets its own angle's entry.
    @Test func conicWithRunsOfEqualEntriesMatchesTheAngleOfEveryPixel() {
        let tables: [(Int) -> UInt32] = [
            { UInt32((($0 + 3) % 1024) / 5) }, { UInt32($0 / 37) }, { UInt32(($0 / 2) % 3) }, { _ in 7 },
            // Flat stretches longer than half a turn (repeated colours in a
            // tint), one across the seam: the shader once stepped from run to
            // run without end on these, for rows on the far side of such a run.
            { (102..<409).contains($0) ? 1 : 0 }, { $0 < 900 ? 0 : UInt32($0 - 899) },
            { (50..<1000).contains($0) ? 1 : UInt32($0 % 3) + 2 },
        ]
        var rng = BlendTests.Random(state: 14)
        var wrong = 0, pixels = 0
        var out = [UInt32](repeating: 0, count: 400)
        for (n, value) in tables.enumerated() {
            let table = IndexTable(value)
            for trial in 0..<20 {
                let (center, start) = Self.randomConic(&rng, trial: trial)
                Self.withConic(table, center: center, start: start) { shader in
                    for y in stride(from: rng.below(5), to: 500, by: 5) {
                        var x = rng.below(20)
                        while x < 560 {
                            let count = 1 + rng.below(rng.below(2) == 0 ? 4 : 60)
                            let r = Self.shadeAndCompare(
                                &shader, y: y, x: x, count: count, out: &out, value: value)
                            wrong += r.wrong
                            pixels += r.pixels
                            x += count + rng.below(12)
                        }
                    }
                }
            }
            #expect(wrong == 0, "table \(n): \(wrong) of \(pixels) pixels")
        }
    }

    /// One shader for spans anywhere, in any order (rows up and down, left and
    /// right of the centre, far apart): a span's first entry, whether it comes
    /// from the last span's on that side or from `atan2Turns`, is its angle's.
    @Test func conicSpansInAnyOrderMatchTheAngleOfEveryPixel() {
        let table = IndexTable()
        var rng = BlendTests.Random(state: 15)
        var wrong = 0, pixels = 0
        var out = [UInt32](repeating: 0, count: 400)
        for trial in 0..<20 {
            let (center, start) = Self.randomConic(&rng, trial: trial)
            Self.withConic(table, center: center, start: start) { shader in
                var y = rng.below(500)
                for _ in 0..<2000 {
                    // Mostly the next row or one near it, sometimes anywhere.
                    y = rng.below(4) == 0 ? rng.below(500) : max(0, min(499, y + rng.below(5) - 2))
                    let x = rng.below(520), count = 1 + rng.below(40)
                    let r = Self.shadeAndCompare(&shader, y: y, x: x, count: count, out: &out)
                    wrong += r.wrong
                    pixels += r.pixels
                }
            }
        }
        #expect(pixels > 100_000)
        #expect(wrong == 0, "\(wrong) of \(pixels) pixels")
    }

    /// What paneld's damage-only updates rely on: a pixel's colour is a function
    /// of its position alone, whatever spans the rasterizer cuts its row into
    /// (a clipped redraw cuts them elsewhere than a full one).
    @Test func aPixelsColourDoesNotDependOnTheSpansAroundIt() {
        let table = IndexTable()
        var rng = BlendTests.Random(state: 12)
        for trial in 0..<40 {
            let center = Point(x: 100 + Double(rng.below(800)) / 4, y: 50 + Double(rng.below(800)) / 4)
            let start = Angle(degrees: [90, 0, 180.2, Double(rng.below(3600)) / 10][trial % 4])
            Self.withConic(table, center: center, start: start) { whole in
                var pieces = whole
                for y in stride(from: rng.below(4), to: 400, by: 3) {
                    let row = Self.shadedWholeAndInPieces(
                        &rng, whole: { whole.shade(y: y, x: $0, count: $1, into: $2) },
                        pieces: { pieces.shade(y: y, x: $0, count: $1, into: $2) })
                    #expect(row.pieces == row.whole, "trial \(trial) row \(y)")
                }
            }
        }
    }
}

extension ShaderTests {
    /// A row's first 500 colours shaded in one span (`whole`), and again in
    /// random spans of 1 to 70 pixels (`pieces`); each call gets the span's
    /// first column, its length and where its colours go (with room for
    /// `ConicShader.outputSlack` more past the span).
    static func shadedWholeAndInPieces(
        _ rng: inout BlendTests.Random, whole: (Int, Int, UnsafeMutablePointer<UInt32>) -> Void,
        pieces: (Int, Int, UnsafeMutablePointer<UInt32>) -> Void
    ) -> (whole: ArraySlice<UInt32>, pieces: ArraySlice<UInt32>) {
        var expected = [UInt32](repeating: 0, count: 500 + ConicShader.outputSlack)
        expected.withUnsafeMutableBufferPointer { whole(0, 500, $0.baseAddress!) }
        var got = [UInt32](repeating: 0, count: 500 + ConicShader.outputSlack)
        var x = 0
        while x < 500 {
            let count = min(500 - x, 1 + rng.below(rng.below(2) == 0 ? 5 : 70))
            got.withUnsafeMutableBufferPointer { pieces(x, count, $0.baseAddress! + x) }
            x += count
        }
        return (expected[..<500], got[..<500])
    }

    /// The same for linear gradients at any angle and length: each entry
    /// index (the table holds its index) is the one the pixel's own position
    /// gives, however the row is cut into spans.
    @Test func aLinearPixelsColourDoesNotDependOnTheSpansAroundIt() {
        let table = IndexTable()
        var rng = BlendTests.Random(state: 29)
        for trial in 0..<1_500 {
            let start = Point(x: Double(rng.below(4000)) / 8 - 50, y: Double(rng.below(3200)) / 8 - 50)
            let end = Point(x: Double(rng.below(4000)) / 8 - 50, y: Double(rng.below(3200)) / 8 - 50)
            let shader = LinearShader(table: table.entries, start: start, end: end, origin: (0, 0))
            for y in stride(from: rng.below(4), to: 400, by: 7) {
                let shade = { shader.shade(y: y, x: $0, count: $1, into: $2) }
                let row = Self.shadedWholeAndInPieces(&rng, whole: shade, pieces: shade)
                #expect(row.pieces == row.whole, "trial \(trial) row \(y)")
            }
        }
    }

    /// `shadeExactly` (straight into a surface's row) writes what `shade`
    /// writes, and nothing past its count; runs of every length end there,
    /// with the table's runs of equal entries (which the shader steps over)
    /// and without.
    @Test func shadingExactlyWritesNothingPastTheCount() {
        let sentinel: UInt32 = 0xDEAD_BEEF
        var rng = BlendTests.Random(state: 77)
        for (t, table) in [IndexTable(), IndexTable { UInt32($0 / 3) }].enumerated() {
            for trial in 0..<30 {
                let (center, start) = Self.randomConic(&rng, trial: trial)
                Self.withConic(table, center: center, start: start) { shader in
                    var exact = shader
                    for y in stride(from: rng.below(5), to: 400, by: 7) {
                        let x = rng.below(300), count = 1 + rng.below(rng.below(2) == 0 ? 6 : 200)
                        var loose = [UInt32](repeating: 0, count: count + ConicShader.outputSlack)
                        loose.withUnsafeMutableBufferPointer {
                            shader.shade(y: y, x: x, count: count, into: $0.baseAddress!)
                        }
                        var tight = [UInt32](repeating: sentinel, count: count + 4)
                        tight.withUnsafeMutableBufferPointer {
                            exact.shadeExactly(y: y, x: x, count: count, into: $0.baseAddress!)
                        }
                        #expect(tight[..<count] == loose[..<count], "table \(t) trial \(trial) row \(y)")
                        #expect(tight[count...].allSatisfy { $0 == sentinel }, "table \(t) trial \(trial) row \(y)")
                    }
                }
            }
        }
    }
}

@Suite struct GradientTableTests {
    @Test func refillsForAnotherGradientOrOpacity() {
        let red = Gradient(colors: [Color(hex: 0xFF3B30), Color(hex: 0x34C759)])
        let blue = Gradient(colors: [Color(hex: 0x0A84FF), Color(hex: 0xFFD60A), Color(hex: 0x101418)])
        func sampled(_ g: Gradient, _ opacity: Double) -> [UInt32] {
            let fresh = GradientTable()
            fresh.fill(g, opacity: opacity)
            return Array(UnsafeBufferPointer(start: fresh.entries, count: GradientTable.size))
        }
        let table = GradientTable()
        for (g, opacity) in [(red, 1.0), (red, 1.0), (blue, 1.0), (blue, 0.5), (red, 0.5), (red, 1.0)] {
            table.fill(g, opacity: opacity)
            #expect(Array(UnsafeBufferPointer(start: table.entries, count: GradientTable.size)) == sampled(g, opacity))
            // Opaque (the blenders then take the coverage as the alpha) only at full opacity.
            #expect(table.opaque == (opacity == 1))
        }
        table.fill(Gradient(colors: [Color(hex: 0xFF3B30), Color(hex: 0x34C759).opacity(0.99)]))
        #expect(!table.opaque)
    }

    /// Runs hold equal entries and cover the table, cyclically; none is longer
    /// than a quarter turn unless every entry is equal (`maximumRun`).
    @Test func runsAreOfEqualEntriesAndAtMostAQuarterTurn() {
        let n = GradientTable.size, mask = n - 1
        var rng = BlendTests.Random(state: 16)
        let start = UnsafeMutablePointer<Int16>.allocate(capacity: n)
        let end = UnsafeMutablePointer<Int16>.allocate(capacity: n)
        defer {
            start.deallocate()
            end.deallocate()
        }
        var entries = [UInt32](repeating: 0, count: n)
        for trial in 0..<60 {
            // A few flat stretches of random lengths (some over half the table)
            // and ramps between them; every tenth table all one value.
            var i = 0
            while i < n {
                let length = 1 + rng.below(trial % 2 == 0 ? 900 : 40)
                let value = UInt32(rng.below(4))
                let ramp = rng.below(3) == 0
                for k in i..<min(n, i + length) { entries[k] = ramp ? UInt32(k) : value }
                i += length
            }
            if trial % 10 == 9 { entries = [UInt32](repeating: 5, count: n) }
            entries.withUnsafeBufferPointer { GradientTable.findRuns($0.baseAddress!, start: start, end: end) }
            let uniform = entries.allSatisfy { $0 == entries[0] }
            var bad = 0
            for i in 0..<n {
                let s = Int(start[i]), e = Int(end[i])
                let length = (e - s) & mask + 1
                if !uniform && length > n / 4 { bad += 1 }
                if uniform && length != n { bad += 1 }
                // i lies in its run, every entry of the run is equal and has that run.
                if (i - s) & mask >= length { bad += 1 }
                for k in 0..<length {
                    let j = (s + k) & mask
                    if entries[j] != entries[i] || Int(start[j]) != s || Int(end[j]) != e { bad += 1 }
                }
                // Runs are cut only at a quarter turn: a shorter one ends where the entries change.
                if !uniform && length < GradientTable.maximumRun && entries[(e + 1) & mask] == entries[i] { bad += 1 }
            }
            #expect(bad == 0, "table \(trial): \(bad)")
        }
    }
}

@Suite struct GradientStopTests {
    let red = Color(hex: 0xFF3B30), green = Color(hex: 0x34C759), blue = Color(hex: 0x0A84FF)

    @Test func stopsAreSortedClampedAndWithoutNaN() {
        let g = Gradient(stops: [
            .init(color: green, location: 0.8), .init(color: red, location: -0.5), .init(color: blue, location: .nan),
            .init(color: blue, location: 1.7),
        ])
        #expect(
            g.stops == [
                .init(color: red, location: 0), .init(color: green, location: 0.8), .init(color: blue, location: 1),
            ])
        #expect(Gradient(stops: [.init(color: red, location: .nan)]).stops == [.init(color: .clear, location: 0)])
        #expect(Gradient(stops: []).stops == [.init(color: .clear, location: 0)])
    }

    @Test func orderedStopsAreKeptAsGiven() {
        let stops: [Gradient.Stop] = [
            .init(color: red, location: 0), .init(color: green, location: 0.5), .init(color: green, location: 0.5),
            .init(color: blue, location: 1),
        ]
        #expect(Gradient(stops: stops).stops == stops)
    }
}
