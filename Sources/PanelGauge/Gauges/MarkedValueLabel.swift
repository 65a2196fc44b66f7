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

extension GaugeStyleConfiguration {
    /// The marked values a style can show: those in the range, with their
    /// indices in ``markedValueLabels``.
    var marksInRange: [(offset: Int, element: MarkedValueLabel)] {
        markedValueLabels.enumerated().filter { $0.element.value.isFinite && range.contains($0.element.value) }
    }
}

/// Marks' labels thinned as every style with a scale thins them: in the
/// order `before` gives (their values'), a label that does not `fit` beside
/// those kept is left out, but the last one keeps its place over the one
/// kept before it.
func thinnedMarks<Label>(_ placed: [Label], before: (Label, Label) -> Bool, fits: ([Label], Label) -> Bool)
    -> [Label]
{
    let order = placed.sorted(by: before)
    var kept: [Label] = []
    for (n, label) in order.enumerated() {
        if !fits(kept, label) {
            guard n == order.count - 1, kept.count > 1 else { continue }
            kept.removeLast()
            if !fits(kept, label) { continue }
        }
        kept.append(label)
    }
    return kept
}
