/// What `paneld drm-info` prints: every card, its capabilities and KMS objects.
///
/// Gathering goes through ``DRMSyscalls`` (so tests run it on a fake); formatting
/// is a pure function of the gathered values. A card or object that cannot be
/// read is reported with the error instead of ending the listing.
package struct DRMReport: Equatable {
    /// One capability and its value; nil when the driver refused to say.
    package struct CapabilityValue: Equatable {
        package var capability: DRMCapability
        package var value: UInt64?
    }

    package struct Card: Equatable {
        package var path: String
        package var driver: DriverVersion?
        package var capabilities: [CapabilityValue]
        package var resources: CardResources?
        package var connectors: [ConnectorInfo]
        package var encoders: [EncoderInfo]
        package var crtcs: [CrtcState]
        package var planes: [PlaneInfo] = []
        package var errors: [String]
        package var probe: DeviceProbe
    }

    package var cards: [Card]

    package static func gather(sys: DRMSyscalls, paths: [String]? = nil) -> DRMReport {
        DRMReport(cards: (paths ?? sys.listCards()).map { gatherCard(sys: sys, path: $0) })
    }

    private static func gatherCard(sys: DRMSyscalls, path: String) -> Card {
        var card = Card(
            path: path, driver: nil, capabilities: [], resources: nil, connectors: [], encoders: [], crtcs: [],
            errors: [], probe: DeviceProbe(path: path, driver: "?", hasKMS: false, hasDumbBuffers: false))
        let device: DRMDevice
        do {
            device = try DRMDevice(sys: sys, path: path)
        } catch {
            card.errors.append("\(error)")
            card.probe.failure = "\(error)"
            return card
        }
        defer { device.close() }
        let fd = device.fd
        card.driver = device.driver
        card.probe = device.probe()
        card.capabilities = DRMCapability.allCases.map {
            CapabilityValue(capability: $0, value: try? sys.capability(fd, $0))
        }
        do {
            let res = try sys.resources(fd)
            card.resources = res
            for id in res.connectorIDs {
                do { card.connectors.append(try sys.connector(fd, id: id)) } catch { card.errors.append("\(error)") }
            }
            for id in res.encoderIDs {
                do { card.encoders.append(try sys.encoder(fd, id: id)) } catch { card.errors.append("\(error)") }
            }
            for id in res.crtcIDs {
                do { card.crtcs.append(try sys.crtc(fd, id: id)) } catch { card.errors.append("\(error)") }
            }
            try? sys.setClientCapability(fd, .universalPlanes, 1)  // so primary planes are listed
            for id in try sys.planeIDs(fd) {
                do { card.planes.append(try sys.plane(fd, id: id)) } catch { card.errors.append("\(error)") }
            }
        } catch {
            card.errors.append("\(error)")
        }
        return card
    }

    /// The listing as text, one card after another.
    package func formatted() -> String {
        if cards.isEmpty { return "No DRM devices: /dev/dri/card* does not exist (is the display driver loaded?)\n" }
        var out = ""
        for card in cards {
            let driver = card.driver.map { "\($0.name) (\($0.description)) \($0.major).\($0.minor).\($0.patch)" } ?? "?"
            out += "\(card.path): \(driver)\n"
            out += "  usable: " + (card.probe.rejection.map { "no, \($0)" } ?? "yes") + "\n"
            if !card.capabilities.isEmpty {
                out += "  capabilities:\n"
                for c in card.capabilities {
                    out += "    \(c.capability.name) = \(c.value.map(String.init) ?? "unsupported")\n"
                }
            }
            if let r = card.resources {
                out += "  size limits: \(r.minWidth)x\(r.minHeight) .. \(r.maxWidth)x\(r.maxHeight)\n"
                out += "  connectors:\n"
                for c in card.connectors {
                    out += "    \(c.name) (id \(c.id)): \(c.status)"
                    if c.widthMM > 0 || c.heightMM > 0 { out += ", \(c.widthMM)x\(c.heightMM) mm" }
                    out += ", encoder \(c.encoderID), possible encoders \(c.encoderIDs)\n"
                    for m in c.modes {
                        out += "      \(m.hdisplay)x\(m.vdisplay)@\(m.vrefresh)\(m.isPreferred ? " preferred" : "")"
                        out += ", \(m.clock) kHz, htotal \(m.htotal), vtotal \(m.vtotal)\n"
                    }
                }
                out += "  encoders:\n"
                for e in card.encoders {
                    out += "    id \(e.id): crtc \(e.crtcID), possible crtcs 0x\(String(e.possibleCrtcs, radix: 16))\n"
                }
                out += "  crtcs:\n"
                for c in card.crtcs {
                    out += "    id \(c.id): "
                    if let m = c.mode {
                        out += "\(m.hdisplay)x\(m.vdisplay)@\(m.vrefresh), framebuffer \(c.bufferID) at \(c.x),\(c.y)\n"
                    } else {
                        out += "off\n"
                    }
                }
                if !card.planes.isEmpty { out += "  planes:\n" }
                for p in card.planes {
                    let kind = p.kind.map { "\($0)" } ?? "plane"
                    out += "    id \(p.id) \(kind): crtc \(p.crtcID), framebuffer \(p.framebufferID), "
                    out += "possible crtcs 0x\(String(p.possibleCrtcs, radix: 16))\n"
                    out += "      formats: \(p.formats.map(DRMFourCC.name).joined(separator: " "))\n"
                }
            }
            for e in card.errors { out += "  error: \(e)\n" }
        }
        return out
    }
}
