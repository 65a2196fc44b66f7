/// Names of the built-in styles, as a gauge object spells them (`"style"`).
public enum GaugeStyleName: String, Sendable, CaseIterable, Codable {
    /// ``LinearCapacityGaugeStyle``.
    case linearCapacity
    /// ``AccessoryLinearGaugeStyle``.
    case accessoryLinear
    /// ``AccessoryLinearCapacityGaugeStyle``.
    case accessoryLinearCapacity
    /// ``AccessoryCircularGaugeStyle``.
    case accessoryCircular
    /// ``AccessoryCircularCapacityGaugeStyle``.
    case accessoryCircularCapacity
    /// ``RingGaugeStyle``.
    case ring
    /// ``SteppedGaugeStyle``, with the description's `segments`.
    case stepped
    /// ``DialGaugeStyle``.
    case dial

    /// The style; `segments` is used by `.stepped` only.
    public func style(segments: Int = 10) -> any GaugeStyle {
        switch self {
        case .linearCapacity: LinearCapacityGaugeStyle()
        case .accessoryLinear: AccessoryLinearGaugeStyle()
        case .accessoryLinearCapacity: AccessoryLinearCapacityGaugeStyle()
        case .accessoryCircular: AccessoryCircularGaugeStyle()
        case .accessoryCircularCapacity: AccessoryCircularCapacityGaugeStyle()
        case .ring: RingGaugeStyle()
        case .stepped: SteppedGaugeStyle(segments: segments)
        case .dial: DialGaugeStyle()
        }
    }
}

/// One gauge as a JSON gauge object describes it: the gauge dialect that
/// paneld's layout file uses for each of its gauges, read by one reader.
///
/// ```json
/// { "style": "accessoryCircular", "range": [0, 100], "label": "CPU", "units": "%",
///   "minimumLabel": "0", "maximumLabel": "100", "tint": "#34C759",
///   "thresholds": [{ "above": 60, "color": "#FF9500" }, { "above": 85, "color": "#FF3B30" }] }
/// ```
///
/// Every key is optional (a ring over 0...100 by default); the keys are
/// ``Keys/gauge`` and the article <doc:LayoutFile> describes each. Unknown keys and
/// bad values are errors, all of them reported at once with their key paths.
/// Decode one with `JSONDecoder`, or build a ``GaugeJSON`` from another
/// parser's tree and use ``init(json:path:alsoAccepted:)``; then
/// ``makeGauge(value:environment:)`` gives the gauge.
public struct GaugeDescription: Sendable, Decodable {
    /// The keys of a gauge object, each of the objects in it, and the styles' aliases.
    public enum Keys {
        /// A gauge object's keys.
        public static let gauge = [
            "style", "range", "label", "units", "tint", "gradient", "interpolation", "thresholds", "format",
            "segments", "minimumLabel", "maximumLabel", "labelSize", "title", "scale", "sections", "needle",
            "valueArc", "markedLabels", "orientation",
        ]
        /// The gauge keys only a dial accepts (on another style they are errors).
        public static let dialOnly = ["needle", "valueArc"]
        /// The gauge keys only the linear styles accept (on another style they are errors).
        public static let linearOnly = ["orientation"]
        /// The gauge keys of a scale, which a dial and the linear styles accept
        /// (on another style they are errors).
        public static let scaled = ["scale", "sections"]
        /// One of a gauge's `"markedLabels"`.
        public static let markedLabel = ["value", "label"]
        /// A value format given as an object (a gauge's `"format"`, a dial's scale labels' `"format"`).
        public static let format = ["kind", "decimals", "prefixes", "mappings"]
        /// A value mapping of a format's `"mappings"`.
        public static let mapping = ["value", "text"]
        /// One of a gauge's `"thresholds"`.
        public static let threshold = ["above", "color"]
        /// A dial's or a linear gauge's `"scale"` (a linear scale has no `start` or `sweep`).
        public static let scale = ["start", "sweep", "majorTicks", "minorTicks", "labels", "band"]
        /// A dial's `"majorTicks"` or `"minorTicks"` given as an object.
        public static let ticks = ["count", "length", "width", "color"]
        /// A dial's scale `"labels"` given as an object.
        public static let scaleLabels = ["placement", "format", "color"]
        /// One of a dial's `"sections"`.
        public static let section = ["from", "to", "color"]
        /// A dial's `"needle"`.
        public static let needle = ["length", "width", "tipWidth", "tail", "hub", "color", "hubColor"]
        /// Short names kept from the first layout format: `arc` is the open
        /// speedometer arc, `bar` the horizontal capacity bar.
        public static let styleAliases: [String: GaugeStyleName] = ["arc": .accessoryCircular, "bar": .linearCapacity]
    }

