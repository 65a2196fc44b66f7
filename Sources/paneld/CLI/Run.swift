import PanelDisplay
import Glibc
import PanelGauge
import PaneldCore

/// `paneld run` (the default command): the daemon.
///
/// Reads top to bottom: parse and validate the arguments, open the resources
/// in order (layout, saved values, signals, statsd, socket, display, systemd
/// notification), run the loop until SIGTERM/SIGINT, release in reverse.
struct Run: PaneldCommand {
    /// Defaults of the options that have one (their help shows them too).
    static let defaultSocket = "/run/paneld.sock"
    static let defaultSaveInterval = 5
    static let defaultPNGInterval = 1.0

    static let spec = CommandSpec(
        name: "run", abstract: "Run the daemon (the default).",
        discussion: """
            Feed it one command per line on the socket: '73' sets the default gauge, \
            'cpu 73' or 'cpu=73' a named one, 'cpu:73|g' and 'cpu:+5|g' (statsd) set and adjust, \
            'get cpu' and 'list' answer; a bad line is answered 'ERR <reason>'. \
            SIGHUP re-reads the --config file; SIGTERM saves the values and exits.

            Example:
              paneld --socket /tmp/paneld.sock & echo 73 | socat - UNIX:/tmp/paneld.sock
            """,
        options: [
            .option(
                "config",
                help:
                    "Layout file (JSON). Default: /etc/paneld/layout.json when it exists, else one ring gauge named 'value', 0...100, filling the screen."
            ),
            .option(
                "socket", help: "Control socket path (ignored when systemd passes the socket).",
                default: defaultSocket),
            .option(
                "output", "drm|fbdev[:DEVICE]|png|png:FILE",
                help:
                    "Where frames go: drm, fbdev[:/dev/fbN], png or png:FILE. Default: a connected DRM display (every card is considered), else a framebuffer that is not a DRM card's emulation, else png; a display that appears later is taken. fbdev:/dev/fbN waits for a device that does not exist yet. The png file defaults to $STATE_DIRECTORY/frame.png, else /tmp/paneld.png."
            ),
            .option(
                "state",
                help:
                    "File the last values are saved to and restored from. Default: $STATE_DIRECTORY/values, else none."),
            .option(
                "save-interval", "seconds",
                help:
                    "Seconds between two writes of the state file while values change (0.1 to 3600). A crash loses at most this much; flash storage sees at most one write per interval.",
                default: "\(defaultSaveInterval)"),
            .option(
                "png-interval", "seconds",
                help:
                    "Shortest time between two writes of the PNG file (PNG output; 0.05 to 3600). Each write replaces the whole file.",
                default: "1"),
            .option("size", help: "Screen size WIDTHxHEIGHT for PNG output. Default: the layout's mode, else 800x480."),
            .option("stuck-client-timeout", help: "", hidden: true),
            .option("max-clients", help: "", hidden: true),
            .option("line-timeout", help: "", hidden: true),
            .option("idle-timeout", help: "", hidden: true),
            .flag("verbose", help: "Log debug messages."),
        ])

    var config: String?
    var socket: String
    var output: String?
    var state: String?
    var saveInterval: Double
    var pngInterval: Double
    var size: String?
    var stuckClientTimeout: Int64
    var lineTimeout: Int64
    var idleTimeout: Int64
    var maxClients: Int
    var verbose: Bool

    init(_ arguments: Arguments) throws {
        config = Layout.configPath(given: arguments.string("config")) { access($0, F_OK) == 0 }
        socket = arguments.string("socket") ?? Self.defaultSocket
        output = arguments.string("output")
        state = arguments.string("state")
        saveInterval = try arguments.double("save-interval") ?? Double(Self.defaultSaveInterval)
        pngInterval = try arguments.double("png-interval") ?? Self.defaultPNGInterval
        size = arguments.string("size")
        // The hidden options' defaults are the daemon's own.
        stuckClientTimeout = try arguments.int64("stuck-client-timeout") ?? Daemon.Settings().stuckClientTimeout
        lineTimeout = try arguments.int64("line-timeout") ?? Daemon.Settings().lineTimeout
        idleTimeout = try arguments.int64("idle-timeout") ?? Daemon.Settings().idleTimeout
        maxClients = try arguments.int("max-clients") ?? Daemon.Settings().maxClients
        verbose = arguments.flag("verbose")
    }

