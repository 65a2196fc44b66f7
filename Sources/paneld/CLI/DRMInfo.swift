import ArgumentParser

/// `paneld drm-info`: list DRM devices, connectors, modes and capabilities.
struct DRMInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drm-info", abstract: "List DRM devices, connectors, modes and capabilities.")
    func run() throws {
        throw ValidationError("drm-info is not implemented yet")
    }
}
