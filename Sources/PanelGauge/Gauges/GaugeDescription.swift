/// Names of the built-in styles, as a layout file spells them.
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

/// One gauge as a layout file describes it (JSON through `JSONDecoder`):
///
/// ```json
/// { "style": "accessoryCircular", "min": 0, "max": 100, "value": 73,
///   "label": "CPU", "minimumLabel": "0", "maximumLabel": "100",
///   "tint": ["#34C759", "#FF3B30"],
///   "thresholds": { "base": "#34C759", "steps": [{ "from": 60, "color": "#FF9500" }, { "from": 85, "color": "#FF3B30" }] },
///   "format": { "kind": "percent", "decimals": 0 } }
/// ```
///
/// Every key but `style` is optional: range 0...1, value at the minimum,
/// the style's default tint, no labels, no thresholds, no format. Also:
/// `segments` (stepped), `labelSize` (px), `font` (a font file's path),
/// `foreground`, `background`, `track` (colours), `showZones` (threshold
/// zones along the track). `tint` is one colour or a
/// list (an evenly spaced gradient); colours are `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
public struct GaugeDescription: Sendable, Decodable {
    /// The style's name (`style`), the one required key.
    public var style: GaugeStyleName
    /// The lower end of the range (`min`); 0 when absent.
    public var min: Double?
    /// The upper end of the range (`max`); 1 when absent. ``makeGauge()`` raises a maximum below the
    /// minimum to the minimum, and then refuses the empty range.
    public var max: Double?
    /// The value (`value`), in the range's units; the lower end of the range when absent.
    public var value: Double?
    /// The label that describes what the gauge measures (`label`).
    public var label: String?
    /// The current value label (`currentLabel`); without one a gauge with a ``format`` shows its formatted value.
    public var currentLabel: String?
    /// The label of the range's lower end (`minimumLabel`).
    public var minimumLabel: String?
    /// The label of the range's upper end (`maximumLabel`).
    public var maximumLabel: String?
    /// The tint (`tint`): one colour or a list of colours for an evenly spaced gradient; the style's default tint when
    /// absent.
    public var tint: Tint?
    /// The colour zones (`thresholds`), in the range's units.
    public var thresholds: Thresholds?
    /// How the current value is written (`format`).
    public var format: ValueFormat?
    /// Steps of a `stepped` gauge.
    public var segments: Int?
    /// Pixel size of the labels.
    public var labelSize: Double?
    /// Path of a TrueType/OpenType file (default DejaVu Sans).
    public var font: String?
    /// Text colour, panel background (painted as the markers' clear padding) and
    /// track colour; hex strings in the file.
    public var foreground: Color?
    /// The panel background (`background`), painted as the markers' clear padding.
    public var background: Color?
    /// The colour of the unfilled track (`track`).
    public var track: Color?
    /// Whether the thresholds' zones are shown along the track.
    public var showZones: Bool?

    private enum CodingKeys: String, CodingKey {
        case style, min, max, value, label, currentLabel, minimumLabel, maximumLabel, tint, thresholds, format
        case segments, labelSize, font, foreground, background, track, showZones
    }

