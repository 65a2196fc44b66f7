import Glibc
import PaneldCore

/// `paneld send`: a small client for the control socket (no socat needed).
///
/// Sends each LINE argument (or standard input when there are none), then
/// prints paneld's replies. Exits 1 if any reply was an `ERR`.
struct Send: PaneldCommand {
    static let defaultTimeout = 5

    static let spec = CommandSpec(
        name: "send", abstract: "Send commands to a running paneld and print its replies.",
        discussion: """
            Each LINE is one argument: quote a line with a space in it.

            Examples:
              paneld send 73
              paneld send 'cpu 41' 'get cpu'
              echo list | paneld send
              paneld send 'status Pump 2 running'
              paneld send --text status 'Pump 2 running'
              PANELD_SOCKET=/tmp/p.sock paneld send list

            A line that starts with a text widget's name is its text. Lines are
            checked here before any is sent, except a name followed by words,
            which may be a text widget's text: paneld answers ERR if it is not.
            With --text NAME each LINE is NAME's text, sent as 'NAME LINE'.
            The socket is --socket, else $PANELD_SOCKET, else /run/paneld.sock.
            """,
        options: [
            .option("socket", help: "Control socket path (default: $PANELD_SOCKET, else \(Run.defaultSocket))."),
            .option("timeout", help: "Seconds to wait for the replies.", default: "\(defaultTimeout)"),
            .option("text", "NAME", help: "A text widget: each LINE is its text, sent as 'NAME LINE'."),
        ],
        arguments: ("lines", "Lines to send, e.g. 73, 'cpu 73', 'get cpu', list. None: read standard input."))

    var socket: String
    var timeout: Int
    var lines: [String]
    /// The text widget each LINE is the text of (`--text`), if any.
    var text: String?

    init(_ arguments: Arguments) throws {
        socket = arguments.string("socket") ?? Self.socketFromEnvironment ?? Run.defaultSocket
        timeout = try arguments.int("timeout") ?? Self.defaultTimeout
        lines = arguments.positional
        text = arguments.string("text")
    }

    /// `$PANELD_SOCKET` when set and not empty: the socket clients use when
    /// no --socket is given (the examples' feed scripts read it too).
    static var socketFromEnvironment: String? {
        guard let v = getenv("PANELD_SOCKET").map({ String(cString: $0) }), !v.isEmpty else { return nil }
        return v
    }

    /// Whether `line` is a name (not a command word) followed by a blank and
    /// more: a text widget's text, if the layout has a widget of that name.
    static func mayBeText(_ line: String) -> Bool {
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
        guard let blank = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return false }
        let name = String(trimmed[..<blank])
        let rest = trimmed[blank...].drop(while: { $0 == " " || $0 == "\t" })
        return GaugeName.isValid(name.utf8) && !GaugeName.reserved.contains(name) && !rest.isEmpty
    }

    /// The lines as sent: with --text, each one NAME's text.
    var sentLines: [String] { text.map { name in lines.map { "\(name) \($0)" } } ?? lines }

    func validate() throws {
        if socket.isEmpty || socket.utf8.count > UnixSocket.maxPathLength {
            throw ValidationError("--socket must be a path of 1 to \(UnixSocket.maxPathLength) bytes")
        }
        if timeout < 1 || timeout > 3600 { throw ValidationError("--timeout must be 1 to 3600 seconds") }
        if let bad = lines.first(where: { $0.contains("\n") }) {
            throw ValidationError("a LINE must not contain a newline: \(bad.debugDescription)")
        }
        if let name = text {
            guard GaugeName.isValid(name.utf8) else {
                throw ValidationError("--text '\(LineError.clip(name))' is not a widget name (nothing was sent)")
            }
            if lines.isEmpty { throw ValidationError("--text \(name) needs the TEXT to send (nothing was sent)") }
            return
        }
        // Every line is checked before any is sent, so a mistake changes nothing:
        // `paneld send mem 5` would otherwise send 'mem' (refused) and '5' (which
        // sets the default gauge). A name followed by words may be a text
        // widget's text, which only paneld knows: it goes as it is.
        for line in lines {
            let parsed = LineParser.parse(Array(line.utf8))
            if case .failure = parsed, Self.mayBeText(line) { continue }
            switch parsed {
            case .success: continue
            case .failure(.missingValue(let name)):
                throw ValidationError(
                    "'\(name)' has no value; a LINE is one argument: paneld send '\(name) VALUE' (nothing was sent)")
            case .failure(let e):
                throw ValidationError("'\(LineError.clip(line))': \(e) (nothing was sent)")
            }
        }
    }

    func run() throws {
        let fd: FileDescriptor
        do {
            fd = try UnixSocket.connect(socket)
        } catch {
            throw DaemonError("cannot reach paneld at \(socket): \(error)")
        }
        defer { fd.close() }
        var payload: [UInt8] = []
        if lines.isEmpty {
            var buf = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = try buf.withUnsafeMutableBytes { try FileDescriptor(rawValue: 0).read(into: $0) }
                if n == 0 { break }
                payload += buf[0..<n]
            }
        } else {
            for l in sentLines { payload += Array(l.utf8) + [0x0A] }
        }
        var off = 0
        while off < payload.count {
            off += try payload.withUnsafeBytes { try fd.write(UnsafeRawBufferPointer(rebasing: $0[off...])) }
        }
        shutdown(fd.rawValue, Int32(SHUT_WR))  // paneld answers, then closes
        var replies: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        let deadline = monotonicMilliseconds() + Int64(timeout) * 1000
        while true {
            let left = deadline - monotonicMilliseconds()
            guard left > 0, try pollDescriptors([(fd, .input)], timeout: Int32(left)).first?.isEmpty == false else {
                throw DaemonError("no end of reply from paneld within \(timeout) s")
            }
            let n = try buf.withUnsafeMutableBytes { try fd.read(into: $0) }
            if n == 0 { break }
            replies += buf[0..<n]
        }
        var out = replies
        while !out.isEmpty {
            let n = out.withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out.removeFirst(n)
        }
        if String(decoding: replies, as: UTF8.self).split(separator: "\n").contains(where: { $0.hasPrefix("ERR ") }) {
            throw ExitCode(1)
        }
    }
}
