import PanelDisplay
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
              paneld send --text status 'status Pump 2 running'

            A line that starts with a text widget's name is its text; name the
            widget with --text so that the line is not refused here as a value.
            """,
        options: [
            .option("socket", help: "Control socket path.", default: Run.defaultSocket),
            .option("timeout", help: "Seconds to wait for the replies.", default: "\(defaultTimeout)"),
            .option(
                "text", "NAME", help: "A text widget: lines starting with NAME are its text (repeatable).",
                repeatable: true),
        ],
        arguments: ("lines", "Lines to send, e.g. 73, 'cpu 73', 'get cpu', list. None: read standard input."))

    var socket: String
    var timeout: Int
    var lines: [String]
    var texts: [String]

    init(_ arguments: Arguments) throws {
        socket = arguments.string("socket") ?? Run.defaultSocket
        timeout = try arguments.int("timeout") ?? Self.defaultTimeout
        lines = arguments.positional
        texts = arguments.strings("text")
    }

    func validate() throws {
        if socket.isEmpty || socket.utf8.count > UnixSocket.maxPathLength {
            throw ValidationError("--socket must be a path of 1 to \(UnixSocket.maxPathLength) bytes")
        }
        if timeout < 1 || timeout > 3600 { throw ValidationError("--timeout must be 1 to 3600 seconds") }
        if let bad = lines.first(where: { $0.contains("\n") }) {
            throw ValidationError("a LINE must not contain a newline: \(bad.debugDescription)")
        }
        // Every line is checked before any is sent, so a mistake changes nothing:
        // `paneld send mem 5` would otherwise send 'mem' (refused) and '5' (which
        // sets the default gauge).
        for line in lines {
            switch LineParser.parse(Array(line.utf8), texts: Set(texts)) {
            case .success: continue
            case .failure(.missingValue(let name)):
                throw ValidationError(
                    "'\(name)' has no value; a LINE is one argument: paneld send '\(name) VALUE' (nothing was sent)")
            case .failure(let e):
                let name = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
                var hint = ""
                switch e {
                case .tooManyFields, .notANumber:
                    if GaugeName.isValid(name.utf8) { hint = "; for a text widget: paneld send --text \(name) LINE" }
                default: break
                }
                throw ValidationError("'\(LineError.clip(line))': \(e)\(hint) (nothing was sent)")
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
            for l in lines { payload += Array(l.utf8) + [0x0A] }
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
