/// What drawing needs besides the geometry: the fonts and the environment.
public struct DrawContext: Sendable {
    /// The fonts labels are drawn with, loaded and cached on first use.
    public var fonts: FontCache
    /// The colours, font and sizes drawing uses besides a gauge's tint.
    public var environment: GaugeEnvironment
    /// The parts to draw; styles that separate their layers skip the others.
    public var layers: GaugeLayers
    /// The text sizes of the gauge's cell, when its environment has a
    /// ``GaugeEnvironment/typeScale``; nil: labels take the environment's
    /// ``GaugeEnvironment/labelSize`` and a centred value is sized from its ring.
    public var textSizes: TextSizes?

    /// Creates a drawing context.
    ///
    /// - Parameters:
    ///   - fonts: The font cache; the process-wide ``FontCache/shared`` by default.
    ///   - environment: The colours, font and sizes.
    ///   - layers: The parts to draw; both layers by default.
    ///   - textSizes: The text sizes of the gauge's cell, or nil for the environment's label size.
    public init(
        fonts: FontCache = .shared, environment: GaugeEnvironment = GaugeEnvironment(), layers: GaugeLayers = .all,
        textSizes: TextSizes? = nil
    ) {
        self.fonts = fonts
        self.environment = environment
        self.layers = layers
        self.textSizes = textSizes
    }

    /// Size of the label (as a title or in a style's label row) and of a
    /// linear gauge's current value.
    public var titleSize: Double { textSizes?.title ?? environment.labelSize }

    /// Size of the minimum and maximum labels.
    public var endLabelSize: Double { textSizes?.endLabel ?? environment.labelSize }

    /// A copy drawing `layers`.
    func with(layers: GaugeLayers) -> DrawContext {
        var copy = self
        copy.layers = layers
        return copy
    }

    /// The environment's font at `pixelSize`, or nil if it cannot be opened (text
    /// is then left out rather than drawn as garbage; ``Gauge/validateFont(fonts:)``
    /// reports the reason up front).
    public func font(size pixelSize: Double) -> Font? {
        try? fonts.font(environment.font, pixelSize: pixelSize)
    }
}

extension GaugeLabel {
    /// The label's natural size when its text is set at `pixelSize`.
    public func size(pixelSize: Double, context: DrawContext) -> Size {
        switch self {
        case .text(let s):
            guard let font = context.font(size: pixelSize) else { return .zero }
            return Size(width: font.advance(of: s), height: font.ascender + font.descender)
        case .icon(let icon):
            return Size(width: Double(icon.width), height: Double(icon.height))
        case .custom(let d):
            return d.sizeThatFits(Size(width: .infinity, height: .infinity), context: context)
        }
    }
}
