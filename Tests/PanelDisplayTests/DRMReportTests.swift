import Testing

@testable import PanelDisplay
import PanelDisplayFakes

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct DRMReportTests {
    @Test func listsCardsConnectorsModesAndWhyACardIsSkipped() {
        let fake = FakeDRM.bochs(width: 800, height: 480)
        fake.cards["/dev/dri/card1"] = FakeDRM.Card(driver: "v3d", resources: nil)
        let text = DRMReport.gather(sys: fake).formatted()
        #expect(text.contains("/dev/dri/card0: bochs-drm (fake) 0.0.0\n  usable: yes\n"))
        #expect(text.contains("    DRM_CAP_DUMB_BUFFER = 1\n"))
        #expect(
            text.contains("    Virtual-1 (id 36): connected, encoder 37, possible encoders [37]\n      1024x768@60, "))
        #expect(text.contains("      800x480@60 preferred, "))
        #expect(text.contains("    id 38: 1024x768@60, framebuffer 7 at 0,0\n"))
        #expect(
            text.contains(
                "  planes:\n    id 34 primary: crtc 38, framebuffer 7, possible crtcs 0x1\n      formats: XR24 RG16\n"))
        #expect(
            text.contains(
                "/dev/dri/card1: v3d (fake) 0.0.0\n  usable: no, v3d has no KMS outputs (render-only device)\n"
            ))
        #expect(text.contains("  error: drmModeGetResources failed: "))
        #expect(fake.openDescriptors.isEmpty)
    }

    @Test func saysSoWhenThereIsNoCard() {
        #expect(DRMReport.gather(sys: FakeDRM()).formatted().hasPrefix("No DRM devices"))
    }

    @Test func aCardThatCannotBeOpenedIsReportedNotFatal() {
        let fake = FakeDRM.bochs()
        fake.failures["open"] = [EACCES]
        let text = DRMReport.gather(sys: fake).formatted()
        #expect(text.contains("/dev/dri/card0: ?\n  usable: no, open failed: Permission denied (EACCES)\n"))
    }
}
