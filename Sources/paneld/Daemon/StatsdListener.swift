import Glibc

/// The optional statsd-over-UDP input: each datagram holds one or more
/// newline-separated lines of the socket protocol (in practice `name:value|g`).
/// UDP has no reply path, so bad lines are only counted and logged.
final class StatsdListener {
    let fd: FileDescriptor
    private(set) var rejected = 0

    init(_ address: StatsdAddress) throws {
        let s = try retryingOnInterrupt("socket") {
            socket(
                AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = address.port.bigEndian
        let o = address.octets
        addr.sin_addr.s_addr = (UInt32(o[0]) << 24 | UInt32(o[1]) << 16 | UInt32(o[2]) << 8 | UInt32(o[3])).bigEndian
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard r == 0 else {
            let e = Errno.current("bind statsd \(o.map(String.init).joined(separator: ".")):\(address.port)")
            Glibc.close(s)
            throw e
        }
        fd = FileDescriptor(rawValue: s)
    }

    /// Reads up to `budget` pending datagrams and hands each line to `handle`.
    func receive(budget: Int = 64, _ handle: ([UInt8]) -> Bool) {
        var buf = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<budget {
            let n = buf.withUnsafeMutableBytes { recv(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { return }
            for line in buf[0..<n].split(separator: 0x0A) where !handle(Array(line)) {
                rejected += 1
            }
        }
    }

    func close() { fd.close() }
}
