import Testing

/// Reference images in References/gradients/ (exact geometry, see ReferenceHarness).
@Suite struct GradientsReferenceTests {
    @Test func matchesExactGeometry() throws {
        // A translucent paint's alpha is quantised to 8 bits (0.5 becomes 128/255),
        // which moves every pixel of the fill by up to half a unit; hence a mean
        // allowance of 0.12 instead of 0.05 (the maximum stays at 4).
        try ReferenceHarness.check("gradients", meanError: 0.12)
    }
}