    func validate() throws {
        if let output, OutputChoice(output) == nil {
            throw ValidationError("--output '\(output)' is not one of: drm, fbdev, fbdev:DEVICE, png, png:FILE")
        }
        if let size, ModeRequest(parsing: size) == nil {
            throw ValidationError("--size '\(size)' is not WIDTHxHEIGHT, e.g. 800x480, \(ModeRequest.limits)")
        }
        if socket.isEmpty || socket.utf8.count > UnixSocket.maxPathLength {
            throw ValidationError("--socket must be a path of 1 to \(UnixSocket.maxPathLength) bytes")
        }
        if let state, state.isEmpty { throw ValidationError("--state needs a file name") }
        if !(1...4096).contains(maxClients) { throw ValidationError("--max-clients must be 1 to 4096") }
        if !(saveInterval >= 0.1 && saveInterval <= 3600) {
            throw ValidationError("--save-interval must be 0.1 to 3600 seconds")
        }
        if !(pngInterval >= 0.05 && pngInterval <= 3600) {
            throw ValidationError("--png-interval must be 0.05 to 3600 seconds")
        }
    }

    func run() throws {
        if verbose { Log.threshold = .debug }
        signal(SIGPIPE, SIG_IGN)  // a vanished client is an EPIPE, not a dead daemon

        let layout = try config.map { try LayoutReader.read(file: $0) } ?? Layout.fallback
        Log.info(
            config.map { "layout \($0): \(layout.gauges.count) gauge(s)" }
                ?? "no layout given: one ring gauge 'value', 0...100")
        if let config { layout.logWarnings(file: config) }
        if let problem = Render.fontProblem(layout) { Log.warning(problem) }

        var statePath = state ?? Systemd.env("STATE_DIRECTORY").map { Run.firstPath($0) + "/values" }
        var stateRefused = false
        if let p = statePath, let refusal = StateFile.refusal(p) {
            Log.error("\(refusal): values are neither restored from it nor saved to it")
            statePath = nil
            stateRefused = true
        }
        var store = layout.store()
        var history = HistoryBook(layout: layout)
        // Gauges whose values come from the state file (stale until fresh input with `staleOnRestore`).
        var restored: Set<String> = []
        if let statePath {
            let saved = StateFile.load(statePath, texts: store.textNames)
            for (name, text) in saved.texts where text.utf8.count <= GaugeStore.maxTextLength {
                store.setText(name, text)
            }
            for (name, value) in saved.values {
                if store.set(name, value) {
                    restored.insert(name)
                } else {
                    Log.info("saved value for '\(name)' ignored: the layout has no such gauge")
                }
            }
            history.restore(saved.histories, extremes: saved.extremes)
            _ = store.takeChanged()
            _ = store.takeTouched()
            _ = store.takeSamples()  // restored, not received now: not a point of any history
        } else if !stateRefused {
            Log.info("values are not saved across restarts (no --state and no $STATE_DIRECTORY)")
        }

        // SIGUSR1 and SIGUSR2 are the terminal's release and acquire signals (``VirtualTerminal``):
        // handled before any terminal is told to send them.
        let signals = try SignalPipe(
            signals: [SIGTERM, SIGINT, SIGHUP, VirtualTerminal.releaseSignal, VirtualTerminal.acquireSignal])
        defer { signals.close() }

        // Every input is open before the control socket is: once a client can connect,
        // paneld is fully ready (systemd's READY=1 follows at the loop's start).
        var inputs: [any ValueInput] = []
        defer { for input in inputs.reversed() { input.close() } }
        if let a = layout.statsd.flatMap(StatsdAddress.init) { inputs.append(try StatsdInput(udp: a)) }
        if let p = layout.statsdSocket { inputs.append(try StatsdInput(unixPath: p)) }
        for input in inputs { Log.info("listening for \(input.label)") }
        if let m = layout.mqtt {
            let input = try MQTTInput(
                settings: m, subscriptions: layout.mqttSubscriptions, password: try m.passwordFile.map(Run.password))
            inputs.append(input)
            Log.info("\(input.label): \(layout.mqttSubscriptions.count) gauge(s) set by MQTT topics")
        }
        // An input with descriptors of its own beyond one (a listener and its connections)
        // is a ``DaemonPart`` in a file of its own, wired as one element of this list
        // (`[try MyInput(...)]`). The daemon polls it after the value inputs and before the
        // control socket, and stops it however the loop ends (``DaemonPart/stop()``: the
        // part closes what it opened).
        let parts: [any DaemonPart] = []

        let listener: FileDescriptor
        var ownedSocketPath: String? = nil
        if let passed = try Systemd.takeListenSocket() {
            listener = passed
            Log.info("listening on the socket passed by systemd")
        } else {
            listener = try UnixSocket.listen(socket)
            ownedSocketPath = socket
            Log.info("listening on \(socket)")
        }
        defer {
            listener.close()
            if let p = ownedSocketPath { UnixSocket.removeOwned(p) }
        }

        // DRM cards added or removed, monitors plugged in or out.
        var uevents: UeventSocket? = nil
        do { uevents = try UeventSocket() } catch {
            Log.warning("cannot listen to the kernel's uevents (a monitor plugged in later is not seen): \(error)")
        }
        defer { uevents?.close() }
        // After the socket, so a second paneld is refused before it touches the display.
        let (frameOutput, awaiting) = try openOutput(layout)
        let slot = OutputSlot(frameOutput)
        defer { slot.close() }
        // No display yet: watch for one (a driver that loads later).
        var lateDisplay: LateDisplay? = nil
        switch awaiting {
        case nil: break
        case .drm:
            lateDisplay = watchForDRM(layout)
        case .framebuffer(let path):
            let (directory, name) = Run.splitPath(path)
            lateDisplay = LateDisplay(
                watcher: try DisplayWatcher(directory: directory) { $0 == name }, awaited: path
            ) { try self.openFBDev(layout, path: path) }
            Log.notice("\(path) does not exist yet: paneld shows the gauges on it once its driver creates it")
        }
        try layout.checkFits(width: frameOutput.width, height: frameOutput.height, file: config ?? "layout")
        let screen = IntRect(x: 0, y: 0, width: frameOutput.width, height: frameOutput.height)
        for g in layout.gauges where !(g.rect.map(screen.contains) ?? true) {
            Log.warning(
                "gauge '\(g.name)' at \(g.rect!) is partly off the \(screen.width)x\(screen.height) screen; it is clipped"
            )
        }

        var settings = Daemon.Settings()
        settings.statePath = statePath
        settings.layoutPath = config
        settings.saveInterval = Int64((saveInterval * 1000).rounded())
        settings.stuckClientTimeout = max(1, stuckClientTimeout)
        settings.lineTimeout = max(1, lineTimeout)
        settings.idleTimeout = max(1, idleTimeout)
        settings.maxClients = maxClients
        settings.followsTerminal = true
        settings.minFrameInterval = frameOutput is PNGOutput ? Int64((pngInterval * 1000).rounded()) : 0
        settings.watchdogInterval = Systemd.watchdogInterval(
            usec: Systemd.env("WATCHDOG_USEC"), watchdogPID: Systemd.env("WATCHDOG_PID"), pid: getpid())
        let daemon = Daemon(
            layout: layout, output: slot, listener: listener, signals: signals, inputs: inputs,
            notifier: Notifier(), store: store, history: history, settings: settings, restored: restored,
            lateDisplay: lateDisplay,
            displayLost: { (self.pngOutput(layout, path: nil), self.watchForDRM(layout)) }, uevents: uevents,
            parts: parts)
        try daemon.run()
        Log.info("stopped")
    }

