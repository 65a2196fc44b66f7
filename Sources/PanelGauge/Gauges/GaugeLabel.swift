/// The content of one of a gauge's labels: text, an icon, or a custom drawing.
///
/// A string literal is a text label, so label closures read as in SwiftUI:
/// `Gauge(value: 0.4) { "CPU" }`.
public enum GaugeLabel: Sendable, ExpressibleByStringLiteral {
    /// Text in the environment's font and foreground colour.
    case text(String)
    /// A monochrome icon drawn in the foreground colour.
    case icon(Icon)
    /// Anything that can size itself and draw into a rectangle.
    case custom(any Drawable)

    public init(stringLiteral value: String) { self = .text(value) }

    /// The text, if this is a text label.
    public var text: String? {
        if case .text(let s) = self { return s }
        return nil
    }
}

/// A monochrome icon: an 8-bit coverage mask (0 = transparent, 255 = solid),
/// painted in a colour when drawn. Its size is its natural size in pixels.
public struct Icon: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// Row-major coverage, `width * height` bytes.
    public let coverage: [UInt8]

    /// Fails if `coverage` does not hold `width * height` bytes.
    public init?(width: Int, height: Int, coverage: [UInt8]) {
        guard width >= 0, height >= 0, coverage.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.coverage = coverage
    }
}

/// A width and a height in pixels (continuous, see ``Point``).
public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    public static let zero = Size(width: 0, height: 0)
}
