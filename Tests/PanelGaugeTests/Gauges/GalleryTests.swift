import Testing
@testable import PanelGauge

/// Renders every style into docs/gallery/*.png, from the project's own code.
/// Runs only with PANELGAUGE_GALLERY=1 (it writes into the source tree):
///
///     PANELGAUGE_GALLERY=1 swift test --filter GalleryTests
@Suite struct GalleryTests {
    static let enabled = Environment.flag("PANELGAUGE_GALLERY")

    @Test(.enabled(if: GalleryTests.enabled)) func writesGallery() throws {
        let dir = Paths.repoRoot + "/docs/gallery"
        for entry in Gallery.entries {
            let img = try entry.render()
            try Paths.write(PNG.encode(img.surface), to: dir + "/" + entry.name + ".png")
        }
    }
}
