import Glibc
import PaneldCore

/// The target `PANELD_FUZZ` names, chosen at the first input.
nonisolated(unsafe) private var chosen: FuzzTarget?

/// libFuzzer's entry point (only the fuzz build has libFuzzer's `main` call it).
@_cdecl("LLVMFuzzerTestOneInput")
public func paneldFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    if chosen == nil {
        let name = getenv("PANELD_FUZZ").map { String(cString: $0) } ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            fatalError("set PANELD_FUZZ to one of \(FuzzTarget.allCases.map(\.rawValue))")
        }
        chosen = target
    }
    chosen!.run(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
