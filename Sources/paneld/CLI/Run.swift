import ArgumentParser

/// `paneld run`: the daemon. (Owned by the daemon work, issue 5.)
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the daemon (the default).")
    func run() throws {
        throw ValidationError("the daemon is not implemented yet")
    }
}
