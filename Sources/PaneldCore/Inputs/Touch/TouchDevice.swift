import Glibc
import PanelDisplay

/// A touch screen the kernel offers as an evdev node (`/dev/input/eventN`),
/// open for reading without blocking.
///
/// A device is a touch screen when it reports absolute x and y (multitouch
/// slots or single touch) and touch (`BTN_TOUCH`), or is marked direct
/// (`INPUT_PROP_DIRECT`), or is an absolute pointer with a left button;
/// a touchpad (`INPUT_PROP_POINTER` without direct) is not one: its
/// coordinates are not the screen's.
package final class TouchDevice {
    package let path: String
    package let name: String
    let fd: FileDescriptor
    /// The axes' ranges in device units, as the kernel gives them.
    package let x: ClosedRange<Int32>
    package let y: ClosedRange<Int32>
    var decoder = TouchDecoder()

    /// What opening a node found.
    package enum Opened {
        case touch(TouchDevice)
        /// Not a touch screen (a keyboard, a mouse, a touchpad, a button); the node is closed again.
        case other
    }

    private init(path: String, name: String, fd: FileDescriptor, x: ClosedRange<Int32>, y: ClosedRange<Int32>) {
        self.path = path
        self.name = name
        self.fd = fd
        self.x = x
        self.y = y
    }

    /// Opens `path` and asks the kernel what it reports. Throws when it
    /// cannot be opened (`EACCES`: not in the `input` group) or is not a device.
    package static func open(_ path: String) throws -> Opened {
        let raw = try DeviceNode.open(path, flags: O_RDONLY | O_NONBLOCK) { e in
            e == EACCES ? "paneld reads touch screens as a member of the group that owns them (input)" : nil
        }
        let fd = FileDescriptor(rawValue: raw)
        func bits(_ request: UInt, bytes: Int) -> [UInt8] {
            var b = [UInt8](repeating: 0, count: bytes)
            let r = b.withUnsafeMutableBytes { ioctl(raw, request, $0.baseAddress!) }
            return r < 0 ? [UInt8](repeating: 0, count: bytes) : b
        }
        func has(_ b: [UInt8], _ bit: Int) -> Bool { bit / 8 < b.count && b[bit / 8] & UInt8(1 << (bit % 8)) != 0 }
        func range(_ code: UInt16) -> ClosedRange<Int32>? {
            var info = [Int32](repeating: 0, count: 6)  // value, minimum, maximum, fuzz, flat, resolution
            let r = info.withUnsafeMutableBytes { ioctl(raw, EvdevRequest.axis(code), $0.baseAddress!) }
            guard r >= 0, info[2] > info[1] else { return nil }
            return info[1]...info[2]
        }
        let abs = bits(EvdevRequest.codes(type: InputCode.absolute, length: 8), bytes: 8)
        let keys = bits(EvdevRequest.codes(type: InputCode.key, length: 96), bytes: 96)
        let props = bits(EvdevRequest.properties(length: 4), bytes: 4)
        let multitouch = has(abs, Int(InputCode.slotX)) && has(abs, Int(InputCode.slotY))
        let single = has(abs, Int(InputCode.x)) && has(abs, Int(InputCode.y))
        let direct = has(props, InputCode.propertyDirect)
        let pointer = has(props, 0)  // INPUT_PROP_POINTER
        let touches =
            direct || has(keys, Int(InputCode.buttonTouch)) || has(keys, Int(InputCode.buttonLeft))
        guard multitouch || single, touches, direct || !pointer,
            let x = range(multitouch ? InputCode.slotX : InputCode.x),
            let y = range(multitouch ? InputCode.slotY : InputCode.y)
        else {
            fd.close()
            return .other
        }
        var nameBytes = [UInt8](repeating: 0, count: 256)
        let n = nameBytes.withUnsafeMutableBytes { ioctl(raw, EvdevRequest.name(length: 255), $0.baseAddress!) }
        let name = n > 0 ? String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self) : "unnamed"
        return .touch(TouchDevice(path: path, name: name, fd: fd, x: x, y: y))
    }

    /// Reads every pending event; the reports they make, in order. Throws
    /// when the device is gone (`ENODEV`: unplugged, its driver unbound).
    func readReports() throws(Errno) -> [TouchReport] {
        var reports: [TouchReport] = []
        var buffer = [UInt8](repeating: 0, count: 64 * InputEvent.size)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd.rawValue, $0.baseAddress, $0.count) }
            if n < 0 {
                let e = Errno.current("read")
                if e.code == EINTR { continue }
                if e.isWouldBlock { break }
                throw e
            }
            if n == 0 { break }
            for event in buffer.withUnsafeBytes({ InputEvent.decode(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) {
                if let r = decoder.feed(event) { reports.append(r) }
            }
            // Bounded per turn: a device flooding events cannot hold the loop.
            if reports.count > 4096 { break }
        }
        return reports
    }

    func close() { fd.close() }
}
