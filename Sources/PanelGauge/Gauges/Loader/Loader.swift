/// The customizable loader of the loader-styles article: an arc trimmed to the
/// progress, with round ends, spinning once per ``rotationPeriod``; its look
/// comes from a ``LoaderStyle``.
///
/// Rotation is a pure function of time: ``body(at:)`` gives the drawing for
/// one instant, so a renderer asks for each frame's timestamp and tests pick
/// times explicitly.
///
/// ```swift
/// struct Secondary: LoaderStyle {
///     func makeBody(configuration: Configuration) -> some Drawable {
///         configuration.indicator.tint(.red).frame(width: 40, height: 40)
///     }
/// }
/// ```
public struct Loader: Sendable {
    /// 0...1 (clamped; NaN is 0).
    public let progress: Double
    /// The look of the loader.
    public var style: any LoaderStyle
    /// Seconds per turn; 1 s as in the article. 0 or less stops the spin.
    public var rotationPeriod: Double = 1

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - progress: The part of a turn the arc covers, clamped to 0...1; NaN becomes 0.
    ///   - style: The look of the loader.
    public init(progress: Double, style: any LoaderStyle = PlainLoaderStyle()) {
        self.progress = progress.isNaN ? 0 : min(1, max(0, progress))
        self.style = style
    }

    /// `.loaderStyle(.primary)`.
    public func loaderStyle(_ style: some LoaderStyle) -> Loader {
        var copy = self
        copy.style = style
        return copy
    }

    /// The spin at `time` (seconds): linear, one turn per period, repeating.
    public func rotation(at time: Double) -> Angle {
        guard rotationPeriod > 0, time.isFinite else { return 0 }
        let turns = time / rotationPeriod
        return .degrees(360 * (turns - turns.rounded(.down)))
    }

    /// Draws the loader as it is at `time` into `rect`, clipped to it.
    public func draw(in rect: Rect, on canvas: Canvas, at time: Double, fonts: FontCache = .shared) {
        guard rect.isDrawable else { return }
        canvas.withClip(IntRect(covering: rect)) {
            body(at: time).draw(in: rect, on: canvas, context: DrawContext(fonts: fonts))
        }
    }

    /// The styled drawing at `time`.
    public func body(at time: Double) -> any Drawable {
        let configuration = LoaderStyleConfiguration(
            progress: progress, indicator: LoaderIndicator(progress: progress, rotation: rotation(at: time)))
        return style.makeBody(configuration: configuration)
    }
}

/// Turns a loader's configuration into a drawing (the article's `LoaderStyle`).
public protocol LoaderStyle: Sendable {
    /// The type of drawing this style makes for a loader.
    associatedtype Body: Drawable
    /// The properties of a loader that a style draws: its progress and the ready-made indicator.
    typealias Configuration = LoaderStyleConfiguration
    /// Returns the drawing of a loader in this style.
    ///
    /// - Parameter configuration: The loader's progress and indicator.
    func makeBody(configuration: Configuration) -> Body
}

/// What a ``LoaderStyle`` receives: the progress and the ready-made indicator.
public struct LoaderStyleConfiguration: Sendable {
    /// The part of a turn the arc covers, in 0...1.
    public let progress: Double
    /// The spinning arc, ready to be tinted, framed or drawn as it is.
    public let indicator: LoaderIndicator
}

/// The spinning arc: from the loader's rotation angle (0 = 3 o'clock, where
/// SwiftUI's `Circle().trim` starts) clockwise over `progress` of a turn, with
/// round ends, in the tint. It fills the largest square of its rectangle; the
/// stroke is 0.1 of the square's side (8 px at the article's ideal 80 px), and
/// stays inside the square.
public struct LoaderIndicator: Drawable {
    /// The part of a turn the arc covers, in 0...1; 0 draws nothing.
    public let progress: Double
    /// Where the arc starts; see ``Angle`` for the convention.
    public let rotation: Angle
    /// The arc's paint; blue unless set with ``tint(_:)-(Color)``.
    public private(set) var tint: Tint = .color(.blue)
    /// The article's ideal size.
    public static let idealSide = 80.0

    /// Creates an indicator in the default tint.
    ///
    /// - Parameters:
    ///   - progress: The part of a turn the arc covers, in 0...1.
    ///   - rotation: Where the arc starts.
    public init(progress: Double, rotation: Angle) {
        self.progress = progress
        self.rotation = rotation
    }

    /// Returns the indicator painted in a solid colour.
    ///
    /// - Parameter color: The arc's colour.
    public func tint(_ color: Color) -> LoaderIndicator {
        var copy = self
        copy.tint = .color(color)
        return copy
    }

    /// Returns the indicator painted with a tint, solid or gradient; a gradient runs along the full turn from the
    /// start.
    ///
    /// - Parameter tint: The arc's paint.
    public func tint(_ tint: Tint) -> LoaderIndicator {
        var copy = self
        copy.tint = tint
        return copy
    }

    /// Where the arc goes in `rect`.
    public func layout(in rect: Rect) -> CircularGaugeLayout {
        .inscribed(in: rect, lineWidthFraction: 0.1, startAngle: rotation)
    }

    /// Returns the indicator's ideal size, ``idealSide`` square, whatever the proposal.
    ///
    /// - Parameters:
    ///   - proposal: The size offered.
    ///   - context: The drawing context.
    public func sizeThatFits(_ proposal: Size, context: DrawContext) -> Size {
        Size(width: Self.idealSide, height: Self.idealSide)
    }

    /// Draws the arc in the largest square of a rectangle.
    ///
    /// - Parameters:
    ///   - rect: The rectangle to draw into, in pixels.
    ///   - canvas: The canvas to draw on.
    ///   - context: The drawing context.
    public func draw(in rect: Rect, on canvas: Canvas, context: DrawContext) {
        let l = layout(in: rect)
        guard progress > 0, l.radius > 0 else { return }
        canvas.strokeArc(
            center: l.center, radius: l.radius, startAngle: l.startAngle, sweep: l.sweep * progress,
            width: l.lineWidth, cap: .round,
            paint: tint.arcPaint(center: l.center, arcStart: l.startAngle, arcSweep: l.sweep))
    }
}

/// The indicator alone at its ideal size, in the default tint.
public struct PlainLoaderStyle: LoaderStyle {
    /// Creates the plain loader style.
    public init() {}
    /// Returns the indicator framed at its ideal size.
    ///
    /// - Parameter configuration: The loader's progress and indicator.
    public func makeBody(configuration: Configuration) -> some Drawable {
        configuration.indicator.frame(width: LoaderIndicator.idealSide, height: LoaderIndicator.idealSide)
    }
}
