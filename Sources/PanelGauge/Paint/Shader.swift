#if canImport(Glibc)
    import Glibc
#endif

/// A gradient sampled into 1024 entries (`0xAARRGGBB`, non-premultiplied) for a
/// draw call; a pixel looks its colour up by `t`. 1024 steps keep the lookup error
/// below 0.15 of an 8-bit level for any two-colour ramp.
///
/// The entries are kept between draw calls and sampled again only for another
/// gradient or opacity: a gauge paints the same gradient every frame, and
/// sampling an entry costs far more than reading it.
final class GradientTable {
    static let size = 1024
    let entries: UnsafeMutablePointer<UInt32>
    /// Runs of equal entries, cyclically (entry 1023 is followed by entry 0):
    /// each entry's run begins at `runStart` and ends at `runEnd` (inclusive).
    /// A two-colour ramp changes colour at about one entry in three, so the
    /// conic shader steps from run to run, not from entry to entry. One run of
    /// all 1024 entries when they are all equal; otherwise no run is longer
    /// than `maximumRun` (see there).
    let runStart: UnsafeMutablePointer<Int16>
    let runEnd: UnsafeMutablePointer<Int16>
    /// What `entries` hold, once filled.
    private var filled: (gradient: Gradient, opacity: Double)?
    /// The conic steps for these entries and the last rays asked for.
    private var conicSteps: ConicSteps?
    /// Whether every entry has alpha 255.
    private(set) var opaque = false

    init() {
        entries = .allocate(capacity: Self.size)
        runStart = .allocate(capacity: Self.size)
        runEnd = .allocate(capacity: Self.size)
    }

    deinit {
        entries.deallocate()
        runStart.deallocate()
        runEnd.deallocate()
    }

    /// Fills the table for `gradient`, with every alpha multiplied by `opacity`.
    func fill(_ gradient: Gradient, opacity: Double = 1) {
        if let f = filled, f.gradient == gradient, f.opacity == opacity { return }
        var all: UInt32 = 0xFF
        for i in 0..<Self.size {
            let c = gradient.color(at: Double(i) / Double(Self.size - 1))
            let alpha = UInt32((c.alpha * opacity * 255).rounded())
            entries[i] = alpha << 24 | UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue)
            all &= alpha
        }
        filled = (gradient, opacity)
        opaque = all == 0xFF
        Self.findRuns(entries, start: runStart, end: runEnd)
        conicSteps = nil
    }

    /// The steps of a conic shader over these entries with `rays`, kept
    /// until the entries or the rays change.
    func steps(_ rays: ConicRays) -> ConicSteps {
        if let s = conicSteps, s.rays === rays { return s }
        let s = ConicSteps(entries: entries, runStart: runStart, runEnd: runEnd, rays: rays)
        conicSteps = s
        return s
    }

    /// The longest run of equal entries `findRuns` gives (when not all are
    /// equal): a quarter turn. The conic shader tells which side of a run's
    /// bounding ray a pixel lies on by the ray's crossing with the pixel's row,
    /// which holds only within half a turn of the ray: a longer run (a flat
    /// stretch of a gradient, such as repeated colours in a tint) would leave
    /// pixels of the run on the wrong side of it, and the shader stepped from
    /// run to run without end. With quarter turns, every turn's worth of runs
    /// has a bounding ray on each side of the centre, and the one no row on
    /// that side meets ends the row's loop: it ends within a turn whatever
    /// the crossings come to (a centre too far away for them to be exact).
    static let maximumRun = 256

    /// `runStart` and `runEnd` for `entries` (`size` of them).
    static func findRuns(
        _ entries: UnsafePointer<UInt32>, start: UnsafeMutablePointer<Int16>, end: UnsafeMutablePointer<Int16>
    ) {
        let n = size, mask = size - 1
        // A run's first entry, if any entry differs from the one before it.
        guard let first = (0..<n).first(where: { entries[$0] != entries[($0 &- 1) & mask] }) else {
            for i in 0..<n {
                start[i] = 0
                end[i] = Int16(mask)
            }
            return
        }
        var s = first
        for k in first..<(first + n) {
            let i = k & mask
            if entries[i] != entries[(i &- 1) & mask] { s = i }
            start[i] = Int16(s)
        }
        var e = (first &- 1) & mask
        for k in stride(from: first + n - 1, through: first, by: -1) {
            let i = k & mask
            if entries[i] != entries[(i &+ 1) & mask] { e = i }
            end[i] = Int16(e)
        }
        // Long runs in pieces of `maximumRun` from their start.
        for i in 0..<n {
            let s = Int(start[i]), length = (Int(end[i]) &- s) & mask + 1
            if length <= maximumRun { continue }
            let piece = ((i &- s) & mask) / maximumRun * maximumRun
            start[i] = Int16((s + piece) & mask)
            end[i] = Int16((s + min(length, piece + maximumRun) - 1) & mask)
        }
    }
}

