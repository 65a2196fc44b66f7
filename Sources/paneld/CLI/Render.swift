import Glibc
import PanelDisplay
import PanelGauge
import PaneldCore

/// `paneld render`: draw a layout with given values to a PNG, no display needed.
///
/// Draws exactly what the daemon would show after receiving the same values,
/// so previews, docs and the display tests can compare against it.
struct Render: PaneldCommand {
    static let spec = CommandSpec(
        name: "render", abstract: "Render a layout with given values to a PNG file.",
        discussion: """
            Without --config the default layout is used (one ring gauge named 'value', 0...100).
            A gauge not given with --set has no value: it is drawn as "no data", as the
            daemon draws it until its first value. A --set value is a point of its gauge's
            history at --time, as the daemon records one; --history gives a history's
            values, evenly over each chart's span and ending at --time (an empty entry
            is a gap); --state starts from a state file's values, texts and histories.

            Example:
              paneld render --config panel.json --set cpu=73 --set mem=41.5 --output panel.png
              paneld render --config panel.json --set cpu=73 --stale cpu --output stale.png
              paneld render --config pages.json --page system --text status='Pump 2 running' \\
                --time 2026-11-27T14:05 --output system.png
              paneld render --config chart.json --history temp=41,43,,,47,52.5 --set temp=52.5 \\
                --output chart.png
              paneld render --config chart.json --state /var/lib/paneld/values --output now.png
            """,
        options: [
            .option("config", help: "Layout file (JSON). Default: one ring gauge named 'value'."),
            .option("set", "NAME=VALUE", help: "A gauge value, NAME=VALUE (repeatable).", repeatable: true),
            .option(
                "stale", "NAME",
                help: "Draw a gauge as stale: dimmed, a dash for its value (repeatable).", repeatable: true),
            .option(
                "text", "NAME=TEXT", help: "A text widget's text, NAME=TEXT (repeatable).", repeatable: true),
            .option(
                "history", "NAME=V,V,...",
                help: "A gauge's history for its charts: values ending at --time, empty for a gap (repeatable).",
                repeatable: true),
            .option("state", "FILE", help: "Start from a state file's values, texts and histories."),
            .option("page", "NAME", help: "The page to draw. Default: the first."),
            .option(
                "time",
                help:
                    "The time clocks show: local YYYY-MM-DDTHH:MM[:SS], or seconds since 1970. Default: now."),
            .option("output", help: "Where to write the PNG.", required: true),
            .option(
                "size",
                help: "Screen size WIDTHxHEIGHT (logical, after rotation). Default: the layout's mode, else 800x480."),
        ])

    var config: String?
    var values: [String]
    var stale: [String]
    var texts: [String]
    var histories: [String]
    var state: String?
    var page: String?
    var time: String?
    var output: String
    var size: String?

    init(_ arguments: Arguments) throws {
        config = arguments.string("config")
        values = arguments.strings("set")
        stale = arguments.strings("stale")
        texts = arguments.strings("text")
        histories = arguments.strings("history")
        state = arguments.string("state")
        page = arguments.string("page")
        time = arguments.string("time")
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
        for t in texts where Render.parseText(t) == nil {
            throw ValidationError("--text '\(t)' is not NAME=TEXT, e.g. --text status='Pump 2 running'")
        }
        for h in histories where Render.parseHistory(h) == nil {
            throw ValidationError(
                "--history '\(h)' is not NAME=V,V,... with up to \(ValueHistory.maxPoints) finite decimal values or empty gaps, e.g. --history cpu=40,41.5,,43"
            )
        }
        if let state, state.isEmpty { throw ValidationError("--state needs a file name") }
        if let time, Render.parseTime(time) == nil {
            throw ValidationError(
                "--time '\(time)' is not a local time YYYY-MM-DDTHH:MM[:SS] or seconds since 1970")
        }
        if output.isEmpty { throw ValidationError("--output needs a file name") }
    }

    /// `NAME=TEXT`: a gauge name, `=`, then any text (empty clears it).
    static func parseText(_ s: String) -> (String, String)? {
        guard let eq = s.firstIndex(of: "="), GaugeName.isValid(s[..<eq].utf8) else { return nil }
        return (String(s[..<eq]), String(s[s.index(after: eq)...]))
    }

