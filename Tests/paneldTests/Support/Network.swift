import Glibc

/// A free UDP port on 127.0.0.1: bound to port 0, read back, released.
func freeUDPPort() -> UInt16 {
    let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(probe) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(probe, $0, len)
            return getsockname(probe, $0, &len)
        }
    }
    return UInt16(bigEndian: addr.sin_port)
}

/// A free TCP port on 127.0.0.1: bound to port 0, read back, released.
func freeTCPPort() -> UInt16 {
    let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(probe) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(probe, $0, len)
            return getsockname(probe, $0, &len)
        }
    }
    return UInt16(bigEndian: addr.sin_port)
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
func tcpPortAnswers(_ port: UInt16) -> Bool {
    let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(s) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    addr.sin_port = port.bigEndian
    return withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}
