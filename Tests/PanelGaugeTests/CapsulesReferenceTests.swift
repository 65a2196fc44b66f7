import Testing

/// Reference images in References/capsules/ (exact geometry, see ReferenceHarness).
@Suite struct CapsulesReferenceTests {
    @Test func matchesExactGeometry() throws {
        try ReferenceHarness.check("capsules")
    }
}
