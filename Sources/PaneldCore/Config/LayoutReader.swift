import PanelDisplay
import Glibc
import PanelGauge

/// One mistake in a layout file: where (line and key path) and what.
struct LayoutIssue: Equatable, Sendable, CustomStringConvertible {
    /// 1-based line, when known.
    var line: Int?
    /// Key path such as `gauges[1].range`; empty for the document itself.
    var path: String
    var message: String

    var description: String {
        let at = line.map { "line \($0): " } ?? ""
        return path.isEmpty ? at + message : at + path + ": " + message
    }
}

/// Every mistake found in a layout file (the reader reports all, not just the first).
package struct LayoutError: Error, CustomStringConvertible {
    var file: String
    var issues: [LayoutIssue]
    package var description: String {
        issues.map { "\(file): \($0)" }.joined(separator: "\n")
    }
}

/// Turns layout JSON into a checked ``Layout``. Pure: bytes in, layout or issues out.
///
/// The format (each object's keys are ``LayoutKeys``, documented in `docs/layout.md`;
/// every key optional except `gauges` or `pages`; unknown keys are errors, so
/// typos never pass silently):
///
///     {
///       "display": "/dev/dri/card0", "connector": "HDMI-A-1", "mode": "800x480@60",
///       "format": "xrgb8888" | "rgb565", "rotation": 0 | 90 | 180 | 270,
///       "background": "#101010", "foreground": "#FFFFFF", "font": "/usr/share/fonts/.../DejaVuSans.ttf",
///       "default": "cpu", "statsd": "127.0.0.1:8125", "statsdSocket": "/run/paneld/statsd.sock",
///       "animation": 250, "staleAfter": 30, "staleOnRestore": true,
///       "grid": { "columns": 3, "rows": 2, "gap": 8, "margin": 8 }, "overlap": false,
///       "mqtt": { "broker": "mqtt://HOST[:PORT]" | "mqtts://HOST[:PORT]", "clientId": "panel-1",
///                 "username": "panel", "passwordFile": "/etc/paneld/mqtt-password" (its first line),
///                 "ca": "/etc/paneld/ca.pem", "certificate": "...", "key": "...", "keepalive": 60 },
///       "gauges": [
///         { "name": "cpu", "style": "accessoryCircular",
///           "rect": [x, y, width, height]  or  "cell": { "row": 0, "column": 1, "rowSpan": 1, "columnSpan": 2 },
///           "range": [0, 100], "label": "CPU", "units": "%", "format": {"kind": "number", "decimals": 1},
///           "tint": "#0A84FF"  or  "gradient": ["#34C759", "#FF3B30"],
///           "thresholds": [ { "above": 80, "color": "#FF3B30" } ],
///           "minimumLabel": "0", "maximumLabel": "100", "labelSize": 12, "segments": 10 (stepped only),
///           "title": "auto" | "top" | "bottom" | "none",
///           "metric": "host1.cpu" (another name that sets it: a statsd client's prefixed metric),
///           "interpolation": "oklab" (default) or "srgb" (how a gradient mixes its colours),
///           "mqtt": "TOPIC" (a plain-number payload) or { "topic": "zigbee2mqtt/kitchen",
///                   "field": "temperature" or "state.cpu.load" (JSON), "scale": 1, "offset": 0, "qos": 0 | 1 },
///           "staleAfter": 30 or null, "staleOnRestore": true | false, "noData": "offline",
///           dial only (PanelGauge's DialGaugeStyle; lengths and widths are fractions of the dial's radius):
///           "scale": { "start": 135, "sweep": 270 (degrees clockwise from 3 o'clock, -360 to 360, not 0),
///                      "majorTicks": 11 (2 to 101, both ends included; default: 5 to 13 at a round step
///                                    of the range, DialGaugeStyle.Ticks.roundCount, else 11) or { "count": 11, "length": 0.15,
///                                    "width": 0.025, "color": "#FFFFFF" },
///                      "minorTicks": 4 (0 to 20 between two major ticks) or { ...the same keys },
///                      "labels": "inside" | "outside" | "none" or { "placement": "inside",
///                                "format": "number" | "percent" | {"kind": ..., "decimals": N}, "color": "#FFFFFF" },
///                      "band": 0.05 (0 to 0.3) },
///           "sections": [ { "from": 0, "to": 60, "color": "#34C759" } ] (in the gauge's units; without
///                       them, the thresholds are the sections, from each "above" to the next),
///           "needle": { "length": 0.92 (of the ticks' radius), "width": 0.06, "tipWidth": 0.012, "tail": 0
///                       (of its length), "hub": 0.08, "color": "#FF3B30" (default: the tint, or the
///                       threshold's colour), "hubColor": "#FFFFFF" },
///           "valueArc": true | false | 0.035 (its width) },
///         { "name": "status", "kind": "text", "text": "Starting" (until the socket sets it; default ""),
///           "rect" or "cell" as a gauge's, "size": "title" (default) | "value",
///           "align": "center" (default) | "leading" | "trailing", "color": "#FFFFFF" (default: foreground) },
///         { "name": "time", "kind": "clock", "format": "%H:%M" (default; strftime, local time),
///           "rect" or "cell", "size": "value" (default) | "title", "align": ..., "color": ... }
///       ]
///       or, instead of "gauges", pages shown one at a time:
///       "pages": [ { "name": "system", "gauges": [ ... ], "grid": { ... } (default: the layout's) }, ... ],
///       "pageInterval": 10 (seconds each page is shown before the next, 1 to 86400; default: no rotation),
///       "pageIndicator": true (a row of dots along the bottom, one a page; default false)
///     }
///
/// `"kind"` is `"gauge"` (the default), `"text"` or `"clock"`. A text
/// widget's text is set on the socket by a line of its name and the text
/// (`status Pump 2 running`; at most 256 bytes; a number shows as sent; the
/// text is kept in the state file with the values); a clock shows the local
/// time in its `format` (strftime conversions; `%n` and `%t` are refused,
/// the text is one line) and changes each second when the format shows
/// seconds (`%S`, `%T`, `%r`, `%X`, `%c`, `%s`), else each minute. Widgets
/// take the keys listed for them only; their text is one line at the
/// title or value step of the type scale for their rectangle, at most the
/// step of the page's gauges, and ends in an ellipsis when wider.
///
/// With `"pages"`, each page's slots are placed on their own grid, and a
/// value reaches its gauge on any page: names are unique across pages. The
/// daemon shows the first page, then each in turn every `pageInterval`
/// seconds; `page NAME` on the socket shows one (the rotation goes on from it).
///
/// Styles are PanelGauge's: linearCapacity, accessoryLinear, accessoryLinearCapacity,
/// accessoryCircular, accessoryCircularCapacity, ring, stepped, dial (default ring);
/// `arc` and `bar` are accepted as aliases of accessoryCircular and linearCapacity.
/// A dial's keys on another style are errors. A dial's scale labels that would
/// overlap are thinned to every 2nd, 5th... major tick (a divisor of the
/// intervals, so both ends keep theirs), or left out when even the two ends
/// would overlap; either is a warning for the gauge's rectangle.
///
/// Where gauges go (``Layout/placement(screen:)``), on the screen as drawn
/// (after `rotation`): a `rect` is in pixels; a `cell` is a place in the
/// `grid`, 0-based from the top-left, spanning `rowSpan` rows and `columnSpan`
/// columns (default 1); a gauge with neither takes the next free cell in
/// reading order. The grid's keys are all optional: `columns` (default: as
/// far as the cells reach, or, when no gauge names a cell, the count whose
/// cells are closest to square), `rows` (default: as many as the gauges
/// need), `gap` between cells and `margin` around them (whole pixels,
/// default 0). All cells are of one size: the pixels the division leaves over
/// go to the margins. Without a `"grid"` key, gauges without a rect are
/// placed that way with no gap or margin, so a single gauge fills the screen.
/// Gauges must not overlap (a cell taken twice, rects that meet) unless
/// `"overlap": true`. A cell beyond `rows` or `columns`, more gauges than
/// free cells, or margins and gaps that leave a cell no pixel are errors that
/// name the gauge and say by how much; when the layout has no `mode`, the
/// last is checked once the screen is known (at start, on reload, by
/// `paneld render`).
///
/// Every style shows a gauge's `label`: where the style has a place for it
/// (linearCapacity and accessoryLinearCapacity above the bar, accessoryCircular
/// in its opening when it has no end labels) it goes there, otherwise it is the
/// gauge's title, a line centred across the top of its rectangle with the gauge
/// under it (`"title": "auto"`, the default). `"top"` or `"bottom"` always
/// shows it as a title on that side; `"none"` shows no title.
///
/// Text sizes follow each gauge's rectangle (PanelGauge's `TypeScale`): title,
/// end labels and the largest current value are steps of one ladder relative to
/// the rectangle; a current value is set at the largest step at which the widest
/// value of the range fits (gauges of one style and size take the widest values
/// of them all, see `matchValueSizes`). On the screen a page has one title and
/// one end-label size, and gauges in frames of one size one value size
/// (`LayoutScene.uniformText`). `labelSize` fixes the label and end-label size
/// in pixels instead (the current value is then sized from the gauge's geometry).
/// Text wider than its place ends in an ellipsis.
///
/// Stale values: `staleAfter` is how many seconds (0.1 to 604800, a week;
/// fractions allowed) a gauge's value stays current without an update from
/// any input (the socket, statsd, MQTT; the same value again counts); after
/// that the gauge is drawn stale: dimmed, its indicator in the foreground
/// colour, a dash for its value. `staleOnRestore: true` shows a value restored
/// from the state file as stale until the first update. Both are off by
/// default; given at the top level they are every gauge's default, and a
/// gauge's own key overrides it (`"staleAfter": null`: never stale). A
/// `reload` keeps each gauge's last update: a new `staleAfter` counts from it.
///
/// A key that changes nothing on the panel (an end label or a label the style
/// cannot show, units a percent format drops, `interpolation` of a single
/// colour, a gradient under thresholds, `title` without `label`) is a warning
/// with its line (``Layout/warnings``), logged when paneld reads the layout.
package enum LayoutReader {
    static let maxGauges = 256
    static let maxPages = 32
    /// Seconds a page may be shown before the next (`pageInterval`).
    static let pageIntervalLimits = 1.0...86_400.0
    static let maxFileSize = 1 << 20
    /// Seconds a `staleAfter` may be: shorter would dim a gauge between two
    /// readings of a fast feeder; longer than a week is "never" (null).
    static let staleAfterLimits = 0.1...604_800.0

    /// Gives gauges of one style and rectangle size one value size: each is
    /// sized by the widest values of them all (their ranges may differ, as
    /// 0...100 % and 20...90 °C do). Gauges on the type scale only; a
    /// `labelSize` gauge keeps its own.
    ///
    /// `frames` are the gauges' rectangles on the screen; without them (the
    /// screen size is not in the layout) gauges of one size are those with
    /// rects of one size, or grid cells of one span (cells are all of one size).
    ///
    /// A gauge whose widest value is much longer than its neighbours' (more
    /// than half as long again as the shortest's, and 3 characters more) does
    /// not size theirs: it shows its values smaller, at its own size, and is
    /// returned as a warning naming it.
    @discardableResult
    static func matchValueSizes(_ gauges: inout [LayoutGauge], frames: [IntRect] = []) -> [LayoutIssue] {
        func texts(_ g: Gauge) -> [String] {
            let own = g.configuration.sizingText
            // A ring without a format shows its percentage, sized by its default text.
            return own.isEmpty && g.style is RingGaugeStyle && g.valueFormat == nil
                ? [RingGaugeStyle.defaultSizingText] : own
        }
        var groups: [String: [Int]] = [:]
        for (i, g) in gauges.enumerated() where g.gauge.environment.typeScale != nil {
            let size: String
            if i < frames.count {
                size = "\(frames[i].width)x\(frames[i].height)"
            } else if let r = g.rect {
                size = "\(r.width)x\(r.height)"
            } else {
                size = g.cell.map { "cell \($0.rowSpan)x\($0.columnSpan)" } ?? "cell 1x1"
            }
            groups["\(type(of: g.gauge.style)) \(size)", default: []].append(i)
        }
        var warnings: [LayoutIssue] = []
        for members in groups.values.sorted(by: { $0[0] < $1[0] }) where members.count > 1 {
            func longest(_ i: Int) -> String { texts(gauges[i].gauge).max { $0.count < $1.count } ?? "" }
            let shortest = members.map { longest($0).count }.min() ?? 0
            let wide = members.filter {
                let n = longest($0).count
                return n > shortest + 3 && 2 * n > 3 * shortest
            }
            var all: [String] = []
            for i in members where !wide.contains(i) {
                for t in texts(gauges[i].gauge) where !all.contains(t) { all.append(t) }
            }
            for i in members {
                let own = texts(gauges[i].gauge)
                gauges[i].gauge.environment.valueSizingText = all.filter { !own.contains($0) }
            }
            for i in wide {
                let g = gauges[i]
                warnings.append(
                    LayoutIssue(
                        line: g.line, path: g.path ?? "gauges[\(i)]",
                        message:
                            "'\(g.name)' shows its values (up to '\(IssueText.clip(longest(i)))') smaller than its neighbours' of its size: they are too wide to share theirs (a format with \"prefixes\" or fewer decimals keeps them short)"
                    ))
            }
        }
        return warnings
    }

    package static func read(file path: String) throws -> Layout {
        let bytes: [UInt8]
        do {
            bytes = try readBounded(path, limit: maxFileSize)
        } catch {
            throw LayoutError(file: path, issues: [LayoutIssue(line: nil, path: "", message: "cannot read: \(error)")])
        }
        return try parse(bytes, file: path)
    }

    /// A font path must name a regular file this process may read (a FIFO or a
    /// device there would block or feed FreeType endless bytes). `stat` only: nothing is opened.
    static func isReadableRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && access(path, R_OK) == 0
    }

    /// Reads a regular file of at most `limit` bytes (so `/dev/zero` or a huge file
    /// is refused instead of exhausting memory).
    package static func readBounded(_ path: String, limit: Int) throws -> [UInt8] {
        let fd: Int32
        do { fd = try FileIO.openRegularFile(path) } catch let e as FileIO.Error {
            if e.code != 0 { throw Errno(code: e.code, call: "open") }
            throw DaemonError(e.description)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Errno.current("fstat") }
        guard st.st_size <= limit else { throw DaemonError("larger than \(limit) bytes") }
        var out = [UInt8](repeating: 0, count: Int(st.st_size) + 1)
        var used = 0
        while used < out.count {
            let n = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + used, $0.count - used) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw Errno.current("read") }
            if n == 0 { break }
            used += n
        }
        guard used <= limit else { throw DaemonError("larger than \(limit) bytes") }
        return Array(out[0..<used])
    }

    /// Parses layout JSON; `file` only labels the error.
    static func parse(
        _ bytes: [UInt8], file: String = "layout",
        fileReadable: @escaping (String) -> Bool = LayoutReader.isReadableRegularFile
    ) throws(LayoutError) -> Layout {
        guard bytes.count <= maxFileSize else {
            throw LayoutError(
                file: file,
                issues: [LayoutIssue(line: nil, path: "", message: "file is larger than \(maxFileSize) bytes")])
        }
        let root: JSONValue
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            throw LayoutError(
                file: file,
                issues: [
                    LayoutIssue(
                        line: error.line, path: "", message: "JSON syntax: column \(error.column): \(error.message)")
                ])
        }
        var c = Checker(fileReadable: fileReadable)
        if var layout = c.layout(root), c.issues.isEmpty {
            layout.warnings = c.warnings
            return layout
        }
        throw LayoutError(file: file, issues: c.issues)
    }
}

