import PanelDisplay
import PanelGauge

/// `paneld render`: draw a layout with given values to a PNG, no display needed.
///
/// Draws exactly what the daemon would show after receiving the same values,
/// so previews, docs and the display tests can compare against it.
struct Render: PaneldCommand {
    static let spec = CommandSpec(
        name: "render", abstract: "Render a layout with given values to a PNG file.",
        discussion: """
            Without --config the default layout is used (one ring gauge named 'value', 0...100).

            Example:
              paneld render --config panel.json --set cpu=73 --set mem=41.5 --output panel.png
              paneld render --config panel.json --set cpu=73 --stale cpu --output stale.png
            """,
        options: [
            .option("config", help: "Layout file (JSON). Default: one ring gauge named 'value'."),
            .option("set", "NAME=VALUE", help: "A gauge value, NAME=VALUE (repeatable).", repeatable: true),
            .option(
                "stale", "NAME",
                help: "Draw a gauge as stale: dimmed, a dash for its value (repeatable).", repeatable: true),
            .option("output", help: "Where to write the PNG.", required: true),
            .option(
                "size",
                help: "Screen size WIDTHxHEIGHT (logical, after rotation). Default: the layout's mode, else 800x480."),
        ])

    var config: String?
    var values: [String]
    var stale: [String]
    var output: String
    var size: String?

    init(_ arguments: Arguments) throws {
        config = arguments.string("config")
        values = arguments.strings("set")
        stale = arguments.strings("stale")
        output = try arguments.required("output")
        size = arguments.string("size")
    }

    func validate() throws {
        if let size, ModeRequest(parsing: size) == nil {
            throw ValidationError("--size '\(size)' is not WIDTHxHEIGHT, e.g. 800x480, \(ModeRequest.limits)")
        }
        for v in values where Render.parseAssignment(v) == nil {
            throw ValidationError("--set '\(v)' is not NAME=VALUE with a finite decimal VALUE, e.g. --set cpu=73")
        }
        if output.isEmpty { throw ValidationError("--output needs a file name") }
    }

    /// `NAME=VALUE` through the socket protocol's own parser, so the same text means the same thing.
    static func parseAssignment(_ s: String) -> (String, Double)? {
        guard s.contains("="), case .success(.set(let g?, let v)) = LineParser.parse(Array(s.utf8)) else { return nil }
        return (g, v)
    }

    /// A warning if the layout's font cannot be opened: gauges then draw without text.
    static func fontProblem(_ layout: Layout) -> String? {
        let font = layout.gauges.first?.gauge.environment.font ?? .default
        do {
            _ = try FontCache.shared.font(font, pixelSize: 12)
            return nil
        } catch {
            return "labels and values will not be drawn: \(error)"
        }
    }

    func run() throws {
        let layout = try config.map { try LayoutReader.read(file: $0) } ?? Layout.fallback
        if let config { layout.logWarnings(file: config) }
        if let problem = Render.fontProblem(layout) { Log.warning(problem) }
        var store = layout.store()
        for v in values {
            let (name, value) = Render.parseAssignment(v)!
            guard store.set(name, value) else {
                throw DaemonError(
                    "--set \(v): the layout has no gauge named '\(name)' (gauges: \(store.names.joined(separator: ", ")))"
                )
            }
        }
        for name in stale where !store.names.contains(name) {
            throw DaemonError(
                "--stale \(name): the layout has no gauge named '\(name)' (gauges: \(store.names.joined(separator: ", ")))"
            )
        }
        let (w, h) =
            size.flatMap { ModeRequest(parsing: $0) }.map { ($0.width, $0.height) } ?? layout.logicalSize ?? (800, 480)
        try layout.checkFits(width: w, height: h, file: config ?? "layout")
        let output = PNGOutput(path: self.output, width: w, height: h, format: layout.pixelFormat ?? .xrgb8888)
        // One frame: a static-layer picture would never be reused.
        let renderer = PanelRenderer(layout: layout, width: w, height: h, cachesStaticLayers: false)
        try output.present(damage: [IntRect(x: 0, y: 0, width: w, height: h)]) { surface, rects in
            renderer.draw(surface, rects: rects, values: store.values, stale: Set(stale))
        }
    }
}
