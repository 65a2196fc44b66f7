/// What the rasterizer promises beyond drawing each shape right: the
/// properties a retained repaint relies on (``GaugeLayering`` and paneld's
/// damage-only repaint), stated once, each with the test that enforces it.
///
/// 1. **A clip cuts, it does not change.** A shape drawn through a clip gets,
///    inside the clip, the pixels it gets drawn whole, and none outside. Exact
///    for discs, capsules, rectangles, rounded rectangles and arcs without
///    dashes (the banded path, annular sectors, stadium fills). Within one
///    8-bit level for general paths and round-capped dashes, two where a path
///    overlaps itself: their edges are cut at the clip's top and bottom and
///    rounded to 1/256 pixel there. Text is blitted from glyph bitmaps, exactly.
///    Enforced by `ClipPromiseTests.aClippedDrawIsTheWholeDrawInsideTheClip`
///    (random shapes, paints, formats and clips), `StadiumFillTests` and
///    `AnnularSectorTests.randomRingsAndClips`.
/// 2. **A gradient pixel depends only on its position,** not on the spans a
///    draw cuts its row into (a clipped repaint cuts them elsewhere, and
///    in-place shading cuts them elsewhere than the colour buffer). Enforced
///    by `ShaderTests.aPixelsColourDoesNotDependOnTheSpansAroundIt` (conic),
///    `ShaderTests.aLinearPixelsColourDoesNotDependOnTheSpansAroundIt` and
///    `InPlaceShadingTests.matchesTheColourBufferPixelForPixel`.
/// 3. **An arc's pixels away from its ends do not depend on its sweep,** when
///    its outline is simple and its inner circle is walked as a circle
///    (``walksArcsAsCircles(radius:)``): the value arc at any value is, away
///    from its ends, the whole arc. Enforced by
///    `ValueArcTests.awayFromItsEndsAnArcIsTheWholeArc`.
enum RasterPromises {
    /// The smallest radius whose arcs the banded path walks as circles: from
    /// there the circular-segment series it adds per pixel step is within 0.2
    /// of an 8-bit level. Smaller arcs are flattened to chords, whose pixels
    /// depend on where the chords start, hence on the sweep.
    static let smallestWalkedRadius: Double = 4

    /// Whether an arc of `radius` is walked as a circle (promise 3), given it
    /// lies inside the clip and in a simple outline.
    static func walksArcsAsCircles(radius: Double) -> Bool { radius >= smallestWalkedRadius }
}
