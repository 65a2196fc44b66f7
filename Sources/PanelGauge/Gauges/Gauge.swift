/// A gauge: a value within a range, with the labels that describe it, drawn by a
/// ``GaugeStyle``. Modelled on SwiftUI's `Gauge`.
///
/// A gauge is a value type that describes what to show; it draws nothing until a
/// style renders it into a rectangle. A value outside the range pins the
/// indicator at the end it passed (``normalizedValue`` is always in 0...1)
/// while the current-value text shows the value itself, and the gauge shows
/// that it is out of range (``RangePosition``: the indicator and the track in
/// ``GaugeEnvironment/outOfRange``, the same in every style). A gauge
/// without a value (``withoutValue(_:)``) shows no indicator and "no data"
/// where its current value goes. A NaN or infinite value, or a range that is
/// empty or not finite, is refused by the initializers with a ``GaugeError``,
/// so garbage never reaches the rasterizer.
///
/// ```swift
/// let cpu = try Gauge(value: 73, in: 0...100) { "CPU" } currentValueLabel: { "73" }
///     .gaugeStyle(.accessoryCircular)
///     .tint(.gradient([.green, .yellow, .red]))
/// ```
public struct Gauge: Sendable {
    /// The value as given (not clamped), in the units of ``range``.
    public private(set) var value: Double
    /// Whether the gauge has a value; false after ``withoutValue(_:)``, when
    /// the gauge draws as "no data" and ``value`` means nothing.
    public private(set) var hasValue = true
    /// What a gauge without a value shows where its current value goes.
    public private(set) var noValueText = Gauge.defaultNoValueText
    /// The text a gauge without a value shows by default.
    public static let defaultNoValueText = "no data"
    /// The range the value is shown in; `lowerBound < upperBound`, both and their
    /// distance finite.
    public let range: ClosedRange<Double>
    /// What the gauge measures ("CPU").
    public var label: GaugeLabel?
    /// The current value as the user reads it. If nil and ``valueFormat`` is set,
    /// styles show the formatted value instead.
    public var currentValueLabel: GaugeLabel?
    /// The label of the range's lower end.
    public var minimumValueLabel: GaugeLabel?
    /// The label of the range's upper end.
    public var maximumValueLabel: GaugeLabel?
    /// Labels of particular values (SwiftUI's `markedValueLabels`), in
    /// any order; see ``MarkedValueLabel`` for the styles that show them.
    public var markedValueLabels: [MarkedValueLabel] = []

    /// How the style draws the gauge; `.linearCapacity` by default, as in SwiftUI
    /// on iOS.
    public var style: any GaugeStyle = LinearCapacityGaugeStyle()
    /// Colour or gradient of the value indicator.
    /// nil draws in the style's ``GaugeStyle/defaultTint`` (blue for SwiftUI's
    /// styles, red to green for the article's ring).
    public var tint: Tint?
    /// Colour zones keyed by value; where a zone applies it overrides ``tint``.
    public var thresholds: Thresholds?
    /// Formats the value into the current-value label when none is given.
    public var valueFormat: ValueFormat?
    /// Colours, font and sizes shared with the labels.
    public var environment = GaugeEnvironment()
    /// Whether the label is shown as a title above or below the style's
    /// drawing (see ``TitlePlacement``); none by default, as in SwiftUI.
    public var title: TitlePlacement = .none
    /// The lowest and highest values shown, marked on the track (see
    /// ``GaugePeaks``); nil marks none.
    public var peaks: GaugePeaks?

    /// A gauge with only a label (what it measures); `range` defaults to `0...1`.
    public init(
        value: some BinaryFloatingPoint, in range: ClosedRange<Double> = 0...1,
        label: () -> GaugeLabel
    ) throws {
        try self.init(
            checkedValue: Double(value), range: range, label: label(), current: nil, minimum: nil,
            maximum: nil)
    }

    /// A gauge with a label and a current-value label.
    public init(
        value: some BinaryFloatingPoint, in range: ClosedRange<Double> = 0...1,
        label: () -> GaugeLabel, currentValueLabel: () -> GaugeLabel
    ) throws {
        try self.init(
            checkedValue: Double(value), range: range, label: label(), current: currentValueLabel(),
            minimum: nil, maximum: nil)
    }

