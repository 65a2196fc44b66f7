/// An open DRM card: the descriptor's single owner, and the probing around it.
package final class DRMDevice {
    package let path: String
    package let fd: Int32
    package let driver: DriverVersion
    private let sys: DRMSyscalls
    private var closed = false

    /// Opens `path`. The descriptor is closed by ``close()`` or on deinit.
    package init(sys: DRMSyscalls, path: String) throws {
        let fd = try sys.open(path)
        do {
            driver = try sys.version(fd)
        } catch {
            sys.close(fd)
            throw error
        }
        self.sys = sys
        self.path = path
        self.fd = fd
    }

    /// What this card can do, for ``chooseDisplay(_:request:)`` and `drm-info`.
    package func probe() -> DeviceProbe {
        let dumb = (try? sys.capability(fd, .dumbBuffer)) ?? 0
        let kms: Bool
        if let r = try? sys.resources(fd) {
            kms = !r.crtcIDs.isEmpty && !r.connectorIDs.isEmpty
        } else {
            kms = false
        }
        return DeviceProbe(path: path, driver: driver.name, hasKMS: kms, hasDumbBuffers: dumb == 1)
    }

    /// Probes every `/dev/dri/card*` in order and, for each usable card, reads its
    /// connectors and their modes (opening and closing each card).
    package static func describeAll(sys: DRMSyscalls) -> [CardDescription] {
        sys.listCards().map { path in
            do {
                let device = try DRMDevice(sys: sys, path: path)
                defer { device.close() }
                let probe = device.probe()
                guard probe.isUsable else { return CardDescription(probe: probe) }
                do {
                    let res = try sys.resources(device.fd)
                    let connectors = try res.connectorIDs.map { try sys.connector(device.fd, id: $0) }
                    return CardDescription(probe: probe, connectors: connectors)
                } catch {
                    var failed = probe
                    failed.failure = "reading its connectors: \(error)"
                    return CardDescription(probe: failed)
                }
            } catch {
                return CardDescription(
                    probe: DeviceProbe(
                        path: path, driver: "?", hasKMS: false, hasDumbBuffers: false, failure: "\(error)"))
            }
        }
    }

    /// Describes every card, chooses the display (``chooseDisplay(_:request:)``) and
    /// opens its card. A requested device path given as a link (`/dev/dri/by-path/...`)
    /// is resolved to its card first.
    package static func openDisplay(sys: DRMSyscalls, request: DisplayRequest) throws -> (DRMDevice, DisplayChoice) {
        var request = request
        if let path = request.devicePath {
            guard let resolved = sys.resolvedPath(path) else {
                throw DRMError.notFound("\(path) does not exist (is the display driver loaded?)")
            }
            request.devicePath = resolved
        }
        let choice = try chooseDisplay(describeAll(sys: sys), request: request)
        return (try DRMDevice(sys: sys, path: choice.devicePath), choice)
    }

    package func close() {
        guard !closed else { return }
        closed = true
        sys.close(fd)
    }

    deinit { close() }
}
