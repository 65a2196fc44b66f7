import Testing

/// Reference images in References/arcs/ (exact geometry, see ReferenceHarness).
@Suite struct ArcsReferenceTests {
    @Test func matchesExactGeometry() throws {
        try ReferenceHarness.check("arcs")
    }
}
