/// The parts of a gauge that a draw call paints: what stays put while the value
/// changes (``static``) and what moves with it (``dynamic``).
///
/// A program that redraws a gauge on every value change can keep a picture of
/// the static layer and paint only the dynamic layer over it (paneld does): the
/// result is the same as drawing ``all``, because built-in styles draw every
/// static part before any dynamic one.
///
/// Built-in styles put the background-side parts in the static layer (track,
/// threshold zones, the label, the minimum and maximum labels) and the value
/// indicator and the current-value label in the dynamic one; only
/// `.accessoryCircular` keeps the labels in its opening dynamic, because they
/// are drawn over the marker, which reaches them at the ends. A custom style
/// draws everything in the dynamic layer unless it declares
/// ``GaugeStyle/separatesLayers``: correct, just not cacheable.
///
/// ```swift
/// gauge.draw(in: rect, on: pictureCanvas, layers: .static)   // once
/// gauge.withValue(v).draw(in: rect, on: canvas, layers: .dynamic)   // over a copy of the picture
/// ```
public struct GaugeLayers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// What does not depend on the value (as long as ``GaugeLayering/staticKey`` stays the same).
    public static let `static` = GaugeLayers(rawValue: 1)
    /// The value indicator and the current-value label.
    public static let dynamic = GaugeLayers(rawValue: 2)
    public static let all: GaugeLayers = [.static, .dynamic]
}

/// How one gauge's drawing in one rectangle splits into ``GaugeLayers``: what
/// its static layer depends on, and where its dynamic layer can paint.
public struct GaugeLayering {
    /// Two drawings of the same gauge (differing only in the value and what
    /// follows from it: current-value label, threshold colour) in the same
    /// rectangle have identical static layers when their keys are equal. A key
    /// that changes with the value only makes the static layer uncacheable.
    public var staticKey: AnyHashable
    /// Rectangles holding every pixel the dynamic layer can change; nil when
    /// that can be anywhere in the gauge's rectangle.
    public var dynamicBounds: [Rect]?

    public init(staticKey: AnyHashable, dynamicBounds: [Rect]?) {
        self.staticKey = staticKey
        self.dynamicBounds = dynamicBounds
    }

    /// All dynamic, anywhere, with a static layer that never changes: what a
    /// style that does not separate its layers gets.
    public static var unseparated: GaugeLayering { GaugeLayering(staticKey: AnyHashable(0), dynamicBounds: nil) }
}

extension Rect {
    /// The smallest rectangle holding both.
    func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }
}

extension CircularGaugeLayout {
    /// A box holding every pixel of the stroke from normalized value `from` to
    /// `to` (either end cap, round or butt; dashed or not): the centre line's
    /// bounding box grown by half the stroke, plus one pixel for anti-aliasing
    /// and the flattener's outward offset.
    public func strokeBounds(from v0: Double, to v1: Double) -> Rect {
        let a0 = angle(for: min(v0, v1)).degrees, a1 = angle(for: max(v0, v1)).degrees
        var box = Rect(x: point(for: v0).x, y: point(for: v0).y, width: 0, height: 0)
        func add(_ p: Point) { box = box.union(Rect(x: p.x, y: p.y, width: 0, height: 0)) }
        add(point(for: v1))
        // The circle's extremes (3, 6, 9 and 12 o'clock) that the arc passes.
        var a = (a0 / 90).rounded(.up) * 90
        while a < a1 {
            add(center.onCircle(radius: radius, angle: .degrees(a)))
            a += 90
        }
        return box.insetBy(-(lineWidth / 2 + 1))
    }
}
