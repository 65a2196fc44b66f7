import Foundation
import Testing

@testable import PaneldCore

/// Every input kept in `Tests/fuzz/corpus/TARGET` (the seeds, and any input
/// `Tests/tools/fuzz.sh` found failing) replayed through its fuzz target: a
/// reader that traps again, or breaks a target's check, fails here too.
@Suite struct FuzzCorpusTests {
    @Test(arguments: FuzzTarget.allCases) func keptInputsPass(_ target: FuzzTarget) throws {
        let folder = FolderCycleTests.root + "/Tests/fuzz/corpus/" + target.rawValue
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(!names.isEmpty, "no kept inputs in \(folder)")
        for name in names {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            bytes.withUnsafeBytes { target.run($0) }
        }
    }

    /// The targets' checks hold on inputs that reach the interesting paths.
    @Test func targetsReachTheReaders() {
        for text in [
            "cpu 12\nmem 1e308\nmem:+1e308|g\nt text", "\n42", "a.0\n{\"a\": [1]}", "{\"gauges\": [{\"name\": \"a\"}]}",
        ] {
            for t in FuzzTarget.allCases { Array(text.utf8).withUnsafeBytes { t.run($0) } }
        }
    }
}
