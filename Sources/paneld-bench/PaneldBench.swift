import Glibc
import PaneldCore

/// `paneld-bench`: the daemon's figures of docs/performance.md (``Benchmark``), a
/// program of its own beside `paneld`, which does not carry them.
@main
enum PaneldBench {
    static func main() {
        exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst()), command: Benchmark.self))
    }
}
