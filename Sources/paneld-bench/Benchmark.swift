import PanelDisplay
import Glibc
import PanelGauge
import PaneldCore

/// `paneld-bench`: the daemon-side figures of docs/performance.md, measured on the
/// daemon's own code (``Daemon``, ``LayoutScene``, a ``FrameOutput``).
///
/// - `--damage --phase full|update`: redraws a layout the way the daemon does, with
///   callgrind collecting only inside the output's `draw` call. Run each phase under
///   `valgrind --tool=callgrind --collect-atstart=no --instr-atstart=no` with
///   `CGCTL_LIB` set (shared/bench/peers/cgctl.c) and divide the total by `frames`.
///   `full` repaints the whole screen from scratch (no cached static layers), the
///   reference an update is compared with; `update` is what the daemon does.
///   Charts and sparklines start with their histories full (a wave in every
///   bucket), as after running for their span; a value change then changes
///   the newest bucket and repaints the chart.
/// - `--latency`: the daemon's loop in this process, a client thread writing paced
///   lines to the real Unix socket; a line's latency runs from just before its
///   `write` to the first flip queued for a frame drawn after the daemon applied it
///   or a later line (coalescing: one frame may answer several lines).
///
/// Both print one JSON line. Speed goals live here, never in timed tests.
struct Benchmark: PaneldCommand {
    /// Defaults of the options that have one (their help shows them too).
    static let defaultFrames = 20
    static let defaultLines = 10_000
    static let defaultIntervalUs = 1000

    static let spec = CommandSpec(
        name: "benchmark", abstract: "Measure damage-only redraw cost or socket-to-flip latency (one JSON line).",
        options: [
            .flag("damage", help: "Instructions of a full frame or of a one-gauge update (run under callgrind)."),
            .flag("latency", help: "Socket line written -> page flip queued, over the daemon's loop."),
            .option("phase", "full|update", help: "With --damage: which frames callgrind collects."),
            .option("config", help: "Layout file (JSON). Default: one ring gauge named 'value'."),
            .option("size", help: "Screen size WIDTHxHEIGHT. Default: the layout's mode, else 800x480."),
            .option(
                "gauge", help: "With --damage: the gauge whose value changes. Default: the layout's default gauge."),
            .option("frames", help: "With --damage: measured frames.", default: "\(defaultFrames)"),
            .option(
                "step",
                help: "With --damage: changes of this fraction of the range, back and forth. Default: 37 % jumps."
            ),
            .option("lines", help: "With --latency: lines sent.", default: "\(defaultLines)"),
            .option(
                "interval-us", help: "With --latency: microseconds between two lines.", default: "\(defaultIntervalUs)"),
            .option(
                "refresh-hz",
                help:
                    "With --latency: a queued flip completes at the next vblank of this refresh rate. Default: 0, at once."
            ),
        ],
        program: "paneld-bench")

    enum Phase: String, CaseIterable {
        /// Every measured frame repaints the whole screen (the daemon's full-redraw path).
        case full
        /// Every measured frame follows one value change of one gauge (damage only).
        case update
    }

    var damage: Bool
    var latency: Bool
    var phase: Phase?
    var config: String?
    var size: String?
    var gauge: String?
    var frames: Int
    var stepFraction: Double?
    var lines: Int
    var intervalUs: Int
    var refreshHz: Int

    init(_ arguments: Arguments) throws {
        damage = arguments.flag("damage")
        latency = arguments.flag("latency")
        phase = try arguments.value("phase") { Phase(rawValue: $0) }
        config = arguments.string("config")
        size = arguments.string("size")
        gauge = arguments.string("gauge")
        frames = try arguments.int("frames") ?? Self.defaultFrames
        stepFraction = try arguments.double("step")
        lines = try arguments.int("lines") ?? Self.defaultLines
        intervalUs = try arguments.int("interval-us") ?? Self.defaultIntervalUs
        refreshHz = try arguments.int("refresh-hz") ?? 0
    }

