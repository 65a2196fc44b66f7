import Foundation
import Testing

/// docs/raspberry-pi.md gives commands and units a Pi owner copies: they must
/// work on a stock Raspberry Pi OS and name only what exists.
@Suite struct PiGuideTests {
    static let guide = LayoutDocsTests.root + "/docs/raspberry-pi.md"

    /// The guide's indented code blocks that begin with `# /etc/systemd/system/NAME`:
    /// (name, the unit's text).
    static func units() throws -> [(String, String)] {
        let text = try String(contentsOfFile: guide, encoding: .utf8)
        var units: [(String, String)] = []
        var name: String?
        var lines: [String] = []
        func finish() {
            if let name { units.append((name, lines.joined(separator: "\n") + "\n")) }
            name = nil
            lines = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("    # /etc/systemd/system/") {
                finish()
                name = String(line.dropFirst("    # /etc/systemd/system/".count))
            } else if name != nil {
                if line.hasPrefix("    ") {
                    lines.append(String(line.dropFirst(4)))
                } else if !line.isEmpty {
                    finish()
                } else {
                    lines.append("")
                }
            }
        }
        finish()
        return units
    }

    /// Raspberry Pi OS creates no login user of a fixed name (no `pi`): a unit
    /// runs as a user systemd makes for it, in group paneld, the group that may
    /// write to /run/paneld.sock; and it passes `systemd-analyze verify`.
    @Test func theGuidesUnitsNeedNoLoginUser() throws {
        let units = try Self.units()
        #expect(!units.isEmpty)
        for (name, unit) in units {
            let keys = unit.split(separator: "\n").map(String.init)
            #expect(!keys.contains { $0.hasPrefix("User=") || $0.hasPrefix("Group=") }, "\(name) names a user")
            #expect(keys.contains("DynamicUser=yes"), "\(name)")
            #expect(keys.contains("SupplementaryGroups=paneld"), "\(name)")
            guard
                let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: {
                    FileManager.default.isExecutableFile(atPath: $0)
                })
            else { continue }
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("paneld-guide-\(getpid())").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try unit.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
            try FileManager.default.copyItem(
                atPath: LayoutDocsTests.root + "/systemd/paneld.socket", toPath: dir + "/paneld.socket")
            let p = Process()
            p.executableURL = URL(fileURLWithPath: analyze)
            p.arguments = ["verify", dir + "/" + name]
            let pipe = Pipe()
            p.standardOutput = pipe
            p.standardError = pipe
            try p.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0 && output.isEmpty, "\(name): \(output)")
        }
        let text = try String(contentsOfFile: Self.guide, encoding: .utf8)
        #expect(!text.contains("adduser pi "), "a user named pi does not exist on a stock Raspberry Pi OS")
    }

    /// Every `dtoverlay=NAME` the guide names is one the Raspberry Pi kernel's
    /// overlay list (arch/arm/boot/dts/overlays/README) has; there is no
    /// `ili9341` overlay (SPI panels use fbtft's overlays or mipi-dbi-spi).
    @Test func theGuideNamesOnlyOverlaysThatExist() throws {
        let known: Set = [
            "vc4-kms-v3d", "vc4-fkms-v3d", "vc4-fkms-v3d-pi4", "vc4-kms-dsi-7inch", "fbtft", "mipi-dbi-spi",
            "pitft28-resistive",
        ]
        let text = try String(contentsOfFile: Self.guide, encoding: .utf8)
        var named: [String] = []
        var rest = Substring(text)
        while let r = rest.range(of: "dtoverlay=") {
            let name = rest[r.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            named.append(String(name))
            rest = rest[r.upperBound...]
        }
        #expect(named.contains("fbtft") && named.contains("mipi-dbi-spi"))
        for name in named { #expect(known.contains(name), "dtoverlay=\(name) is not an overlay of the Pi's kernel") }
    }

    /// Card numbers change between boots: the guide never sets `display` to a
    /// /dev/dri/cardN and names the stable alternatives.
    @Test func theGuideDoesNotPinACardNumber() throws {
        let text = try String(contentsOfFile: Self.guide, encoding: .utf8)
        #expect(!text.contains("\"display\": \"/dev/dri/card"))
        #expect(text.contains("/dev/dri/by-path/") && text.contains("\"DSI-1\"") && text.contains("\"HDMI-A-1\""))
        #expect(!text.contains("there is no KMS connector"), "the firmware KMS driver has connectors")
    }
}