    /// The style's name (`style`; an alias is read as the style it names); `ring` when absent.
    public var style: GaugeStyleName
    /// The gauge as described, its value at the lower end of its range and its
    /// environment the default one with the description's text sizes.
    public var gauge: Gauge
    /// The fixed pixel size of the labels (`labelSize`); nil when text sizes follow the gauge's rectangle.
    public var labelSize: Double?
    /// The keys that change nothing on the gauge (an end label the style
    /// does not show, `interpolation` of a single colour, ...), as issues.
    public var warnings: [GaugeDescriptionIssue]

    /// Reads a gauge object.
    ///
    /// - Parameters:
    ///   - json: The gauge object.
    ///   - path: The object's key path, the start of each issue's path (`gauges[0]`); empty by default.
    ///   - alsoAccepted: Keys the caller reads itself (a layout's `name`, `rect`, ...), accepted
    ///     and left alone; any other key that is not a gauge key is an error.
    /// - Throws: ``GaugeDescriptionError`` with every mistake: an unknown key, a value of the
    ///   wrong type or out of its range, an unknown style, a dial's key on another style, ...
    public init(json: GaugeJSON, path: String = "", alsoAccepted: [String] = []) throws(GaugeDescriptionError) {
        var reader = GaugeReader()
        let read = reader.description(json, path, alsoAccepted: alsoAccepted)
        guard let read, reader.issues.isEmpty else { throw GaugeDescriptionError(issues: reader.issues) }
        self = read
        warnings = reader.warnings
    }