    func validate() throws {
        if damage == latency { throw ValidationError("give exactly one of --damage and --latency") }
        if damage && phase == nil {
            throw ValidationError("--damage needs --phase full or --phase update (run each under callgrind)")
        }
        if let size, ModeRequest(parsing: size) == nil {
            throw ValidationError("--size '\(size)' is not WIDTHxHEIGHT, e.g. 800x480, \(ModeRequest.limits)")
        }
        if let stepFraction, !(stepFraction > 0 && stepFraction <= 0.9) {
            throw ValidationError("--step must be more than 0 and at most 0.9")
        }
        if !(1...10_000).contains(frames) { throw ValidationError("--frames must be 1 to 10000") }
        if !(1...LatencyClient.maxLines).contains(lines) {
            throw ValidationError("--lines must be 1 to \(LatencyClient.maxLines)")
        }
        if !(0...1_000_000).contains(intervalUs) { throw ValidationError("--interval-us must be 0 to 1000000") }
        if !(0...1000).contains(refreshHz) { throw ValidationError("--refresh-hz must be 0 to 1000") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        var layout = try config.map { try LayoutReader.read(file: $0) } ?? Layout.fallback
        let (width, height) =
            size.flatMap { ModeRequest(parsing: $0) }.map { ($0.width, $0.height) } ?? layout.logicalSize
            ?? (800, 480)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        if let phase {
            // One frame per change: an animation would add frames that are not the change itself.
            layout.animation = 0
            try runDamage(layout, width: width, height: height, phase: phase, socket: dir.path + "/s.sock")
        } else {
            try runLatency(layout, width: width, height: height, socket: dir.path + "/s.sock")
        }
    }

    private var layoutName: String { config ?? "default" }

    /// The daemon and its inputs, built as ``Run`` builds them, minus the display and statsd.
    private func makeDaemon(
        _ layout: Layout, output: MemoryFlipOutput, socket: String, cachesStaticLayers: Bool = true
    ) throws -> (Daemon, FileDescriptor, SignalPipe) {
        let store = layout.store()
        // Charts start full, as after running for their span: a wave in every bucket.
        var history = HistoryBook(layout: layout)
        for gauge in Set(layout.historyKeys.map(\.gauge)) {
            let points = layout.historyKeys.filter { $0.gauge == gauge }.map(\.points).max() ?? 0
            let range = layout.gauges.first { $0.name == gauge }?.range
            let (lo, hi) = (range?.lower ?? 0, range?.upper ?? 1)
            let wave = (0..<points).map { k -> Double? in
                lo + (hi - lo) * (0.5 + 0.3 * sin(Double(k) / 9) + 0.1 * sin(Double(k) / 2.3))
            }
            history.record(gauge, spread: wave, endingAt: Double(ClockFormat.now()) / 1000)
        }
        let signals = try SignalPipe(signals: [SIGTERM, SIGINT])
        let listener = try UnixSocket.listen(socket)
        var settings = Daemon.Settings()
        settings.cachesStaticLayers = cachesStaticLayers
        let daemon = Daemon(
            layout: layout, output: OutputSlot(output), listener: listener, signals: signals, inputs: [],
            notifier: nil, store: store, history: history, settings: settings)
        return (daemon, listener, signals)
    }

    // MARK: damage

    private func runDamage(_ layout: Layout, width: Int, height: Int, phase: Phase, socket: String) throws {
        guard let name = gauge ?? layout.defaultGauge ?? layout.gauges.first?.name,
            let changing = layout.gauges.first(where: { $0.name == name })
        else { throw ValidationError("the layout has no gauge named '\(gauge ?? "")'") }
        let output = try MemoryFlipOutput(width: width, height: height, format: layout.pixelFormat ?? .xrgb8888)
        defer { output.close() }
        // "full" is the reference: every frame drawn from scratch, no cached static layers.
        let (daemon, listener, signals) = try makeDaemon(
            layout, output: output, socket: socket, cachesStaticLayers: phase == .update)
        defer {
            listener.close()
            signals.close()
        }
        let client = try UnixSocket.connect(socket)
        defer { client.close() }

        let cg = try CallgrindControls.load()
        cg?.start()
        try daemon.turn()  // accepts the client and shows the first, full frame
        guard output.presents == 1 else { throw BenchmarkError("the daemon did not show its first frame") }

        let range = changing.range
        var step = 0
        /// One value change of `name`, sent on the socket; the loop turns until its frame is presented.
        func changeAndShow(full: Bool, measured: Bool) throws {
            step += 1
            // Spread over the range, never the same value twice in a row (37 and
            // 101 are coprime); or small steps up and down between 5 and 95 %.
            var fraction = 0.05 + 0.9 * Double(step * 37 % 101) / 100
            if let size = stepFraction {
                let period = max(1, Int((0.9 / max(size, 1e-6)).rounded()))
                let k = step % (2 * period)
                fraction = 0.05 + size * Double(k <= period ? k : 2 * period - k)
            }
            let line = "\(name) \(range.lower + fraction * (range.upper - range.lower))\n"
            try client.writeAll(Array(line.utf8))
            output.forceFullRedraw = full
            output.collect = measured ? cg?.toggle : nil
            let before = output.presents
            for _ in 0..<100 where output.presents == before { try daemon.turn() }
            guard output.presents == before + 1 else { throw BenchmarkError("no frame followed a value change") }
            output.collect = nil
        }
        let full = phase == .full
        for _ in 0..<3 { try changeAndShow(full: full, measured: false) }  // warm-up: caches, both buffers
        for _ in 0..<frames { try changeAndShow(full: full, measured: true) }

        let repaint = output.lastRepaint
        let pixels = repaint.reduce(0) { $0 + $1.width * $1.height }
        let rects = repaint.map { "[\($0.x), \($0.y), \($0.width), \($0.height)]" }.joined(separator: ", ")
        print(
            "{\"benchmark\": \"damage\", \"phase\": \"\(phase.rawValue)\", \"layout\": \(JSONText.quote(layoutName)), "
                + "\"size\": \"\(width)x\(height)\", \"gauges\": \(layout.gauges.count), "
                + "\"gauge\": \(JSONText.quote(name)), \"frames\": \(frames), "
                + "\"repaint_rects\": [\(rects)], \"repaint_pixels\": \(pixels), "
                + "\"picture_bytes\": \(daemon.staticPictureBytes), "
                + "\"screen_pixels\": \(width * height), \"callgrind\": \(cg != nil)}")
    }

    // MARK: latency

    private func runLatency(_ layout: Layout, width: Int, height: Int, socket: String) throws {
        guard let name = layout.defaultGauge else {
            throw ValidationError("--latency sends bare numbers: the layout needs a default gauge")
        }
        guard let range = layout.gauges.first(where: { $0.name == name })?.range,
            range.lower <= 0, range.upper >= 100
        else { throw ValidationError("--latency sends values 0 to 100: the default gauge's range must hold them") }
        let output = try MemoryFlipOutput(
            width: width, height: height, format: layout.pixelFormat ?? .xrgb8888, refreshHz: refreshHz)
        defer { output.close() }
        let (daemon, listener, signals) = try makeDaemon(layout, output: output, socket: socket)
        defer {
            listener.close()
            signals.close()
        }

        // At each flip: the last line the daemon had applied when it drew that frame.
        var flips: [(queuedAt: UInt64, lastLine: Int)] = []
        flips.reserveCapacity(lines + 16)
        output.onFlipQueued = { [unowned daemon] at in
            flips.append((at, LatencyClient.line(of: daemon.store.values[name] ?? 0) ?? 0))
        }

        let client = LatencyClient(socket: socket, lines: lines, intervalNs: UInt64(intervalUs) * 1000)
        let thread = try client.start()
        try daemon.run()  // until the client's SIGTERM
        pthread_join(thread, nil)
        if let failure = client.failure { throw BenchmarkError("client: \(failure)") }

        // Lines are applied in order, so a frame showing line k answers every line up to k.
        var latencies: [Double] = []
        latencies.reserveCapacity(lines)
        var answered = 0
        for flip in flips where flip.lastLine > answered {
            for k in (answered + 1)...min(flip.lastLine, lines) {
                latencies.append(Double(flip.queuedAt &- client.sentAt[k - 1]) / 1e6)
            }
            answered = flip.lastLine
        }
        latencies.sort()
        func percentile(_ p: Double) -> String {
            guard !latencies.isEmpty else { return "null" }
            let rank = min(latencies.count - 1, max(0, Int((p * Double(latencies.count)).rounded(.up)) - 1))
            return JSONText.number(latencies[rank])
        }
        print(
            "{\"benchmark\": \"latency\", \"layout\": \(JSONText.quote(layoutName)), \"size\": \"\(width)x\(height)\", "
                + "\"lines\": \(lines), \"interval_us\": \(intervalUs), \"refresh_hz\": \(refreshHz), \"frames\": \(output.presents), "
                + "\"answered\": \(latencies.count), \"p50_ms\": \(percentile(0.5)), \"p99_ms\": \(percentile(0.99)), "
                + "\"max_ms\": \(percentile(1)), \"build\": \"\(BuildKind.name)\"}")
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum BuildKind {
    #if DEBUG
        static let name = "debug"
    #else
        static let name = "release"
    #endif
}

/// A display stand-in with DRM's timing rules and none of its hardware: two
/// in-memory buffers, each frame repainting its damage plus what the back buffer
/// missed (as ``DRMOutput`` does), the "page flip" queued at the end of `present`
/// by making a pipe readable, and completed at the next ``handleEvents()``; with
/// a refresh rate, a ``VBlankClock`` thread makes it readable at the next vblank.
final class MemoryFlipOutput: FrameOutput {
    let width: Int
    let height: Int
    let format: PixelFormat
    private let buffers: [Image]
    private let flipRead: FileDescriptor
    private let flipWrite: FileDescriptor
    private var backIndex = 0
    private var staleInBack: [IntRect] = []
    private var closed = false
    private(set) var isBusy = false
    private(set) var presents = 0
    /// What the last frame repainted.
    private(set) var lastRepaint: [IntRect] = []
    /// Plays "DRM master regained": the next frame repaints everything.
    var forceFullRedraw = false
    /// Toggles callgrind collection; called just before and just after `draw`.
    var collect: (@convention(c) () -> Void)?
    /// Called with the monotonic time (ns) at which a frame's flip is queued.
    var onFlipQueued: ((UInt64) -> Void)?

    private let vblank: VBlankClock?

    /// `refreshHz` 0: a queued flip completes at once (the next poll sees it).
    init(width: Int, height: Int, format: PixelFormat, refreshHz: Int = 0) throws {
        self.width = width
        self.height = height
        self.format = format
        buffers = [
            Image(width: width, height: height, format: format), Image(width: width, height: height, format: format),
        ]
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Errno.current("pipe") }
        flipRead = FileDescriptor(rawValue: fds[0])
        flipWrite = FileDescriptor(rawValue: fds[1])
        for fd in [flipRead, flipWrite] {
            try fd.setNonBlocking()
            try fd.setCloseOnExec()
        }
        vblank = refreshHz > 0 ? try VBlankClock(refreshHz: refreshHz, flip: flipWrite) : nil
    }

    var pollDescriptor: Int32? { closed ? nil : flipRead.rawValue }
    var needsFullRedraw: Bool { presents == 0 || forceFullRedraw }

    func present(damage: [IntRect], draw: (Surface, [IntRect]) throws -> Void) throws {
        precondition(!isBusy, "present while a flip is pending")
        let bounds = IntRect(x: 0, y: 0, width: width, height: height)
        let full = needsFullRedraw
        let damaged = full ? [bounds] : Damage.repaint(damage, in: bounds)
        if damaged.isEmpty { return }
        let repaint = full ? [bounds] : Damage.repaint(damaged + staleInBack, in: bounds)
        collect?()
        try draw(buffers[backIndex].surface, repaint)
        collect?()
        if let vblank {
            vblank.queueFlip()
        } else {
            var one: UInt8 = 1
            _ = Glibc.write(flipWrite.rawValue, &one, 1)
        }
        onFlipQueued?(monotonicNanoseconds())
        isBusy = true
        backIndex ^= 1
        staleInBack = damaged
        lastRepaint = repaint
        presents += 1
        forceFullRedraw = false
    }

    func handleEvents() throws {
        var byte: UInt8 = 0
        while Glibc.read(flipRead.rawValue, &byte, 1) == 1 { isBusy = false }
    }

    func close() {
        guard !closed else { return }
        closed = true
        vblank?.stop()
        flipWrite.close()
        flipRead.close()
    }
}

/// A display's refresh as a thread: each queued flip completes (a byte on the
/// flip pipe) at the first vblank after it was queued, vblanks falling every
/// `1 / refreshHz` seconds from the clock's start. Requests come over a pipe, so
/// the thread shares no memory with the loop.
final class VBlankClock: @unchecked Sendable {
    let periodNs: UInt64
    private let start = monotonicNanoseconds()
    private let requestRead: FileDescriptor
    private let requestWrite: FileDescriptor
    private let flip: FileDescriptor
    private var thread = pthread_t()

    init(refreshHz: Int, flip: FileDescriptor) throws {
        periodNs = 1_000_000_000 / UInt64(refreshHz)
        self.flip = flip
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Errno.current("pipe") }
        requestRead = FileDescriptor(rawValue: fds[0])
        requestWrite = FileDescriptor(rawValue: fds[1])
        let context = Unmanaged.passRetained(self).toOpaque()
        let r = pthread_create(
            &thread, nil,
            { raw in
                let clock = Unmanaged<VBlankClock>.fromOpaque(raw!).takeRetainedValue()
                clock.body()
                return nil
            }, context)
        guard r == 0 else {
            Unmanaged<VBlankClock>.fromOpaque(context).release()
            requestRead.close()
            requestWrite.close()
            throw BenchmarkError("pthread_create: \(r)")
        }
    }

    func queueFlip() {
        var one: UInt8 = 1
        _ = Glibc.write(requestWrite.rawValue, &one, 1)
    }

    /// Ends the thread (it sees end-of-file on the request pipe) and waits for it.
    func stop() {
        requestWrite.close()
        pthread_join(thread, nil)
        requestRead.close()
    }

    private func body() {
        var byte: UInt8 = 0
        while Glibc.read(requestRead.rawValue, &byte, 1) == 1 {
            let now = monotonicNanoseconds()
            let due = start + ((now - start) / periodNs + 1) * periodNs
            var ts = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
            _ = Glibc.write(flip.rawValue, &byte, 1)
        }
    }
}

/// The benchmark's client: a thread writing `lines` bare numbers to the socket,
/// paced on an absolute schedule, noting the time just before each write; then a
/// `get` whose answer shows every line was applied, and SIGTERM to stop the loop.
final class LatencyClient: @unchecked Sendable {
    static let maxLines = 99_999
    let socket: String
    let lines: Int
    let intervalNs: UInt64
    /// `sentAt[k - 1]`: monotonic ns just before line k was written. Read after the thread ends.
    private(set) var sentAt: [UInt64]
    private(set) var failure: String?