    /// `NAME=V,V,...`: a gauge name, `=`, then up to ``ValueHistory/maxPoints``
    /// comma-separated values, each a finite number as the protocol reads
    /// one, or empty for a gap.
    static func parseHistory(_ s: String) -> (String, [Double?])? {
        guard let eq = s.firstIndex(of: "="), GaugeName.isValid(s[..<eq].utf8) else { return nil }
        let fields = s[s.index(after: eq)...].split(separator: ",", omittingEmptySubsequences: false)
        guard !fields.isEmpty, fields.count <= ValueHistory.maxPoints else { return nil }
        var values: [Double?] = []
        for f in fields {
            if f.isEmpty {
                values.append(nil)
                continue
            }
            guard let (_, v) = parseAssignment("x=" + f) else { return nil }
            values.append(v)
        }
        return (String(s[..<eq]), values)
    }

    /// Seconds since 1970 from `--time`: all digits, or a local `YYYY-MM-DDTHH:MM[:SS]`.
    static func parseTime(_ s: String) -> Int? {
        if !s.isEmpty, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return Int(s) }
        let parts = s.split(whereSeparator: { "-T: ".contains($0) }).map { Int($0) }
        guard parts.count == 5 || parts.count == 6, parts.allSatisfy({ $0 != nil }) else { return nil }
        let n = parts.map { $0! }
        guard (1970...9999).contains(n[0]), (1...12).contains(n[1]), (1...31).contains(n[2]),
            (0...23).contains(n[3]), (0...59).contains(n[4]), n.count == 5 || (0...60).contains(n[5])
        else { return nil }
        var t = tm()
        t.tm_year = Int32(n[0] - 1900)
        t.tm_mon = Int32(n[1] - 1)
        t.tm_mday = Int32(n[2])
        t.tm_hour = Int32(n[3])
        t.tm_min = Int32(n[4])
        t.tm_sec = Int32(n.count == 6 ? n[5] : 0)
        t.tm_isdst = -1
        let seconds = mktime(&t)
        return seconds == -1 ? nil : Int(seconds)
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
        var history = HistoryBook(layout: layout)
        tzset()
        let seconds = time.flatMap(Render.parseTime) ?? Int(ClockFormat.now() / 1000)
        if let state {
            if let refusal = StateFile.refusal(state) { throw DaemonError(refusal) }
            let saved = StateFile.load(state, texts: store.textNames)
            for (name, value) in saved.values { store.set(name, value) }
            for (name, text) in saved.texts where text.utf8.count <= GaugeStore.maxTextLength {
                store.setText(name, text)
            }
            history.restore(saved.histories, extremes: saved.extremes)
            _ = store.takeSamples()  // restored, not received now
        }
        for h in histories {
            let (name, values) = Render.parseHistory(h)!
            guard history.keeps(name) else {
                let kept = layout.sampledGauges.sorted()
                throw DaemonError(
                    "--history \(name): no chart, sparkline or peaks show a gauge named '\(name)' (charted: \(kept.isEmpty ? "none" : kept.joined(separator: ", ")))"
                )
            }
            history.record(name, spread: values, endingAt: Double(seconds))
        }
        for v in values {
            let (name, value) = Render.parseAssignment(v)!
            guard store.set(name, value) else {
                throw DaemonError(
                    "--set \(v): the layout has no gauge named '\(name)' (gauges: \(store.names.joined(separator: ", ")))"
                )
            }
        }
        for t in texts {
            let (name, text) = Render.parseText(t)!
            guard text.utf8.count <= GaugeStore.maxTextLength else {
                throw DaemonError("--text \(name): text longer than \(GaugeStore.maxTextLength) bytes")
            }
            guard store.setText(name, text) else {
                let known = store.textNames.sorted()
                throw DaemonError(
                    "--text \(t): the layout has no text widget named '\(name)' (text widgets: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
                )
            }
        }
        var pageIndex = 0
        if let page {
            guard let k = layout.pageNames.firstIndex(of: page) else {
                throw DaemonError("--page \(page): \(LineError.unknownPage(page, known: layout.pageNames))")
            }
            pageIndex = k
        }
        for sample in store.takeSamples() { history.record(sample.name, sample.value, at: Double(seconds)) }
        var shown = store.texts
        for g in layout.gauges {
            if let format = g.widget?.clockFormat { shown[g.name] = ClockFormat.text(format, at: seconds) }
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
        let renderer = LayoutScene(layout: layout, width: w, height: h, page: pageIndex, cachesStaticLayers: false)
        try output.present(damage: [IntRect(x: 0, y: 0, width: w, height: h)]) { surface, rects in
            renderer.draw(
                surface, rects: rects, values: store.values, stale: Set(stale), texts: shown,
                charts: history.frames(layout, page: pageIndex, at: Double(seconds)),
                peaks: history.peaks(layout, page: pageIndex, at: Double(seconds)))
        }
    }
}
