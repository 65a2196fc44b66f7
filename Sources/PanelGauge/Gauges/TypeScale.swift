/// Text sizes that follow a gauge's cell: a few roles (title, value, end
/// labels), each a fraction of the cell's measure rounded down to a step of
/// one fixed ladder, so gauges in cells of the same size show text of the
/// same sizes, and sizes on a panel come from a handful of values.
///
/// The cell's measure is `min(sqrt(width x height), 2.5 x min(width, height))`:
/// a 300x40 bar and a 110x110 ring count as the same amount of panel, while a
/// long thin cell cannot ask for text taller than it has room for. Each role
/// is `fraction x measure`, at least ``minimum`` px (readable on a small
/// panel), at most `0.3 x min(width, height)`, then rounded down to a step of
/// ``steps``.
///
/// The value role is an upper bound: a style sets its current value at the
/// largest step, at most ``TextSizes/value``, at which the widest text the
/// value can show (the range's ends in its ``ValueFormat``, "100 %" for the
/// ring) fits the style's slot, so the text never overflows and never changes
/// size with the value. Gauges of one style and range in cells of one size
/// therefore show one value size.
public struct TypeScale: Sendable, Hashable {
    /// Title (the gauge's label) as a fraction of the cell's measure.
    public var title = 0.1
    /// Upper bound of the current value's size, as a fraction of the measure.
    public var value = 0.3
    /// Minimum and maximum labels, as a fraction of the measure.
    public var endLabel = 0.08
    /// Smallest size of the title and end labels, in pixels.
    public var minimum = 9.0
    /// Largest title, in pixels; nil: no limit but the cell's. A panel sets
    /// the title its smallest cell gets (``uniform(over:)``), so every title
    /// on it is one size however large its cell.
    public var titleLimit: Double?
    /// Largest end label, in pixels; nil: no limit but the cell's (see
    /// ``titleLimit``).
    public var endLabelLimit: Double?
    /// Largest current value, in pixels; nil: no limit but the cell's. A panel
    /// sets the smallest value size its gauges of one cell size choose, so
    /// they show one value size whatever their styles.
    public var valueLimit: Double?

    /// Creates a type scale with the default fractions: title 0.1, value 0.3, end labels 0.08 of the measure, at least
    /// 9 pixels.
    public init() {}

    /// This scale with the title and end labels limited to what the smallest
    /// of `cells` gets (by its measure), so gauges in cells of any size on one
    /// panel show titles of one size and end labels of one size; current
    /// values keep following their own cells. Cells with no area count for
    /// nothing; with none left, the scale is returned as it is.
    public func uniform(over cells: [Size]) -> TypeScale {
        var unlimited = self
        unlimited.titleLimit = nil
        unlimited.endLabelLimit = nil
        let sizes = cells.filter { Self.measure(of: $0) > 0 }.map { unlimited.sizes(for: $0) }
        guard let title = sizes.map(\.title).min(), let end = sizes.map(\.endLabel).min() else { return self }
        var limited = self
        limited.titleLimit = min(title, titleLimit ?? title)
        limited.endLabelLimit = min(end, endLabelLimit ?? end)
        return limited
    }

    /// The ladder of sizes in pixels, about 1.1 to 1.2 apart; above the last
    /// step, sizes go by multiples of 32.
    public static let steps: [Double] = [
        6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 22, 24, 28, 32, 36, 40, 44, 48, 56, 64, 72, 80, 96, 112, 128,
        144, 160, 192, 224, 256,
    ]

    /// The largest step at most `size` (at least 1 for sizes below the first step).
    public static func step(atMost size: Double) -> Double {
        guard size.isFinite else { return size > 0 ? steps.last! : 1 }
        if size >= steps.last! { return (size / 32).rounded(.down) * 32 }
        return steps.last(where: { $0 <= size }) ?? max(1, size.rounded(.down))
    }

    /// The measure the roles are fractions of, for a cell of `size`.
    public static func measure(of size: Size) -> Double {
        let short = min(size.width, size.height)
        guard short > 0 else { return 0 }
        return min((size.width * size.height).squareRoot(), 2.5 * short)
    }

    /// The sizes for a cell of `size`.
    public func sizes(for size: Size) -> TextSizes {
        let m = Self.measure(of: size)
        let cap = 0.3 * min(size.width, size.height)
        func role(_ fraction: Double, floor: Double) -> Double {
            Self.step(atMost: max(1, min(cap, max(floor, fraction * m))))
        }
        return TextSizes(
            title: min(role(title, floor: minimum), titleLimit.map { Self.step(atMost: $0) } ?? .infinity),
            value: min(role(value, floor: minimum), valueLimit.map { Self.step(atMost: $0) } ?? .infinity),
            endLabel: min(role(endLabel, floor: minimum), endLabelLimit.map { Self.step(atMost: $0) } ?? .infinity))
    }
}

/// The text sizes of one gauge, in pixels (see ``TypeScale``).
public struct TextSizes: Sendable, Hashable {
    /// The label: as a title, or in a style's own label row. Linear styles
    /// set their current value at this size too, as SwiftUI sets both rows
    /// in one body size.
    public var title: Double
    /// Upper bound of a centred current value.
    public var value: Double
    /// Minimum and maximum labels.
    public var endLabel: Double

    /// Creates a set of text sizes.
    ///
    /// - Parameters:
    ///   - title: The label's size, in pixels.
    ///   - value: The upper bound of a centred current value's size, in pixels.
    ///   - endLabel: The minimum and maximum labels' size, in pixels.
    public init(title: Double, value: Double, endLabel: Double) {
        self.title = title
        self.value = value
        self.endLabel = endLabel
    }
}