/// Computes the colours of a horizontal run of pixels (at their centres).
/// No shader carries work from one span of a row to the next (a pixel's colour
/// must not depend on its span, see `ConicShader`), yet `shade` stays
/// mutating: declared non-mutating, the conic shader costs more (measured:
/// docs/performance.md, "Tuned constants").
protocol Shader {
    /// Writes `count` colours to `out`, which has room for
    /// `ConicShader.outputSlack` more.
    mutating func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>)
    /// `shade`, writing nothing past `out + count` (straight into a surface's row).
    mutating func shadeExactly(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>)
}

/// Linear gradient: t = projection of the pixel centre on start -> end.
struct LinearShader: Shader {
    let table: UnsafeMutablePointer<UInt32>
    let ox: Double, oy: Double, dx: Double, dy: Double  // t = (p - o) . d

    init(table: UnsafeMutablePointer<UInt32>, start: Point, end: Point, origin: (x: Int, y: Int)) {
        self.table = table
        let vx = end.x - start.x, vy = end.y - start.y
        let len2 = vx * vx + vy * vy
        ox = start.x + Double(origin.x)
        oy = start.y + Double(origin.y)
        dx = len2 > 0 ? vx / len2 : 0
        dy = len2 > 0 ? vy / len2 : 0
    }

    /// (Writes no more than `count`.)
    func shadeExactly(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        shade(y: y, x: x, count: count, into: out)
    }

    /// Each pixel's t is computed from its own column (`a * column + b`, with
    /// `b` the row's), not stepped from the span's start: a pixel's colour
    /// depends on its position alone, whatever spans its row is cut into
    /// (`RasterPromises`, promise 2).
    func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let scale = Double(GradientTable.size - 1)
        let a = dx * scale, b = ((0.5 - ox) * dx + (Double(y) + 0.5 - oy) * dy) * scale
        for i in 0..<count {
            let t = a * Double(x &+ i) + b
            let idx = Int(min(scale, max(0, t)) + 0.5)
            out[i] = table[idx]
        }
    }
}

/// The rays from a conic gradient's centre along which its table entry steps:
/// ray 0 at the start angle (the seam, where entry 1023 turns to 0), ray i at
/// (i - 0.5) / 1023 of a turn past it (where `t * 1023` rounds up to i).
///
/// Each ray is kept as the cotangent of its angle: the row `uy` below the
/// centre meets it at `x = cx + uy * cot`. Computed once per start angle (1024
/// cosines and sines); a canvas keeps the last few.
final class ConicRays {
    static let count = GradientTable.size
    /// The start angle in turns, 0 ..< 1.
    let startTurns: Double
    /// Per ray: x per unit of y along it, within +-1e9 (see `ConicShader.crossing`).
    let cot: UnsafeMutablePointer<Double>
    /// Per ray: 1 if it points below the centre (its sine is positive), else 0.
    let down: UnsafeMutablePointer<UInt8>

