import PanelDisplay
import Glibc

/// Tells the daemon when a display's device node may have appeared (a DRM card in
/// `/dev/dri`, or the framebuffer `--output fbdev:PATH` names), so that a paneld that
/// started before its display driver (early at boot, an fbtft panel's module, a
/// driver loaded by hand) moves from its fallback output to the display.
///
/// Why inotify and not unit ordering: a unit cannot name the device to wait for
/// (card0 may be the render-only v3d on a Pi 4/5, the display another card; an SPI
/// panel's driver may never load), and waiting in the unit would stall a box
/// that has no display at all. With inotify paneld serves at once on its fallback
/// (a PNG file or a framebuffer) and costs nothing while it waits: the watch
/// wakes it only when something is created in `/dev` (until `/dev/dri` exists) or
/// a node in `/dev/dri` is created or changes its attributes (udev sets the
/// node's group and mode just after the kernel creates it, and until then open
/// fails with EACCES).
package final class DisplayWatcher {
    let fd: FileDescriptor
    private let directory: String
    private let parent: String
    /// The directory's own name, as the parent's events give it.
    private let lastComponent: String
    private var parentWatch: Int32 = -1
    private var directoryWatch: Int32 = -1
    /// Which names in the directory are the display's nodes.
    private let isNode: (String) -> Bool

    /// Watches `directory` (`/dev/dri`) for nodes whose name `isNode` accepts
    /// (`card*` by default), or its parent until the directory exists.
    package init(directory: String = "/dev/dri", isNode: @escaping (String) -> Bool = { $0.hasPrefix("card") }) throws {
        self.isNode = isNode
        let raw = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard raw >= 0 else { throw Errno.current("inotify_init1") }
        fd = FileDescriptor(rawValue: raw)
        self.directory = directory
        let cut = directory.lastIndex(of: "/") ?? directory.startIndex
        parent = cut == directory.startIndex ? "/" : String(directory[..<cut])
        lastComponent = String(directory.split(separator: "/").last ?? Substring(directory))
        if !watchDirectory() {
            parentWatch = inotify_add_watch(raw, parent, UInt32(IN_CREATE | IN_MOVED_TO))
            if parentWatch < 0 {
                let e = Errno.current("inotify_add_watch \(parent)")
                fd.close()
                throw e
            }
            _ = watchDirectory()  // created between the first try and the parent's watch
        }
    }

    /// Adds the watch on the directory itself; false if it does not exist yet.
    private func watchDirectory() -> Bool {
        guard directoryWatch < 0 else { return true }
        let w = inotify_add_watch(fd.rawValue, directory, UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO))
        guard w >= 0 else { return false }
        directoryWatch = w
        if parentWatch >= 0 {
            inotify_rm_watch(fd.rawValue, parentWatch)
            parentWatch = -1
        }
        return true
    }

    /// Reads every pending event. True when a display node was created or changed,
    /// or the directory itself appeared (it may already hold cards).
    func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var relevant = false
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd.rawValue, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            for event in DisplayWatcher.parse(buffer[0..<n]) {
                if event.watch == directoryWatch, isNode(event.name) { relevant = true }
                if event.watch == parentWatch, event.name == lastComponent, watchDirectory() { relevant = true }
            }
        }
        return relevant
    }

    /// Splits a read of `struct inotify_event` records (header, then a name padded
    /// with NULs). Pure.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [(watch: Int32, mask: UInt32, name: String)] {
        let header = MemoryLayout<inotify_event>.size
        var out: [(Int32, UInt32, String)] = []
        var at = bytes.startIndex
        while bytes.endIndex - at >= header {
            let (wd, mask, len) = bytes[at..<(at + header)].withUnsafeBytes { raw in
                (
                    raw.loadUnaligned(fromByteOffset: 0, as: Int32.self),
                    raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                    Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                )
            }
            let nameStart = at + header
            guard bytes.endIndex - nameStart >= len else { break }
            let name = String(decoding: bytes[nameStart..<(nameStart + len)].prefix { $0 != 0 }, as: UTF8.self)
            out.append((wd, mask, name))
            at = nameStart + len
        }
        return out
    }

    func close() { fd.close() }
}

/// A display that may still appear: the watch on /dev/dri, how to open the
/// display, and when to try next. The daemon owns it while its output is a fallback.
package final class LateDisplay {
    let watcher: DisplayWatcher
    let open: () throws -> FrameOutput
    /// When to try opening the display next; nil = wait for the watcher.
    var attemptAt: Int64?
    private var failures = 0
    private var lastFailure = FailureLatch()

    /// Pauses after failed attempts, in milliseconds: then the watcher decides.
    static let retryPauses: [Int64] = [500, 1000, 2000, 4000, 8000]

    /// What is awaited, for the log: `the DRM devices`, `/dev/fb1`.
    private let awaited: String

    package init(watcher: DisplayWatcher, awaited: String = "the DRM devices", open: @escaping () throws -> FrameOutput)
    {
        self.watcher = watcher
        self.awaited = awaited
        self.open = open
    }

    func close() { watcher.close() }

    /// A card node appeared or changed: try at once, with a fresh set of retries.
    func scheduleAttempt(now: Int64) {
        failures = 0
        attemptAt = now
    }

    /// An attempt failed: log it once per kind, and retry after the next pause.
    func failed(_ error: any Error, now: Int64) {
        if lastFailure.failed("\(error)") {
            Log.info("\(awaited): a display device appeared but is not usable (yet): \(error)")
        }
        if failures < LateDisplay.retryPauses.count {
            attemptAt = now + LateDisplay.retryPauses[failures]
            failures += 1
        } else {
            attemptAt = nil
            Log.notice("no usable display among \(awaited); waiting for another change")
        }
    }
}

/// The watch for a late display as a part: while the output is a fallback, the
/// watcher's descriptor and the next attempt's deadline. A display that opens
/// goes to the daemon (``DaemonContext/displayAppeared(_:)``), and the watch ends.
final class LateDisplayWatch: DaemonPart {
    /// The display awaited; nil while the output is not a fallback.
    var late: LateDisplay? {
        willSet { if late !== newValue { late?.close() } }
    }

    init(_ late: LateDisplay?) { self.late = late }

    func interest(now: Int64) -> PartInterest {
        guard let late else { return PartInterest() }
        return PartInterest([(late.watcher.fd, .input)], deadline: late.attemptAt)
    }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        guard let late else { return }
        if ready.first?.isEmpty == false, late.watcher.drain() { late.scheduleAttempt(now: monotonicMilliseconds()) }
        let now = monotonicMilliseconds()
        if let at = late.attemptAt, now >= at { attempt(late, now: now, daemon) }
    }

    /// Opens the display; on success hands it to the daemon for good. A failure
    /// is retried a few times with growing pauses (a driver may still be probing
    /// its connectors), then waits for the next change in /dev/dri.
    private func attempt(_ late: LateDisplay, now: Int64, _ daemon: any DaemonContext) {
        late.attemptAt = nil
        let new: FrameOutput
        do {
            new = try late.open()
        } catch {
            late.failed(error, now: now)
            return
        }
        self.late = nil
        daemon.displayAppeared(new)
    }

    func stop() { late = nil }
}
