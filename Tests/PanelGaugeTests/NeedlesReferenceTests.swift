import Testing

/// Reference images in References/needles/ (exact geometry, see ReferenceHarness):
/// needles (tapered convex quadrilaterals) under a hub.
@Suite struct NeedlesReferenceTests {
    @Test func matchesExactGeometry() throws {
        try ReferenceHarness.check("needles")
    }
}