    init(startTurns: Double) {
        self.startTurns = startTurns
        cot = .allocate(capacity: Self.count)
        down = .allocate(capacity: Self.count)
        let steps = Double(Self.count - 1)
        for i in 0..<Self.count {
            let turns = startTurns + (i == 0 ? 0 : (Double(i) - 0.5) / steps)
            let a = turns * 2 * Double.pi
            let c = cos(a), s = sin(a)
            if s == 0 {
                // A horizontal ray: no row crosses it. As the limit of one tilted
                // towards the rows on the side it is already past.
                cot[i] = -1e9
                down[i] = c < 0 ? 1 : 0
            } else {
                // (Within 1e9: only rays within 1e-9 radian of the horizontal
                // move, as seen from rows within 1e-5 pixel of the centre.)
                cot[i] = min(1e9, max(-1e9, c / s))
                down[i] = s > 0 ? 1 : 0
            }
        }
    }

    deinit {
        cot.deallocate()
        down.deallocate()
    }
}

/// Where the conic shader goes from a run of one colour to the next along a
/// row, per table entry: the colour of the entry's run of equal entries, the
/// ray that ends the run (as `ConicRays.cot`) and the entry on the far side
/// of that ray. Below the centre the angle falls from left to right
/// (`falling`: the run's first ray, the entry before it); above it, it rises
/// (`rising`: the ray after the run's last entry, and its entry). A ray no
/// row on that side meets (pointing up from below, down from above) has a
/// cotangent of +infinity or -infinity there: its crossing then lies past
/// any column (`ConicShader.crossing`), and the run goes on to the span's end.
///
/// One load per run where the shader read the run's bounds, the ray's
/// direction, its cotangent and the colour from four tables.
final class ConicSteps {
    struct Step {
        var cot: Double
        var color: UInt32
        var next: Int32
    }

    let rays: ConicRays
    let falling: UnsafeMutablePointer<Step>
    let rising: UnsafeMutablePointer<Step>

    init(
        entries: UnsafePointer<UInt32>, runStart: UnsafePointer<Int16>, runEnd: UnsafePointer<Int16>, rays: ConicRays
    ) {
        self.rays = rays
        let n = ConicRays.count, mask = n - 1
        falling = .allocate(capacity: n)
        rising = .allocate(capacity: n)
        for k in 0..<n {
            let first = Int(runStart[k]), after = (Int(runEnd[k]) + 1) & mask
            falling[k] = Step(
                cot: rays.down[first] != 0 ? rays.cot[first] : .infinity, color: entries[k],
                next: Int32((first - 1) & mask))
            rising[k] = Step(
                cot: rays.down[after] == 0 ? rays.cot[after] : -.infinity, color: entries[k], next: Int32(after))
        }
    }

    deinit {
        falling.deallocate()
        rising.deallocate()
    }
}

/// Conic (angular) gradient: t = clockwise angle from the start angle, in
/// turns; a pixel takes table entry `Int(t * 1023 + 0.5)` for the angle of its
/// centre.
///
/// Along a row the angle is monotone (falling below the centre, rising above
/// it), so a row's pixels fall into runs of one entry, separated where the row
/// meets the rays of `ConicRays`. The shader finds the entry of a span's first
/// pixel, then only computes where the next ray meets the row (a multiply-add)
/// and fills runs four pixels to a store; of the rays it crosses only those
/// where the colour changes (`GradientTable.runStart`, `runEnd`).
///
/// A pixel's entry is a function of its position alone, whatever spans its row
/// is cut into (paneld's clipped redraws rely on it): whether a pixel is past
/// ray i is decided by the column `crossing` gives for that ray and row, the
/// same in every span, and the entry is the ray the pixel is past whose next
/// ray it is not past. A span's first pixel is estimated by `atan2Turns` and
/// then settled by those same tests.
struct ConicShader: Shader {
    let table: UnsafeMutablePointer<UInt32>
    let runStart: UnsafePointer<Int16>, runEnd: UnsafePointer<Int16>
    let cot: UnsafeMutablePointer<Double>
    let down: UnsafeMutablePointer<UInt8>
    let falling: UnsafePointer<ConicSteps.Step>, rising: UnsafePointer<ConicSteps.Step>
    /// (Holds the steps' memory.)
    let steps: ConicSteps
    let cx: Double, cy: Double
    let startTurns: Double
    /// Whether the centre lies beyond single precision's range (see `entry`).
    let far: Bool
    /// Colours a shade call may write past its count (a run's last store).
    static let outputSlack = 3
    /// The entries of the last spans' first pixels, left and right of the
    /// centre: the next row's span on that side most often starts within a
    /// step of it, which two ray tests confirm without `atan2Turns` (-1: none).
    private var lastEntry = (left: -1, right: -1)

