/// The recent history of one value in a fixed number of time buckets: for
/// each, the minimum, maximum and last value that came in its time, so a
/// spike shorter than a bucket survives the downsampling (RRDtool's MIN and
/// MAX consolidation). Its memory is fixed at creation: `points` buckets of
/// three numbers, whatever the rate or the length of time recorded.
///
/// Time is in seconds on any clock that does not run backward often
/// (paneld uses the wall clock, so a history survives a restart). Bucket `n`
/// holds the values recorded at times in `[n * width, (n + 1) * width)`,
/// `width = span / points`; the history keeps the `points` buckets up to the
/// newest one recorded. A value recorded at a time older than that is
/// dropped; a bucket in which nothing was recorded is a gap, never a zero.
public struct ValueHistory: Sendable, Hashable {
    /// What came in one bucket's time.
    public struct Bucket: Sendable, Hashable {
        /// The smallest value recorded in the bucket.
        public var min: Double
        /// The largest value recorded in the bucket.
        public var max: Double
        /// The value recorded last in the bucket.
        public var last: Double

        /// A bucket holding these values (`min <= last <= max`, all finite).
        public init(min: Double, max: Double, last: Double) {
            self.min = min
            self.max = max
            self.last = last
        }
    }

    /// Why a history cannot be made.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The span is not a positive, finite number of seconds (at most ``maxSpan``).
        case badSpan(Double)
        /// The number of points is outside `2...maxPoints`.
        case badPoints(Int)

        /// A sentence saying which bound is broken.
        public var description: String {
            switch self {
            case .badSpan(let s): "a history spans 1 s to \(Int(ValueHistory.maxSpan)) s, not \(s)"
            case .badPoints(let n): "a history has 2 to \(ValueHistory.maxPoints) points, not \(n)"
            }
        }
    }

    /// The most buckets a history keeps (a chart across a 1920-pixel screen has one per pixel).
    public static let maxPoints = 2048
    /// The longest span: 31 days.
    public static let maxSpan = 31.0 * 86400

    /// The length of time the buckets cover, in seconds.
    public let span: Double
    /// The number of buckets.
    public let points: Int
    /// One bucket's length of time, in seconds: `span / points`.
    public var width: Double { span / Double(points) }

    /// Bucket `n` is at `ring[n mod points]`; a bucket never recorded is nil.
    private var ring: [Bucket?]
    /// The number of the newest bucket recorded; nil while nothing was.
    public private(set) var newest: Int64?

    /// An empty history of `points` buckets over `span` seconds.
    public init(span: Double, points: Int) throws(Error) {
        guard span.isFinite, span >= 1, span <= Self.maxSpan else { throw .badSpan(span) }
        guard points >= 2, points <= Self.maxPoints else { throw .badPoints(points) }
        self.span = span
        self.points = points
        ring = Array(repeating: nil, count: points)
    }

    /// The number of the bucket holding time `t`; nil for a time no bucket
    /// can hold (not finite, or beyond about 10^15 buckets from 0).
    public func bucketNumber(at t: Double) -> Int64? {
        let n = (t / width).rounded(.down)
        guard n.isFinite, abs(n) < 1e15 else { return nil }
        return Int64(n)
    }

    /// Records `value` at time `t`: the bucket holding `t` takes it as its
    /// last value and widens its minimum and maximum to it. A time later than
    /// the newest bucket starts a new one (the buckets in between, when any,
    /// stay gaps); a time older than the buckets kept is dropped, as is a
    /// value or time that is not finite. Returns whether it was kept.
    @discardableResult
    public mutating func record(_ value: Double, at t: Double) -> Bool {
        guard value.isFinite, let n = bucketNumber(at: t) else { return false }
        if let newest {
            if n <= newest - Int64(points) { return false }
            if n > newest {
                // Clear the buckets the newest one passes over (at most all of them).
                let cleared = Swift.min(n - newest, Int64(points))
                for k in (n - cleared + 1)...n { ring[slot(k)] = nil }
                self.newest = n
            }
        } else {
            newest = n
        }
        let i = slot(n)
        if var b = ring[i] {
            b.min = Swift.min(b.min, value)
            b.max = Swift.max(b.max, value)
            b.last = value
            ring[i] = b
        } else {
            ring[i] = Bucket(min: value, max: value, last: value)
        }
        return true
    }

    private func slot(_ n: Int64) -> Int { Int(((n % Int64(points)) + Int64(points)) % Int64(points)) }

    /// The bucket numbered `n`; nil when nothing was recorded in its time or
    /// it is older than the buckets kept.
    public func bucket(_ n: Int64) -> Bucket? {
        guard let newest, n <= newest, n > newest - Int64(points) else { return nil }
        return ring[slot(n)]
    }

    /// The `points` buckets that end with the one holding `now`, oldest
    /// first; nil for each gap (and for each bucket after the newest one
    /// recorded).
    public func buckets(endingAt now: Double) -> [Bucket?] {
        guard let end = bucketNumber(at: now) else { return Array(repeating: nil, count: points) }
        return (0..<Int64(points)).map { bucket(end - Int64(points) + 1 + $0) }
    }

    /// The smallest minimum, largest maximum and newest last value of the
    /// buckets that end with the one holding `now`; nil when they are all gaps.
    public func summary(endingAt now: Double) -> Bucket? {
        var s: Bucket?
        for case let b? in buckets(endingAt: now) {
            s = s.map { Bucket(min: Swift.min($0.min, b.min), max: Swift.max($0.max, b.max), last: b.last) } ?? b
        }
        return s
    }

    /// Every bucket kept, as (number, bucket), oldest first: what a saved
    /// copy holds (``init(span:points:buckets:)`` restores it).
    public var recorded: [(number: Int64, bucket: Bucket)] {
        guard let newest else { return [] }
        return ((newest - Int64(points) + 1)...newest).compactMap { n in ring[slot(n)].map { (n, $0) } }
    }

    /// A history of `points` buckets over `span` seconds holding `buckets`
    /// (numbered as ``recorded`` gives them); a bucket that is not finite or
    /// not ordered (`min <= last <= max`) is left out, and so are those older
    /// than the `points` up to the newest.
    public init(span: Double, points: Int, buckets: [(number: Int64, bucket: Bucket)]) throws(Error) {
        try self.init(span: span, points: points)
        let good = buckets.filter {
            let b = $0.bucket
            return b.min.isFinite && b.max.isFinite && b.last.isFinite && b.min <= b.last && b.last <= b.max
                && abs($0.number) < 1_000_000_000_000_000
        }
        guard let top = good.map(\.number).max() else { return }
        newest = top
        for (n, b) in good where n > top - Int64(points) { ring[slot(n)] = b }
    }

    /// Whether two histories have the same span, points and buckets.
    public static func == (a: Self, b: Self) -> Bool {
        a.span == b.span && a.points == b.points && a.newest == b.newest
            && a.recorded.elementsEqual(b.recorded) { $0.number == $1.number && $0.bucket == $1.bucket }
    }

    /// Hashes the span, points and buckets.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(span)
        hasher.combine(points)
        hasher.combine(newest)
        for (n, b) in recorded {
            hasher.combine(n)
            hasher.combine(b)
        }
    }
}