/// Walks the JSON tree, collecting issues with their key paths.
struct Checker {
    /// A kernel connector name: a type and an index joined by hyphens (`HDMI-A-1`, `DSI-1`, `Virtual-1`, `SPI-1`).
    static func isConnectorName(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 2, let last = parts.last, Int(last) != nil, parts[0].first?.isLetter == true else {
            return false
        }
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    var issues: [LayoutIssue] = []
    /// What a gauge's `"tap"` may use: the layout's broker, its `"tapCommand"` (set before the gauges are read).
    var tapTargets: (broker: Bool, command: Bool) = (false, false)
    /// Keys accepted that change nothing (see ``Layout/warnings``).
    var warnings: [LayoutIssue] = []
    /// Whether a file can be read (the one question the checker asks of the system).
    let fileReadable: (String) -> Bool

    mutating func fail(_ v: JSONValue?, _ path: String, _ message: String) {
        issues.append(LayoutIssue(line: v?.line, path: path, message: message))
    }

    mutating func warn(_ v: JSONValue?, _ path: String, _ message: String) {
        warnings.append(LayoutIssue(line: v?.line, path: path, message: message))
    }

    /// The object's members, after reporting any key not in `known`.
    mutating func members(_ v: JSONValue, _ path: String, known: [String]) -> [String: JSONValue]? {
        guard case .object(let m) = v.kind else {
            fail(v, path, "expected an object { ... }, found \(kindName(v))")
            return nil
        }
        var out: [String: JSONValue] = [:]
        for member in m {
            let (k, value) = (member.key, member.value)
            if known.contains(k) {
                out[k] = value
            } else {
                fail(value, join(path, k), "unknown key (expected one of: \(known.joined(separator: ", ")))")
            }
        }
        return out
    }

    /// What a value is, for messages: `a string ("90")`, `an array`, ...
    func kindName(_ v: JSONValue) -> String {
        switch v.kind {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let d): "the number \(GaugeStore.format(d))"
        case .string(let s): "a string (\"\(LineError.clip(s))\")"
        case .array: "an array"
        case .object: "an object"
        }
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    mutating func string(_ v: JSONValue?, _ path: String) -> String? {
        guard let v else { return nil }
        guard case .string(let s) = v.kind else {
            fail(v, path, "expected a string, found \(kindName(v))")
            return nil
        }
        return s
    }

    mutating func number(_ v: JSONValue?, _ path: String) -> Double? {
        guard let v else { return nil }
        guard case .number(let d) = v.kind else {
            fail(v, path, "expected a number, found \(kindName(v))")
            return nil
        }
        return d
    }

    mutating func bool(_ v: JSONValue?, _ path: String) -> Bool? {
        guard let v else { return nil }
        guard case .bool(let b) = v.kind else {
            fail(v, path, "expected true or false, found \(kindName(v))")
            return nil
        }
        return b
    }

    /// `staleAfter`: seconds within ``LayoutReader/staleAfterLimits``, or null
    /// (never). Nil when the key is absent or wrong; `.some(nil)` for null.
    mutating func staleAfter(_ v: JSONValue?, _ path: String) -> Int64?? {
        guard let v else { return nil }
        if case .null = v.kind { return .some(nil) }
        guard let seconds = number(v, path) else { return nil }
        guard seconds.isFinite, LayoutReader.staleAfterLimits.contains(seconds) else {
            let (lo, hi) = (LayoutReader.staleAfterLimits.lowerBound, LayoutReader.staleAfterLimits.upperBound)
            fail(
                v, path,
                "must be seconds from \(GaugeStore.format(lo)) to \(GaugeStore.format(hi)) (a week), or null for never")
            return nil
        }
        return .some(Int64((seconds * 1000).rounded()))
    }

    mutating func color(_ v: JSONValue?, _ path: String) -> Color? {
        guard let s = string(v, path) else { return nil }
        guard let c = Color(css: s) else {
            fail(v, path, "'\(s)' is not a colour (use #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name such as red)")
            return nil
        }
        return c
    }

    mutating func layout(_ root: JSONValue) -> Layout? {
        guard let m = members(root, "", known: LayoutKeys.topLevel) else { return nil }
        var layout = Layout(gauges: [])
        layout.display = string(m["display"], "display")
        layout.connector = string(m["connector"], "connector")
        if let d = layout.display, !d.hasPrefix("/") {
            // A connector's name, searched across the cards: the same as the `connector` key.
            if !Checker.isConnectorName(d) {
                fail(
                    m["display"], "display",
                    "expected an absolute path such as /dev/dri/by-path/platform-gpu-card or a connector name such as HDMI-A-1"
                )
            } else if let c = layout.connector, c.lowercased() != d.lowercased() {
                fail(m["display"], "display", "names connector \(d) but connector names \(c)")
            } else {
                layout.connector = d
                layout.display = nil
            }
        }
        if let s = string(m["mode"], "mode") {
            layout.mode = ModeRequest(parsing: s)
            if layout.mode == nil {
                fail(
                    m["mode"], "mode",
                    "'\(s)' is not a mode (use WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 800x480@60, \(ModeRequest.limits))"
                )
            }
        }
        if let s = string(m["format"], "format") {
            switch s.lowercased() {
            case "xrgb8888": layout.pixelFormat = .xrgb8888
            case "rgb565": layout.pixelFormat = .rgb565
            default: fail(m["format"], "format", "'\(s)' is not a pixel format (xrgb8888 or rgb565)")
            }
        }
        if let r = number(m["rotation"], "rotation") {
            if let rot = PanelRotation(rawValue: Int(exactly: r) ?? -1) {
                layout.rotation = rot
            } else {
                fail(m["rotation"], "rotation", "must be 0, 90, 180 or 270")
            }
        }
        if let c = color(m["background"], "background") { layout.background = c }
        if let c = color(m["foreground"], "foreground") { layout.foreground = c }
        layout.font = string(m["font"], "font")
        if let f = layout.font, !fileReadable(f) {
            fail(m["font"], "font", "cannot read the font file \(f) (it must be a readable regular file)")
        }
        var environment = GaugeEnvironment()
        environment.background = layout.background
        environment.foreground = layout.foreground
        if let f = layout.font { environment.font = FontDescriptor(path: f) }
        if let p = string(m["statsdSocket"], "statsdSocket") {
            if p.hasPrefix("/"), p.utf8.count <= UnixSocket.maxPathLength {
                layout.statsdSocket = p
            } else {
                fail(
                    m["statsdSocket"], "statsdSocket",
                    "'\(p)' is not an absolute socket path of at most \(UnixSocket.maxPathLength) bytes")
            }
        }
        if let s = string(m["statsd"], "statsd") {
            if StatsdAddress(s) == nil {
                fail(m["statsd"], "statsd", "'\(s)' is not an IPv4 address and port (e.g. 127.0.0.1:8125)")
            } else {
                layout.statsd = s
            }
        }

        if let a = number(m["animation"], "animation") {
            if let ms = Int(exactly: a), (0...5000).contains(ms) {
                layout.animation = ms
            } else {
                fail(m["animation"], "animation", "must be whole milliseconds from 0 to 5000")
            }
        }

        var staleness = Staleness.Rule()
        if let after = staleAfter(m["staleAfter"], "staleAfter") { staleness.after = after }
        if let b = bool(m["staleOnRestore"], "staleOnRestore") { staleness.onRestore = b }

        if let v = m["mqtt"] {
            let (settings, found) = MQTTSettings.read(v, path: "mqtt", fileReadable: fileReadable)
            layout.mqtt = settings
            issues += found
        }

        if let v = m["grid"] { layout.grid = grid(v, "grid") }
        if let v = m["overlap"] {
            if case .bool(let b) = v.kind {
                layout.allowsOverlap = b
            } else {
                fail(v, "overlap", "expected true or false")
            }
        }

        // The slots: one plain list, or each page's.
        var lists: [(items: [JSONValue], path: String, at: JSONValue)] = []
        if let p = m["pages"] {
            if m["gauges"] != nil { fail(m["gauges"], "gauges", "give either gauges or pages, not both") }
            guard case .array(let pageItems) = p.kind, !pageItems.isEmpty else {
                fail(p, "pages", "expected an array of pages [ { \"name\": \"system\", \"gauges\": [ ... ] } ]")
                return nil
            }
            if pageItems.count > LayoutReader.maxPages { fail(p, "pages", "at most \(LayoutReader.maxPages) pages") }
            layout.pages = []
            var pageNames: [String: Int] = [:]
            for (k, item) in pageItems.prefix(LayoutReader.maxPages).enumerated() {
                let path = "pages[\(k)]"
                guard let pm = members(item, path, known: LayoutKeys.page) else { continue }
                var page = LayoutPage(name: "?", line: item.line)
                if let n = string(pm["name"], path + ".name") {
                    if !GaugeName.isValid(n.utf8) {
                        fail(
                            pm["name"], path + ".name",
                            "'\(n)' is not a page name (the rules of a gauge name: letters, digits, '_', '-', '.')")
                    } else if let first = pageNames[n] {
                        fail(pm["name"], path + ".name", "duplicate page name '\(n)' (also pages[\(first)])")
                    }
                    pageNames[n] = k
                    page.name = n
                } else if pm["name"] == nil {
                    fail(item, path + ".name", "missing")
                }
                if let v = pm["grid"] { page.grid = grid(v, path + ".grid") }
                layout.pages.append(page)
                guard let g = pm["gauges"] else {
                    fail(item, path + ".gauges", "missing (a page needs at least one gauge or widget)")
                    continue
                }
                guard case .array(let items) = g.kind else {
                    fail(g, path + ".gauges", "expected an array of gauges [ { ... } ]")
                    continue
                }
                lists.append((items, path + ".gauges", g))
            }
        } else {
            guard let g = m["gauges"] else {
                fail(root, "gauges", "missing (a layout needs at least one gauge)")
                return nil
            }
            guard case .array(let items) = g.kind else {
                fail(g, "gauges", "expected an array of gauges [ { ... } ]")
                return nil
            }
            lists.append((items, "gauges", g))
        }
        if let v = m["pageInterval"] {
            if let s = number(v, "pageInterval", in: LayoutReader.pageIntervalLimits) {
                layout.pageInterval = Int64((s * 1000).rounded())
                if layout.pages.count < 2 {
                    warn(v, "pageInterval", "has no effect: the layout has one page")
                }
            }
        }
        if let v = m["pageIndicator"], let on = bool(v, "pageIndicator") {
            layout.pageIndicator = on
            if on && layout.pages.count < 2 { warn(v, "pageIndicator", "has no effect: the layout has one page") }
        }
        if let t = touch(m["touch"], "touch") { layout.touch = t }
        if let c = m["tapCommand"] { layout.tapCommand = tapCommand(c, "tapCommand") }
        tapTargets = (layout.mqtt != nil, layout.tapCommand != nil)
        if let l = light(m["light"], "light") { layout.light = l }
        var seen: [String: String] = [:]
        var metrics: [String: (String, JSONValue)] = [:]
        var total = 0
        // Per slot read, in layout order: its JSON and key path.
        var read: [(item: JSONValue, path: String)] = []
        for (p, list) in lists.enumerated() {
            if list.items.isEmpty { fail(list.at, list.path, "needs at least one gauge") }
            for (k, item) in list.items.enumerated() {
                total += 1
                if total > LayoutReader.maxGauges {
                    fail(list.at, list.path, "at most \(LayoutReader.maxGauges) gauges in all")
                    break
                }
                let path = "\(list.path)[\(k)]"
                guard
                    var spec = slot(
                        item, path, screen: layout.logicalSize, environment: environment, staleness: staleness)
                else { continue }
                if let first = seen[spec.name] {
                    fail(item, path + ".name", "duplicate name '\(spec.name)' (also \(first))")
                }
                seen[spec.name] = path
                if let a = spec.metric {
                    if let (first, _) = metrics[a] {
                        fail(item, path + ".metric", "'\(a)' is already the metric of \(first)")
                    }
                    metrics[a] = (path, item)
                }
                spec.page = m["pages"] != nil ? p : 0
                if m["pages"] != nil { spec.path = path }
                layout.gauges.append(spec)
                read.append((item, path))
            }
        }
        resolveCharts(&layout, read: read)
        var frames: [IntRect] = []
        if issues.isEmpty {
            let placed = layout.placement(screen: layout.logicalSize)
            issues += placed.issues
            frames = placed.frames
        }
        warnings += LayoutReader.matchValueSizes(&layout.gauges, frames: frames)
        // A dial's scale labels are thinned at the size it is drawn: its rect,
        // or its grid cell once the placement is known.
        if issues.isEmpty {
            for (k, spec) in layout.gauges.enumerated() {
                var at = read[k].item, label: JSONValue? = nil, marks: JSONValue? = nil
                if case .object(let members) = at.kind {
                    label = members.first(where: { $0.key == "label" })?.value
                    marks = members.first(where: { $0.key == "markedLabels" })?.value
                    if let scale = members.first(where: { $0.key == "scale" }) { at = scale.value }
                }
                let cell = k < frames.count ? frames[k] : spec.rect
                if spec.gauge.style is DialGaugeStyle {
                    warnDialTexts(spec.gauge, at: at, label: label, marks: marks, read[k].path, cell: cell)
                } else {
                    warnLinearScale(spec.gauge, at: at, marks: marks, read[k].path, cell: cell)
                }
            }
        }
        if layout.grid != nil, layout.gauges.allSatisfy({ $0.rect != nil }) {
            warn(m["grid"], "grid", "has no effect: every gauge has a \"rect\"")
        }
        // A metric must not shadow a gauge's own name (that gauge would be unreachable by it).
        for (a, (at, item)) in metrics.sorted(by: { $0.value.0 < $1.value.0 }) where seen[a] != nil {
            fail(item, at + ".metric", "'\(a)' is the name of \(seen[a]!)")
        }
        if let first = layout.gauges.first(where: { $0.mqtt != nil }), m["mqtt"] == nil {
            fail(root, "mqtt", "missing: gauge '\(first.name)' has an MQTT topic but no broker is given")
        } else if layout.mqtt != nil, issues.isEmpty,
            layout.gauges.allSatisfy({
                if case .publish = $0.tap { return false }
                return $0.mqtt == nil
            })
        {
            fail(m["mqtt"], "mqtt", "no gauge has an \"mqtt\" topic or publishes on a tap")
        }
        if let d = string(m["default"], "default") {
            if seen[d] == nil {
                fail(m["default"], "default", "no gauge is named '\(d)'")
            } else if layout.gauges.contains(where: { $0.name == d && $0.widget != nil }) {
                fail(m["default"], "default", "'\(d)' is a widget, not a gauge")
            }
            layout.defaultGauge = d
        } else {
            layout.defaultGauge = layout.gauges.first { $0.widget == nil }?.name
        }
        return layout
    }

    /// A gauge slot: its gauge keys are PanelGauge's gauge dialect, read by
    /// `GaugeDescription`; the layout keys (``LayoutKeys/gaugeLayoutOnly``) are read here.
    mutating func gauge(
        _ v: JSONValue, _ path: String, screen: (width: Int, height: Int)?, environment: GaugeEnvironment,
        staleness defaults: Staleness.Rule
    )
        -> LayoutGauge?
    {
        var description: GaugeDescription? = nil
        do {
            let d = try GaugeDescription(json: v, path: path, alsoAccepted: LayoutKeys.gaugeLayoutOnly)
            warnings += d.warnings.map(LayoutIssue.init)
            description = d
        } catch {
            issues += error.issues.map(LayoutIssue.init)
        }
        guard case .object(let list) = v.kind else { return nil }
        var m: [String: JSONValue] = [:]
        for member in list where LayoutKeys.gaugeLayoutOnly.contains(member.key) { m[member.key] = member.value }
        let before = issues.count
        let name = slotName(v, m, path)
        var metric: String? = nil
        if let a = string(m["metric"], path + ".metric") {
            if GaugeName.isValid(a.utf8) && !GaugeName.reserved.contains(a) {
                metric = a
            } else {
                fail(m["metric"], path + ".metric", "'\(a)' is not a metric name (the rules of a gauge name)")
            }
        }
        var staleness = defaults
        if let after = staleAfter(m["staleAfter"], path + ".staleAfter") { staleness.after = after }
        if let b = bool(m["staleOnRestore"], path + ".staleOnRestore") { staleness.onRestore = b }
        var mqtt: MQTTSubscription? = nil
        if let v = m["mqtt"] {
            let found: [LayoutIssue]
            (mqtt, found) = MQTTSubscription.read(v, path: path + ".mqtt")
            issues += found
        }
        var noData = Gauge.defaultNoValueText
        if let t = string(m["noData"], path + ".noData") {
            if t.isEmpty || t.utf8.count > 64
                || t.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            {
                fail(m["noData"], path + ".noData", "expected one line of 1 to 64 bytes")
            } else {
                noData = t
            }
        }
        let (rect, cell) = place(m, path, screen: screen)
        guard issues.count == before, let description else { return nil }
        do {
            let g = try description.makeGauge(environment: environment)
            let range = try ValueRange(g.range.lowerBound, g.range.upperBound)
            var slot = LayoutGauge(
                name: name, rect: rect, range: range, gauge: g, metric: metric, mqtt: mqtt, staleness: staleness,
                cell: cell, line: v.line, rectLine: m["rect"]?.line)
            slot.noDataText = noData
            slot.sparkline = sparkline(m["sparkline"], path + ".sparkline", gauge: g)
            slot.peaks = peaks(m["peaks"], path + ".peaks")
            slot.tap = tap(m["tap"], path + ".tap")
            switch slot.tap {
            case .publish? where !tapTargets.broker:
                fail(m["tap"], path + ".tap.publish", "needs the layout's \"mqtt\" broker")
            case .line? where !tapTargets.command:
                fail(m["tap"], path + ".tap.line", "needs the layout's \"tapCommand\" (the program the line goes to)")
            default: break
            }
            return slot
        } catch {
            fail(v, path, "\(error)")
            return nil
        }
    }

    /// A slot's `name`: reported when missing or not a gauge name; "?" then.
    mutating func slotName(_ v: JSONValue, _ m: [String: JSONValue], _ path: String) -> String {
        guard let n = string(m["name"], path + ".name") else {
            if m["name"] == nil { fail(v, path + ".name", "missing") }
            return "?"
        }
        if !GaugeName.isValid(n.utf8) || GaugeName.reserved.contains(n) {
            let words = GaugeName.reserved.sorted().map { "'\($0)'" }.joined(separator: ", ")
            fail(
                m["name"], path + ".name",
                "'\(n)' is not a gauge name (start with a letter or '_', then letters, digits, '_', '-', '.'; at most \(GaugeName.maxLength); not \(words))"
            )
        }
        return n
    }

    /// A slot's `rect` or `cell` (neither: the next free cell).
    mutating func place(_ m: [String: JSONValue], _ path: String, screen: (width: Int, height: Int)?) -> (
        IntRect?, GridCell?
    ) {
        var rect: IntRect? = nil
        if let r = m["rect"] {
            if case .array(let a) = r.kind, a.count == 4, let n = intArray(a), n[2] > 0, n[3] > 0 {
                rect = IntRect(x: n[0], y: n[1], width: n[2], height: n[3])
                if let s = screen, !IntRect(x: 0, y: 0, width: s.width, height: s.height).contains(rect!) {
                    fail(r, path + ".rect", "\(n) does not fit on the \(s.width)x\(s.height) screen")
                }
            } else {
                fail(r, path + ".rect", "expected [x, y, width, height] in whole pixels, width and height > 0")
            }
        }
        var cell: GridCell? = nil
        if let c = m["cell"] {
            cell = gridCell(c, path + ".cell")
            if m["rect"] != nil { fail(c, path + ".cell", "give either rect or cell, not both") }
        }
        return (rect, cell)
    }

    /// A text widget or a clock (`"kind": "text"` or `"clock"`; see ``LayoutWidget``).
    mutating func widget(
        _ v: JSONValue, _ path: String, kind: String, screen: (width: Int, height: Int)?,
        environment: GaugeEnvironment
    ) -> LayoutGauge? {
        guard let m = members(v, path, known: kind == "text" ? LayoutKeys.textWidget : LayoutKeys.clock)
        else { return nil }
        let before = issues.count
        let name = slotName(v, m, path)
        let (rect, cell) = place(m, path, screen: screen)
        var widget: LayoutWidget
        if kind == "text" {
            let text = string(m["text"], path + ".text") ?? ""
            if text.utf8.count > GaugeStore.maxTextLength {
                fail(m["text"], path + ".text", "longer than \(GaugeStore.maxTextLength) bytes")
            } else if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                fail(m["text"], path + ".text", "must be one line without control characters")
            }
            widget = LayoutWidget(kind: .text(initial: text))
        } else {
            let format = string(m["format"], path + ".format") ?? LayoutWidget.defaultClockFormat
            if let problem = ClockFormat.problem(format) { fail(m["format"], path + ".format", problem) }
            widget = LayoutWidget(kind: .clock(format: format))
            widget.size = .value
        }
        if let s = string(m["size"], path + ".size") {
            if let size = LayoutWidget.Step(rawValue: s) {
                widget.size = size
            } else {
                fail(m["size"], path + ".size", "'\(s)' is not 'title' or 'value' (a step of the panel's type scale)")
            }
        }
        if let a = string(m["align"], path + ".align") {
            switch a {
            case "leading": widget.alignment = .leading
            case "center": widget.alignment = .center
            case "trailing": widget.alignment = .trailing
            default: fail(m["align"], path + ".align", "'\(a)' is not 'leading', 'center' or 'trailing'")
            }
        }
        widget.color = color(m["color"], path + ".color")
        var mqtt: MQTTSubscription? = nil
        if kind == "text", let v = m["mqtt"] {
            let found: [LayoutIssue]
            (mqtt, found) = MQTTSubscription.read(v, path: path + ".mqtt")
            mqtt?.isText = true
            issues += found
        }
        guard issues.count == before else { return nil }
        var g = try! Gauge(value: 0, in: 0...1)
        g.environment = environment
        return LayoutGauge(
            name: name, rect: rect, range: try! ValueRange(0, 1), gauge: g, mqtt: mqtt, cell: cell, line: v.line,
            rectLine: m["rect"]?.line, widget: widget)
    }