    init(table: GradientTable, rays: ConicRays, center: Point, origin: (x: Int, y: Int)) {
        self.init(
            table: table.entries, runStart: table.runStart, runEnd: table.runEnd, rays: rays,
            steps: table.steps(rays), center: center, origin: origin)
    }

    /// With a table of entries and its runs (`GradientTable.findRuns`).
    init(
        table: UnsafeMutablePointer<UInt32>, runStart: UnsafePointer<Int16>, runEnd: UnsafePointer<Int16>,
        rays: ConicRays, center: Point, origin: (x: Int, y: Int)
    ) {
        self.init(
            table: table, runStart: runStart, runEnd: runEnd, rays: rays,
            steps: ConicSteps(entries: table, runStart: runStart, runEnd: runEnd, rays: rays), center: center,
            origin: origin)
    }

    private init(
        table: UnsafeMutablePointer<UInt32>, runStart: UnsafePointer<Int16>, runEnd: UnsafePointer<Int16>,
        rays: ConicRays, steps: ConicSteps, center: Point, origin: (x: Int, y: Int)
    ) {
        self.table = table
        self.runStart = runStart
        self.runEnd = runEnd
        cot = rays.cot
        down = rays.down
        self.steps = steps
        falling = UnsafePointer(steps.falling)
        rising = UnsafePointer(steps.rising)
        cx = center.x + Double(origin.x)
        cy = center.y + Double(origin.y)
        startTurns = rays.startTurns
        far = !(abs(cx) < 1e30 && abs(cy) < 1e30)
    }

    /// `angle` in turns, 0 ..< 1: how `ConicRays` are keyed.
    static func turns(_ angle: Angle) -> Double {
        let s = angle.degrees / 360
        return s - s.rounded(.down)
    }

    /// The first column whose pixel centre lies right of where ray i meets the
    /// row `uy` below the centre (x + 0.5 > cx + uy * cot): that position
    /// rounded, ties to even (a centre exactly on a ray goes to one side, the
    /// same in every span). Rounded by adding 1.5 * 2^52, exact while
    /// |uy * cot| < 2^51.
    @inline(__always)
    private static func crossing(_ cot: Double, uy: Double, cx: Double) -> Int {
        let v = cx + uy * cot + 6_755_399_441_055_744.0
        return Int(bitPattern: UInt(v.bitPattern)) &- 0x4338_0000_0000_0000
    }

    /// Whether pixel `x` of row `uy` is past ray i (clockwise of it, by less
    /// than half a turn).
    @inline(__always)
    private func past(_ i: Int, x: Int, uy: Double) -> Bool {
        let p = Self.crossing(cot[i], uy: uy, cx: cx)
        return down[i] != 0 ? x < p : x >= p
    }

    /// The entry of pixel `x` of row `uy`.
    @inline(__always)
    private func entry(x: Int, uy: Double) -> Int {
        let mask = ConicRays.count - 1
        var dx = Double(x) + 0.5 - cx, dy = uy
        if far {
            // Into single precision's range: a centre 1e300 away would make
            // both infinite, and their angle NaN.
            let m = max(abs(dx), abs(dy))
            dx /= m
            dy /= m
        }
        var t = Double(FastMath.atan2Turns(Float(dy), Float(dx))) - startTurns
        if t < 0 { t += 1 }
        // The estimate is within a step of the entry (about 2e-6 turn off).
        return settle(Int(t * Double(mask) + 0.5) & mask, x: x, uy: uy, steps: 8).entry
    }

