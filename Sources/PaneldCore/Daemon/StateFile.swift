import Glibc
import PanelGauge

/// The last gauge values, text widgets' texts and charts' histories, kept
/// across restarts.
///
/// Format: one `name value` line per gauge (`name -` for one without a value,
/// which starts without one again), the same text `list` answers with,
/// then one `name text` line per text widget, as the socket takes it, then
/// one `@history` line per history a chart or sparkline keeps
/// (``HistoryBook/encoded()``); written atomically (temporary file, fsync,
/// rename) so a crash leaves the old or the new file, never a torn one.
package enum StateFile {
    /// A state file is a few bytes per gauge and up to about 75 per bucket of
    /// history (``LayoutChart/maxTotalPoints`` in all); anything larger is not ours.
    static let maxSize = 4 << 20

    /// What a state file holds.
    package struct Contents {
        package var values: [String: Double] = [:]
        package var texts: [String: String] = [:]
        package var histories: [HistoryKey: ValueHistory] = [:]
        /// Gauges' peaks since paneld started.
        package var extremes: [String: HistoryBook.Extremes] = [:]
        /// Lines that did not parse.
        package var skipped = 0
    }

    /// Parses a state file; lines that do not parse are skipped (and counted), so a
    /// damaged file costs at most the damaged values. A line that starts with
    /// one of `texts` (the layout's text widgets) is that widget's text. Pure.
    static func parse(_ bytes: [UInt8], texts textNames: Set<String> = []) -> Contents {
        var out = Contents()
        let prefix = Array(HistoryBook.linePrefix.utf8) + [0x20]
        let peaksPrefix = Array(HistoryBook.peaksPrefix.utf8) + [0x20]
        for line in bytes.split(separator: 0x0A) {
            if line.starts(with: peaksPrefix) {
                if let (name, e) = HistoryBook.parsePeaksLine(Substring(decoding: line, as: UTF8.self)) {
                    out.extremes[name] = e
                } else {
                    out.skipped += 1
                }
                continue
            }
            if line.starts(with: prefix) {
                if let (key, h) = HistoryBook.parseLine(Substring(decoding: line, as: UTF8.self)) {
                    out.histories[key] = h
                } else {
                    out.skipped += 1
                }
                continue
            }
            switch LineParser.parse(line, texts: textNames) {
            case .success(.set(let name?, let v)): out.values[name] = v
            case .success(.setText(let name, let text)): out.texts[name] = text
            case .success(.clear): break  // no value: the gauge starts without one
            default: if !line.elementsEqual("END".utf8) { out.skipped += 1 }
            }
        }
        return out
    }

    static func encode(_ store: GaugeStore, history: HistoryBook? = nil) -> [UInt8] {
        var s = ""
        for n in store.names { s += "\(n) \(store.shown(n))\n" }
        for n in store.texts.keys.sorted() { s += "\(n) \(store.texts[n]!)\n" }
        if let history { s += history.encoded() }
        return Array(s.utf8)
    }

    /// The values, texts and histories saved at `path`; a line starting with
    /// one of `texts` is that text widget's text.
    package static func load(_ path: String, texts textNames: Set<String> = []) -> Contents {
        let bytes: [UInt8]
        do {
            bytes = try LayoutReader.readBounded(path, limit: maxSize)
        } catch let e as Errno where e.code == ENOENT {
            Log.info("no saved values at \(path)")
            return Contents()
        } catch {
            Log.warning("saved values at \(path) not used: \(error)")
            return Contents()
        }
        let contents = parse(bytes, texts: textNames)
        if contents.skipped > 0 { Log.warning("\(path): skipped \(contents.skipped) unreadable line(s)") }
        Log.info(
            "restored \(contents.values.count) value(s), \(contents.texts.count) text(s) and \(contents.histories.count) history(ies) from \(path)"
        )
        return contents
    }

    /// Why `path` cannot be the state file, or nil: something that exists there and
    /// is not a regular file (a device, a FIFO, a directory, a symlink) is never read,
    /// written or replaced, since it is not paneld's own (`FileIO.replacementRefusal`,
    /// the rule of every file paneld writes).
    package static func refusal(_ path: String) -> String? {
        FileIO.replacementRefusal(path).map { "state file " + $0 }
    }

    static func save(_ store: GaugeStore, history: HistoryBook? = nil, to path: String) throws {
        // writeAtomically checks the path again at each save: it may have been replaced since the start.
        try FileIO.writeAtomically(encode(store, history: history), to: path, mode: 0o640)
    }
}

/// Saving as a part: writes the state file once it is due, at most once per
/// `interval` after a change (at once after a reload), and once more on the way
/// out. A failure is logged when it first happens, and when it clears.
final class StateSaver: DaemonPart {
    private let path: String
    private let interval: Int64
    private var due: Int64?
    private var lastSaveAt: Int64 = .min / 2
    private var failure = FailureLatch()

    init(path: String, interval: Int64) {
        self.path = path
        self.interval = interval
    }

    /// Values changed at `now`: due `interval` after the last save, at the earliest now.
    func noteChange(now: Int64) {
        if due == nil { due = max(now, lastSaveAt + interval) }
    }

    /// The layout was reloaded: due now.
    func noteReload(now: Int64) {
        if due == nil { due = now }
    }

    func interest(now: Int64) -> PartInterest { PartInterest(deadline: due) }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        guard let due, now >= due else { return }
        save(daemon.store, history: daemon.history)
        lastSaveAt = now
        self.due = nil
    }

    func save(_ store: GaugeStore, history: HistoryBook? = nil) {
        do {
            try StateFile.save(store, history: history, to: path)
            if failure.recovered() { Log.notice("values are being saved again") }
        } catch {
            if failure.failed("\(error)") { Log.warning("cannot save values: \(error)") }
        }
    }
}