    /// The watch on /dev/dri that moves paneld to a DRM display when one appears
    /// (with the uevents the daemon listens to: a monitor plugged in).
    private func watchForDRM(_ layout: Layout) -> LateDisplay? {
        do {
            let late = LateDisplay(watcher: try DisplayWatcher()) { try self.openDRM(layout) }
            Log.notice("watching /dev/dri and DRM hotplug: paneld moves to a display when one appears")
            return late
        } catch {
            Log.warning("cannot watch /dev/dri for a display that appears later: \(error)")
            return nil
        }
    }

    /// The PNG file `path` (nil: the default file) at the layout's size.
    private func pngOutput(_ layout: Layout, path: String?) -> FrameOutput {
        let defaultPNG = Systemd.env("STATE_DIRECTORY").map { Run.firstPath($0) + "/frame.png" } ?? "/tmp/paneld.png"
        let size =
            self.size.flatMap { ModeRequest(parsing: $0) }.map { ($0.width, $0.height) } ?? layout.logicalSize ?? (
                800, 480
            )
        let p = path ?? defaultPNG
        Log.notice("output: PNG file \(p), \(size.0)x\(size.1)")
        return PNGOutput(path: p, width: size.0, height: size.1, format: layout.pixelFormat ?? .xrgb8888)
    }

