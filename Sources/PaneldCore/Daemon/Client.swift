import Glibc

/// One connection on the control socket: its line framer (bounded input) and
/// its unsent replies (bounded output).
final class Client {
    /// Above this many unsent reply bytes paneld stops reading the client's requests
    /// until it reads its replies (backpressure: its further requests wait in the kernel).
    static let highWater = 16 * 1024
    /// Hard ceiling on unsent bytes (one huge reply past the high-water mark); beyond it
    /// the client is disconnected.
    static let maxPendingOutput = 64 * 1024

    let fd: FileDescriptor
    let id: Int
    var framer = LineFramer()
    private(set) var output: [UInt8] = []
    private var outputStart = 0
    /// The peer shut down its sending side; close once replies are flushed.
    var readClosed = false
    /// Read but not yet processed request bytes (at most one read's worth), kept
    /// while the client is over the high-water mark.
    var stash: [UInt8] = []
    /// When the client last went over the high-water mark, while it stays there.
    var blockedSince: Int64?
    /// When the client last sent something (or connected).
    var lastActivity: Int64
    /// When the first byte of the line the framer holds arrived, while a line is unfinished.
    var partialSince: Int64?
    /// Lines framed since the last ``notePartialLine(now:)``.
    var linesFramed = 0
    /// When the connection was accepted.
    let connectedAt: Int64
    /// Whether the client has finished a line since it connected.
    private(set) var hasFinishedALine = false

    init(fd: FileDescriptor, id: Int, now: Int64) {
        self.fd = fd
        self.id = id
        self.connectedAt = now
        self.lastActivity = now
    }

    /// After bytes were framed at `now`: starts, restarts or ends the unfinished
    /// line's clock. A line that ended in these bytes ends it; what follows it is a
    /// new line, begun now. A line whose over-long tail is being skipped is unfinished too.
    func notePartialLine(now: Int64) {
        let unfinished = framer.pendingCount > 0 || framer.isDiscarding
        partialSince = unfinished ? (linesFramed > 0 ? now : (partialSince ?? now)) : nil
        if linesFramed > 0 { hasFinishedALine = true }
        linesFramed = 0
    }

    var pendingOutput: Int { output.count - outputStart }
    var wantsWrite: Bool { pendingOutput > 0 }
    var isBlocked: Bool { pendingOutput > Client.highWater }
    /// Whether to poll for requests: not while blocked, stashed or closed.
    var wantsRead: Bool { !readClosed && !isBlocked && stash.isEmpty }

    /// Queues a reply; false when the bound is exceeded (the caller disconnects).
    func queue(_ text: String) -> Bool {
        if outputStart > 0 && outputStart == output.count {
            output.removeAll(keepingCapacity: true)
            outputStart = 0
        }
        guard pendingOutput + text.utf8.count <= Client.maxPendingOutput else { return false }
        output.append(contentsOf: text.utf8)
        return true
    }

    /// Writes as much pending output as the socket takes without blocking.
    func flush() throws(Errno) {
        while pendingOutput > 0 {
            let r = output.withUnsafeBytes { raw in
                Result { () throws(Errno) -> Int in try fd.write(UnsafeRawBufferPointer(rebasing: raw[outputStart...]))
                }
            }
            switch r {
            case .success(let n): outputStart += n
            case .failure(let e) where e.isWouldBlock: return
            case .failure(let e): throw e
            }
        }
        output.removeAll(keepingCapacity: output.capacity <= 4096)
        outputStart = 0
    }

    /// Whether the kernel holds bytes from the client that paneld has not read yet.
    var hasUnreadInput: Bool {
        var byte: UInt8 = 0
        return recv(fd.rawValue, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// What ``Eviction`` weighs.
    var evictionCandidate: Eviction.Candidate {
        Eviction.Candidate(
            id: id, connectedAt: connectedAt, partialSince: partialSince, lastActivity: lastActivity,
            hasFinishedALine: hasFinishedALine)
    }
}
