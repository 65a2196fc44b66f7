import PanelGauge
import Testing

@testable import PanelScene

/// The retained repaint's planning, without pixels: which rectangles get the
/// background, which slots are drawn whole, and what a gauge with pictures
/// copies, restores and draws (`RepaintPlan.make`). That the operations give
/// the pixels of a full redraw is `StaticLayerCacheTests`'.
@Suite struct RepaintPlanTests {
    typealias Slot = RepaintPlan.Slot

    static func rect(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> IntRect { IntRect(x: x, y: y, width: w, height: h) }

    /// Two gauges side by side, 100x100 each.
    static let left = rect(0, 0, 100, 100)
    static let right = rect(100, 0, 100, 100)

    /// A ring's frame, 400x400.
    static let ring = rect(0, 0, 400, 400)
    /// Its value arc's label box.
    static let label = rect(190, 190, 20, 20)

    /// The ring's value arc: its ends' boxes at two corners, its label in the
    /// middle.
    static func arc(
        cap: LineCap = .butt, hasText: Bool = true, labelZone: IntRect? = nil, exact: [IntRect]? = nil,
        others: [IntRect] = [label]
    ) -> RepaintPlan.Picture {
        .valueArc(
            RepaintPlan.ValueArc(
                exact: exact ?? [rect(0, 0, 10, 10), rect(390, 390, 10, 10), label], others: others, cap: cap,
                hasText: hasText, labelZone: labelZone))
    }

    @Test func aRectangleInsideAPicturedGaugeRestoresItAndDrawsTheDynamicLayer() {
        let r = Self.rect(10, 10, 20, 20)
        let plan = RepaintPlan.make(
            rects: [r],
            slots: [Slot(frame: Self.left, cluster: [0], picture: .staticLayer), Slot(frame: Self.right, cluster: [1])])
        #expect(plan == [.noteLabelZone(slot: 0, Self.left), .restoreAndDrawDynamic(slot: 0, r)])
    }

    @Test func theBackgroundIsClearedOnlyWhereNoPictureHoldsARectangle() {
        let inLeft = Self.rect(10, 10, 20, 20), across = Self.rect(90, 50, 20, 20)
        let plan = RepaintPlan.make(
            rects: [inLeft, across],
            slots: [
                Slot(frame: Self.left, cluster: [0], picture: .staticLayer),
                Slot(frame: Self.right, cluster: [1], picture: .staticLayer),
            ])
        // Each gauge repaints its parts of the rectangles (the left one's two
        // in one box).
        #expect(
            plan == [
                .clear(across), .noteLabelZone(slot: 0, Self.left),
                .restoreAndDrawDynamic(slot: 0, Self.rect(10, 10, 90, 60)), .noteLabelZone(slot: 1, Self.right),
                .restoreAndDrawDynamic(slot: 1, Self.rect(100, 50, 10, 20)),
            ])
    }

    @Test func aGaugeWithoutAPictureIsDrawnFromScratchOverItsClearedFrame() {
        let r = Self.rect(10, 10, 20, 20)
        let plan = RepaintPlan.make(
            rects: [r], slots: [Slot(frame: Self.left, cluster: [0]), Slot(frame: Self.right, cluster: [1])])
        #expect(plan == [.clear(r), .clear(Self.left), .drawFromScratch(slot: 0)])
    }

    @Test func aFrameARectangleHoldsIsClearedOnce() {
        let screen = Self.rect(0, 0, 200, 100)
        let plan = RepaintPlan.make(
            rects: [screen], slots: [Slot(frame: Self.left, cluster: [0]), Slot(frame: Self.right, cluster: [1])])
        #expect(plan == [.clear(screen), .drawFromScratch(slot: 0), .drawFromScratch(slot: 1)])
    }

