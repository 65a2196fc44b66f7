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

    /// Creates a text label from a string literal.
    ///
    /// - Parameter value: The label's text.
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
    /// The icon's width, in pixels.
    public let width: Int
    /// The icon's height, in pixels.
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

    /// An icon from a white-on-black picture: each pixel's coverage is its
    /// luminance (Rec. 601 weights on the 8-bit values). Our PNG decoder drops
    /// alpha, so icon files are drawn white on black rather than on transparency.
    public init?(luminanceOf rgb: [UInt8], width: Int, height: Int) {
        guard width >= 0, height >= 0, rgb.count == width * height * 3 else { return nil }
        var cov = [UInt8](repeating: 0, count: width * height)
        for i in 0..<cov.count {
            let y = 299 * Int(rgb[3 * i]) + 587 * Int(rgb[3 * i + 1]) + 114 * Int(rgb[3 * i + 2])
            cov[i] = UInt8((y + 500) / 1000)
        }
        self.init(width: width, height: height, coverage: cov)
    }

    /// The icon scaled to `width` x `height` pixels: each new pixel is the
    /// area-weighted mean of the old pixels under it (a box filter, which keeps
    /// thin strokes when shrinking). Nil for a non-positive size or an empty icon.
    public func resized(width w: Int, height h: Int) -> Icon? {
        guard w > 0, h > 0, width > 0, height > 0 else { return nil }
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        var out = [UInt8](repeating: 0, count: w * h)
        for j in 0..<h {
            let y0 = Double(j) * sy, y1 = y0 + sy
            for i in 0..<w {
                let x0 = Double(i) * sx, x1 = x0 + sx
                var sum = 0.0
                for y in Int(y0)..<min(height, Int(y1.rounded(.up))) {
                    let wy = min(y1, Double(y + 1)) - max(y0, Double(y))
                    for x in Int(x0)..<min(width, Int(x1.rounded(.up))) {
                        let wx = min(x1, Double(x + 1)) - max(x0, Double(x))
                        sum += wx * wy * Double(coverage[y * width + x])
                    }
                }
                out[j * w + i] = UInt8(min(255, (sum / (sx * sy)).rounded()))
            }
        }
        return Icon(width: w, height: h, coverage: out)
    }

    /// An icon from a white-on-black PNG file's bytes (see ``init(luminanceOf:width:height:)``).
    public init(png: [UInt8]) throws {
        let d = try PNG.decode(png)
        self.init(luminanceOf: d.rgb, width: d.width, height: d.height)!
    }
}

/// A width and a height in pixels (continuous, see ``Point``).
public struct Size: Sendable, Hashable {
    /// The width, in pixels.
    public var width: Double
    /// The height, in pixels.
    public var height: Double
    /// Creates a size from a width and a height, in pixels.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    /// A size of zero width and height.
    public static let zero = Size(width: 0, height: 0)
}
