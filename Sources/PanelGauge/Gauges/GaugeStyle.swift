/// Draws a gauge. The counterpart of SwiftUI's `GaugeStyle`: a style turns a
/// ``GaugeStyleConfiguration`` (the value normalized to 0...1 and the label
/// contents) into a ``Drawable`` that sizes itself and draws into a rectangle.
///
/// Built-in styles are static members, so call sites read as in SwiftUI:
/// `gauge.gaugeStyle(.accessoryCircular)`. A custom style is a struct:
///
/// ```swift
/// struct RingStyle: GaugeStyle {
///     func makeBody(configuration: Configuration) -> some Drawable {
///         Draw { rect, canvas, context in ... }
///     }
/// }
/// ```
public protocol GaugeStyle: Sendable {
    /// The type of drawing this style makes for a gauge.
    associatedtype Body: Drawable
    /// The properties of a gauge that a style draws: its normalized value, labels, tint and environment.
    typealias Configuration = GaugeStyleConfiguration
    /// The drawing for one gauge in this style.
    func makeBody(configuration: Configuration) -> Body
    /// The tint of gauges that set none; blue unless a style says otherwise.
    var defaultTint: Tint { get }
    /// Whether the body honours ``DrawContext/layers``, drawing every static part
    /// before any dynamic one. False unless a style says otherwise: then all of
    /// its drawing counts as dynamic (see ``GaugeLayers``).
    var separatesLayers: Bool { get }
    /// What the static layer depends on and where the dynamic layer paints, for
    /// `configuration` drawn into `rect`. Only asked of styles that separate
    /// their layers; ``GaugeLayering/unseparated`` by default.
    func layering(configuration: Configuration, in rect: Rect, context: DrawContext) -> GaugeLayering
    /// The labels of `configuration` this style draws (those it is given and
    /// has a place for). ``GaugeLabelKinds/all`` unless a style says
    /// otherwise; a gauge shows a label its style leaves out as its title
    /// (see ``TitlePlacement``).
    func shownLabels(configuration: Configuration) -> GaugeLabelKinds
    /// Whether the label fits the place the style has for it in `rect`; a
    /// gauge with an automatic title shows a label that does not fit as its
    /// title instead. True unless a style says otherwise.
    func labelFits(configuration: Configuration, in rect: Rect, context: DrawContext) -> Bool
    /// Boxes around the parts of the drawing of `configuration` in `rect`
    /// (``GaugePart``), for checking that they never meet; none unless a
    /// style says otherwise.
    func partBounds(configuration: Configuration, in rect: Rect, context: DrawContext) -> [GaugePart: [Rect]]
    /// The pixel size of the current value's text when `configuration` is
    /// drawn into `rect`, for a panel that gives gauges of one size one value
    /// size (it caps the others at the smallest, ``TypeScale/valueLimit``);
    /// nil unless a style says otherwise (its value then takes no part).
    func currentValueSize(configuration: Configuration, in rect: Rect, context: DrawContext) -> Double?
    /// Where the style marks a gauge's peaks (``GaugePeaks``) when
    /// `configuration` is drawn into `rect`; nil (no marks) unless a style
    /// says otherwise.
    func peakTrack(configuration: Configuration, in rect: Rect, context: DrawContext) -> PeakTrack?
}

