import Testing

/// Reference images in References/discs/ (exact geometry, see ReferenceHarness).
@Suite struct DiscsReferenceTests {
    @Test func matchesExactGeometry() throws {
        try ReferenceHarness.check("discs")
    }
}