    /// A gauge or a widget, by its `kind` (default `"gauge"`).
    mutating func slot(
        _ v: JSONValue, _ path: String, screen: (width: Int, height: Int)?, environment: GaugeEnvironment,
        staleness: Staleness.Rule
    ) -> LayoutGauge? {
        var kind = "gauge"
        if case .object(let m) = v.kind, let k = m.first(where: { $0.key == "kind" })?.value {
            guard let s = string(k, path + ".kind") else { return nil }
            guard ["gauge", "text", "clock", "chart"].contains(s) else {
                fail(k, path + ".kind", "'\(s)' is not 'gauge', 'text', 'clock' or 'chart'")
                return nil
            }
            kind = s
        }
        if kind == "chart" { return chartWidget(v, path, screen: screen, environment: environment) }
        if kind != "gauge" { return widget(v, path, kind: kind, screen: screen, environment: environment) }
        return gauge(v, path, screen: screen, environment: environment, staleness: staleness)
    }

    /// A number at `path` in `range`, or nil (with an issue when it is out of it).
    mutating func number(_ v: JSONValue?, _ path: String, in range: ClosedRange<Double>) -> Double? {
        guard let d = number(v, path) else { return nil }
        guard range.contains(d) else {
            fail(
                v, path, "must be from \(GaugeStore.format(range.lowerBound)) to \(GaugeStore.format(range.upperBound))"
            )
            return nil
        }
        return d
    }