    /// A gauge with a label, a current-value label and the two end labels.
    public init(
        value: some BinaryFloatingPoint, in range: ClosedRange<Double> = 0...1,
        label: () -> GaugeLabel, currentValueLabel: () -> GaugeLabel,
        minimumValueLabel: () -> GaugeLabel, maximumValueLabel: () -> GaugeLabel
    ) throws {
        try self.init(
            checkedValue: Double(value), range: range, label: label(), current: currentValueLabel(),
            minimum: minimumValueLabel(), maximum: maximumValueLabel())
    }

    /// A gauge with a label and the two end labels, but no current-value label.
    public init(
        value: some BinaryFloatingPoint, in range: ClosedRange<Double> = 0...1,
        label: () -> GaugeLabel,
        minimumValueLabel: () -> GaugeLabel, maximumValueLabel: () -> GaugeLabel
    ) throws {
        try self.init(
            checkedValue: Double(value), range: range, label: label(), current: nil,
            minimum: minimumValueLabel(), maximum: maximumValueLabel())
    }

    /// A gauge with a label, a current-value label and labels of particular
    /// values (SwiftUI's `Gauge(value:in:label:currentValueLabel:markedValueLabels:)`):
    /// `markedValueLabels: { ["Empty".tag(0), "Full".tag(100)] }`.
    public init(
        value: some BinaryFloatingPoint, in range: ClosedRange<Double> = 0...1,
        label: () -> GaugeLabel, currentValueLabel: () -> GaugeLabel,
        markedValueLabels: () -> [MarkedValueLabel]
    ) throws {
        try self.init(
            checkedValue: Double(value), range: range, label: label(), current: currentValueLabel(),
            minimum: nil, maximum: nil)
        self.markedValueLabels = markedValueLabels()
    }

    /// A gauge with every kind of label, as SwiftUI's
    /// `Gauge(value:in:label:currentValueLabel:minimumValueLabel:maximumValueLabel:markedValueLabels:)`.
    public init(
        value: some BinaryFloatingPoint, in range: ClosedRange<Double> = 0...1,
        label: () -> GaugeLabel, currentValueLabel: () -> GaugeLabel,
        minimumValueLabel: () -> GaugeLabel, maximumValueLabel: () -> GaugeLabel,
        markedValueLabels: () -> [MarkedValueLabel]
    ) throws {
        try self.init(
            checkedValue: Double(value), range: range, label: label(), current: currentValueLabel(),
            minimum: minimumValueLabel(), maximum: maximumValueLabel())
        self.markedValueLabels = markedValueLabels()
    }

    /// A gauge with no labels at all (the self-sizing ring of the article shows
    /// its formatted value in the centre).
    public init(value: some BinaryFloatingPoint, in range: ClosedRange<Double> = 0...1) throws {
        try self.init(
            checkedValue: Double(value), range: range, label: nil, current: nil, minimum: nil, maximum: nil)
    }

    /// Integer values, as SwiftUI's `Gauge` also accepts (`Gauge(value: 7, in: 0...10)`).
    public init(
        value: some BinaryInteger, in range: ClosedRange<Int>,
        label: GaugeLabel? = nil, currentValueLabel: GaugeLabel? = nil,
        minimumValueLabel: GaugeLabel? = nil, maximumValueLabel: GaugeLabel? = nil
    ) throws {
        try self.init(
            checkedValue: Double(value), range: Double(range.lowerBound)...Double(range.upperBound),
            label: label, current: currentValueLabel, minimum: minimumValueLabel, maximum: maximumValueLabel)
    }

    /// The designated initializer: every public one funnels through the checks here.
    public init(
        checkedValue value: Double, range: ClosedRange<Double>, label: GaugeLabel?, current: GaugeLabel?,
        minimum: GaugeLabel?, maximum: GaugeLabel?
    ) throws {
        guard value.isFinite else { throw GaugeError.valueNotFinite(value) }
        // The width must be finite too (-1e308...1e308 is not), or every value
        // would normalize to 0.
        guard range.lowerBound.isFinite, range.upperBound.isFinite,
            (range.upperBound - range.lowerBound).isFinite
        else { throw GaugeError.rangeNotFinite(range) }
        guard range.lowerBound < range.upperBound else { throw GaugeError.emptyRange(range) }
        self.value = value
        self.range = range
        self.label = label
        self.currentValueLabel = current
        self.minimumValueLabel = minimum
        self.maximumValueLabel = maximum
    }