extension GaugeStyle {
    /// The tint of gauges that set none.
    ///
    /// The default implementation returns blue (``Color/blue-type.property``).
    public var defaultTint: Tint { .color(.blue) }
    /// Whether the body draws every static part before any dynamic one.
    ///
    /// The default implementation returns `false`: all of the style's drawing counts as dynamic.
    public var separatesLayers: Bool { false }
    /// What the static layer depends on and where the dynamic layer paints.
    ///
    /// The default implementation returns ``GaugeLayering/unseparated``.
    ///
    /// - Parameters:
    ///   - configuration: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func layering(configuration: Configuration, in rect: Rect, context: DrawContext) -> GaugeLayering {
        .unseparated
    }
    /// The labels of a configuration this style draws.
    ///
    /// The default implementation returns ``GaugeLabelKinds/all``.
    ///
    /// - Parameter configuration: The gauge to draw.
    public func shownLabels(configuration: Configuration) -> GaugeLabelKinds { .all }
    /// Whether the label fits the place the style has for it.
    ///
    /// The default implementation returns `true`.
    ///
    /// - Parameters:
    ///   - configuration: The gauge to draw.
    ///   - rect: The rectangle the gauge is drawn into, in pixels.
    ///   - context: The drawing context.
    public func labelFits(configuration: Configuration, in rect: Rect, context: DrawContext) -> Bool { true }
}

/// A gauge's labels by kind: what a style shows, or what a gauge was given.
public struct GaugeLabelKinds: OptionSet, Sendable, Hashable {
    /// The bits of the set: 1 label, 2 current value, 4 minimum value, 8 maximum value.
    public let rawValue: Int
    /// Creates a set from its bits (see ``rawValue``).
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The gauge's label, which describes what it measures.
    public static let label = Self(rawValue: 1)
    /// The current value (a current-value label or the formatted value).
    public static let currentValue = Self(rawValue: 2)
    /// The label of the range's lower end.
    public static let minimumValue = Self(rawValue: 4)
    /// The label of the range's upper end.
    public static let maximumValue = Self(rawValue: 8)
    /// Every kind of label: label, current value, minimum and maximum value.
    public static let all: Self = [.label, .currentValue, .minimumValue, .maximumValue]

    /// The kinds `configuration` has a label of.
    public init(of configuration: GaugeStyleConfiguration) {
        self = []
        if configuration.label != nil { insert(.label) }
        if configuration.currentValueLabel != nil { insert(.currentValue) }
        if configuration.minimumValueLabel != nil { insert(.minimumValue) }
        if configuration.maximumValueLabel != nil { insert(.maximumValue) }
    }
}

/// The resolved state a ``GaugeStyle`` draws: the normalized value and the labels.
public struct GaugeStyleConfiguration: Sendable {
    /// The clamped value mapped to 0...1.
    public var value: Double
    /// The label that describes what the gauge measures, if any.
    public var label: GaugeLabel?
    /// The current value label; the formatted value if the gauge has a
    /// ``ValueFormat`` and no explicit label.
    public var currentValueLabel: GaugeLabel?
    /// The label of the range's lower end, if any.
    public var minimumValueLabel: GaugeLabel?
    /// The label of the range's upper end, if any.
    public var maximumValueLabel: GaugeLabel?
    /// Strings whose widest one sizes the current-value slot, so that a gauge never
    /// changes size as its value changes (the article's invisible "100 %").
    /// Empty when the current value label was given explicitly.
    public var sizingText: [String]
    /// The indicator's colour or gradient (threshold zones already resolved).
    public var tint: Tint
    /// When the environment asks for threshold zones on the track: the track's
    /// colours along the value axis (see ``Thresholds/zoneTint(over:opacity:uncovered:)``).
    /// Styles draw their track with it instead of their usual track colour.
    public var zoneTrack: Tint?
    /// The colours, fonts and sizes the style draws with besides the tint.
    public var environment: GaugeEnvironment
    /// The gauge's range, in its units: what a style that labels its scale
    /// (``DialGaugeStyle``) writes at its ticks. 0...1 unless the gauge says.
    public var range: ClosedRange<Double>
    /// The gauge's colour zones, in its units, for styles that draw them as
    /// parts of their scale (``DialGaugeStyle``'s sections).
    public var thresholds: Thresholds?
    /// Labels of particular values, in the gauge's units (see
    /// ``MarkedValueLabel``); empty unless the gauge has some.
    public var markedValueLabels: [MarkedValueLabel] = []
    /// Where the gauge's value lies against its range (``value`` is pinned
    /// at the end it passed).
    public var rangePosition: RangePosition = .within
    /// Whether the gauge has a value; without one a style draws no
    /// indicator (the tint is clear, and a dial leaves out its needle).
    public var hasValue = true

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - value: The value mapped to 0...1; clamped to that range, and NaN becomes 0.
    ///   - label: The label that describes what the gauge measures.
    ///   - currentValueLabel: The label of the current value.
    ///   - minimumValueLabel: The label of the range's lower end.
    ///   - maximumValueLabel: The label of the range's upper end.
    ///   - sizingText: Strings whose widest one sizes the current-value slot.
    ///   - tint: The indicator's colour or gradient.
    ///   - zoneTrack: The track's colours along the value axis, or nil for the usual track colour.
    ///   - environment: Colours, fonts and sizes besides the tint.
    ///   - range: The gauge's range, in its units.
    ///   - thresholds: The gauge's colour zones, in its units.
    public init(
        value: Double, label: GaugeLabel? = nil, currentValueLabel: GaugeLabel? = nil,
        minimumValueLabel: GaugeLabel? = nil, maximumValueLabel: GaugeLabel? = nil,
        sizingText: [String] = [], tint: Tint = .color(.blue), zoneTrack: Tint? = nil,
        environment: GaugeEnvironment = GaugeEnvironment(), range: ClosedRange<Double> = 0...1,
        thresholds: Thresholds? = nil
    ) {
        self.value = value.isNaN ? 0 : min(1, max(0, value))
        self.label = label
        self.currentValueLabel = currentValueLabel
        self.minimumValueLabel = minimumValueLabel
        self.maximumValueLabel = maximumValueLabel
        self.sizingText = sizingText
        self.tint = tint
        self.zoneTrack = zoneTrack
        self.environment = environment
        self.range = range
        self.thresholds = thresholds
    }
}

