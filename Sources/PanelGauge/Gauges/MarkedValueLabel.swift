/// A label that describes a particular value of a gauge: SwiftUI's tagged
/// views in a gauge's `markedValueLabels` (`Text("Full").tag(100)`).
///
/// SwiftUI's documentation says what they are (views tagged with the value
/// each describes) but not which of its styles draw them; in PanelGauge a
/// style with a scale shows them, in the place of its scale's numbers: the
/// dial writes each at its value's angle, with a major tick there; the
/// linear styles write each under a major tick at its value's place along
/// the bar, with or without a ``LinearScale``. The styles without a scale
/// (the accessory circular ones, the ring, the stepped bar) leave them
/// out: around their small rings a label at every marked value would meet
/// the ring's end labels and centre value. A marked value outside the
/// gauge's range is not shown; of two that would come closer than their
/// gap, the later in value order is left out (the last keeps its place),
/// and a mark whose label is left out has no tick either.
public struct MarkedValueLabel: Sendable {
    /// The value it describes, in the gauge's units.
    public var value: Double
    /// What is written there.
    public var label: GaugeLabel

    /// The label `label` at `value`.
    public init(value: Double, label: GaugeLabel) {
        self.value = value
        self.label = label
    }
}

extension GaugeLabel {
    /// This label marking `value` of a gauge (SwiftUI's `.tag(_:)` on a
    /// view in `markedValueLabels`).
    ///
    /// - Parameter value: The value it describes, in the gauge's units.
    public func tag(_ value: some BinaryFloatingPoint) -> MarkedValueLabel {
        MarkedValueLabel(value: Double(value), label: self)
    }
}
