import Testing

/// Reference images in References/clip/ (exact geometry, see ReferenceHarness).
@Suite struct ClipReferenceTests {
    @Test func matchesExactGeometry() throws {
        try ReferenceHarness.check("clip")
    }
}
