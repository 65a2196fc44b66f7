/// Splits a byte stream into lines with a fixed bound on buffered bytes.
///
/// A line longer than `limit` bytes is reported once as ``Event/tooLong`` and
/// the rest of it is discarded up to its newline, so an endless line costs at
/// most `limit` bytes of memory. A pure state machine: the daemon feeds it
/// whatever `read` returned.
struct LineFramer: Sendable {
    enum Event: Equatable {
        case line([UInt8])
        case tooLong
    }

    let limit: Int
    private var buffer: [UInt8] = []
    private var discarding = false

    init(limit: Int = LineParser.maxLineLength + 1) {
        self.limit = limit
        buffer.reserveCapacity(min(limit, 256))
    }

    /// Bytes held for an unfinished line (never more than `limit`).
    var pendingCount: Int { buffer.count }
    /// True while the tail of an over-long line is being skipped.
    var isDiscarding: Bool { discarding }

    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (Event) -> Void) {
        var start = 0
        let n = chunk.count
        while start < n {
            // Find the next newline in the chunk.
            var nl = start
            while nl < n && chunk[nl] != 0x0A { nl += 1 }
            let segment = UnsafeRawBufferPointer(rebasing: chunk[start..<nl])
            if !discarding {
                if buffer.count + segment.count > limit {
                    buffer.removeAll(keepingCapacity: true)
                    discarding = true
                    emit(.tooLong)
                } else {
                    buffer.append(contentsOf: segment)
                }
            }
            if nl < n {  // a newline ends the line (or the discarded tail)
                if discarding {
                    discarding = false
                } else {
                    emit(.line(buffer))
                    buffer.removeAll(keepingCapacity: true)
                }
                start = nl + 1
            } else {
                start = n
            }
        }
    }

    mutating func feed(_ bytes: [UInt8], _ emit: (Event) -> Void) {
        bytes.withUnsafeBytes { feed($0, emit) }
    }
}
