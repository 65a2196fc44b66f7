import Glibc

/// What a finger did on the screen.
package enum TouchGesture: Equatable, Sendable {
    /// A quick stroke across the screen; the direction the finger moved.
    case swipe(SwipeDirection)
    /// A short touch without moving, at a logical point.
    case tap(x: Double, y: Double)
    /// A touch held still for ``GestureRecognizer/longPress`` milliseconds.
    case longPress(x: Double, y: Double)
}

package enum SwipeDirection: Equatable, Sendable {
    case left, right, up, down
}

/// Recognises swipes, taps and long presses from one finger's positions.
///
/// A value with no clock: each position comes with monotonic milliseconds,
/// and ``deadline`` says when a finger held still becomes a long press, so
/// the daemon wakes for it only while a finger is down.
///
/// The distances follow the screen's size: a finger that moves less than
/// ``slop(width:height:)`` (4 % of the shorter side, at least 8 px) is still;
/// a swipe moves at least a fifth of the screen along its axis, twice as far
/// as across it, within ``swipeTime``.
package struct GestureRecognizer: Sendable {
    /// Milliseconds a still finger takes to become a long press.
    package static let longPress: Int64 = 700
    /// The longest a swipe may take, in milliseconds.
    package static let swipeTime: Int64 = 1000

    package var width: Double
    package var height: Double
    /// Where and when the finger went down, while it is down.
    private var start: (x: Double, y: Double, at: Int64)?
    /// Whether the finger left the slop around where it went down.
    private var moved = false
    /// The long press was reported: the lift ends it without a tap.
    private var pressed = false

    package init(width: Int, height: Int) {
        self.width = Double(width)
        self.height = Double(height)
    }

    /// How far a finger may wander and still be still.
    static func slop(width: Double, height: Double) -> Double { max(8, 0.04 * min(width, height)) }

    /// When a finger held still becomes a long press; nil when no finger is down
    /// (or it has moved, or the press was reported).
    package var deadline: Int64? {
        guard let start, !moved, !pressed else { return nil }
        return start.at + Self.longPress
    }

    /// The finger is at a logical point at `now`: a long press when one is due.
    package mutating func touch(x: Double, y: Double, at now: Int64) -> TouchGesture? {
        guard let s = start else {
            start = (x, y, now)
            moved = false
            pressed = false
            return nil
        }
        if !moved && hypot(x - s.x, y - s.y) > Self.slop(width: width, height: height) { moved = true }
        return due(now: now)
    }

    /// The deadline passed without a position: a long press when one is due.
    package mutating func due(now: Int64) -> TouchGesture? {
        guard let d = deadline, let s = start, now >= d else { return nil }
        pressed = true
        return .longPress(x: s.x, y: s.y)
    }

    /// The finger lifted at a logical point at `now`.
    package mutating func lift(x: Double, y: Double, at now: Int64) -> TouchGesture? {
        guard let s = start else { return nil }
        defer { start = nil }
        if pressed { return nil }
        if !moved && hypot(x - s.x, y - s.y) > Self.slop(width: width, height: height) { moved = true }
        guard moved else { return now - s.at >= Self.longPress ? .longPress(x: s.x, y: s.y) : .tap(x: s.x, y: s.y) }
        guard now - s.at <= Self.swipeTime else { return nil }
        let dx = x - s.x
        let dy = y - s.y
        if abs(dx) >= width / 5 && abs(dx) >= 2 * abs(dy) { return .swipe(dx < 0 ? .left : .right) }
        if abs(dy) >= height / 5 && abs(dy) >= 2 * abs(dx) { return .swipe(dy < 0 ? .up : .down) }
        return nil
    }

    /// Events were lost: the finger's gesture is dropped.
    package mutating func cancel() { start = nil }
}
