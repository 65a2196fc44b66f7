// gauge-on-screen [VALUE...] [--png FILE]: one gauge on the first connected display
// (DRM/KMS dumb buffers and page flips) showing each VALUE in turn, a second apart,
// each change repainting only what it touches; then it waits until SIGINT or SIGTERM
// gives the console back. With --png, the frames at 800x480 in FILE.
import Glibc
import PanelDisplay
import PanelGauge
import PanelScene

var arguments = Array(CommandLine.arguments.dropFirst())
var png: String?
if let i = arguments.firstIndex(of: "--png"), i + 1 < arguments.count {
    png = arguments[i + 1]
    arguments.removeSubrange(i...(i + 1))
}
let values = arguments.compactMap(Double.init)

let output: FrameOutput
if let png {
    output = PNGOutput(path: png, width: 800, height: 480)
} else {
    output = try DRMOutput(options: DRMOutputOptions())
}
defer { output.close() }

let cpu = try Gauge(value: 0, in: 0...100) { "CPU" }
    .valueFormat(.percent())
    .gaugeStyle(.accessoryCircularCapacity)
    .thresholds(try Thresholds(.green, (60, .orange), (85, .red)))

// The gauge in a square in the middle of the screen, four fifths of its height.
let screen = IntRect(x: 0, y: 0, width: output.width, height: output.height)
let side = min(output.width, output.height) * 4 / 5
let frame = IntRect(x: (output.width - side) / 2, y: (output.height - side) / 2, width: side, height: side)
let scene = GaugeScene(
    width: output.width, height: output.height, items: [SceneItem("cpu", cpu, in: frame)],
    background: Color(red: 16, green: 20, blue: 24))

// The first frame is drawn whole; each later one repaints the damage from
// the state shown before (the output adds what its other buffer lacks).
var shown: SceneState?
for value in values.isEmpty ? [73] : values {
    if shown != nil { sleep(1) }
    let next = SceneState(values: ["cpu": value])
    let damage = shown.map { scene.damage(from: $0, to: next) } ?? [screen]
    try output.present(damage: damage) { surface, rects in scene.draw(surface, rects: rects, state: next) }
    try output.waitUntilShown()
    shown = next
}

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