    /// Decodes a gauge object, as ``init(json:path:alsoAccepted:)`` reads it.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` listing every mistake, its underlying error a
    ///   ``GaugeDescriptionError``.
    public init(from decoder: any Decoder) throws {
        let json = try GaugeJSON(from: decoder)
        do {
            try self.init(json: json)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    fileprivate init(style: GaugeStyleName, gauge: Gauge, labelSize: Double?) {
        self.style = style
        self.gauge = gauge
        self.labelSize = labelSize
        warnings = []
    }

    /// The gauge this describes, with a value and an environment.
    ///
    /// Without `labelSize` its text sizes follow its rectangle (a ``TypeScale``
    /// in its environment, unless `environment` has one).
    ///
    /// - Parameters:
    ///   - value: The value, in the range's units; the lower end of the range when nil.
    ///   - environment: Colours and font (a layout's `background`, `foreground`, `font`).
    /// - Throws: ``GaugeError`` for a value that is not finite.
    public func makeGauge(value: Double? = nil, environment: GaugeEnvironment = GaugeEnvironment()) throws -> Gauge {
        var g = try value.map(gauge.withValue) ?? gauge
        g.environment = environment
        if let labelSize {
            g.environment.labelSize = labelSize
        } else if g.environment.typeScale == nil {
            g.environment.typeScale = TypeScale()
        }
        return g
    }
}

/// Reads gauge objects, collecting issues and warnings with their key paths.
private struct GaugeReader {
    var issues: [GaugeDescriptionIssue] = []
    var warnings: [GaugeDescriptionIssue] = []

    mutating func fail(_ v: GaugeJSON?, _ path: String, _ message: String) {
        issues.append(GaugeDescriptionIssue(line: v?.line, path: path, message: message))
    }

    mutating func warn(_ v: GaugeJSON?, _ path: String, _ message: String) {
        warnings.append(GaugeDescriptionIssue(line: v?.line, path: path, message: message))
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// The object's members, after reporting any key not in `known`.
    mutating func members(_ v: GaugeJSON, _ path: String, known: [String]) -> [String: GaugeJSON]? {
        guard case .object(let m) = v.kind else {
            fail(v, path, "expected an object { ... }, found \(kindName(v))")
            return nil
        }
        var out: [String: GaugeJSON] = [:]
        for member in m {
            if known.contains(member.key) {
                out[member.key] = member.value
            } else {
                fail(
                    member.value, join(path, member.key),
                    "unknown key (expected one of: \(known.joined(separator: ", ")))")
            }
        }
        return out
    }

    /// What a value is, for messages: `a string ("90")`, `an array`, ...
    func kindName(_ v: GaugeJSON) -> String {
        switch v.kind {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let d): "the number \(IssueText.number(d))"
        case .string(let s): "a string (\"\(IssueText.clip(s))\")"
        case .array: "an array"
        case .object: "an object"
        }
    }

    mutating func string(_ v: GaugeJSON?, _ path: String) -> String? {
        guard let v else { return nil }
        guard case .string(let s) = v.kind else {
            fail(v, path, "expected a string, found \(kindName(v))")
            return nil
        }
        return s
    }

    mutating func number(_ v: GaugeJSON?, _ path: String) -> Double? {
        guard let v else { return nil }
        guard case .number(let d) = v.kind else {
            fail(v, path, "expected a number, found \(kindName(v))")
            return nil
        }
        return d
    }

    /// A number at `path` in `range`, or nil (with an issue when it is out of it).
    mutating func number(_ v: GaugeJSON?, _ path: String, in range: ClosedRange<Double>) -> Double? {
        guard let d = number(v, path) else { return nil }
        guard range.contains(d) else {
            fail(
                v, path,
                "must be from \(IssueText.number(range.lowerBound)) to \(IssueText.number(range.upperBound))")
            return nil
        }
        return d
    }

    /// A whole number at `path` in `range`.
    mutating func count(_ v: GaugeJSON?, _ path: String, in range: ClosedRange<Int>) -> Int? {
        guard let d = number(v, path) else { return nil }
        guard let k = Int(exactly: d), range.contains(k) else {
            fail(v, path, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return k
    }

    mutating func color(_ v: GaugeJSON?, _ path: String) -> Color? {
        guard let s = string(v, path) else { return nil }
        guard let c = Color(css: s) else {
            fail(v, path, "'\(s)' is not a colour (use #RGB, #RRGGBB, #RRGGBBAA or a CSS colour name such as red)")
            return nil
        }
        return c
    }

    /// A gauge object's gauge keys; `alsoAccepted` are the caller's.
    mutating func description(_ v: GaugeJSON, _ path: String, alsoAccepted: [String]) -> GaugeDescription? {
        let known = alsoAccepted + GaugeDescription.Keys.gauge.filter { !alsoAccepted.contains($0) }
        guard let m = members(v, path, known: known) else { return nil }
        let before = issues.count
        var style = GaugeStyleName.ring
        if let s = string(m["style"], join(path, "style")) {
            if let st = GaugeStyleName(rawValue: s) ?? GaugeDescription.Keys.styleAliases[s] {
                style = st
            } else {
                let names =
                    GaugeStyleName.allCases.map(\.rawValue) + GaugeDescription.Keys.styleAliases.keys.sorted()
                fail(
                    m["style"], join(path, "style"), "unknown style '\(s)' (one of: \(names.joined(separator: ", ")))")
            }
        }
        var segments = 10
        if let n = number(m["segments"], join(path, "segments")) {
            if let k = Int(exactly: n), (1...100).contains(k) {
                segments = k
            } else {
                fail(m["segments"], join(path, "segments"), "must be a whole number from 1 to 100")
            }
            if style != .stepped { fail(m["segments"], join(path, "segments"), "only a 'stepped' gauge has segments") }
        }
        var dial = DialGaugeStyle()
        for key in GaugeDescription.Keys.dialOnly where m[key] != nil && style != .dial {
            fail(m[key], join(path, key), "only a 'dial' gauge has \(key)")
        }
        let linear = [.linearCapacity, .accessoryLinear, .accessoryLinearCapacity].contains(style)
        for key in GaugeDescription.Keys.scaled where m[key] != nil && style != .dial && !linear {
            fail(
                m[key], join(path, key),
                "only a 'dial' or a linear gauge (linearCapacity, accessoryLinear, accessoryLinearCapacity) has \(key == "scale" ? "a scale" : key)"
            )
        }
        var range: ClosedRange<Double> = 0...100
        if let r = m["range"] {
            if case .array(let a) = r.kind, a.count == 2, case .number(let lo) = a[0].kind,
                case .number(let hi) = a[1].kind
            {
                if lo.isFinite, hi.isFinite, lo < hi {
                    range = lo...hi
                } else {
                    fail(r, join(path, "range"), "needs min < max")
                }
            } else {
                fail(r, join(path, "range"), "expected [min, max]")
            }
        }
        if style == .dial {
            // Round numbers on the scale unless the object gives a count.
            dial.majorTicks.count = DialGaugeStyle.Ticks.roundCount(for: range) ?? dial.majorTicks.count
            dialOptions(m, path, into: &dial)
        }
        for key in GaugeDescription.Keys.linearOnly where m[key] != nil && !linear {
            fail(
                m[key], join(path, key),
                "only a linear gauge (linearCapacity, accessoryLinear, accessoryLinearCapacity) has an \(key)")
        }
        var axis = Axis.horizontal
        if let o = string(m["orientation"], join(path, "orientation")) {
            if let a = Axis(rawValue: o) {
                axis = a
            } else {
                fail(m["orientation"], join(path, "orientation"), "'\(o)' is not 'horizontal' or 'vertical'")
            }
        }
        let linearScale = linear ? linearScaleOptions(m, path) : nil
        let marks = markedLabels(m["markedLabels"], join(path, "markedLabels"), range: range)
        let label = string(m["label"], join(path, "label"))
        var title = TitlePlacement.automatic
        if let t = string(m["title"], join(path, "title")) {
            switch t {
            case "auto": title = .automatic
            case "top": title = .top
            case "bottom": title = .bottom
            case "none": title = .none
            default: fail(m["title"], join(path, "title"), "'\(t)' is not 'auto', 'top', 'bottom' or 'none'")
            }
        }
        let units = string(m["units"], join(path, "units"))
        let minimumLabel = string(m["minimumLabel"], join(path, "minimumLabel"))
        let maximumLabel = string(m["maximumLabel"], join(path, "maximumLabel"))
        var labelSize: Double? = nil
        if let n = number(m["labelSize"], join(path, "labelSize")) {
            if n >= 4 && n <= 200 {
                labelSize = n
            } else {
                fail(m["labelSize"], join(path, "labelSize"), "must be 4 to 200 pixels")
            }
        }
        var tint: Tint? = nil
        if m["tint"] != nil, m["gradient"] != nil {
            fail(m["gradient"], join(path, "gradient"), "give either tint or gradient, not both")
        }
        if let c = color(m["tint"], join(path, "tint")) { tint = .color(c) }
        if let g = m["gradient"] {
            if case .array(let a) = g.kind, a.count >= 2, a.count <= 16 {
                var stops: [Color] = []
                for (k, s) in a.enumerated() {
                    if let c = color(s, join(path, "gradient") + "[\(k)]") { stops.append(c) }
                }
                if stops.count == a.count { tint = .gradient(stops) }
            } else {
                fail(g, join(path, "gradient"), "expected 2 to 16 colours [\"#RRGGBB\", ...]")
            }
        }
        var interpolation = ColorInterpolation.oklab
        if let s = string(m["interpolation"], join(path, "interpolation")) {
            switch s {
            case "oklab": interpolation = .oklab
            case "srgb": interpolation = .sRGB
            default: fail(m["interpolation"], join(path, "interpolation"), "'\(s)' is not 'oklab' or 'srgb'")
            }
        }
        var steps: [Thresholds.Step] = []
        if let t = m["thresholds"] {
            if case .array(let a) = t.kind {
                for (k, item) in a.enumerated() {
                    let p = join(path, "thresholds") + "[\(k)]"
                    guard let tm = members(item, p, known: GaugeDescription.Keys.threshold) else { continue }
                    let value = number(tm["above"], p + ".above")
                    let c = color(tm["color"], p + ".color")
                    if tm["above"] == nil { fail(item, p + ".above", "missing") }
                    if tm["color"] == nil { fail(item, p + ".color", "missing") }
                    if let value, let c {
                        if let last = steps.last, value <= last.from {
                            fail(tm["above"], p + ".above", "thresholds must be in increasing order")
                        }
                        steps.append(Thresholds.Step(from: value, color: c))
                    }
                }
            } else {
                fail(t, join(path, "thresholds"), "expected an array [ { \"above\": 80, \"color\": \"#FF3B30\" } ]")
            }
        }
        var format: ValueFormat? = nil
        if let f = m["format"] {
            format = valueFormat(f, join(path, "format"), units: units)
        } else if let units {
            format = .number(decimals: 0, unit: units)
        }
        guard issues.count == before else { return nil }
        do {
            var g = try Gauge(
                checkedValue: range.lowerBound, range: range, label: label.map(GaugeLabel.text),
                current: nil, minimum: minimumLabel.map(GaugeLabel.text), maximum: maximumLabel.map(GaugeLabel.text))
            g.style = style == .dial ? dial : style.style(segments: segments)
            switch style {
            case .linearCapacity: g.style = LinearCapacityGaugeStyle(scale: linearScale, axis: axis)
            case .accessoryLinear: g.style = AccessoryLinearGaugeStyle(scale: linearScale, axis: axis)
            case .accessoryLinearCapacity: g.style = AccessoryLinearCapacityGaugeStyle(scale: linearScale, axis: axis)
            default: break
            }
            g.markedValueLabels = marks
            // A gradient (the object's, or the style's default one) mixes in Oklab
            // unless the object asks for sRGB.
            g.tint = (tint ?? g.style.defaultTint).interpolated(in: interpolation)
            g.valueFormat = format
            g.title = title
            // Below the first threshold the gauge keeps its own colour (the tint at the start of the range);
            // without a tint of the object's, a style whose default is a gradient (the ring's red to
            // green, red at the start) is green there: thresholds mark what is high, so below them is fine.
            // (A dial draws thresholds as sections of its scale: none below the first.)
            if !steps.isEmpty {
                let own = tint == nil && g.style.defaultTint.isGradient ? Color.green : g.resolvedTint.color(at: 0)
                g.thresholds = try Thresholds(base: style == .dial ? nil : own, steps: steps)
            }
            var d = GaugeDescription(style: style, gauge: g, labelSize: labelSize)
            d.gauge = try d.makeGauge()
            warnUnshown(d.gauge, m, path, style: style, hasFormat: format != nil)
            if !g.resolvedTint.isGradient, m["interpolation"] != nil {
                warn(
                    m["interpolation"], join(path, "interpolation"),
                    "has no effect: the tint is one colour, not a gradient")
            }
            if !steps.isEmpty, let key = m["gradient"] ?? m["tint"], tint?.isGradient == true {
                warn(
                    key, join(path, m["gradient"] != nil ? "gradient" : "tint"),
                    "with thresholds, only its first colour shows (below the first threshold)")
            }
            if format?.kind == .percent, m["units"] != nil {
                warn(m["units"], join(path, "units"), "not shown: a percent format shows '%'")
            }
            return d
        } catch {
            fail(v, path, "\(error)")
            return nil
        }
    }

    /// A dial's `scale`, `sections`, `needle` and `valueArc` keys.
    mutating func dialOptions(_ m: [String: GaugeJSON], _ path: String, into dial: inout DialGaugeStyle) {
        if let v = m["scale"] {
            let p = join(path, "scale")
            if let sm = members(v, p, known: GaugeDescription.Keys.scale) {
                if let a = number(sm["start"], p + ".start", in: -360...360) { dial.startAngle = .degrees(a) }
                if let a = number(sm["sweep"], p + ".sweep", in: -360...360) {
                    if a == 0 { fail(sm["sweep"], p + ".sweep", "must not be 0") } else { dial.sweep = .degrees(a) }
                }
                scaleParts(
                    sm, p, linear: false, major: &dial.majorTicks, minor: &dial.minorTicks, labels: &dial.labels,
                    band: &dial.bandWidth)
            }
        }
        if let list = sections(m["sections"], join(path, "sections")) { dial.sections = list }
        if let v = m["needle"] {
            let p = join(path, "needle")
            if let nm = members(v, p, known: GaugeDescription.Keys.needle) {
                if let x = number(nm["length"], p + ".length", in: 0...1.2) { dial.needle.length = x }
                if let x = number(nm["width"], p + ".width", in: 0...0.3) { dial.needle.baseWidth = x }
                if let x = number(nm["tipWidth"], p + ".tipWidth", in: 0...0.3) { dial.needle.tipWidth = x }
                if let x = number(nm["tail"], p + ".tail", in: 0...1) { dial.needle.tail = x }
                if let x = number(nm["hub"], p + ".hub", in: 0...0.5) { dial.needle.hubRadius = x }
                if let c = color(nm["color"], p + ".color") { dial.needle.color = c }
                if let c = color(nm["hubColor"], p + ".hubColor") { dial.needle.hubColor = c }
            }
        }
        if let v = m["valueArc"] {
            switch v.kind {
            case .bool(let on): dial.valueArc = on ? 0.035 : nil
            case .number: dial.valueArc = number(v, join(path, "valueArc"), in: 0.005...0.2)
            default:
                fail(v, join(path, "valueArc"), "expected true, false or a width (a fraction of the dial's radius)")
            }
        }
    }

    /// The ticks, labels and band of a `scale` object (a dial's or a linear gauge's).
    mutating func scaleParts(
        _ sm: [String: GaugeJSON], _ p: String, linear: Bool, major: inout DialGaugeStyle.Ticks,
        minor: inout DialGaugeStyle.Ticks, labels: inout DialGaugeStyle.ScaleLabels?, band: inout Double
    ) {
        if let t = sm["majorTicks"] { ticks(t, p + ".majorTicks", counts: 2...101, into: &major) }
        if let t = sm["minorTicks"] { ticks(t, p + ".minorTicks", counts: 0...20, into: &minor) }
        if let l = sm["labels"] { labels = scaleLabels(l, p + ".labels", linear: linear) }
        if let b = number(sm["band"], p + ".band", in: 0...0.3) { band = b }
    }

    /// A linear gauge's `scale` (`true`, `false` or an object) and `sections`; nil without a scale.
    mutating func linearScaleOptions(_ m: [String: GaugeJSON], _ path: String) -> LinearScale? {
        var scale: LinearScale? = nil
        if let v = m["scale"] {
            let p = join(path, "scale")
            switch v.kind {
            case .bool(let on): scale = on ? LinearScale() : nil
            case .object:
                var s = LinearScale()
                if let sm = members(v, p, known: GaugeDescription.Keys.scale) {
                    for key in ["start", "sweep"] where sm[key] != nil {
                        fail(
                            sm[key], p + "." + key,
                            "only a dial's scale has a \(key) (a linear scale runs along the bar)")
                    }
                    scaleParts(
                        sm, p, linear: true, major: &s.majorTicks, minor: &s.minorTicks, labels: &s.labels,
                        band: &s.bandWidth)
                }
                scale = s
            default:
                fail(v, p, "expected true, false or an object {\"majorTicks\": 6, \"labels\": \"below\"}")
            }
        }
        if let list = sections(m["sections"], join(path, "sections")) {
            if scale == nil {
                fail(
                    m["sections"], join(path, "sections"),
                    "a linear gauge draws its sections on its scale: add \"scale\": true")
            }
            scale?.sections = list
        }
        return scale
    }

    /// A gauge's `markedLabels`: `[{"value": 0, "label": "E"}, ...]`, each
    /// value in the range, at most 64.
    mutating func markedLabels(_ v: GaugeJSON?, _ path: String, range: ClosedRange<Double>) -> [MarkedValueLabel] {
        guard let v else { return [] }
        guard case .array(let items) = v.kind, items.count <= 64 else {
            fail(v, path, "expected at most 64 marked values [ { \"value\": 50, \"label\": \"half\" } ]")
            return []
        }
        var out: [MarkedValueLabel] = []
        for (k, item) in items.enumerated() {
            let p = path + "[\(k)]"
            guard let mm = members(item, p, known: GaugeDescription.Keys.markedLabel) else { continue }
            for key in GaugeDescription.Keys.markedLabel where mm[key] == nil { fail(item, p + "." + key, "missing") }
            guard let value = number(mm["value"], p + ".value"), let text = string(mm["label"], p + ".label") else {
                continue
            }
            if !range.contains(value) {
                fail(
                    mm["value"], p + ".value",
                    "\(IssueText.number(value)) is outside the range [\(IssueText.number(range.lowerBound)), \(IssueText.number(range.upperBound))]"
                )
            } else if text.isEmpty {
                fail(mm["label"], p + ".label", "must not be empty")
            } else if out.contains(where: { $0.value == value }) {
                fail(mm["value"], p + ".value", "value \(IssueText.number(value)) is marked twice")
            } else {
                out.append(GaugeLabel.text(text).tag(value))
            }
        }
        return out
    }

    /// A `sections` array; nil when absent or wrong.
    mutating func sections(_ v: GaugeJSON?, _ p: String) -> [DialGaugeStyle.Section]? {
        guard let v else { return nil }
        if case .array(let a) = v.kind {
            var out: [DialGaugeStyle.Section] = []
            for (k, item) in a.enumerated() {
                let q = p + "[\(k)]"
                guard let sm = members(item, q, known: GaugeDescription.Keys.section) else { continue }
                for key in GaugeDescription.Keys.section where sm[key] == nil {
                    fail(item, q + "." + key, "missing")
                }
                if let from = number(sm["from"], q + ".from"), let to = number(sm["to"], q + ".to"),
                    let c = color(sm["color"], q + ".color")
                {
                    if from >= to {
                        fail(sm["to"], q + ".to", "must be greater than from (\(IssueText.number(from)))")
                    }
                    out.append(DialGaugeStyle.Section(from: from, to: to, color: c))
                }
            }
            return out
        } else {
            fail(v, p, "expected an array [ { \"from\": 0, \"to\": 60, \"color\": \"#34C759\" } ]")
        }
        return nil
    }

    /// `N` (a count) or `{"count": N, "length": 0.15, "width": 0.025, "color": "#FFFFFF"}`.
    mutating func ticks(_ v: GaugeJSON, _ path: String, counts: ClosedRange<Int>, into t: inout DialGaugeStyle.Ticks) {
        if case .number = v.kind {
            if let k = count(v, path, in: counts) { t.count = k }
            return
        }
        guard let tm = members(v, path, known: GaugeDescription.Keys.ticks) else { return }
        if let k = count(tm["count"], path + ".count", in: counts) { t.count = k }
        if let x = number(tm["length"], path + ".length", in: 0...1) { t.length = x }
        if let x = number(tm["width"], path + ".width", in: 0...0.2) { t.width = x }
        if let c = color(tm["color"], path + ".color") { t.color = c }
    }

    /// `"inside"`, `"outside"`, `"none"`, or `{"placement": ..., "format": ..., "color": ...}`;
    /// on a linear scale `"below"` or `"none"`.
    mutating func scaleLabels(_ v: GaugeJSON, _ path: String, linear: Bool) -> DialGaugeStyle.ScaleLabels? {
        var labels = DialGaugeStyle.ScaleLabels()
        func placement(_ s: String, _ at: GaugeJSON?, _ p: String) -> Bool {
            switch (s, linear) {
            case ("inside", false): labels.placement = .inside
            case ("outside", false): labels.placement = .outside
            case ("below", true): break
            case ("none", _): return false
            case (_, false): fail(at, p, "'\(s)' is not 'inside', 'outside' or 'none'")
            case (_, true): fail(at, p, "'\(s)' is not 'below' or 'none' (a linear scale's numbers go below its ticks)")
            }
            return true
        }
        switch v.kind {
        case .string(let s):
            return placement(s, v, path) ? labels : nil
        case .object:
            guard let lm = members(v, path, known: GaugeDescription.Keys.scaleLabels) else { return labels }
            if let s = string(lm["placement"], path + ".placement"), !placement(s, lm["placement"], path + ".placement")
            {
                return nil
            }
            if let f = lm["format"], let format = valueFormat(f, path + ".format", units: nil) {
                labels.format = format
            }
            if let c = color(lm["color"], path + ".color") { labels.color = c }
            return labels
        default:
            fail(
                v, path,
                linear
                    ? "expected \"below\", \"none\" or {\"placement\": ..., \"format\": ...}"
                    : "expected \"inside\", \"outside\", \"none\" or {\"placement\": ..., \"format\": ...}")
            return labels
        }
    }

    /// Warns about each label key whose text the gauge does not show.
    mutating func warnUnshown(
        _ g: Gauge, _ m: [String: GaugeJSON], _ path: String, style: GaugeStyleName, hasFormat: Bool
    ) {
        let shown = g.shownLabels
        let given: [(key: String, kind: GaugeLabelKinds)] = [
            ("label", .label), ("minimumLabel", .minimumValue), ("maximumLabel", .maximumValue),
        ]
        for (key, kind) in given where m[key] != nil && !shown.contains(kind) {
            let scaled = (g.style as? any LinearScaled)?.scale != nil || !g.markedValueLabels.isEmpty
            let why =
                kind == .label
                ? "the '\(style.rawValue)' style has no place for a label and \"title\" is \"none\""
                : scaled
                    ? "the scale's numbers (or marked values) take the place of end labels"
                    : "the '\(style.rawValue)' style shows no end labels"
            warn(m[key], join(path, key), "not shown: \(why)")
        }
        if hasFormat, !shown.contains(.currentValue) {
            let key = m["format"] != nil ? "format" : "units"
            warn(
                m[key], join(path, key),
                "not shown: the '\(style.rawValue)' style shows no current value with end labels")
        }
        if m["markedLabels"] != nil,
            ![.dial, .linearCapacity, .accessoryLinear, .accessoryLinearCapacity].contains(style)
        {
            warn(
                m["markedLabels"], join(path, "markedLabels"),
                "not shown: the '\(style.rawValue)' style has no scale (a dial and the linear styles show marked values)"
            )
        }
        if m["title"] != nil, m["label"] == nil {
            warn(m["title"], join(path, "title"), "has no effect: the gauge has no \"label\"")
        }
    }

    /// `"percent"`, `"number"`, or `{"kind": "percent" | "number", "decimals": 0...9,
    /// "prefixes": "si" | "binary" | "none", "mappings": [{"value": 0, "text": "off"}]}`;
    /// a number carries the gauge's `units`.
    mutating func valueFormat(_ v: GaugeJSON, _ path: String, units: String?) -> ValueFormat? {
        var kind: String? = nil
        var decimals: Int? = nil
        var prefixes = ValueFormat.Prefixes.none
        var mappings: [Double: String] = [:]
        switch v.kind {
        case .string(let s): kind = s
        case .object:
            guard let m = members(v, path, known: GaugeDescription.Keys.format) else { return nil }
            kind = string(m["kind"], path + ".kind")
            if m["kind"] == nil { fail(v, path + ".kind", "missing") }
            if let d = number(m["decimals"], path + ".decimals") {
                if let k = Int(exactly: d), (0...9).contains(k) {
                    decimals = k
                } else {
                    fail(m["decimals"], path + ".decimals", "must be a whole number from 0 to 9")
                    return nil
                }
            }
            if let list = m["mappings"] {
                guard case .array(let items) = list.kind, items.count <= 64 else {
                    fail(
                        list, path + ".mappings", "expected at most 64 mappings [ { \"value\": 0, \"text\": \"off\" } ]"
                    )
                    return nil
                }
                for (k, item) in items.enumerated() {
                    let p = path + ".mappings[\(k)]"
                    guard let mm = members(item, p, known: GaugeDescription.Keys.mapping) else { return nil }
                    if mm["value"] == nil { fail(item, p + ".value", "missing") }
                    if mm["text"] == nil { fail(item, p + ".text", "missing") }
                    guard let value = number(mm["value"], p + ".value"), let text = string(mm["text"], p + ".text")
                    else { return nil }
                    if mappings[value] != nil {
                        fail(mm["value"], p + ".value", "value \(value) is mapped twice")
                        return nil
                    }
                    mappings[value] = text
                }
            }
            if let p = string(m["prefixes"], path + ".prefixes") {
                switch p {
                case "none": prefixes = .none
                case "si": prefixes = .si
                case "binary": prefixes = .binary
                default:
                    fail(
                        m["prefixes"], path + ".prefixes",
                        "'\(p)' is not 'si' (k, M, G), 'binary' (Ki, Mi, Gi) or 'none'")
                    return nil
                }
            }
        default:
            fail(v, path, "expected \"percent\", \"number\" or {\"kind\": ..., \"decimals\": N}")
            return nil
        }
        switch kind {
        case "percent":
            if prefixes != .none {
                fail(v, path + ".prefixes", "a percentage takes no prefixes")
                return nil
            }
            var f = ValueFormat.percent(decimals: decimals ?? 0)
            f.mappings = mappings
            return f
        case "number":
            var f = ValueFormat.number(decimals: decimals ?? 0, unit: units, prefixes: prefixes)
            f.mappings = mappings
            return f
        case nil: return nil
        case let other?:
            fail(v, path, "unknown format '\(other)' (percent or number)")
            return nil
        }
    }
}
