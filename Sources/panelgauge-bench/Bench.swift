#if canImport(Glibc)
    import Glibc
#endif
import PanelGauge

/// `panelgauge-bench`: PanelGauge as a peer of shared/bench/run-peers.sh. Speaks
/// the contract of shared/bench/README.md (options, one JSON line of output).
@main
struct Bench {
    struct Options {
        var width = 800, height = 480, frames = 300, warmup = 10, stride = 1
        var gradient = false, callgrind = false
        var png: String? = nil
        var pngValue = 0.73
        var variant = "simple"
        /// `a`: shared/bench/SCENE.md (gauge-panel); `b`: SCENE-B.md (dial-panel, simple only);
        /// `strokes`: this repository's thin strokes and arcs (``ThinStrokeScene``, simple only).
        var scene = "a"
        /// The renderer name in the JSON line: two builds of this program (for
        /// the baseline x86-64 and for Haswell) join one peer run apart.
        var name = "panelgauge"
    }

    static func fail(_ message: String) -> Never {
        let line = "panelgauge-bench: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }

    static func parse(_ args: [String]) -> Options {
        var o = Options()
        var i = 1
        func next() -> String {
            i += 1
            guard i < args.count else { fail("\(args[i - 1]) needs a value") }
            return args[i]
        }
        func int(_ s: String, _ name: String) -> Int {
            guard let v = Int(s), v >= 0 else { fail("\(name) must be a non-negative integer, got '\(s)'") }
            return v
        }
        while i < args.count {
            switch args[i] {
            case "--size":
                let s = next()
                let parts = s.split(separator: "x")
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 16384,
                    h <= 16384
                else { fail("--size must be WxH, got '\(s)'") }
                o.width = w
                o.height = h
            case "--frames": o.frames = max(1, int(next(), "--frames"))
            case "--warmup": o.warmup = int(next(), "--warmup")
            case "--stride": o.stride = int(next(), "--stride")
            case "--variant":
                o.variant = next()
                guard o.variant == "simple" || o.variant == "gradient" else {
                    fail("variant must be simple or gradient")
                }
                o.gradient = o.variant == "gradient"
            case "--scene":
                o.scene = next()
                guard ["a", "b", "strokes"].contains(o.scene) else {
                    fail("--scene must be a, b or strokes, got '\(o.scene)'")
                }
            case "--png": o.png = next()
            case "--v":
                let s = next()
                guard let v = Double(s), v.isFinite else { fail("--v must be a number") }
                o.pngValue = v
            case "--callgrind": o.callgrind = true
            case "--name":
                o.name = next()
                guard !o.name.isEmpty, o.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
                else { fail("--name takes letters, digits, '-' and '_'") }
            default: fail("unknown option \(args[i])")
            }
            i += 1
        }
        if o.scene != "a" && o.gradient { fail("scene \(o.scene) has only the simple variant") }
        return o
    }

    static func nowNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Callgrind client requests are inline-asm sequences Swift cannot emit; the
    /// peer script builds them into a tiny shared library and exports its path as
    /// CGCTL_LIB (shared/bench/peers/cgctl.c).
    static func callgrindControls() -> (start: @convention(c) () -> Void, toggle: @convention(c) () -> Void) {
        guard let path = getenv("CGCTL_LIB"), let h = dlopen(path, RTLD_NOW) else {
            fail("--callgrind needs CGCTL_LIB set to libcgctl.so (run-peers.sh builds and exports it)")
        }
        guard let s = dlsym(h, "cg_start_instrumentation"), let t = dlsym(h, "cg_toggle_collect") else {
            fail("CGCTL_LIB lacks the callgrind control functions")
        }
        return (
            unsafeBitCast(s, to: (@convention(c) () -> Void).self),
            unsafeBitCast(t, to: (@convention(c) () -> Void).self)
        )
    }

    static func main() {
        let o = parse(CommandLine.arguments)
        let image = Image(width: o.width, height: o.height, format: .xrgb8888)
        let canvas = Canvas(surface: image.surface)
        let draw: (Double) -> Void
        if o.scene == "b" {
            let scene = DialPanelScene(width: o.width, height: o.height)
            draw = { scene.draw(canvas, v: $0) }
        } else if o.scene == "strokes" {
            let scene = ThinStrokeScene(width: o.width, height: o.height)
            draw = { scene.draw(canvas, v: $0) }
        } else {
            let scene = GaugePanelScene(width: o.width, height: o.height, gradient: o.gradient)
            draw = { scene.draw(canvas, v: $0) }
        }

        if let png = o.png {
            draw(o.pngValue)
            do { try PNG.write(image.surface, to: png) } catch { fail("\(error)") }
            return
        }

        let cg = o.callgrind ? callgrindControls() : nil
        cg?.start()
        for i in 0..<o.warmup { draw(GaugePanelScene.value(frame: i * o.stride)) }
        cg?.toggle()
        var times = [UInt64](repeating: 0, count: o.frames)
        for i in 0..<o.frames {
            let t0 = nowNs()
            draw(GaugePanelScene.value(frame: i * o.stride))
            times[i] = nowNs() - t0
        }
        cg?.toggle()
        times.sort()
        let n = o.frames
        let median = n % 2 == 1 ? Double(times[n / 2]) / 1e6 : Double(times[n / 2 - 1] + times[n / 2]) / 2e6
        func f(_ v: Double) -> String {
            let s = String(Int((v * 10000).rounded()))
            let padded = String(repeating: "0", count: max(0, 5 - s.count)) + s
            return padded.dropLast(4) + "." + padded.suffix(4)
        }
        print(
            "{\"renderer\": \"\(o.name)\", \"size\": \"\(o.width)x\(o.height)\", \"variant\": \"\(o.variant)\", "
                + "\"frames\": \(n), \"stride\": \(o.stride), \"median_ms\": \(f(median)), "
                + "\"min_ms\": \(f(Double(times[0]) / 1e6)), \"max_ms\": \(f(Double(times[n - 1]) / 1e6)), "
                + "\"callgrind\": \(o.callgrind), \"note\": \"\"}")
    }
}