    /// Creates a description by decoding a layout file's gauge object.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` for a missing `style`, an unknown style name, a value of the
    ///   wrong type or a colour that is not `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        style = try c.decode(GaugeStyleName.self, forKey: .style)
        min = try c.decodeIfPresent(Double.self, forKey: .min)
        max = try c.decodeIfPresent(Double.self, forKey: .max)
        value = try c.decodeIfPresent(Double.self, forKey: .value)
        label = try c.decodeIfPresent(String.self, forKey: .label)
        currentLabel = try c.decodeIfPresent(String.self, forKey: .currentLabel)
        minimumLabel = try c.decodeIfPresent(String.self, forKey: .minimumLabel)
        maximumLabel = try c.decodeIfPresent(String.self, forKey: .maximumLabel)
        tint = try c.decodeIfPresent(Tint.self, forKey: .tint)
        thresholds = try c.decodeIfPresent(Thresholds.self, forKey: .thresholds)
        format = try c.decodeIfPresent(ValueFormat.self, forKey: .format)
        segments = try c.decodeIfPresent(Int.self, forKey: .segments)
        labelSize = try c.decodeIfPresent(Double.self, forKey: .labelSize)
        font = try c.decodeIfPresent(String.self, forKey: .font)
        foreground = try c.decodeIfPresent(HexColor.self, forKey: .foreground)?.color
        background = try c.decodeIfPresent(HexColor.self, forKey: .background)?.color
        track = try c.decodeIfPresent(HexColor.self, forKey: .track)?.color
        showZones = try c.decodeIfPresent(Bool.self, forKey: .showZones)
    }

    /// The gauge this describes (throws ``GaugeError`` for a bad value or range).
    public func makeGauge() throws -> Gauge {
        let range = (min ?? 0)...(Swift.max(min ?? 0, max ?? 1))
        var g = try Gauge(
            checkedValue: value ?? range.lowerBound, range: range, label: label.map(GaugeLabel.text),
            current: currentLabel.map(GaugeLabel.text), minimum: minimumLabel.map(GaugeLabel.text),
            maximum: maximumLabel.map(GaugeLabel.text))
        g.style = style.style(segments: segments ?? 10)
        if let tint { g.tint = tint }
        g.thresholds = thresholds
        g.valueFormat = format
        if let labelSize { g.environment.labelSize = labelSize }
        if let font { g.environment.font = FontDescriptor(path: font) }
        if let foreground { g.environment.foreground = foreground }
        if let background { g.environment.background = background }
        if let track { g.environment.track = track }
        if let showZones { g.environment.showsThresholdZones = showZones }
        return g
    }
}

/// A layout file's colour: a CSS-style hex string.
struct HexColor: Decodable {
    let color: Color
    init(from decoder: any Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let c = Color(css: s) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\"\(s)\" is not a #RRGGBB colour"))
        }
        color = c
    }
}

extension Tint: Decodable {
    /// `"#0A84FF"` or `["#34C759", "#FF3B30"]`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let list = try? c.decode([HexColor].self) {
            self = .gradient(list.map(\.color))
        } else {
            self = .color(try c.decode(HexColor.self).color)
        }
    }
}

extension Thresholds: Decodable {
    private enum Keys: String, CodingKey { case base, steps }
    private enum StepKeys: String, CodingKey { case from, color }

    /// `{"base": "#34C759", "steps": [{"from": 60, "color": "#FF9500"}]}`; without
    /// `base`, values below the first step keep the tint.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let base = try c.decodeIfPresent(HexColor.self, forKey: .base)?.color
        var list = try c.nestedUnkeyedContainer(forKey: .steps)
        var steps = [Step]()
        while !list.isAtEnd {
            let s = try list.nestedContainer(keyedBy: StepKeys.self)
            steps.append(
                Step(
                    from: try s.decode(Double.self, forKey: .from),
                    color: try s.decode(HexColor.self, forKey: .color).color))
        }
        do {
            try self.init(base: base, steps: steps)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "\(error)"))
        }
    }
}

extension ValueFormat: Decodable {
    private enum Keys: String, CodingKey { case kind, decimals, unit }

    /// `{"kind": "percent"}` or `{"kind": "number", "decimals": 1, "unit": "°C"}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        let decimals = try c.decodeIfPresent(Int.self, forKey: .decimals)
        let unit = try c.decodeIfPresent(String.self, forKey: .unit)
        switch kind {
        case "percent": self = .percent(decimals: decimals ?? 0)
        case "number": self = .number(decimals: decimals ?? 2, unit: unit)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c, debugDescription: "format kind must be \"percent\" or \"number\", not \"\(kind)\""
            )
        }
    }
}
