import Testing
@testable import PanelGauge

@Suite struct ValueHistoryTests {
    typealias Bucket = ValueHistory.Bucket

    @Test func bucketsHoldMinMaxAndLastOfTheirTime() throws {
        var h = try ValueHistory(span: 60, points: 6)  // 10 s buckets
        #expect(h.width == 10)
        #expect(h.buckets(endingAt: 100).allSatisfy { $0 == nil })
        #expect(h.summary(endingAt: 100) == nil)
        h.record(5, at: 100)
        h.record(9, at: 104)
        h.record(2, at: 109.9)
        h.record(7, at: 121)  // bucket 12; bucket 11 stays a gap
        #expect(h.bucket(10) == Bucket(min: 2, max: 9, last: 2))
        #expect(h.bucket(11) == nil)
        #expect(h.bucket(12) == Bucket(min: 7, max: 7, last: 7))
        #expect(
            h.buckets(endingAt: 125) == [
                nil, nil, nil, Bucket(min: 2, max: 9, last: 2), nil, Bucket(min: 7, max: 7, last: 7),
            ])
        // Two buckets on, with no new value: the window moves, the buckets after the newest are gaps.
        #expect(
            h.buckets(endingAt: 145) == [
                nil, Bucket(min: 2, max: 9, last: 2), nil, Bucket(min: 7, max: 7, last: 7), nil, nil,
            ])
        #expect(h.summary(endingAt: 145) == Bucket(min: 2, max: 9, last: 7))
        // A late value in a bucket still kept widens it; one older than them is dropped.
        do { let kept = h.record(1, at: 103); #expect(kept) }
        #expect(h.bucket(10) == Bucket(min: 1, max: 9, last: 1))
        do { let kept = h.record(1, at: 60); #expect(!kept) }
        // No data is never zero, and not-finite values and times are dropped.
        do { let kept = h.record(.nan, at: 122); #expect(!kept) }
        do { let kept = h.record(.infinity, at: 122); #expect(!kept) }
        do { let kept = h.record(3, at: .nan); #expect(!kept) }
        do { let kept = h.record(3, at: 1e300); #expect(!kept) }
        #expect(h.bucket(12) == Bucket(min: 7, max: 7, last: 7))
    }

    /// A spike shorter than a bucket survives in its maximum; memory stays
    /// `points` buckets whatever the number of values.
    @Test func spikesSurviveAndMemoryIsFixed() throws {
        var h = try ValueHistory(span: 3600, points: 60)
        for k in 0..<36_000 { h.record(k == 17_777 ? 1000 : 50, at: Double(k) / 10) }
        #expect(h.recorded.count == 60)
        let b = h.buckets(endingAt: 3599)
        #expect(b.compactMap { $0 }.count == 60)
        #expect(b.filter { $0?.max == 1000 }.count == 1)
        #expect(b.allSatisfy { $0?.min == 50 && $0?.last == 50 })
        // A jump far ahead clears every old bucket.
        h.record(1, at: 1e9)
        #expect(h.recorded.count == 1)
    }

    @Test func restoresFromWhatItRecorded() throws {
        var h = try ValueHistory(span: 600, points: 20)
        for k in 0..<50 { h.record(Double(k % 7), at: 1_700_000_000 + Double(k) * 17) }
        let copy = try ValueHistory(span: 600, points: 20, buckets: h.recorded)
        #expect(copy == h)
        #expect(copy.buckets(endingAt: 1_700_000_900) == h.buckets(endingAt: 1_700_000_900))
        // Bad buckets are left out; a bucket too old for the newest is too.
        let bad: [(number: Int64, bucket: Bucket)] = [
            (5, Bucket(min: 3, max: 1, last: 2)), (6, Bucket(min: .nan, max: 1, last: 1)),
            (7, Bucket(min: 0, max: 2, last: 3)), (8, Bucket(min: 0, max: 2, last: 1)),
            (100, Bucket(min: 1, max: 1, last: 1)),
        ]
        let restored = try ValueHistory(span: 600, points: 20, buckets: bad)
        #expect(restored.recorded.map(\.number) == [100])
    }

    @Test func refusesBadSizes() {
        #expect(throws: ValueHistory.Error.badSpan(0)) { try ValueHistory(span: 0, points: 10) }
        #expect(throws: ValueHistory.Error.badSpan(.infinity)) { try ValueHistory(span: .infinity, points: 10) }
        #expect(throws: ValueHistory.Error.badSpan(1e9)) { try ValueHistory(span: 1e9, points: 10) }
        #expect(throws: ValueHistory.Error.badPoints(1)) { try ValueHistory(span: 60, points: 1) }
        #expect(throws: ValueHistory.Error.badPoints(5000)) { try ValueHistory(span: 60, points: 5000) }
        #expect("\(ValueHistory.Error.badPoints(1))" == "a history has 2 to 2048 points, not 1")
    }
}

@Suite struct ChartTicksTests {
    @Test func roundValuesAtMostTheCount() {
        #expect(ChartTicks.values(in: 0...100, atMost: 4).values == [0, 50, 100])
        #expect(ChartTicks.values(in: 0...100, atMost: 5).values == [0, 20, 40, 60, 80, 100])
        #expect(ChartTicks.values(in: -0.3...0.35, atMost: 4).values == [-0.2, 0, 0.2])
        #expect(ChartTicks.values(in: 0.1...0.7, atMost: 6).values == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])
        #expect(ChartTicks.values(in: 1...1, atMost: 4).values.isEmpty)
        #expect(ChartTicks.values(in: 0...1, atMost: 0).values.isEmpty)
        #expect(ChartTicks.values(in: -1e308...1e308, atMost: 4).values.isEmpty)
        #expect(ChartTicks.roundRange(of: -1e308...1e308, atMost: 4) == -1e308...1e308)
        #expect(ChartTicks.roundRange(of: 41...83, atMost: 4) == 40...100)
        #expect(ChartTicks.roundRange(of: 7...7, atMost: 4) == 6.6...7.4)
    }

    /// The range covers the data, has round ends and at most the intervals asked for.
    @Test func roundRangesCoverTheData() {
        var rng = CanvasFuzzTests.RNG(random: BlendTests.Random(state: 5))
        for _ in 0..<2000 {
            let scale = [0.001, 1, 37, 1e6][rng.int(4)]
            let a = (rng.unit() - 0.3) * scale * 100, b = a + rng.unit() * scale * [0, 1, 50][rng.int(3)]
            let count = 2 + rng.int(8)
            let r = ChartTicks.roundRange(of: a...b, atMost: count)
            #expect(r.lowerBound <= a && r.upperBound >= b && r.upperBound > r.lowerBound, "\(a)...\(b)")
            let t = ChartTicks.values(in: r, atMost: count)
            #expect(
                t.values.first == r.lowerBound && t.values.last == r.upperBound, "\(a)...\(b) in \(count): \(r) \(t)")
            #expect(t.values.count >= 2 && t.values.count <= count + 1)
        }
    }

    @Test func ageLabelsAndSteps() {
        #expect(ChartTicks.agesBack(span: 3600, atMost: 4).ages == [0, 900, 1800, 2700, 3600])
        #expect(ChartTicks.agesBack(span: 600, atMost: 2).ages == [0, 300, 600])
        #expect(ChartTicks.agesBack(span: 86400, atMost: 6).step == 21600)
        #expect(ChartTicks.agesBack(span: 31 * 86400, atMost: 2).ages == [0, 16.0 * 86400])
        #expect(ChartTicks.ageLabel(0) == "now")
        #expect(ChartTicks.ageLabel(45) == "\u{2212}45s")
        #expect(ChartTicks.ageLabel(900) == "\u{2212}15m")
        #expect(ChartTicks.ageLabel(7200) == "\u{2212}2h")
        #expect(ChartTicks.ageLabel(172_800) == "\u{2212}2d")
    }
}
