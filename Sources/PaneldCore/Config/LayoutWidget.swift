import PanelGauge

/// A slot of a layout that shows something other than a gauge: a text
/// widget (its text from the layout, then from the socket), a clock (the
/// local time in a `strftime` format) or a history chart of gauges' values
/// (``LayoutChart``).
///
/// Its text is one line at a step of the panel's type scale (``TypeScale``)
/// for its rectangle, the gauges' title or value step, so widgets and gauges
/// in rectangles of one size show the same sizes; a text wider than its place
/// ends in an ellipsis.
package struct LayoutWidget: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// Text set on the socket (`NAME TEXT`); `initial` until then.
        case text(initial: String)
        /// The local time in `format` (`strftime`'s conversions).
        case clock(format: String)
        /// A history chart of gauges' values.
        case chart(LayoutChart)
    }

    /// Which step of the type scale the text takes.
    enum Step: String, Sendable, Equatable, CaseIterable {
        /// The gauges' title step.
        case title
        /// The gauges' largest value step (a clock: the largest step at which
        /// its widest text fits, so it never changes size with the time).
        case value
    }

    var kind: Kind
    var size = Step.title
    var alignment = HorizontalAlignment.center
    /// The text's colour; nil = the layout's foreground.
    var color: Color?

    /// The default clock format: hours and minutes.
    static let defaultClockFormat = "%H:%M"

    package var clockFormat: String? {
        if case .clock(let f) = kind { return f }
        return nil
    }

    /// The chart, for a chart widget.
    package var chart: LayoutChart? {
        if case .chart(let c) = kind { return c }
        return nil
    }

    var isText: Bool {
        if case .text = kind { return true }
        return false
    }
}

/// One page of a layout: a name for `page NAME` and the grid its slots
/// without a `rect` are placed on (nil = the layout's).
struct LayoutPage: Sendable, Equatable {
    var name: String
    var grid: LayoutGrid?
    /// Line of the page's object in the layout file, for messages.
    var line: Int?
}
