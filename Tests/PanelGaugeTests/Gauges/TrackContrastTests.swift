import Testing

@testable import PanelGauge

/// Every style's unfilled track, as drawn with the default tint, track and
/// background, stands out from the background by at least 3:1 (WCAG 2.x
/// success criterion 1.4.11, non-text contrast: a gauge's track shows its
/// range, so it is a graphic needed to read the gauge).
@Suite struct TrackContrastTests {
    /// The track's colour is the most common colour besides the background in
    /// the gauge drawn at its minimum without labels (there the track is
    /// nearly all the gauge draws; its edge pixels, blended with the
    /// background, are fewer than its inside ones).
    @Test(arguments: 0..<TitleTests.styles.count)
    func theDefaultTrackHasThreeToOneAgainstTheBackground(index: Int) throws {
        let (name, style) = TitleTests.styles[index]
        var g = try Gauge(value: 0, in: 0...100)
        g.style = style
        let img = render(g, width: 240, height: 240)
        var counts: [RGB: Int] = [:]
        let background = RGB(Panel.background)
        for y in 0..<img.height {
            for x in 0..<img.width where img.rgb(x, y) != background { counts[img.rgb(x, y), default: 0] += 1 }
        }
        let track = try #require(counts.max { $0.value < $1.value }?.key, "\(name) draws nothing")
        let ratio = Color(red: track.r, green: track.g, blue: track.b).contrastRatio(
            against: GaugeEnvironment().background)
        #expect(ratio >= 3, "\(name): track \(track) is \(ratio):1 against the background")
    }

    /// The environment's track colour itself, over the environment's
    /// background and over black (paneld's background when a layout gives none).
    @Test func theEnvironmentsTrackHasThreeToOne() {
        let e = GaugeEnvironment()
        #expect(e.track.contrastRatio(against: e.background) >= 3)
        #expect(e.track.contrastRatio(against: .black) >= 3)
    }
}
