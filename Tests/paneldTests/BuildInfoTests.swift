import Foundation
import Testing

/// Package.swift's revision for `paneld --version` where git cannot see the tree
/// (packaging/build-aarch64.sh builds in a chroot without git): the host passes
/// it in PANELD_GIT_REVISION.
@Suite struct BuildInfoTests {
    /// The PANELD_GIT_REVISION define SwiftPM gives PaneldBuildInfo when Package.swift
    /// is evaluated outside any git tree, with `environment` added; nil without `swift`.
    static func revisionDefine(environment: [String: String]) throws -> String? {
        guard
            let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map({ $0 + "/swift" })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return nil }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "paneld-manifest-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(
            atPath: LayoutDocsTests.root + "/Package.swift", toPath: dir + "/Package.swift")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = ["package", "--package-path", dir, "--manifest-cache", "none", "dump-package"]
        var env = ProcessInfo.processInfo.environment
        env["PANELD_GIT_REVISION"] = nil
        // Not the git tree this test runs in (a parent's .git would be found).
        env["GIT_CEILING_DIRECTORIES"] = FileManager.default.temporaryDirectory.path
        p.environment = env.merging(environment) { $1 }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let text = String(decoding: data, as: UTF8.self)
        guard let r = text.range(of: #"PANELD_GIT_REVISION=\""#) else {
            Issue.record("no PANELD_GIT_REVISION define in \(text.prefix(400))")
            return ""
        }
        return String(text[r.upperBound...].prefix { $0 != "\\" })
    }

    @Test func theEnvironmentNamesTheRevisionWhereGitCannot() throws {
        guard let given = try Self.revisionDefine(environment: ["PANELD_GIT_REVISION": "0123456789ab+dirty"])
        else { return }
        #expect(given == "0123456789ab+dirty")
        #expect(try Self.revisionDefine(environment: [:]) == "unknown")
        // It becomes a C string: anything but letters, digits and + . - is not taken.
        #expect(try Self.revisionDefine(environment: ["PANELD_GIT_REVISION": "ab\"c"]) == "unknown")
        #expect(try Self.revisionDefine(environment: ["PANELD_GIT_REVISION": ""]) == "unknown")
    }
}