    /// The value clamped into ``range``.
    public var clampedValue: Double { min(max(value, range.lowerBound), range.upperBound) }

    /// Where the value lies against ``range``; ``RangePosition/within`` for
    /// a gauge without a value.
    public var rangePosition: RangePosition {
        guard hasValue else { return .within }
        return value < range.lowerBound ? .below : value > range.upperBound ? .above : .within
    }

    /// The clamped value mapped to 0...1 (0 at the lower bound).
    public var normalizedValue: Double {
        Self.normalize(value, in: range)
    }

    /// Maps `value` into 0...1 over `range`, clamping; NaN maps to 0.
    static func normalize(_ value: Double, in range: ClosedRange<Double>) -> Double {
        guard !value.isNaN else { return 0 }
        let t = (value - range.lowerBound) / (range.upperBound - range.lowerBound)
        return min(1, max(0, t))
    }

    /// A copy with another value (same checks as the initializers).
    public func withValue(_ newValue: Double) throws -> Gauge {
        guard newValue.isFinite else { throw GaugeError.valueNotFinite(newValue) }
        var copy = self
        copy.value = newValue
        copy.hasValue = true
        return copy
    }

    /// A copy without a value: drawn with no indicator, `text` where the
    /// style shows the current value (a ring always does), no thresholds.
    /// ``withValue(_:)`` gives it a value again.
    public func withoutValue(_ text: String = Gauge.defaultNoValueText) -> Gauge {
        var copy = self
        copy.hasValue = false
        copy.noValueText = text
        return copy
    }

    /// The colour at the value's position: the threshold zone's colour if
    /// thresholds are set, else the tint's colour at the normalized value.
    public var indicatorColor: Color {
        if !hasValue { return .clear }
        if rangePosition != .within { return environment.outOfRange }
        return thresholds?.color(for: clampedValue) ?? resolvedTint.color(at: normalizedValue)
    }

    /// The tint, or the style's default.
    public var resolvedTint: Tint { tint ?? style.defaultTint }

    /// What the style receives: the normalized value and the resolved labels.
    /// Out of range, the tint and the track take
    /// ``GaugeEnvironment/outOfRange`` (threshold zones give way to it);
    /// without a value, the indicator is clear and the current value reads
    /// ``noValueText``.
    public var configuration: GaugeStyleConfiguration {
        var current = currentValueLabel
        if current == nil, let valueFormat {
            current = .text(valueFormat.string(for: value, in: range))
        }
        var sizing = (valueFormat.map { $0.widestCandidates(in: range) } ?? []) + environment.valueSizingText
        // A ring without a format shows its percentage: out of range or
        // without a value it shows that text instead of the pinned one.
        let ringPercent = current == nil && style is RingGaugeStyle
        var environment = environment
        var tint = thresholds?.color(for: clampedValue).map(Tint.color) ?? resolvedTint
        var zones =
            environment.showsThresholdZones
            ? thresholds?.zoneTint(over: range, opacity: environment.thresholdZoneOpacity, uncovered: environment.track)
            : nil
        let position = rangePosition
        if !hasValue {
            // The text goes wherever the style can show a current value,
            // given one or not: an empty indicator alone reads as a value.
            var probe = GaugeStyleConfiguration(value: 0, currentValueLabel: .text(noValueText))
            probe.label = label
            if current != nil || ringPercent || style.shownLabels(configuration: probe).contains(.currentValue) {
                current = .text(noValueText)
            }
            tint = .color(.clear)
        } else if position != .within {
            if ringPercent { current = .text(ValueFormat.percent().string(for: value, in: range)) }
            tint = .color(environment.outOfRange)
            environment.track = environment.outOfRange.opacity(GaugeEnvironment.outOfRangeTrackOpacity)
            zones = nil
        }
        if ringPercent && current != nil { sizing.append(RingGaugeStyle.defaultSizingText) }
        // Out of range or without a value the text may be wider than the
        // range's ends: it sizes the slot too, so it shrinks rather than
        // being cut short.
        if (!hasValue || position != .within), !sizing.isEmpty, let text = current?.text { sizing.append(text) }
        var c = GaugeStyleConfiguration(
            value: hasValue ? normalizedValue : 0, label: label, currentValueLabel: current,
            minimumValueLabel: minimumValueLabel, maximumValueLabel: maximumValueLabel,
            sizingText: sizing, tint: tint, zoneTrack: zones,
            environment: environment, range: range, thresholds: hasValue ? thresholds : nil)
        c.markedValueLabels = markedValueLabels
        c.rangePosition = position
        c.hasValue = hasValue
        return c
    }

