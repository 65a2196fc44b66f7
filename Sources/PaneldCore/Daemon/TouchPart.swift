import Glibc
import PanelDisplay

/// Touch screens as a part: their events in the daemon's one poll, turned
/// into gestures that act on the pages.
///
/// - A swipe left shows the next page, a swipe right the one before (the
///   rotation goes on from it, as after `page NAME`).
/// - A tap on the page indicator shows the page of the nearest dot; a tap on
///   a gauge with a `"tap"` action does it (``TapAction``); elsewhere a tap
///   holds the page shown (the rotation pauses); a long press lets it go on.
/// - A touch on a screen turned off (``LightPart``) turns it on, and does nothing else.
///
/// Touch screens are found in ``LayoutTouch/directory`` when paneld starts and
/// when the kernel announces a new input device (``DaemonContext/inputsChanged()``);
/// one that goes away (`ENODEV`) is closed. Idle, the part adds no wake-up:
/// a deadline exists only while a finger is down (for a long press) and for
/// a few retries after a device appeared that could not yet be opened (udev
/// gives an `input` node its group a moment after the kernel announces it).
final class TouchPart: DaemonPart {
    private var settings: LayoutTouch
    private let directory: String
    private var devices: [TouchDevice] = []
    /// Nodes that are not touch screens, kept so a rescan does not open them
    /// again. Forgotten when the kernel announces an input device: it reuses
    /// `eventN` numbers, so a touch screen may come as a keyboard's former node.
    package private(set) var others: Set<String> = []
    private var recognizer = GestureRecognizer(width: 1, height: 1)
    /// The finger's last logical point, while it is down.
    private var last: (x: Double, y: Double)?
    /// The finger down turned the screen on: what it does until it lifts is not a gesture.
    private var waking = false
    /// The devices of the last ``interest(now:)``, in the order of its descriptors.
    private var polled: [TouchDevice] = []
    /// A rescan due after a node could not be opened yet: when, and how many are left.
    private var retry: (at: Int64, left: Int)?

    static let retryInterval: Int64 = 250
    static let retries = 8

    init(_ settings: LayoutTouch, directory: String = LayoutTouch.directory) {
        self.settings = settings
        self.directory = directory
        rescan(now: monotonicMilliseconds(), announced: false)
    }

    /// The touch screens open now.
    var names: [String] { devices.map(\.path) }

    /// After a reload: the new settings; devices opened or closed as they say.
    func reload(_ new: LayoutTouch, now: Int64) {
        guard new != settings else { return }
        settings = new
        let kept = devices.filter { new.enabled && (new.device == nil || new.device == $0.path) }
        for d in devices where !kept.contains(where: { $0 === d }) {
            Log.info("touch: \(d.path) (\(d.name)) closed: the layout's \"touch\" leaves it out")
            d.close()
        }
        devices = kept
        rescan(now: now, announced: false)
    }

    /// Opens the touch screens not open yet. `announced`: a device was just
    /// added, so a node that cannot be opened yet is tried again shortly.
    func rescan(now: Int64, announced: Bool) {
        guard settings.enabled else { return }
        var paths: [String]
        if let device = settings.device {
            paths = [device]
        } else {
            paths = DeviceNode.names(in: directory).filter { $0.hasPrefix("event") }.map { directory + "/" + $0 }
            paths.sort { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
        }
        // A node number may now belong to another device; one gone is forgotten.
        if announced { others.removeAll() } else { others.formIntersection(paths) }
        var denied = false
        for path in paths where !others.contains(path) && !devices.contains(where: { $0.path == path }) {
            do {
                switch try TouchDevice.open(path) {
                case .touch(let d):
                    devices.append(d)
                    Log.notice("touch: \(d.path) (\(d.name)), x \(d.x), y \(d.y)")
                case .other:
                    others.insert(path)
                }
            } catch let error as DRMError where announced && error.errno == EACCES {
                // udev has not given the new node its group yet.
                denied = true
            } catch let error as DRMError where error.errno == ENOENT && settings.device == nil {
                continue  // gone since the folder was read
            } catch {
                Log.warning("touch: \(error)")
            }
        }
        if denied {
            let left = (retry?.left ?? Self.retries) - 1
            retry = left > 0 ? (now + Self.retryInterval, left) : nil
        } else {
            retry = nil
        }
    }

    func interest(now: Int64) -> PartInterest {
        let deadlines = [recognizer.deadline, retry?.at].compactMap { $0 }
        polled = devices
        return PartInterest(polled.map { ($0.fd, PollEvents.input) }, deadline: deadlines.min())
    }

    func turn(_ ready: [PollEvents], now: Int64, daemon: any DaemonContext) {
        if let r = retry, now >= r.at { rescan(now: now, announced: true) }
        var gone: [TouchDevice] = []
        // A reload (SIGHUP, turned before this part) may have closed a device polled.
        for (device, events) in zip(polled, ready) where !events.isEmpty && devices.contains(where: { $0 === device }) {
            let mapping = TouchMapping(
                x: device.x, y: device.y, calibration: settings.calibration, rotation: daemon.layout.rotation,
                width: daemon.screenWidth, height: daemon.screenHeight)
            recognizer.width = Double(mapping.width)
            recognizer.height = Double(mapping.height)
            do {
                for report in try device.readReports() {
                    if case .contact = report, daemon.screenTouched() { waking = true }
                    if waking {
                        if report != .lifted && report != .lost { continue }
                        waking = false
                        last = nil
                        recognizer.cancel()
                        continue
                    }
                    if let g = take(report, mapping, now: monotonicMilliseconds()) { act(g, daemon: daemon) }
                }
            } catch {
                Log.notice("touch: \(device.path) (\(device.name)) is gone: \(error)")
                gone.append(device)
            }
        }
        for d in gone { d.close() }
        devices.removeAll { d in gone.contains { $0 === d } }
        if let g = recognizer.due(now: now) { act(g, daemon: daemon) }
    }

    private func take(_ report: TouchReport, _ mapping: TouchMapping, now: Int64) -> TouchGesture? {
        switch report {
        case .contact(let x, let y):
            let p = mapping.point(x: x, y: y)
            last = p
            return recognizer.touch(x: p.x, y: p.y, at: now)
        case .lifted:
            defer { last = nil }
            guard let p = last else { return nil }
            return recognizer.lift(x: p.x, y: p.y, at: now)
        case .lost:
            last = nil
            recognizer.cancel()
            return nil
        }
    }

    private func act(_ gesture: TouchGesture, daemon: any DaemonContext) {
        switch gesture {
        case .swipe(.left): daemon.turnPage(by: 1)
        case .swipe(.right): daemon.turnPage(by: -1)
        case .swipe: break
        case .tap(let x, let y): if !daemon.tapped(x: x, y: y) { daemon.holdPage(true) }
        case .longPress: daemon.holdPage(false)
        }
    }

    func stop() {
        for d in devices { d.close() }
        devices = []
    }
}
