import Foundation
import PanelGauge
import Testing

@testable import PaneldCore
@testable import paneld

/// The pictures in docs/examples/ are what `paneld render` draws today, and the
/// examples' feeders send lines their layouts accept.
@Suite struct ExampleTests {
    static let root = LayoutDocsTests.root
    static let examples = ["pi-7inch-800x480", "spi-320x240", "hdmi-1920x1080"]

    /// The `paneld render` lines of docs/examples/render.sh, as arguments after `render`.
    static func renderCommands() throws -> [[String]] {
        let script = try String(contentsOfFile: root + "/docs/examples/render.sh", encoding: .utf8)
        return script.split(separator: "\n").filter { $0.hasPrefix("\"$paneld\" render ") }.map {
            $0.split(separator: " ").dropFirst(2).map(String.init)
        }
    }

    /// Runs each line of render.sh through `paneld render` (to a temporary
    /// file) and compares the pixels with the committed picture.
    @Test func thePicturesAreWhatRenderDraws() throws {
        let commands = try Self.renderCommands()
        #expect(commands.count == Self.examples.count + 2, "the examples, small.json and pages.json")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("paneld-examples-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for arguments in commands {
            let out = try #require(arguments.firstIndex(of: "--output"))
            let picture = Self.root + "/" + arguments[out + 1]
            var args = arguments
            args[out + 1] = dir + "/" + (arguments[out + 1] as NSString).lastPathComponent
            if let c = args.firstIndex(of: "--config") { args[c + 1] = Self.root + "/" + args[c + 1] }
            let start = Date()
            let render = try Render(Arguments(Render.spec, parsing: args))
            try render.validate()
            try render.run()
            let seconds = Date().timeIntervalSince(start)
            let drawn = try PNG.read(args[out + 1])
            let committed = try PNG.read(picture)
            #expect(drawn.width == committed.width && drawn.height == committed.height, "\(picture)")
            let same = drawn.rgb == committed.rgb
            var differing = 0
            if !same {
                for (a, b) in zip(drawn.rgb, committed.rgb) where a != b { differing += 1 }
            }
            #expect(
                same,
                "\(picture): \(differing) channel values differ; run sh docs/examples/render.sh and look at the picture"
            )
            print("ExampleTests: \(arguments[out + 1]) rendered in \(String(format: "%.2f", seconds)) s")
        }
    }

    /// Each feeder, in its dry-run mode on this machine: every line sets a
    /// gauge of its layout to a finite number, and every gauge is fed but the
    /// temperature (a machine without /sys/class/thermal has none).
    @Test(arguments: examples) func theFeederSendsItsLayoutsGauges(_ example: String) throws {
        let folder = Self.root + "/examples/" + example
        let layout = try LayoutReader.read(file: folder + "/layout.json")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [folder + "/feed.sh"]
        p.environment = ProcessInfo.processInfo.environment.merging(
            ["PANELD_FEED_DRY_RUN": "1", "PANELD_FEED_INTERVAL": "0.2", "PANELD_SOCKET": "/nonexistent"]
        ) { $1 }
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let names = layout.gauges.map(\.name)
        var fed: Set<String> = []
        for line in output.split(separator: "\n") {
            guard case .success(.set(let name?, let value)) = LineParser.parse(Array(line.utf8)) else {
                Issue.record("\(example): '\(line)' does not set a named gauge")
                continue
            }
            #expect(names.contains(name), "\(example): '\(line)': no gauge '\(name)' in its layout")
            #expect(value.isFinite, "\(example): '\(line)'")
            fed.insert(name)
        }
        #expect(Set(names).subtracting(fed).subtracting(["temp"]).isEmpty, "\(example): fed only \(fed.sorted())")
    }

    /// The timer runs the service, and the service the installed feeder, as a
    /// user in group paneld; both pass `systemd-analyze verify`.
    @Test(arguments: examples) func theUnitsRunTheFeederUnprivileged(_ example: String) throws {
        let folder = Self.root + "/examples/" + example
        let service = try String(contentsOfFile: folder + "/paneld-feed.service", encoding: .utf8)
        let timer = try String(contentsOfFile: folder + "/paneld-feed.timer", encoding: .utf8)
        #expect(service.contains("\nExecStart=/usr/local/bin/paneld-feed\n"))
        #expect(service.contains("\nDynamicUser=yes\n") && service.contains("\nSupplementaryGroups=paneld\n"))
        #expect(timer.contains("\nOnUnitActiveSec=") && timer.contains("\nAccuracySec="))
        // systemd-analyze verify, where systemd is installed: copies with ExecStart
        // pointed at a stub, beside the package's socket unit.
        guard
            let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("paneld-units-\(example)-\(getpid())")
            .path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "#!/bin/sh\n".write(toFile: dir + "/feed", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir + "/feed")
        try service.replacingOccurrences(of: "=/usr/local/bin/paneld-feed", with: "=" + dir + "/feed")
            .write(toFile: dir + "/paneld-feed.service", atomically: true, encoding: .utf8)
        try timer.write(toFile: dir + "/paneld-feed.timer", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Self.root + "/systemd/paneld.socket", toPath: dir + "/paneld.socket")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: analyze)
        p.arguments = ["verify", dir + "/paneld-feed.service", dir + "/paneld-feed.timer"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        // verify exits 0 on some warnings: any output is a failure.
        #expect(p.terminationStatus == 0 && output.isEmpty, "\(example): \(output)")
    }
}