    // MARK: Modifiers (each returns a modified copy, as SwiftUI's do)

    /// Draw this gauge with `style` (`.gaugeStyle(.accessoryCircular)`).
    public func gaugeStyle(_ style: some GaugeStyle) -> Gauge {
        var copy = self
        copy.style = style
        return copy
    }

    /// A solid tint.
    public func tint(_ color: Color) -> Gauge {
        var copy = self
        copy.tint = .color(color)
        return copy
    }

    /// A gradient tint along the value axis (`.tint(Gradient(colors: [.green, .red]))`).
    public func tint(_ gradient: Gradient) -> Gauge {
        tint(.gradient(gradient))
    }

    /// A solid or gradient tint; nil returns to the style's default.
    public func tint(_ tint: Tint?) -> Gauge {
        var copy = self
        copy.tint = tint
        return copy
    }

    /// Colour zones by value (in the gauge's units).
    public func thresholds(_ thresholds: Thresholds?) -> Gauge {
        var copy = self
        copy.thresholds = thresholds
        return copy
    }

    /// The format of the generated current-value label.
    public func valueFormat(_ format: ValueFormat?) -> Gauge {
        var copy = self
        copy.valueFormat = format
        return copy
    }

    /// Labels of particular values (see ``MarkedValueLabel``).
    public func markedValueLabels(_ labels: [MarkedValueLabel]) -> Gauge {
        var copy = self
        copy.markedValueLabels = labels
        return copy
    }

    /// Shows the label as a title (see ``TitlePlacement``).
    public func title(_ placement: TitlePlacement) -> Gauge {
        var copy = self
        copy.title = placement
        return copy
    }

    /// Text sizes from the cell the gauge is drawn into (see ``TypeScale``).
    public func typeScale(_ scale: TypeScale?) -> Gauge {
        var copy = self
        copy.environment.typeScale = scale
        return copy
    }

    /// Changes the shared environment (colours, font, label size).
    public func environment(_ change: (inout GaugeEnvironment) -> Void) -> Gauge {
        var copy = self
        change(&copy.environment)
        return copy
    }
}

/// The static key of a gauge out of its range or without a value.
private struct OutOfRangeKey: Hashable {
    let base: AnyHashable
    let position: RangePosition
    let hasValue: Bool
    let text: String?
}

/// Where a gauge's value lies against its range. Out of range, the indicator
/// pins at the end the value passed, the current value shows the value
/// itself, and the indicator and the track take
/// ``GaugeEnvironment/outOfRange``: a full indicator in that colour reads
/// "over", an empty one on a track in that colour "under".
public enum RangePosition: Sendable, Hashable {
    /// Below the range's lower bound.
    case below
    /// Within the range, bounds included.
    case within
    /// Above the range's upper bound.
    case above
}

/// Why a gauge was refused.
public enum GaugeError: Error, Equatable, CustomStringConvertible {
    /// The value is NaN or infinite.
    case valueNotFinite(Double)
    /// A bound of the range, or their distance, is not finite.
    case rangeNotFinite(ClosedRange<Double>)
    /// The range's lower bound is not below its upper bound.
    case emptyRange(ClosedRange<Double>)