    @Test func overlappingGaugesAreDrawnInWholeFramesOnceEach() {
        let a = Self.rect(0, 0, 60, 60), b = Self.rect(50, 50, 60, 60), c = Self.rect(100, 100, 60, 60)
        // A rectangle meeting only the last gauge, and one meeting the first
        // two: each gauge of the cluster once, pictures or not.
        let rects = [Self.rect(150, 150, 5, 5), Self.rect(55, 55, 2, 2)]
        let plan = RepaintPlan.make(
            rects: rects,
            slots: [
                Slot(frame: a, cluster: [0, 1, 2], picture: .staticLayer),
                Slot(frame: b, cluster: [0, 1, 2], picture: .staticLayer),
                Slot(frame: c, cluster: [0, 1, 2]),
            ])
        #expect(
            plan == [
                .clear(rects[0]), .clear(rects[1]), .clear(a), .clear(b), .clear(c), .drawFromScratch(slot: 0),
                .drawFromScratch(slot: 1), .drawFromScratch(slot: 2),
            ])
    }

    @Test func aStaleGaugeIsDrawnStaleWhateverItsPictures() {
        let r = Self.rect(10, 10, 20, 20)
        let plan = RepaintPlan.make(
            rects: [r], slots: [Slot(frame: Self.left, cluster: [0], kind: .stale, picture: Self.arc())])
        #expect(plan == [.clear(r), .clear(Self.left), .drawStale(slot: 0)])
    }

    @Test func aWidgetIsDrawnWholeOverItsClearedFrame() {
        let r = Self.rect(120, 10, 20, 20)
        let plan = RepaintPlan.make(
            rects: [r],
            slots: [
                Slot(frame: Self.left, cluster: [0], picture: .staticLayer),
                Slot(frame: Self.right, cluster: [1], kind: .widget, picture: .staticLayer),
            ])
        #expect(plan == [.clear(r), .clear(Self.right), .drawWidget(slot: 1)])
    }

    @Test func slotsThatMeetNoRectangleAreLeftAlone() {
        let r = Self.rect(10, 10, 20, 20)
        let plan = RepaintPlan.make(
            rects: [r],
            slots: [
                Slot(frame: Self.rect(0, 0, 0, 0), cluster: [0]),
                Slot(frame: Self.left, cluster: [1], picture: .staticLayer),
                Slot(frame: Self.right, cluster: [2]),
            ])
        #expect(plan == [.noteLabelZone(slot: 1, Self.left), .restoreAndDrawDynamic(slot: 1, r)])
    }

    @Test func closeRectanglesOfAPicturedGaugeAreRepaintedAsOneBoxFarOnesApart() {
        let frame = Self.rect(0, 0, 400, 400)
        let near = [Self.rect(0, 0, 10, 10), Self.rect(12, 0, 10, 10)]
        let far = [Self.rect(0, 0, 10, 10), Self.rect(390, 390, 10, 10)]
        let slots = [Slot(frame: frame, cluster: [0], picture: .staticLayer)]
        #expect(
            RepaintPlan.make(rects: near, slots: slots) == [
                .noteLabelZone(slot: 0, frame), .restoreAndDrawDynamic(slot: 0, Self.rect(0, 0, 22, 10)),
            ])
        #expect(
            RepaintPlan.make(rects: far, slots: slots) == [
                .noteLabelZone(slot: 0, frame), .restoreAndDrawDynamic(slot: 0, far[0]),
                .restoreAndDrawDynamic(slot: 0, far[1]),
            ])
    }

    /// A gauge whose dynamic layer comes as parts (a dial) redraws only the
    /// parts that meet a box, so its boxes stay apart where a merged box
    /// would add more than `partSlack` pixels; another gauge's merge.
    @Test func boxesOfAGaugeWithPartsMergeLess() {
        let frame = Self.rect(0, 0, 400, 400)
        let boxes = [Self.rect(0, 0, 60, 60), Self.rect(200, 0, 60, 60)]
        let withParts = RepaintPlan.make(
            rects: boxes, slots: [Slot(frame: frame, cluster: [0], picture: .staticLayerWithParts)])
        #expect(
            withParts == [
                .noteLabelZone(slot: 0, frame), .restoreAndDrawDynamic(slot: 0, boxes[0]),
                .restoreAndDrawDynamic(slot: 0, boxes[1]),
            ])
        let whole = RepaintPlan.make(rects: boxes, slots: [Slot(frame: frame, cluster: [0], picture: .staticLayer)])
        #expect(
            whole == [.noteLabelZone(slot: 0, frame), .restoreAndDrawDynamic(slot: 0, Self.rect(0, 0, 260, 60))])
    }

    /// Rectangles away from the exact boxes are copied; runs only with butt
    /// ends, away from the label zone, and short of the whole frame.
    @Test(arguments: [
        (LineCap.butt, nil as IntRect?, true), (.round, nil, false),
        (.butt, IntRect(x: 0, y: 290, width: 30, height: 30), false),
        (.butt, IntRect(x: 300, y: 300, width: 30, height: 30), true),
    ])
    func valueArcRectanglesAwayFromTheExactPartsAreCopied(cap: LineCap, zone: IntRect?, runsOnly: Bool) {
        let r = Self.rect(5, 300, 10, 10)
        let plan = RepaintPlan.make(
            rects: [r], slots: [Slot(frame: Self.ring, cluster: [0], picture: Self.arc(cap: cap, labelZone: zone))])
        #expect(plan == [.noteLabelZone(slot: 0, Self.label), .copyArcSectors(slot: 0, r, runsOnly: runsOnly)])
    }

    @Test func aRectangleHoldingTheWholeFrameIsCopiedWholeNotAsRuns() {
        // No label: only the rectangle's size says every pixel is copied.
        let plan = RepaintPlan.make(
            rects: [Self.ring], slots: [Slot(frame: Self.ring, cluster: [0], picture: Self.arc(exact: [], others: []))])
        #expect(plan == [.copyArcSectors(slot: 0, Self.ring, runsOnly: false)])
    }

    @Test func theLabelJoinsTheZoneBeforeTheCopiesReadIt() {
        // No zone yet: the label's box, noted first, makes a rectangle over it
        // copy every pixel; the label itself is drawn from its text.
        let r = Self.rect(180, 180, 40, 40)
        let plan = RepaintPlan.make(
            rects: [r], slots: [Slot(frame: Self.ring, cluster: [0], picture: Self.arc(labelZone: nil))])
        #expect(
            plan == [
                .noteLabelZone(slot: 0, Self.label), .copyArcSectors(slot: 0, r, runsOnly: false),
                .restoreAndStrokeArc(slot: 0, Self.label, withText: true),
            ])
    }

    @Test func theArcsEndsAreStrokedAndTheLabelDrawnFromItsText() {
        let end = Self.rect(2, 2, 5, 5), label = Self.rect(195, 195, 5, 5)
        let plan = RepaintPlan.make(
            rects: [end, label], slots: [Slot(frame: Self.ring, cluster: [0], picture: Self.arc())])
        #expect(
            plan == [
                .noteLabelZone(slot: 0, Self.label), .restoreAndStrokeArc(slot: 0, end, withText: false),
                .restoreAndStrokeArc(slot: 0, label, withText: true),
            ])
    }

    @Test func withoutTheLabelsTextTheDynamicLayerIsDrawnOverTheLabel() {
        let end = Self.rect(2, 2, 5, 5), label = Self.rect(195, 195, 5, 5)
        let plan = RepaintPlan.make(
            rects: [end, label], slots: [Slot(frame: Self.ring, cluster: [0], picture: Self.arc(hasText: false))])
        #expect(
            plan == [
                .noteLabelZone(slot: 0, Self.label), .restoreAndStrokeArc(slot: 0, end, withText: false),
                .restoreAndDrawDynamic(slot: 0, label),
            ])
    }

    @Test func anExactBoxIsDrawnOnceAroundItsPartsInTheRectangles() {
        // Two rectangles in one end's box, and one reaching past the other's:
        // per box, the box around its parts in the rectangles, once; the one
        // reaching past is copied too.
        let a = Self.rect(1, 1, 2, 2), b = Self.rect(6, 6, 2, 2), past = Self.rect(395, 380, 5, 15)
        let plan = RepaintPlan.make(
            rects: [a, b, past], slots: [Slot(frame: Self.ring, cluster: [0], picture: Self.arc())])
        #expect(
            plan == [
                .noteLabelZone(slot: 0, Self.label), .copyArcSectors(slot: 0, past, runsOnly: true),
                .restoreAndStrokeArc(slot: 0, Self.rect(1, 1, 7, 7), withText: false),
                .restoreAndStrokeArc(slot: 0, Self.rect(395, 390, 5, 5), withText: false),
            ])
    }

    @Test func closeExactPartsAreDrawnAsOneBox() {
        // The two ends' parts 20 pixels apart: one box of 30x10 (the exact
        // slack allows 4 096 more pixels than the two parts).
        let exact = [Self.rect(0, 0, 10, 10), Self.rect(20, 0, 10, 10)]
        let plan = RepaintPlan.make(
            rects: [Self.rect(0, 0, 30, 10)],
            slots: [Slot(frame: Self.ring, cluster: [0], picture: Self.arc(exact: exact))])
        #expect(
            plan == [
                .noteLabelZone(slot: 0, Self.label), .copyArcSectors(slot: 0, Self.rect(0, 0, 30, 10), runsOnly: true),
                .restoreAndStrokeArc(slot: 0, Self.rect(0, 0, 30, 10), withText: false),
            ])
    }

    @Test func runsOnlyNeedsButtEndsNoLabelAndLessThanTheFrame() {
        let frame = Self.rect(0, 0, 100, 100), r = Self.rect(10, 10, 10, 10)
        #expect(RepaintPlan.copiesRunsOnly(r, frame: frame, labelZone: nil, cap: .butt))
        #expect(!RepaintPlan.copiesRunsOnly(r, frame: frame, labelZone: nil, cap: .round))
        #expect(!RepaintPlan.copiesRunsOnly(r, frame: frame, labelZone: Self.rect(15, 15, 30, 30), cap: .butt))
        #expect(RepaintPlan.copiesRunsOnly(r, frame: frame, labelZone: Self.rect(20, 20, 30, 30), cap: .butt))
        #expect(!RepaintPlan.copiesRunsOnly(Self.rect(0, 0, 120, 100), frame: frame, labelZone: nil, cap: .butt))
    }
}