    init(socket: String, lines: Int, intervalNs: UInt64) {
        self.socket = socket
        self.lines = lines
        self.intervalNs = intervalNs
        sentAt = [UInt64](repeating: 0, count: lines)
    }

    /// Line k's value: distinct for every k below 100 000 (k mod 100, then k / 100
    /// in thousandths), so a frame's value names the line it shows.
    static func text(ofLine k: Int) -> String {
        let thousandths = String(k / 100)
        return "\(k % 100)." + String(repeating: "0", count: 3 - thousandths.count) + thousandths
    }

    /// The line whose value is `v`, if any.
    static func line(of v: Double) -> Int? {
        guard v >= 0, v < 100 else { return nil }
        let whole = Int(v)
        return Int(((v - Double(whole)) * 1000).rounded()) * 100 + whole
    }

    func start() throws -> pthread_t {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let r = pthread_create(
            &thread, nil,
            { raw in
                let client = Unmanaged<LatencyClient>.fromOpaque(raw!).takeRetainedValue()
                client.body()
                return nil
            }, context)
        guard r == 0 else {
            Unmanaged<LatencyClient>.fromOpaque(context).release()
            throw BenchmarkError("pthread_create: \(r)")
        }
        return thread
    }

    private func body() {
        defer { kill(getpid(), SIGTERM) }
        do {
            let fd = try UnixSocket.connect(socket)
            defer { fd.close() }
            // A round trip first: the daemon is in its loop and has shown its first frame.
            try fd.writeAll(Array("get\n".utf8))
            _ = try fd.readLine()
            let start = monotonicNanoseconds()
            for k in 1...lines {
                let due = start + UInt64(k) * intervalNs
                var ts = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
                while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
                let line = Array((LatencyClient.text(ofLine: k) + "\n").utf8)
                sentAt[k - 1] = monotonicNanoseconds()
                try fd.writeAll(line)
            }
            try fd.writeAll(Array("get\n".utf8))
            _ = try fd.readLine()
            usleep(100_000)  // the last frame follows within the loop turn that applied the last line
        } catch {
            failure = "\(error)"
        }
    }
}

/// Callgrind's client requests, from the shared library named by `CGCTL_LIB`
/// (built from shared/bench/peers/cgctl.c): Swift cannot emit their inline-asm
/// sequences. Outside valgrind they do nothing.
struct CallgrindControls {
    let start: @convention(c) () -> Void
    let toggle: @convention(c) () -> Void

