import PanelDisplay
import PaneldCore

/// `paneld drm-info`: list DRM devices, connectors, modes and capabilities.
///
/// For bringing up a new panel: shows which card paneld would pick and why the
/// others were skipped, each connector's modes (the preferred one flagged), and
/// what every CRTC is showing now.
struct DRMInfo: PaneldCommand {
    static let spec = CommandSpec(
        name: "drm-info", abstract: "List DRM devices, connectors, modes and capabilities.",
        options: [.option("device", help: "Only this card (e.g. /dev/dri/card1) instead of every /dev/dri/card*.")])

    var device: String?

    init(_ arguments: Arguments) { device = arguments.string("device") }

    func run() throws {
        let report = DRMReport.gather(sys: LiveDRMSyscalls(), paths: device.map { [$0] })
        print(report.formatted(), terminator: "")
        if report.cards.allSatisfy({ !$0.errors.isEmpty && $0.driver == nil }) { throw ExitCode.failure }
    }
}
