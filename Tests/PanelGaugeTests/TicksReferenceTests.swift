import Testing

/// Reference images in References/ticks/ (exact geometry, see ReferenceHarness):
/// tick marks at odd angles (butt-ended radial rectangles, one path per kind).
@Suite struct TicksReferenceTests {
    @Test func matchesExactGeometry() throws {
        try ReferenceHarness.check("ticks")
    }
}