    /// Warns when a dial leaves out its label, or thins or leaves out its
    /// scale labels, in `cell` (its rectangle on the screen; nothing to say
    /// when it is not known).
    mutating func warnDialTexts(
        _ g: Gauge, at v: JSONValue, label: JSONValue?, marks: JSONValue?, _ path: String, cell: IntRect?
    ) {
        guard let cell, let l = g.dialLayout(in: Rect(cell)) else { return }
        let size = "\(cell.width)x\(cell.height)"
        if let marks, l.showsMarks {
            warnMarksLeftOut(l.marksLeftOut, shown: l.labels.count, at: marks, path, on: "a \(size) dial")
            return
        }
        // The label was given to the dial (no title line took it) and found no place in it.
        if let text = g.configuration.label?.text, l.titleBox == nil, !g.showsTitle(in: Rect(cell)) {
            warn(
                label, path + ".label",
                "'\(IssueText.clip(text))' does not fit a \(size) dial: not shown (\"title\": \"auto\" or \"top\" shows it above the dial)"
            )
        }
        guard l.majorCount >= 2 else { return }
        if l.labelStep == 0 {
            warn(
                v, path + ".scale",
                "scale labels do not fit a \(size) dial: none shown (fewer major ticks or labels \"outside\" may fit)")
        } else if l.labelStep > 1 {
            let nth = l.labelStep == 2 ? "2nd" : l.labelStep == 3 ? "3rd" : "\(l.labelStep)th"
            warn(
                v, path + ".scale", "scale labels would overlap on a \(size) dial: every \(nth) major tick is labelled")
        }
    }

