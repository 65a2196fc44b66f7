import Testing

@testable import PanelDisplay
@testable import PaneldCore
@testable import paneld

/// paneld routes the display library's messages into its own log, each with its
/// priority, and the failed DRM calls keep the `drm: ` prefix the e2e tests look for.
@Suite(.serialized) struct DisplayLogTests {
    @Test func displayMessagesReachPaneldsLogWithTheirPriorities() {
        nonisolated(unsafe) var lines: [(Log.Priority, String)] = []
        Paneld.routeDisplayLog(to: { lines.append(($0, $1)) })
        defer { Paneld.routeDisplayLog() }
        DRMLog.warning("drmModeDirtyFB failed")
        DisplayLog.notice("DRM master is back")
        DisplayLog.info("tty1")
        #expect(lines.map(\.0) == [.warning, .notice, .info])
        #expect(lines.map(\.1) == ["drm: drmModeDirtyFB failed", "DRM master is back", "tty1"])
    }
}