    /// From entry `k`, the entry of pixel `x` of row `uy` by the ray tests:
    /// back while the pixel is not past ray k, on while it is past ray k + 1,
    /// at most `steps` steps. `settled`: the tests ended it, so the entry is
    /// the pixel's (it is past ray k and not past ray k + 1 for one k only;
    /// the other change, from not past to past, lies half a turn away).
    @inline(__always)
    private func settle(_ k: Int, x: Int, uy: Double, steps limit: Int) -> (entry: Int, settled: Bool) {
        let mask = ConicRays.count - 1
        var k = k, steps = 0
        while !past(k, x: x, uy: uy) {
            if steps == limit { return (k, false) }
            k = (k &- 1) & mask
            steps += 1
        }
        while past((k &+ 1) & mask, x: x, uy: uy) {
            if steps == limit { return (k, false) }
            k = (k &+ 1) & mask
            steps += 1
        }
        return (k, true)
    }

    /// `entry`, from the last span's on the same side of the centre where
    /// two steps settle it (`settle`), whatever it started from.
    @inline(__always)
    private mutating func cachedEntry(x: Int, uy: Double) -> Int {
        let left = Double(x) + 0.5 < cx
        let guess = left ? lastEntry.left : lastEntry.right
        let k: Int
        if guess >= 0, case let (entry, true) = settle(guess, x: x, uy: uy, steps: 2) {
            k = entry
        } else {
            k = entry(x: x, uy: uy)
        }
        if left { lastEntry.left = k } else { lastEntry.right = k }
        return k
    }

    @inline(__always)
    mutating func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        shade(y: y, x: x, count: count, into: out, exactly: false)
    }

    @inline(__always)
    mutating func shadeExactly(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        shade(y: y, x: x, count: count, into: out, exactly: true)
    }

    /// `exactly`: the runs that end within three pixels of the end store
    /// their last pixels one by one, not past it.
    @inline(__always)
    private mutating func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>, exactly: Bool) {
        let mask = ConicRays.count - 1
        let table = self.table, cx = self.cx
        let uy = Double(y) + 0.5 - cy
        if uy == 0 {
            // The row through the centre: every ray meets it there.
            for j in 0..<count { out[j] = table[entry(x: x + j, uy: uy)] }
            return
        }
        var k = cachedEntry(x: x, uy: uy)
        // Runs in row coordinates: pixels j ..< stop take entry k (at base + j).
        let base = out - x, end = x + count
        var j = x
        @inline(__always)
        func fill(_ stop: Int, _ color: UInt32) {
            // Four at a time; the last store may reach three past `stop`, into
            // the next run (written after it) or the slack.
            let v = SIMD4<UInt32>(repeating: color)
            var o = UnsafeMutableRawPointer(base + j)
            let e = UnsafeMutableRawPointer(base + stop)
            if exactly && stop &+ 3 > end {
                // Up to the end: whole quads that stop short of it, then pixels.
                let last = UnsafeMutableRawPointer(base + end) - 16
                while o < e && o <= last {
                    o.storeBytes(of: v, as: SIMD4<UInt32>.self)
                    o += 16
                }
                while o < e {
                    o.storeBytes(of: color, as: UInt32.self)
                    o += 4
                }
            } else {
                repeat {
                    o.storeBytes(of: v, as: SIMD4<UInt32>.self)
                    o += 16
                } while o < e
            }
            j = stop
        }
        // The colour changes only at the rays that bound runs of equal entries.
        let runStart = self.runStart, runEnd = self.runEnd
        if (Int(runEnd[k]) &+ 1) & mask == Int(runStart[k]) {
            // Every entry alike.
            fill(end, table[k])
            return
        }
        // Below the centre the angle falls from left to right: the pixels
        // leave behind the ray where k's run begins. Above it the angle
        // rises: they reach the ray after k's run. (Rays that never meet the
        // row cross it past its end: `ConicSteps`.)
        let steps = uy > 0 ? falling : rising
        while true {
            let step = steps[k]
            let stop = min(end, Self.crossing(step.cot, uy: uy, cx: cx))
            if stop > j {
                fill(stop, step.color)
                if j == end { return }
            }
            k = Int(step.next)
        }
    }
}
