import Testing

/// Reference images in References/thin-arcs/ (exact geometry, see ReferenceHarness):
/// thin round-capped arcs.
@Suite struct ThinArcsReferenceTests {
    @Test func matchesExactGeometry() throws {
        try ReferenceHarness.check("thin-arcs")
    }
}
