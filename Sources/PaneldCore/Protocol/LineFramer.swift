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

    /// Feeds bytes; calls `emit` for each event until it returns false. Returns how
    /// many bytes were consumed: all of them, or up to and including the newline of
    /// the line whose `emit` returned false (the caller keeps the rest for later).
    @discardableResult
    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (Event) -> Bool) -> Int {
        var start = 0
        let n = chunk.count
        while start < n {
            // Find the next newline in the chunk.
            var nl = start
            while nl < n && chunk[nl] != 0x0A { nl += 1 }
            let segment = UnsafeRawBufferPointer(rebasing: chunk[start..<nl])
            var goOn = true
            if !discarding {
                if buffer.count + segment.count > limit {
                    buffer.removeAll(keepingCapacity: true)
                    discarding = true
                    goOn = emit(.tooLong)
                } else {
                    buffer.append(contentsOf: segment)
                }
            }
            if nl < n {  // a newline ends the line (or the discarded tail)
                if discarding {
                    discarding = false
                } else {
                    goOn = emit(.line(buffer))
                    buffer.removeAll(keepingCapacity: true)
                }
                start = nl + 1
            } else {
                start = n
            }
            if !goOn { return start }
        }
        return n
    }

    /// End of input: an unfinished last line still counts as a line.
    mutating func finish(_ emit: (Event) -> Bool) {
        if !discarding && !buffer.isEmpty { _ = emit(.line(buffer)) }
        buffer.removeAll()
        discarding = false
    }

    /// Feeds all of `bytes` (for tests and the statsd path).
    mutating func feed(_ bytes: [UInt8], _ emit: (Event) -> Void) {
        bytes.withUnsafeBytes {
            _ = feed($0) {
                emit($0); return true
            }
        }
    }
}
