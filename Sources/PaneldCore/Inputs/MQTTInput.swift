import CMosquitto
import Glibc

/// Gauge values from an MQTT broker, through libmosquitto, driven by the
/// daemon's poll loop: no thread of its own. The loop polls the client's socket
/// (for writing too while libmosquitto has bytes queued) and calls ``tick(now:_:)``
/// for the reconnection, the connection timeout and the keepalive; nothing else
/// wakes it.
///
/// Each gauge's topic is subscribed after every connection (a broker that
/// restarted has forgotten them), so retained messages give the first values. A
/// payload is read by ``MQTTPayload``; one that says there is no value
/// (``MQTTSubscription/noData``) clears the gauge ("no data"), one that gives
/// no value and says nothing of the kind changes nothing,
/// is counted and logged at debug within a ``LogBudget``. A flood is read a
/// bounded number of packets per poll turn, keeping only each gauge's latest value,
/// and the store's changes are drawn in the daemon's next frame, as socket updates are.
///
/// The connection's life, each change logged once: waiting (the first attempt
/// is at once; after a failure the wait doubles from ``minBackoff`` to
/// ``maxBackoff``, with up to a quarter more at random, so a fleet does not return
/// to a restarted broker at the same moment), connecting (a TCP connection, TLS
/// handshake and CONNACK within ``connectTimeout``: the keepalive, at most 10 s), connected. A broker that
/// refuses the credentials is one error at priority err, then the same backoff.
/// The broker's host name is resolved when connecting, in the loop: give an
/// address, or a name the local resolver answers at once.
///
/// Bounded memory: paneld speaks MQTT 5 and asks the broker, in its CONNECT, for
/// packets of at most ``maxPacketSize`` (MQTT 5's Maximum Packet Size): the broker
/// then never sends a larger message (MQTT 5, 3.1.2.11.4), since libmosquitto
/// allocates an incoming packet whole before anyone could look at its size. A
/// broker that speaks only MQTT 3.1.1 is connected to again with 3.1.1 and a
/// warning that messages are then not bounded before they arrive.
package final class MQTTInput: ValueInput {
    package let label: String
    private let settings: MQTTSettings
    private let handle: OpaquePointer
    /// Topic -> the gauges it sets and how each reads the payload.
    private let routes: [String: [(gauge: String, subscription: MQTTSubscription)]]

    enum State: Equatable {
        case waiting(until: Int64)
        case connecting(since: Int64)
        case connected
    }
    private(set) var state: State
    private var backoff = MQTTInput.minBackoff
    private var hasConnectedBefore = false
    /// When the current connection was accepted.
    private var connectedAt: Int64 = 0
    /// When the next `mosquitto_loop_misc` is due while connected (keepalive pings and their timeout).
    private var miscDue: Int64?
    /// What the messages received since the store last saw them set, one
    /// command per gauge or text widget (a flood keeps the latest).
    private var latest: [String: Command] = [:]
    /// What the log last said about the connection, so each change is said once.
    private var reported: String?
    private var refusal: String?
    /// libmosquitto's last error message (a TLS failure's reason, from OpenSSL), added to the next failure's line.
    private var libraryError: String?
    private(set) var rejected = 0
    private(set) var received = 0
    private var budget = LogBudget()
    /// MQTT 5 until a broker answers that it does not speak it.
    private(set) var protocolVersion = CMOSQ_PROTOCOL_V5
    /// Attempts that failed or were refused since the last connection, and when the first of them was:
    /// the line that says the broker was reached again counts them.
    private var unsuccessful = 0
    private var unsuccessfulSince: Int64?
    /// Set when the broker just answered that it does not speak MQTT 5: the connection's end is expected.
    private var fellBack = false
    /// Payloads past ``MQTTPayload/maxSize`` are refused anyway; the rest is room for the
    /// topic (at most ``MQTTSubscription/maxTopicLength``), properties and headers.
    static let maxPacketSize = UInt32(MQTTPayload.maxSize + 4096)

    static let minBackoff: Int64 = 500
    /// A connection lost after lasting this long is retried at once and the backoff
    /// starts over; one lost sooner (a broker that accepts and then drops paneld,
    /// another client taking over the same client id) waits the growing backoff.
    static let stableConnection: Int64 = 10_000
    static let maxBackoff: Int64 = 30_000
    /// The longest wait for a connection to be accepted, whatever the keepalive.
    static let maxConnectTimeout: Int64 = 10_000
    /// Packets read per poll turn at most, so a flood cannot hold the loop.
    static let packetsPerTurn = 256

    /// The shared library the MQTT input opens (package libmosquitto1).
    static let libraryName = "libmosquitto.so.1"

    /// Opens libmosquitto (once per process) so a daemon without MQTT never maps it
    /// or the OpenSSL it loads. Throws, naming the package, when it cannot.
    static func loadLibrary(named name: String = libraryName, label: String) throws {
        var message = [CChar](repeating: 0, count: 512)
        guard cmosq_load(name, &message, message.count) != 0 else { return }
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw DaemonError("\(label): MQTT needs libmosquitto (Debian package libmosquitto1): \(reason)")
    }

    /// Prepares the client; the first connection attempt is made by the loop's
    /// first turn. `password` is the password file's first line.
    package init(
        settings: MQTTSettings, subscriptions: [(gauge: String, subscription: MQTTSubscription)], password: String?
    )
        throws
    {
        self.settings = settings
        label = "mqtt \(settings.tls ? "mqtts" : "mqtt")://\(settings.host):\(settings.port)"
        var routes: [String: [(gauge: String, subscription: MQTTSubscription)]] = [:]
        for s in subscriptions { routes[s.subscription.topic, default: []].append(s) }
        self.routes = routes
        try MQTTInput.loadLibrary(label: label)
        cmosq_lib_init()
        guard let h = cmosq_new(settings.clientID, true, nil) else {
            cmosq_lib_cleanup()
            throw DaemonError("\(label): cannot create an MQTT client (\(String(cString: strerror(errno))))")
        }
        handle = h
        state = .waiting(until: monotonicMilliseconds())
        do {
            try check(cmosq_int_option(h, MOSQ_OPT_PROTOCOL_VERSION, CMOSQ_PROTOCOL_V5), "protocol version")
            try MQTTInput.requestPacketLimit(h, settings: settings)
            if let u = settings.username { try check(cmosq_username_pw_set(h, u, password), "username") }
            if settings.tls {
                if settings.caFile == nil { try check(cmosq_int_option(h, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "CA") }
                if settings.caFile != nil || settings.certificateFile != nil {
                    // A key with a passphrase is refused rather than prompted for on a terminal.
                    let noPassphrase:
                        @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?)
                            -> Int32 = { _, _, _, _ in 0 }
                    try check(
                        cmosq_tls_set(
                            h, settings.caFile, nil, settings.certificateFile, settings.keyFile, noPassphrase),
                        "TLS files")
                }
            }
        } catch {
            cmosq_destroy(h)
            cmosq_lib_cleanup()
            throw error
        }
        cmosq_user_data_set(h, Unmanaged.passUnretained(self).toOpaque())
        cmosq_connect_callback_set(h) { _, context, rc in
            guard let context else { return }
            Unmanaged<MQTTInput>.fromOpaque(context).takeUnretainedValue().connected(rc)
        }
        cmosq_log_callback_set(h) { _, context, level, text in
            guard let context, let text, level == CMOSQ_LOG_ERR else { return }
            Unmanaged<MQTTInput>.fromOpaque(context).takeUnretainedValue().libraryError = String(cString: text)
        }
        cmosq_message_callback_set(h) { _, context, message in
            guard let context, let message else { return }
            Unmanaged<MQTTInput>.fromOpaque(context).takeUnretainedValue().message(message.pointee)
        }
    }

    /// Stores the CONNECT properties that every later (re)connection sends: the
    /// Maximum Packet Size, or none (`limit` nil). libmosquitto takes CONNECT
    /// properties only from its blocking `mosquitto_connect_bind_v5`, which copies
    /// them before it checks its other arguments: called with a keepalive of 1
    /// (below MQTT's 5), it stores them and returns `MOSQ_ERR_INVAL` without
    /// connecting, and the loop's non-blocking connect sends them. (libmosquitto
    /// 2.0; `MQTTInputTests.aHugeMessageNeverReachesPaneld` fails if that changes.)
    static func requestPacketLimit(_ h: OpaquePointer, settings: MQTTSettings, limit: UInt32? = maxPacketSize) throws {
        var props: OpaquePointer?
        defer { cmosq_property_free_all(&props) }
        if let limit {
            let rc = cmosq_property_add_int32(&props, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), limit)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                throw DaemonError("mqtt: maximum packet size: \(describe(rc))")
            }
        }
        let rc = cmosq_connect_bind_v5(h, settings.host, Int32(settings.port), 1, nil, props)
        guard rc == MOSQ_ERR_INVAL.rawValue else {
            throw DaemonError("mqtt: libmosquitto did not take the CONNECT properties (\(describe(rc)))")
        }
    }

    private func check(_ rc: Int32, _ what: String) throws {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw DaemonError("\(label): \(what): \(MQTTInput.describe(rc))")
        }
    }

    /// libmosquitto's text for `rc`, with errno's for a system error (and what the
    /// unit's sandbox has to do with it, when it has).
    static func describe(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue {
            let code = errno
            let text = String(cString: strerror(code))
            return NetworkSandbox.hint(forErrno: code).map { "\(text) (\($0))" } ?? text
        }
        return String(cString: cmosq_strerror(rc))
    }

    package var interest: (fd: FileDescriptor, events: PollEvents)? {
        if case .waiting = state { return nil }
        let s = cmosq_socket(handle)
        guard s >= 0 else { return nil }
        return (FileDescriptor(rawValue: s), cmosq_want_write(handle) ? [.input, .output] : .input)
    }

    package var nextDeadline: Int64? {
        switch state {
        case .waiting(let until): until
        case .connecting(let since): since + connectTimeout
        case .connected: miscDue
        }
    }

    /// Publishes `payload` to `topic` (QoS 0, not retained) when connected to
    /// the broker (a gauge's `"tap"`); what was done, for the log. The message
    /// leaves with the loop's next write.
    package func publish(topic: String, payload: String) -> String {
        guard state == .connected else { return "not connected to \(label); nothing published to \(topic)" }
        let bytes = Array(payload.utf8)
        let rc = bytes.withUnsafeBytes {
            cmosq_publish(handle, nil, topic, Int32($0.count), $0.baseAddress, 0, false)
        }
        return rc == MOSQ_ERR_SUCCESS.rawValue
            ? "published '\(payload)' to \(topic)" : "publishing to \(topic): \(MQTTInput.describe(rc))"
    }

    package func receive(_ events: PollEvents, _ apply: (Command) -> Result<String, LineError>) {
        if events.contains(.output) || events.contains(.error) {
            let rc = cmosq_loop_write(handle, 1)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { return lost(rc) }
        }
        if events.contains(.input) || events.contains(.hangUp) || events.contains(.error) {
            for _ in 0..<MQTTInput.packetsPerTurn {
                let rc = cmosq_loop_read(handle, 1)
                guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                    flush(apply)
                    return lost(rc)
                }
                let s = cmosq_socket(handle)
                guard s >= 0,
                    (try? pollDescriptors([(FileDescriptor(rawValue: s), .input)], timeout: 0))?.first?
                        .isEmpty == false
                else { break }
            }
        }
        flush(apply)
    }

    package func tick(now: Int64, _ apply: (Command) -> Result<String, LineError>) {
        switch state {
        case .waiting(let until) where now >= until:
            attempt(now: now)
        case .connecting(let since) where now >= since + connectTimeout:
            failed("no answer within \(connectTimeout / 1000) s", now: now)
        case .connected:
            guard let due = miscDue, now >= due else { return }
            miscDue = now + keepaliveCheckInterval
            let rc = cmosq_loop_misc(handle)
            if rc != MOSQ_ERR_SUCCESS.rawValue || cmosq_socket(handle) < 0 { lost(rc) }
        default: break
        }
    }

    /// How long a connection may take from the TCP connect to the broker's CONNACK.
    private var connectTimeout: Int64 { min(Int64(settings.keepalive) * 1000, MQTTInput.maxConnectTimeout) }

    /// `mosquitto_loop_misc` sends a ping once `keepalive` seconds pass without
    /// anything sent, and drops a connection whose ping went unanswered as long:
    /// checked four times per keepalive, a ping leaves at most a quarter late,
    /// well within the broker's limit of one and a half keepalives.
    private var keepaliveCheckInterval: Int64 { Int64(settings.keepalive) * 250 }

    private func attempt(now: Int64) {
        let rc =
            hasConnectedBefore || reported != nil
            ? cmosq_reconnect_async(handle)
            : cmosq_connect_async(handle, settings.host, Int32(settings.port), Int32(settings.keepalive))
        if rc == MOSQ_ERR_SUCCESS.rawValue {
            state = .connecting(since: now)
        } else {
            failed(MQTTInput.describe(rc), now: now)
        }
    }

    /// CONNACK: subscribed to every topic when accepted; a refusal is an error once.
    private func connected(_ rc: Int32) {
        if rc == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue), protocolVersion == CMOSQ_PROTOCOL_V5 {
            // An MQTT 3.1.1 broker: the next attempt speaks 3.1.1, without CONNECT properties.
            protocolVersion = CMOSQ_PROTOCOL_V311
            _ = cmosq_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, CMOSQ_PROTOCOL_V311)
            try? MQTTInput.requestPacketLimit(handle, settings: settings, limit: nil)
            fellBack = true
            Log.warning(
                "\(label): the broker speaks MQTT 3.1.1, not 5: connecting with 3.1.1, where a message cannot be limited in size before it arrives (one over \(MQTTPayload.maxSize) bytes is still refused)"
            )
            return
        }
        guard rc == 0 else {
            let why = String(
                cString: protocolVersion == CMOSQ_PROTOCOL_V5 ? cmosq_reason_string(rc) : cmosq_connack_string(rc))
            noteUnsuccessful()
            refusal = why
            if reported != "refused: " + why {
                reported = "refused: " + why
                Log.error(
                    "\(label): the broker refused the connection: \(why) (check username, passwordFile and clientId); retrying with backoff"
                )
            }
            return
        }
        state = .connected
        hasConnectedBefore = true
        refusal = nil
        connectedAt = monotonicMilliseconds()
        miscDue = connectedAt + keepaliveCheckInterval
        var failures: [String] = []
        for (topic, list) in routes.sorted(by: { $0.key < $1.key }) {
            let qos = Int32(list.map(\.subscription.qos).max() ?? 0)
            let r = cmosq_subscribe(handle, nil, topic, qos)
            if r != MOSQ_ERR_SUCCESS.rawValue { failures.append("\(topic): \(MQTTInput.describe(r))") }
        }
        reported = "connected"
        var after = ""
        if unsuccessful > 0, let since = unsuccessfulSince {
            after = " after \(unsuccessful) failed or refused attempt(s) over \((connectedAt - since) / 1000) s"
        }
        unsuccessful = 0
        unsuccessfulSince = nil
        Log.notice("\(label): connected\(after); subscribed to \(routes.count - failures.count) topic(s)")
        for f in failures { Log.error("\(label): cannot subscribe to \(f)") }
    }

    private func message(_ m: mosquitto_message) {
        guard let t = m.topic else { return }
        let topic = String(cString: t)
        guard let list = routes[topic] else { return }
        received += 1
        let payload = UnsafeRawBufferPointer(start: m.payload, count: Int(max(0, m.payloadlen)))
        for (gauge, subscription) in list {
            if subscription.isText {
                switch MQTTPayload.text(payload, subscription) {
                case .success(let t): latest[gauge] = .setText(widget: gauge, text: t)
                case .failure(let e): drop("'\(LineError.clip(topic))' for text widget '\(gauge)': \(e)")
                }
                continue
            }
            switch MQTTPayload.value(payload, subscription) {
            case .success(let v?): latest[gauge] = .set(gauge: gauge, value: v)
            case .success(nil): latest[gauge] = .clear(gauge: gauge)
            case .failure(let e): drop("'\(LineError.clip(topic))' for gauge '\(gauge)': \(e)")
            }
        }
    }

    /// Counts a payload that gave no value; one debug line within the budget.
    private func drop(_ what: String) {
        rejected += 1
        guard Log.threshold == .debug else { return }
        if budget.allow(
            now: monotonicMilliseconds(), flushed: { Log.debug("\(label): \($0) more dropped message(s) not shown") })
        {
            Log.debug("\(label): ignored a message on \(what) (\(rejected) so far)")
        }
    }

    private func flush(_ apply: (Command) -> Result<String, LineError>) {
        for (gauge, command) in latest.sorted(by: { $0.key < $1.key }) {
            if case .failure(let e) = apply(command) { drop("gauge '\(gauge)': \(e)") }
        }
        latest = [:]
    }

    /// The connection ended (or an attempt failed): say so if that is news, and wait.
    private func lost(_ rc: Int32) {
        let now = monotonicMilliseconds()
        if refusal != nil { return schedule(now: now) }
        if fellBack {
            fellBack = false
            libraryError = nil
            return schedule(now: now, after: 0)
        }
        var why = rc == MOSQ_ERR_SUCCESS.rawValue ? "connection closed" : MQTTInput.describe(rc)
        if why.hasSuffix(".") { why.removeLast() }
        if state == .connected {
            libraryError = nil
            reported = "lost"
            Log.warning("\(label): connection lost (\(why)); reconnecting")
            if now - connectedAt >= MQTTInput.stableConnection {
                backoff = MQTTInput.minBackoff
                schedule(now: now, after: 0)
            } else {
                schedule(now: now)
            }
        } else {
            failed(why, now: now)
        }
    }

    /// Counts a failed or refused attempt for the line that ends the episode.
    private func noteUnsuccessful() {
        unsuccessful += 1
        if unsuccessfulSince == nil { unsuccessfulSince = monotonicMilliseconds() }
    }

    private func failed(_ reason: String, now: Int64) {
        noteUnsuccessful()
        var why = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        if let detail = libraryError {
            why += " (\(LineError.escaped(String(decoding: detail.utf8.prefix(200), as: UTF8.self))))"
        }
        libraryError = nil
        if refusal == nil, reported != "failed: " + why {
            reported = "failed: " + why
            Log.warning(
                "\(label): cannot connect: \(why); retrying with backoff (at most every \(MQTTInput.maxBackoff / 1000) s)"
            )
        }
        schedule(now: now)
    }

    /// Waits `after` (default: the current backoff, which then doubles) before the next attempt.
    private func schedule(now: Int64, after: Int64? = nil) {
        let wait = after ?? backoff + Int64.random(in: 0...(backoff / 4))
        if after == nil { backoff = min(backoff * 2, MQTTInput.maxBackoff) }
        state = .waiting(until: now + wait)
        miscDue = nil
        refusal = nil
    }

    package func close() {
        if state == .connected {
            cmosq_disconnect(handle)
            _ = cmosq_loop_write(handle, 1)
        }
        cmosq_destroy(handle)
        cmosq_lib_cleanup()
    }
}