    /// Warns when a linear gauge's scale thins or leaves out its numbers or
    /// marked values in `cell`, or has no room at all.
    mutating func warnLinearScale(_ g: Gauge, at v: JSONValue, marks: JSONValue?, _ path: String, cell: IntRect?) {
        guard let cell, let l = g.linearLayout(in: Rect(cell)) else { return }
        let size = "\(cell.width)x\(cell.height)"
        let scaled = (g.style as? any LinearScaled)?.scale != nil
        // (Beside a vertical bar the scale's numbers need width, under a horizontal one height.)
        let (place, room) = l.axis == .vertical ? ("beside", "wider") : ("under", "taller")
        guard let s = l.scale else {
            if scaled || !g.markedValueLabels.isEmpty {
                warn(
                    scaled ? v : marks ?? v, path + (scaled ? ".scale" : ".markedLabels"),
                    "no room for the scale \(place) a \(size) bar: not shown (a \(room) rect or cell has room)")
            }
            return
        }
        if let marks, s.showsMarks {
            warnMarksLeftOut(s.marksLeftOut, shown: s.labels.count, at: marks, path, on: "a \(size) bar")
        } else if s.majorCount >= 2, s.labelStep == 0 {
            warn(
                v, path + ".scale",
                "scale numbers do not fit a \(size) bar: none shown (fewer major ticks, or a \(room) rect or cell, may fit)"
            )
        } else if s.labelStep > 1 {
            let nth = s.labelStep == 2 ? "2nd" : s.labelStep == 3 ? "3rd" : "\(s.labelStep)th"
            warn(
                v, path + ".scale", "scale numbers would overlap on a \(size) bar: every \(nth) major tick is numbered")
        }
    }