    /// The first line of an MQTT password file: a regular file of at most 4 KiB,
    /// opened read-only (a FIFO or a device is refused, as for the layout).
    static func password(file path: String) throws -> String {
        let bytes: [UInt8]
        do { bytes = try LayoutReader.readBounded(path, limit: 4096) } catch {
            throw DaemonError("MQTT password file \(path): \(error)")
        }
        let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        guard !line.isEmpty, let text = String(validating: line, as: UTF8.self), !line.contains(0) else {
            throw DaemonError("MQTT password file \(path): the first line must hold the password (UTF-8)")
        }
        return text
    }

    /// `/dev/fb1` -> (`/dev`, `fb1`); a bare name is in the current directory.
    static func splitPath(_ path: String) -> (directory: String, name: String) {
        guard let cut = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<cut])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: cut)...]))
    }

    /// `$STATE_DIRECTORY` may list several directories separated by ':'; the first is ours.
    static func firstPath(_ list: String) -> String {
        String(list.split(separator: ":", maxSplits: 1).first ?? Substring(list))
    }

    /// The output `--output` names, else the automatic choice: a DRM display, else
    /// a framebuffer, else a PNG file. `awaiting`: the display a fallback stands in
    /// for (any DRM display when chosen automatically, or the framebuffer `--output
    /// fbdev:PATH` names before its driver has created it), taken when it appears.
    private func openOutput(_ layout: Layout) throws -> (output: FrameOutput, awaiting: AwaitedDisplay?) {
        let choice = output.flatMap(OutputChoice.init) ?? .automatic
        func png(_ path: String?) -> FrameOutput { pngOutput(layout, path: path) }
        switch choice {
        case .png(let path):
            // Named by the user: refused at start, not at each frame (a device, FIFO or symlink is not ours).
            if let path, let refusal = FileIO.replacementRefusal(path) { throw DaemonError("--output png:\(refusal)") }
            return (png(path), nil)
        case .drm: return (try openDRM(layout), nil)
        case .fbdev(let path?) where access(path, F_OK) != 0 && errno == ENOENT:
            // Not created yet (an fbtft panel's module loads after paneld): the PNG file meanwhile.
            return (png(nil), .framebuffer(path))
        case .fbdev(let path): return (try openFBDev(layout, path: path), nil)
        case .automatic:
            let reason: String
            if DRMProbe.cardPaths().isEmpty {
                reason = "no DRM device (nothing matches /dev/dri/card*)"
            } else {
                do {
                    return (try openDRM(layout), nil)
                } catch {
                    // A card without KMS (the Pi's render-only v3d next to an fbtft SPI panel).
                    reason = "no usable DRM display (\(error))"
                }
            }
            // Never the fbdev emulation of a card that was just passed over (it would show the same
            // disconnected or wrong screen).
            let drm = LiveDRMSyscalls()
            let rejected = drm.listCards().map { drm.sysfsDevice(ofCard: $0) }
            let framebuffers = LiveFBSyscalls().describeFramebuffers()
            if let fb = chooseFallbackFramebuffer(framebuffers, rejectedCardDevices: rejected) {
                Log.notice("\(reason): using the framebuffer device \(fb.path) (\(fb.name))")
                return (try openFBDev(layout, path: fb.path), .drm)
            }
            if !framebuffers.isEmpty {
                let names = framebuffers.map { "\($0.path) (\($0.name))" }.joined(separator: ", ")
                Log.info("not falling back to \(names): the fbdev emulation of a DRM card passed over")
            }
            Log.notice("\(reason): showing frames in a PNG file instead")
            return (png(nil), .drm)
        }
    }

    /// A legacy framebuffer (`/dev/fbN`, else the first one), in the layout's format and rotation.
    private func openFBDev(_ layout: Layout, path: String?) throws -> FrameOutput {
        let output = try FBDevOutput(options: FBDevOutputOptions(layout: layout, devicePath: path))
        Log.notice(
            "output: framebuffer \(output.path) (\(output.fix.id)) \(output.format), \(output.pages) page(s), rotation \(output.rotation), drawing at \(output.width)x\(output.height)"
        )
        return output
    }

    /// The DRM/KMS display the layout asks for (card, connector, mode, format, rotation).
    private func openDRM(_ layout: Layout) throws -> FrameOutput {
        var options = DRMOutputOptions()
        options.devicePath = layout.display
        options.connector = layout.connector
        options.mode = layout.mode
        options.format = layout.pixelFormat ?? .xrgb8888
        options.rotation = layout.rotation
        let output = try DRMOutput(options: options)
        Log.notice(
            "output: DRM \(output.device.path) \(output.connector.name) \(output.mode), \(output.format), rotation \(options.rotation), drawing at \(output.width)x\(output.height)"
        )
        for why in output.choice.passedOver { Log.info("not chosen: \(why)") }
        if let warning = output.choice.modeWarning {
            Log.warning(warning)
        } else if let (w, h) = layout.logicalSize, (w, h) != (output.width, output.height) {
            Log.warning("the layout's mode gives \(w)x\(h) but the display is \(output.width)x\(output.height)")
        }
        return output
    }
}

/// The display a fallback output stands in for until it appears.
enum AwaitedDisplay: Equatable {
    /// Any DRM display (the automatic choice).
    case drm
    /// The framebuffer `--output fbdev:PATH` names.
    case framebuffer(String)
}

/// The `--output` argument.
enum OutputChoice: Equatable {
    case automatic
    case drm
    /// nil = the first /dev/fb*.
    case fbdev(String?)
    /// nil = the default file.
    case png(String?)

    init?(_ text: String) {
        switch text {
        case "drm": self = .drm
        case "fbdev": self = .fbdev(nil)
        case "png": self = .png(nil)
        case "auto": self = .automatic
        default:
            if text.hasPrefix("fbdev:"), text.count > 6 {
                self = .fbdev(String(text.dropFirst(6)))
                return
            }
            guard text.hasPrefix("png:"), text.count > 4 else { return nil }
            self = .png(String(text.dropFirst(4)))
        }
    }
}

/// Finds DRM card nodes without opening them.
enum DRMProbe {
    static func cardPaths(directory: String = "/dev/dri") -> [String] {
        DeviceNode.names(in: directory).filter { $0.hasPrefix("card") }.map { directory + "/" + $0 }.sorted()
    }
}
