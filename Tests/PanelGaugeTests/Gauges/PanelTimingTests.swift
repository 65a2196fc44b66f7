#if canImport(Glibc)
    import Glibc
#endif
import Testing
@testable import PanelGauge

/// Frame time of the gallery's 320x240 panel (six gauges, text included).
/// Prints only; runs with PANELGAUGE_BENCH=1, best in release:
///
///     PANELGAUGE_BENCH=1 swift test -c release --filter PanelTimingTests
@Suite struct PanelTimingTests {
    @Test(.enabled(if: Environment.flag("PANELGAUGE_BENCH"))) func panelFrameTime() throws {
        let panel = try #require(Gallery.entries.first { $0.name == "panel" })
        _ = try panel.render()  // warm the font caches
        let frames = 200
        var t0 = timespec(), t1 = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t0)
        for _ in 0..<frames { _ = try panel.render() }
        clock_gettime(CLOCK_MONOTONIC, &t1)
        let seconds = Double(t1.tv_sec - t0.tv_sec) + Double(t1.tv_nsec - t0.tv_nsec) / 1e9
        print("panel 320x240, 6 gauges: \(seconds / Double(frames) * 1000) ms per frame over \(frames) frames")
    }
}