    /// nil when `CGCTL_LIB` is not set; an error when it is set but unusable.
    static func load() throws -> CallgrindControls? {
        guard let path = getenv("CGCTL_LIB") else { return nil }
        guard let handle = dlopen(path, RTLD_NOW) else {
            throw BenchmarkError("CGCTL_LIB: cannot load \(String(cString: path))")
        }
        guard let s = dlsym(handle, "cg_start_instrumentation"), let t = dlsym(handle, "cg_toggle_collect") else {
            throw BenchmarkError("CGCTL_LIB lacks cg_start_instrumentation / cg_toggle_collect")
        }
        return CallgrindControls(
            start: unsafeBitCast(s, to: (@convention(c) () -> Void).self),
            toggle: unsafeBitCast(t, to: (@convention(c) () -> Void).self))
    }
}

/// A private directory for the benchmark's socket, removed afterwards.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/paneld-bench-XXXXXX".utf8CString)
        guard let p = mkdtemp(&template) else { throw Errno.current("mkdtemp") }
        path = String(cString: p)
    }

    func remove() {
        UnixSocket.removeOwned(path + "/s.sock")
        rmdir(path)
    }
}

enum JSONText {
    static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where ch.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(ch.value, radix: 16).count)
                    + String(ch.value, radix: 16)
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }

    /// A non-negative number with three decimals.
    static func number(_ v: Double) -> String {
        let thousandths = Int((max(0, v) * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

extension FileDescriptor {
    /// Writes all of `bytes` (blocking descriptor).
    fileprivate func writeAll(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = try bytes.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[done...])) }
            done += n
        }
    }

    /// Reads up to and including a newline (blocking descriptor), byte by byte.
    fileprivate func readLine() throws -> String {
        var out: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = try withUnsafeMutableBytes(of: &byte) { try read(into: $0) }
            if n == 0 { throw BenchmarkError("the daemon closed the connection") }
            if byte == UInt8(ascii: "\n") { return String(decoding: out, as: UTF8.self) }
            out.append(byte)
        }
    }
}
