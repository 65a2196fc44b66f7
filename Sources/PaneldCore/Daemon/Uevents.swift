import Glibc

/// One kernel uevent as NETLINK_KOBJECT_UEVENT delivers it: a header
/// `ACTION@DEVPATH`, then `KEY=VALUE` fields, each ended by a NUL byte.
///
/// DRM announces a connector change (a monitor plugged in or out) as
/// `ACTION=change` with `HOTPLUG=1` on the card, and a card's arrival or removal
/// (a driver bound or unbound, a module loaded or unloaded) as `add` or `remove`.
package struct Uevent: Equatable, Sendable {
    package var fields: [String: String]

    /// Parses one datagram. Pure; nil for anything that is not a kernel uevent
    /// (udev's re-broadcasts start with `libudev` and are not read here).
    package static func parse(_ bytes: ArraySlice<UInt8>) -> Uevent? {
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: true)
        guard let header = parts.first, header.contains(UInt8(ascii: "@")) else { return nil }
        var fields: [String: String] = [:]
        for part in parts.dropFirst() {
            guard let eq = part.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = String(decoding: part[part.startIndex..<eq], as: UTF8.self)
            fields[key] = String(decoding: part[(eq + 1)...], as: UTF8.self)
        }
        guard fields["ACTION"] != nil else { return nil }
        return Uevent(fields: fields)
    }

    /// A DRM card added or removed, or a change on a card: the kernel's `HOTPLUG=1`
    /// for a connector, or a synthetic `change` (`udevadm trigger`, a write to the
    /// card's sysfs `uevent` file, whose arguments arrive as `SYNTH_ARG_*`). A render
    /// node (`dri/renderD*`) is not a display.
    package var isDisplayChange: Bool {
        guard fields["SUBSYSTEM"] == "drm", fields["DEVNAME"]?.hasPrefix("dri/card") ?? true else { return false }
        switch fields["ACTION"] {
        case "add", "remove", "change": return true
        default: return false
        }
    }

    /// An input device's event node added (a touch screen plugged in, its
    /// driver loaded): `SUBSYSTEM=input` with `DEVNAME=input/eventN`.
    package var isInputAdded: Bool {
        fields["SUBSYSTEM"] == "input" && fields["ACTION"] == "add"
            && fields["DEVNAME"]?.hasPrefix("input/event") == true
    }
}

/// What a batch of uevents announced.
package struct UeventNews: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A DRM card added, removed or changed (``Uevent/isDisplayChange``).
    package static let display = UeventNews(rawValue: 1)
    /// An input device's node added (``Uevent/isInputAdded``).
    package static let input = UeventNews(rawValue: 2)
}

/// The kernel's uevent broadcast (NETLINK_KOBJECT_UEVENT, group 1): readable when
/// a device is added, removed or changes. Unprivileged processes may listen.
package final class UeventSocket {
    let fd: FileDescriptor

    /// `NETLINK_KOBJECT_UEVENT` (linux/netlink.h, which Glibc's module does not export).
    static let kobjectUevent: Int32 = 15

    /// `struct sockaddr_nl` (linux/netlink.h): family, padding, port id, multicast groups.
    private struct NetlinkAddress {
        var family = UInt16(AF_NETLINK)
        var pad: UInt16 = 0
        var pid: UInt32 = 0
        var groups: UInt32
    }

    package init() throws {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let raw = socket(AF_NETLINK, type, UeventSocket.kobjectUevent)
        guard raw >= 0 else { throw Errno.current("socket(AF_NETLINK, NETLINK_KOBJECT_UEVENT)") }
        // Group 1: the kernel's own uevents.
        var address = NetlinkAddress(groups: 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(raw, $0, socklen_t(MemoryLayout<NetlinkAddress>.size))
            }
        }
        guard bound == 0 else {
            let e = Errno.current("bind(NETLINK_KOBJECT_UEVENT)")
            Glibc.close(raw)
            throw e
        }
        fd = FileDescriptor(rawValue: raw)
    }

    /// Reads every pending uevent; what they announced.
    func drain() -> UeventNews {
        var buffer = [UInt8](repeating: 0, count: 8192)
        var news: UeventNews = []
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd.rawValue, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            // The socket's buffer overflowed: uevents were lost, one of them may have mattered.
            if n < 0 && errno == ENOBUFS {
                news = [.display, .input]
                continue
            }
            if n <= 0 { break }
            guard let event = Uevent.parse(buffer[0..<n]) else { continue }
            if event.isDisplayChange { news.insert(.display) }
            if event.isInputAdded { news.insert(.input) }
        }
        return news
    }

    package func close() { fd.close() }
}