    /// Warns when `count` marked values are not shown (`shown` are).
    mutating func warnMarksLeftOut(_ count: Int, shown: Int, at v: JSONValue, _ path: String, on what: String) {
        guard count > 0 else { return }
        guard shown > 0 else {
            return warn(v, path + ".markedLabels", "marked values do not fit \(what): none shown")
        }
        let them = count == 1 ? "1 marked value is" : "\(count) marked values are"
        warn(v, path + ".markedLabels", "\(them) not shown on \(what): too close to a neighbour")
    }

    /// A whole number in `range`, or nil after reporting why not.
    mutating func wholeNumber(_ v: JSONValue?, _ path: String, in range: ClosedRange<Int>) -> Int? {
        guard let d = number(v, path) else { return nil }
        guard let k = Int(exactly: d), range.contains(k) else {
            fail(v, path, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return k
    }

    /// `{"columns": 3, "rows": 2, "gap": 8, "margin": 8}`, every key optional.
    mutating func grid(_ v: JSONValue, _ path: String) -> LayoutGrid? {
        guard let m = members(v, path, known: LayoutKeys.grid) else { return nil }
        var grid = LayoutGrid(line: v.line)
        grid.columns = wholeNumber(m["columns"], path + ".columns", in: 1...LayoutGrid.maxCells)
        grid.rows = wholeNumber(m["rows"], path + ".rows", in: 1...LayoutGrid.maxCells)
        grid.gap = wholeNumber(m["gap"], path + ".gap", in: 0...LayoutGrid.maxPixels) ?? 0
        grid.margin = wholeNumber(m["margin"], path + ".margin", in: 0...LayoutGrid.maxPixels) ?? 0
        return grid
    }

    /// `{"row": 0, "column": 1, "rowSpan": 1, "columnSpan": 2}`; the spans default to 1.
    mutating func gridCell(_ v: JSONValue, _ path: String) -> GridCell? {
        guard let m = members(v, path, known: LayoutKeys.cell) else { return nil }
        let before = issues.count
        let row = wholeNumber(m["row"], path + ".row", in: 0...LayoutGrid.maxCells - 1)
        let column = wholeNumber(m["column"], path + ".column", in: 0...LayoutGrid.maxCells - 1)
        if m["row"] == nil { fail(v, path + ".row", "missing") }
        if m["column"] == nil { fail(v, path + ".column", "missing") }
        let rowSpan = wholeNumber(m["rowSpan"], path + ".rowSpan", in: 1...LayoutGrid.maxCells) ?? 1
        let columnSpan = wholeNumber(m["columnSpan"], path + ".columnSpan", in: 1...LayoutGrid.maxCells) ?? 1
        guard issues.count == before, let row, let column else { return nil }
        return GridCell(row: row, column: column, rowSpan: rowSpan, columnSpan: columnSpan, line: v.line)
    }

    func intArray(_ a: [JSONValue]) -> [Int]? {
        var out: [Int] = []
        for v in a {
            guard case .number(let d) = v.kind, let i = Int(exactly: d), i.magnitude <= 1 << 20 else { return nil }
            out.append(i)
        }
        return out
    }
}

/// `A.B.C.D:PORT` for the optional statsd UDP listener.
package struct StatsdAddress: Equatable, Sendable {
    var octets: [UInt8]
    var port: UInt16

    package init?(_ text: String) {
        let hp = text.split(separator: ":", omittingEmptySubsequences: false)
        guard hp.count == 2, let port = UInt16(hp[1]), port > 0 else { return nil }
        let parts = hp[0].split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var o: [UInt8] = []
        for p in parts {
            guard p.count <= 3, let b = UInt8(p) else { return nil }
            o.append(b)
        }
        self.octets = o
        self.port = port
    }
}

extension LayoutIssue {
    /// An issue of a gauge's gauge keys, as the layout reports it.
    init(_ issue: GaugeDescriptionIssue) {
        self.init(line: issue.line, path: issue.path, message: issue.message)
    }
}
