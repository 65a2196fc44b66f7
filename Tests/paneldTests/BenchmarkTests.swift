import Testing

@testable import PaneldCore
@testable import paneld_bench

/// `paneld-bench` runs end to end and prints one JSON object. No timing is
/// asserted: the figures belong to docs/performance.md, measured on purpose.
@Suite(.serialized) struct BenchmarkTests {
    /// The keys a line must have, and that it is one JSON object (checked by the
    /// layout reader's own JSON parser).
    func expectJSONLine(_ out: String, keys: [String]) throws {
        let lines = out.split(separator: "\n")
        #expect(lines.count == 1, "\(out)")
        let value = try JSONReader.parse(Array(String(lines.first ?? "").utf8))
        guard case .object(let members) = value.kind else {
            Issue.record("not a JSON object: \(out)")
            return
        }
        let names = Set(members.map(\.key))
        for key in keys { #expect(names.contains(key), "\(key) missing in \(out)") }
    }

    /// Runs the built paneld-bench with `args` to completion.
    func runBench(_ args: [String], in dir: TempDirectory) throws -> (status: Int32, out: String, err: String) {
        try runCommand([builtProduct("paneld-bench")] + args, path: "/usr/bin:/bin", in: dir)
    }

    @Test func damageFullPhasePrintsOneJSONLine() throws {
        let dir = TempDirectory()
        let r = try runBench(["--damage", "--phase", "full", "--frames", "2"], in: dir)
        #expect(r.status == 0, "\(r.err)")
        try expectJSONLine(r.out, keys: ["benchmark", "phase", "frames", "repaint_rects", "repaint_pixels"])
        #expect(r.out.contains("\"repaint_rects\": [[0, 0, 800, 480]]"), "a full frame repaints the screen")
    }

    @Test func latencyOverAHundredLinesPrintsOneJSONLine() throws {
        let dir = TempDirectory()
        let r = try runBench(["--latency", "--lines", "100", "--size", "160x120"], in: dir)
        #expect(r.status == 0, "\(r.err)")
        try expectJSONLine(r.out, keys: ["benchmark", "lines", "answered", "p50_ms", "p99_ms", "max_ms"])
        #expect(r.out.contains("\"answered\": 100"), "every line is answered by a frame")
    }

    @Test func aBadCommandLineNamesTheProgram() throws {
        let dir = TempDirectory()
        let r = try runBench(["--damage"], in: dir)
        #expect(r.status == 64)
        #expect(r.err.contains("--damage needs --phase full or --phase update"), "\(r.err)")
        #expect(r.err.contains("Usage: paneld-bench [--damage]"), "\(r.err)")
        #expect(r.err.contains("See 'paneld-bench --help'"), "\(r.err)")
        // The daemon does not carry the benchmark.
        let paneld = try runPaneld(["benchmark", "--damage", "--phase", "full"], in: dir)
        #expect(paneld.status == 64)
        #expect(paneld.err.contains("Unknown subcommand 'benchmark'"), "\(paneld.err)")
    }

    @Test func lineValuesNameTheirLine() {
        for k in [1, 99, 100, 101, 12_345, LatencyClient.maxLines] {
            #expect(LatencyClient.line(of: Double(LatencyClient.text(ofLine: k))!) == k)
        }
    }
}
