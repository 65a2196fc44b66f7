import Glibc
import PaneldCore

/// `paneld reload`: asks the running daemon to re-read its layout file and waits
/// for its answer, so a rejected layout is a failure the caller sees (the unit's
/// `ExecReload=`: `systemctl reload paneld` then fails with the layout's message).
struct Reload: PaneldCommand {
    static let spec = CommandSpec(
        name: "reload", abstract: "Make a running paneld re-read its layout; fail if it rejects it.",
        discussion:
            "Sends 'reload' on the control socket and prints the answer. Exit status 0: the new layout is shown; 1: it was rejected and the old one stays (the reason is printed and in paneld's log).",
        options: [
            .option("socket", help: "Control socket path (default: $PANELD_SOCKET, else \(Run.defaultSocket))."),
            .option("timeout", help: "Seconds to wait for the answer.", default: "\(Send.defaultTimeout)"),
        ])

    var send: Send

    init(_ arguments: Arguments) throws {
        send = try Send(arguments)
        send.lines = ["reload"]
    }

    func validate() throws { try send.validate() }

    func run() throws { try send.run() }
}
