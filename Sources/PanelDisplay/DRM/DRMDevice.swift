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

    /// What this card can do, for ``chooseDevice(_:)`` and `drm-info`.
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

    /// Probes every `/dev/dri/card*` in order (opening and closing each).
    package static func probeAll(sys: DRMSyscalls) -> [DeviceProbe] {
        sys.listCards().map { path in
            do {
                let device = try DRMDevice(sys: sys, path: path)
                defer { device.close() }
                return device.probe()
            } catch {
                return DeviceProbe(path: path, driver: "?", hasKMS: false, hasDumbBuffers: false, failure: "\(error)")
            }
        }
    }

    /// Opens the user's card (which must be usable) or the first usable one.
    package static func openDisplay(sys: DRMSyscalls, path: String?) throws -> DRMDevice {
        let chosen = try path ?? chooseDevice(probeAll(sys: sys)).path
        let device = try DRMDevice(sys: sys, path: chosen)
        if path != nil, let why = device.probe().rejection {
            device.close()
            throw DRMError.notFound("\(chosen) cannot drive a display: \(why)")
        }
        return device
    }

    package func close() {
        guard !closed else { return }
        closed = true
        sys.close(fd)
    }

    deinit { close() }
}
