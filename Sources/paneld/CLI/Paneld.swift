import PanelDisplay
import Glibc
import PaneldCore

/// `paneld`: live gauges on an embedded Linux display.
///
/// The root command; running it without a subcommand starts the daemon
/// (`paneld run`). Each subcommand lives in its own file under CLI/.
@main
enum Paneld {
    static let abstract = "Show live gauges on a DRM/KMS display, fed by a Unix socket."
    nonisolated(unsafe) static let commands: [any PaneldCommand.Type] = [
        Run.self, Render.self, Send.self, Reload.self, DRMInfo.self,
    ]

    static func main() {
        routeDisplayLog()
        exit(
            CommandLineTool.main(
                Array(CommandLine.arguments.dropFirst()), abstract: abstract, commands: commands, default: Run.self))
    }

    /// The display library's messages go to paneld's log (`write`), with their priorities.
    static func routeDisplayLog(to write: @escaping (Log.Priority, String) -> Void = Log.write) {
        DisplayLog.handler = { level, message in
            switch level {
            case .warning: write(.warning, message)
            case .notice: write(.notice, message)
            case .info: write(.info, message)
            }
        }
    }
}
