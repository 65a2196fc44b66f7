import Glibc

/// One event from a Linux input device (`struct input_event`,
/// linux/input.h): a timestamp, then type, code and value. On the 64-bit
/// kernels paneld is built for (amd64, arm64) the timestamp is a
/// `struct timeval` of 16 bytes, so an event is 24 bytes; the size is taken
/// from Glibc's `timeval`, not written down.
package struct InputEvent: Equatable, Sendable {
    package var type: UInt16
    package var code: UInt16
    package var value: Int32

    package init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    /// Bytes per event as the kernel writes them.
    package static let size = MemoryLayout<timeval>.size + 8

    /// The whole events in `bytes` (a read returns whole events; a tail
    /// shorter than one event is ignored).
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> [InputEvent] {
        let at = MemoryLayout<timeval>.size
        return stride(from: 0, through: bytes.count - size, by: size).map { offset in
            InputEvent(
                type: bytes.loadUnaligned(fromByteOffset: offset + at, as: UInt16.self),
                code: bytes.loadUnaligned(fromByteOffset: offset + at + 2, as: UInt16.self),
                value: bytes.loadUnaligned(fromByteOffset: offset + at + 4, as: Int32.self))
        }
    }

    /// The event as the kernel writes it (the timestamp zero): what tests and
    /// a uinput writer send.
    package var bytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.size)
        let at = MemoryLayout<timeval>.size
        out.withUnsafeMutableBytes {
            $0.storeBytes(of: type, toByteOffset: at, as: UInt16.self)
            $0.storeBytes(of: code, toByteOffset: at + 2, as: UInt16.self)
            $0.storeBytes(of: value, toByteOffset: at + 4, as: Int32.self)
        }
        return out
    }
}

/// The event types, codes and properties of linux/input-event-codes.h that
/// touch needs (the header's macros do not import into Swift).
package enum InputCode {
    package static let synchronize: UInt16 = 0x00  // EV_SYN
    package static let key: UInt16 = 0x01  // EV_KEY
    package static let absolute: UInt16 = 0x03  // EV_ABS

    package static let report: UInt16 = 0  // SYN_REPORT
    package static let dropped: UInt16 = 3  // SYN_DROPPED

    package static let buttonLeft: UInt16 = 0x110  // BTN_LEFT
    package static let buttonTouch: UInt16 = 0x14a  // BTN_TOUCH

    package static let x: UInt16 = 0x00  // ABS_X
    package static let y: UInt16 = 0x01  // ABS_Y
    package static let slot: UInt16 = 0x2f  // ABS_MT_SLOT
    package static let slotX: UInt16 = 0x35  // ABS_MT_POSITION_X
    package static let slotY: UInt16 = 0x36  // ABS_MT_POSITION_Y
    package static let trackingID: UInt16 = 0x39  // ABS_MT_TRACKING_ID

    /// INPUT_PROP_DIRECT: the device's coordinates are a screen's (a touch
    /// screen, not a touchpad).
    package static let propertyDirect = 0x01
}

/// The evdev ioctl numbers (linux/input.h's `EVIOCG*` macros, built as
/// asm-generic/ioctl.h's `_IOC` does: direction in bits 30-31, size in
/// 16-29, type in 8-15, number in 0-7; amd64 and arm64 share this layout).
package enum EvdevRequest {
    private static func read(_ number: Int, size: Int) -> UInt {
        UInt(2 << 30 | size << 16 | Int(UInt8(ascii: "E")) << 8 | number)
    }
    /// EVIOCGNAME(len): the device's name.
    package static func name(length: Int) -> UInt { read(0x06, size: length) }
    /// EVIOCGPROP(len): the property bits.
    package static func properties(length: Int) -> UInt { read(0x09, size: length) }
    /// EVIOCGBIT(type, len): the codes of one event type the device reports.
    package static func codes(type: UInt16, length: Int) -> UInt { read(0x20 + Int(type), size: length) }
    /// EVIOCGABS(axis): an axis's `struct input_absinfo` (six 32-bit fields).
    package static func axis(_ code: UInt16) -> UInt { read(0x40 + Int(code), size: 24) }
}
