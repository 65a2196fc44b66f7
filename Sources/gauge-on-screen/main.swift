// gauge-on-screen [VALUE] [--png FILE]: one gauge on the first connected display
// (DRM/KMS dumb buffers and a page flip), until SIGINT or SIGTERM gives the
// console back; with --png, the same frame at 800x480 in FILE.
import Glibc
import PanelDisplay
import PanelGauge

let arguments = Array(CommandLine.arguments.dropFirst())
let value = arguments.first.flatMap(Double.init) ?? 73
let png = arguments.firstIndex(of: "--png").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }

let output: FrameOutput
if let png {
    output = PNGOutput(path: png, width: 800, height: 480)
} else {
    output = try DRMOutput(options: DRMOutputOptions())
}
defer { output.close() }

let cpu = try Gauge(value: value, in: 0...100) { "CPU" }
    .valueFormat(.percent())
    .gaugeStyle(.accessoryCircularCapacity)
    .thresholds(try Thresholds(.green, (60, .orange), (85, .red)))

let screen = IntRect(x: 0, y: 0, width: output.width, height: output.height)
try output.present(damage: [screen]) { surface, _ in
    let canvas = Canvas(surface: surface)
    canvas.clear(Color(red: 16, green: 20, blue: 24))
    let side = Double(min(output.width, output.height)) * 0.8
    let x = (Double(output.width) - side) / 2
    let y = (Double(output.height) - side) / 2
    cpu.draw(in: Rect(x: x, y: y, width: side, height: side), on: canvas)
}
try output.waitUntilShown()

if png == nil {
    // Blocked, so sigwait takes them: the defer above then restores the console.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    var received: Int32 = 0
    sigwait(&signals, &received)
}
