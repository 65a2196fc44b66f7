import ArgumentParser

/// `paneld`: live gauges on an embedded Linux display.
///
/// The root command; running it without a subcommand starts the daemon
/// (`paneld run`). Each subcommand lives in its own file under CLI/.
@main
struct Paneld: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paneld",
        abstract: "Show live gauges on a DRM/KMS display, fed by a Unix socket.",
        subcommands: [Run.self, Render.self, Send.self, DRMInfo.self, Benchmark.self],
        defaultSubcommand: Run.self
    )
}
