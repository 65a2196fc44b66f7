import ArgumentParser

/// `paneld render`: draw a layout with given values to a PNG, no display needed.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Render a layout with given values to a PNG file.")
    func run() throws {
        throw ValidationError("render is not implemented yet")
    }
}
