import Testing

/// Reference images in References/dashes/ (exact geometry, see ReferenceHarness).
@Suite struct DashesReferenceTests {
    @Test func matchesExactGeometry() throws {
        try ReferenceHarness.check("dashes")
    }
}
