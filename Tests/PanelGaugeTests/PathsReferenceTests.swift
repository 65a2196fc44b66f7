import Testing

/// Reference images in References/paths/ (exact geometry, see ReferenceHarness).
@Suite struct PathsReferenceTests {
    @Test func matchesExactGeometry() throws {
        try ReferenceHarness.check("paths")
    }
}
