#if canImport(Glibc)
    import Glibc
#endif

/// A gradient sampled into 1024 entries (`0xAARRGGBB`, non-premultiplied) for a
/// draw call; a pixel looks its colour up by `t`. 1024 steps keep the lookup error
/// below 0.15 of an 8-bit level for any two-colour ramp.
///
/// The entries are kept between draw calls and sampled again only for another
/// gradient or opacity: a gauge paints the same gradient every frame, and
/// sampling costs about 200 instructions per entry.
final class GradientTable {
    static let size = 1024
    let entries: UnsafeMutablePointer<UInt32>
    /// What `entries` hold, once filled.
    private var filled: (gradient: Gradient, opacity: Double)?
    /// Whether every entry has alpha 255.
    private(set) var opaque = false

    init() { entries = .allocate(capacity: Self.size) }
    deinit { entries.deallocate() }

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
    }
}

/// Computes the colours of a horizontal run of pixels (at their centres).
/// Mutating, so that a shader can carry work over from one span of a row to the
/// next (the conic one does).
protocol Shader {
    mutating func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>)
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

    func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let scale = Double(GradientTable.size - 1)
        var t = ((Double(x) + 0.5 - ox) * dx + (Double(y) + 0.5 - oy) * dy) * scale
        let step = dx * scale
        for i in 0..<count {
            let idx = Int(min(scale, max(0, t)) + 0.5)
            out[i] = table[idx]
            t += step
        }
    }
}

/// Conic (angular) gradient: t = clockwise angle from `startAngle`, in turns.
///
/// The angle is smooth along a row, so it is computed (`FastMath.atan2Turns`)
/// only every few pixels and interpolated linearly in between: a span is cut
/// into segments, each one's table position computed at both ends, the
/// pixels between stepped in 16.16 fixed point (three instructions and a
/// table read a pixel). Each pixel gets the table entry of its own angle or a
/// neighbouring one: at most one step of 1023 per turn (for a two-colour ramp,
/// a fifth of an 8-bit level).
///
/// The segment length: along a row at distance r from the centre the angle's
/// second derivative is 2·dx·dy/r⁴, at most 1/r² radians per pixel², so a
/// straight line between two exact ends is off by at most L²/(8r²) radians
/// (L pixels apart); `reach`·r keeps that under half a table step, r being the
/// smallest distance along the segment. With the half step of rounding, the
/// entry is then within one step of the exact one. Within a few pixels of the
/// centre segments are one pixel (every pixel exact). A segment over the seam
/// at `startAngle`, where the position jumps from the end of the table to its
/// start, is computed pixel by pixel.
struct ConicShader: Shader {
    let table: UnsafeMutablePointer<UInt32>
    let cx: Double, cy: Double
    let startTurns: Float

    /// √(8 · ½ · 2π / 1023) = 0.156 741, rounded down: the segment length, per
    /// pixel of distance from the centre, for a line within half a table step
    /// of the angle. (A literal: a computed static is a `swift_once` call per
    /// read.)
    static let reach = 0.156_74
    /// The longest segment: the fixed-point step's rounding (2^-16 a pixel)
    /// then adds up to 1/256 of a table step at most.
    private static let maxSegment = 256

    /// The last position computed, past the end of the last span: the next
    /// span of the row usually starts there (a run after the span it ends).
    private var lastY = Int.min, lastX = 0
    private var lastPosition: Float = 0

    init(table: UnsafeMutablePointer<UInt32>, center: Point, startAngle: Angle, origin: (x: Int, y: Int)) {
        self.table = table
        cx = center.x + Double(origin.x)
        cy = center.y + Double(origin.y)
        var s = startAngle.degrees / 360
        s -= s.rounded(.down)
        startTurns = Float(s)
    }

    /// The table position of pixel `x` of row `y`, plus 0.5 (so truncation
    /// rounds): 0.5 ..< 1023.5.
    @inline(__always)
    private func exactPosition(y: Int, x: Int) -> Float {
        var t = FastMath.atan2Turns(Float(Double(y) + 0.5 - cy), Float(Double(x) + 0.5 - cx)) - startTurns
        if t < 0 { t += 1 }
        return t * Float(GradientTable.size - 1) + 0.5
    }

    @inline(__always)
    mutating func shade(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let mask = GradientTable.size - 1
        var p0 = y == lastY && x == lastX ? lastPosition : exactPosition(y: y, x: x)
        // The smallest squared distance from the centre over the span decides
        // every segment's length (a little short for some: never too long).
        let dy = Double(y) + 0.5 - cy
        let first = Double(x) + 0.5 - cx, last = first + Double(count - 1)
        let nearest = first <= 0 && last >= 0 ? 0 : min(abs(first), abs(last))
        let length = min(Int(Self.reach * (dy * dy + nearest * nearest).squareRoot()), Self.maxSegment)
        var i = 0
        if length < 2 {
            // Near the centre: every pixel on its own.
            while i < count {
                out[i] = table[Int(p0) & mask]
                i &+= 1
                p0 = exactPosition(y: y, x: x &+ i)
            }
        } else {
            while i < count {
                let n = min(length, count &- i)
                let p1 = exactPosition(y: y, x: x &+ i &+ n)
                if abs(p1 - p0) < Float(GradientTable.size / 2) {
                    var f = Int32(p0 * 65536)
                    let step = Int32((p1 - p0) * (65536 / Float(n)))
                    for j in i..<(i &+ n) {
                        out[j] = table[Int(f >> 16) & mask]
                        f &+= step
                    }
                } else {
                    // Over the seam.
                    out[i] = table[Int(p0) & mask]
                    for j in (i &+ 1)..<(i &+ n) { out[j] = table[Int(exactPosition(y: y, x: x &+ j)) & mask] }
                }
                i &+= n
                p0 = p1
            }
        }
        lastY = y
        lastX = x &+ count
        lastPosition = p0
    }
}

enum FastMath {
    /// `atan2(y, x)` as a fraction of a turn in [0, 1), measured from +x towards +y
    /// (clockwise on screen, y down). A degree-11 odd minimax polynomial for atan on
    /// [0, 1] (max error about 1e-5 rad, i.e. 2e-6 turn) plus octant folding.
    @inline(__always)
    static func atan2Turns(_ y: Float, _ x: Float) -> Float {
        let ax = abs(x), ay = abs(y)
        let mx = max(ax, ay), mn = min(ax, ay)
        if mx == 0 { return 0 }
        let z = mn / mx
        let z2 = z * z
        var p: Float = -0.011_721_20
        p = p * z2 + 0.052_653_32
        p = p * z2 - 0.116_432_87
        p = p * z2 + 0.193_543_46
        p = p * z2 - 0.332_623_47
        p = p * z2 + 0.999_977_26
        var a = p * z * (1 / (2 * Float.pi))  // in turns, 0 ... 1/8
        if ay > ax { a = 0.25 - a }
        if x < 0 { a = 0.5 - a }
        if y < 0 { a = 1 - a }
        return a >= 1 ? 0 : a
    }
}