    /// A sentence naming the refused value or range.
    public var description: String {
        switch self {
        case .valueNotFinite(let v): "gauge value \(v) is not a finite number"
        case .rangeNotFinite(let r): "gauge range \(r) is not finite"
        case .emptyRange(let r): "gauge range \(r) is empty: its lower bound must be below its upper bound"
        }
    }
}

extension Gauge {
    /// Draws the gauge in its style into `rect`. Nothing is drawn outside the
    /// pixels `rect` touches, even when the rectangle is too small for the
    /// style, so gauges sharing a panel never paint over each other.
    /// A rectangle that is not finite (or beyond +-2^30) draws nothing.
    ///
    /// `layers` picks the parts to draw (see ``GaugeLayers``); a style that does
    /// not separate its layers draws everything as its dynamic layer.
    public func draw(in rect: Rect, on canvas: Canvas, fonts: FontCache = .shared, layers: GaugeLayers = .all) {
        guard rect.isDrawable else { return }
        let separates = style.separatesLayers
        if !separates && !layers.contains(.dynamic) { return }
        let context = context(fonts: fonts, cell: rect, layers: separates ? layers : .all)
        let parts = titled(in: rect, context: context)
        canvas.withClip(IntRect(covering: rect)) {
            if let title = parts.title, context.layers.contains(.static) {
                title.label.draw(
                    in: title.rect, on: canvas, context: context, pixelSize: context.titleSize,
                    color: environment.foreground, vertical: .lineCentred)
            }
            style.makeBody(configuration: parts.configuration).draw(in: parts.body, on: canvas, context: context)
            // The peaks over the whole dynamic layer (the fill, a needle).
            if context.layers.contains(.dynamic),
                let marks = peakMarks(parts.configuration, in: parts.body, context: context)
            {
                for m in marks { m?.draw(on: canvas) }
            }
        }
    }

    /// How the gauge's drawing into `rect` splits into layers (see ``GaugeLayering``).
    /// A title is part of the static layer.
    public func layering(in rect: Rect, fonts: FontCache = .shared) -> GaugeLayering {
        guard rect.isDrawable, style.separatesLayers else { return .unseparated }
        let context = context(fonts: fonts, cell: rect)
        let parts = titled(in: rect, context: context)
        var l = style.layering(configuration: parts.configuration, in: parts.body, context: context)
        if let marks = peakMarks(parts.configuration, in: parts.body, context: context) {
            l.addPeaks(marks, clip: IntRect(covering: rect))
        }
        // Out of range or without a value, the track's colour and the text
        // (which may be wider than the texts that size it) belong to the
        // static key: a change redraws the whole gauge.
        let c = parts.configuration
        if c.rangePosition != .within || !c.hasValue {
            l.staticKey = AnyHashable(
                OutOfRangeKey(
                    base: l.staticKey, position: c.rangePosition, hasValue: c.hasValue,
                    text: c.currentValueLabel.map { "\($0)" }))
        }
        return l
    }

    /// Opens the gauge's font, so a missing or broken font file is reported
    /// (``FontError``) before drawing; drawing itself leaves text out instead.
    public func validateFont(fonts: FontCache = .shared) throws(FontError) {
        _ = try fonts.font(environment.font, pixelSize: environment.labelSize)
    }

    /// The size the gauge's style would like when offered `proposal`.
    public func sizeThatFits(_ proposal: Size, fonts: FontCache = .shared) -> Size {
        let context = context(fonts: fonts, cell: Rect(x: 0, y: 0, width: proposal.width, height: proposal.height))
        let c = configuration
        let cell = Rect(x: 0, y: 0, width: proposal.width, height: proposal.height)
        guard titleOnTop(c, in: cell.isDrawable ? cell : nil, context: context) != nil, let label = c.label else {
            return style.makeBody(configuration: c).sizeThatFits(proposal, context: context)
        }
        var body = c
        body.label = nil
        let (line, gap) = TitledLayout.strip(for: label, size: context.titleSize, context: context)
        let s = style.makeBody(configuration: body).sizeThatFits(
            Size(width: proposal.width, height: max(0, proposal.height - line - gap)), context: context)
        let w = label.size(pixelSize: context.titleSize, context: context).width
        return Size(width: max(s.width, w), height: s.height + line + gap)
    }
}