/// Colours and fonts a style uses besides the tint; SwiftUI takes these from its
/// environment.
public struct GaugeEnvironment: Sendable, Hashable {
    /// Primary text colour (labels, current value).
    public var foreground: Color = .white
    /// Colour of the panel behind the gauge; the "clear" padding around marker
    /// dots is painted in it, since a framebuffer has nothing to see through to.
    public var background: Color = Color(hex: 0x101418)
    /// Colour of the unfilled track (drawn over the background): white at
    /// 36 %, which shows as #66696B over the default background, 3.3:1
    /// against it, and as #5C5C5C over black, 3.1:1 (WCAG 2.x success
    /// criterion 1.4.11 asks 3:1 of the graphics a gauge is read by;
    /// ``Color/contrastRatio(against:)``).
    public var track: Color = Color.white.opacity(0.36)
    /// The font for every label.
    public var font: FontDescriptor = .default
    /// Pixel size of the secondary labels (label, min/max); the current value
    /// of circular styles is sized from the ring instead. Not used when
    /// ``typeScale`` is set.
    public var labelSize: Double = 12
    /// Text sizes from the gauge's cell (see ``TypeScale``); nil keeps
    /// ``labelSize`` and the sizes each style derives from its geometry.
    public var typeScale: TypeScale?
    /// More texts the current value is sized by, besides the gauge's own
    /// widest values: those of gauges it should match (a panel gives gauges
    /// of one style and size the same value size).
    public var valueSizingText: [String] = []
    /// Whether a gauge with ``Thresholds`` shows its zones along the track.
    public var showsThresholdZones = false
    /// Opacity of the zone colours on the track.
    public var thresholdZoneOpacity = 0.35
    /// The colour of a gauge whose value is out of its range: its indicator,
    /// and its track at ``outOfRangeTrackOpacity``, in every style. Magenta,
    /// a colour no default tint or threshold palette uses.
    public var outOfRange = Color(hex: 0xF03CF0)
    /// Opacity of ``outOfRange`` on the track of a gauge out of its range.
    public static let outOfRangeTrackOpacity = 0.45

    /// Creates an environment with the default colours, font and sizes.
    public init() {}
}
