import Testing

/// Reference images in References/caps/ (exact geometry, see ReferenceHarness).
@Suite struct CapsReferenceTests {
    @Test func matchesExactGeometry() throws {
        try ReferenceHarness.check("caps")
    }
}
