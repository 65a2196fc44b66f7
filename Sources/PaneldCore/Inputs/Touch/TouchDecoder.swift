/// What a touch device reported at one `SYN_REPORT`: where the first finger
/// is, that no finger is down, or that events were lost (`SYN_DROPPED`: the
/// kernel's buffer overflowed), so a gesture in progress must be dropped.
package enum TouchReport: Equatable, Sendable {
    /// The first finger down, in the device's units.
    case contact(x: Int32, y: Int32)
    case lifted
    case lost
}

/// Turns a touch device's events into reports of its first finger.
///
/// Both protocols the kernel uses for touch screens are read: multitouch
/// protocol B (slots with tracking ids, as the Pi 7" display's ft5x06
/// reports) and single touch (`ABS_X`/`ABS_Y` with `BTN_TOUCH`, as
/// ads7846 SPI panels report; `BTN_LEFT` counts as touch for absolute
/// pointers). Gestures need one finger: the first finger down is followed
/// until it lifts, whatever the others do. Multitouch protocol A (no slots,
/// only old drivers) is not read.
package struct TouchDecoder: Sendable {
    /// Each slot's tracking id and position (protocol B); a slot's id is -1 when free.
    private var slots: [Int32: (id: Int32, x: Int32, y: Int32)] = [:]
    private var slot: Int32 = 0
    /// The slot and tracking id of the finger followed, while it is down.
    private var followed: (slot: Int32, id: Int32)?
    /// After the followed finger lifted with others down: none is followed until all are up.
    private var waitingForAllUp = false
    private var multitouch = false
    private var single: (down: Bool, x: Int32, y: Int32) = (false, 0, 0)
    /// Set by SYN_DROPPED: events up to the next report are incomplete.
    private var dropping = false
    /// The report at the previous SYN_REPORT (a report is given only when it changes).
    private var last: TouchReport = .lifted

    package init() {}

    /// How many slots are kept (bounded whatever a device sends).
    var slotsHeld: Int { slots.count }

    /// Takes one event; at a `SYN_REPORT` that changes what is reported, returns the report.
    package mutating func feed(_ e: InputEvent) -> TouchReport? {
        switch e.type {
        case InputCode.synchronize where e.code == InputCode.dropped:
            dropping = true
            return nil
        case InputCode.synchronize where e.code == InputCode.report:
            return report()
        case InputCode.absolute:
            absolute(e.code, e.value)
        case InputCode.key where e.code == InputCode.buttonTouch || e.code == InputCode.buttonLeft:
            single.down = e.value != 0
        default:
            break
        }
        return nil
    }

    private mutating func absolute(_ code: UInt16, _ value: Int32) {
        switch code {
        case InputCode.slot:
            multitouch = true
            slot = value
        case InputCode.trackingID:
            multitouch = true
            // A new finger in a slot starts where the slot's last position was,
            // until the driver sends its own (drivers send both in one report).
            let old = slots[slot] ?? (-1, 0, 0)
            slots[slot] = (value, old.x, old.y)
        case InputCode.slotX:
            multitouch = true
            slots[slot, default: (-1, 0, 0)].x = value
        case InputCode.slotY:
            multitouch = true
            slots[slot, default: (-1, 0, 0)].y = value
        case InputCode.x: single.x = value
        case InputCode.y: single.y = value
        default: break
        }
        // A device sends at most a few dozen slots; a hostile or broken one
        // cannot grow the table without bound.
        if slots.count > 64 { slots = slots.filter { $0.value.id >= 0 } }
    }

    private mutating func report() -> TouchReport? {
        if dropping {
            // The state is unknown until every finger has lifted: start again from nothing.
            dropping = false
            slots = [:]
            followed = nil
            waitingForAllUp = false
            single.down = false
            last = .lifted
            return .lost
        }
        let now: TouchReport
        if multitouch {
            let down = slots.filter { $0.value.id >= 0 }
            if let f = followed, let s = slots[f.slot], s.id == f.id {
                now = .contact(x: s.x, y: s.y)
            } else if followed != nil {
                // The finger followed lifted (or its slot holds a new one).
                followed = nil
                waitingForAllUp = !down.isEmpty
                now = .lifted
            } else if waitingForAllUp {
                waitingForAllUp = !down.isEmpty
                now = .lifted
            } else if let f = down.keys.min(), let s = down[f] {
                followed = (f, s.id)
                now = .contact(x: s.x, y: s.y)
            } else {
                now = .lifted
            }
        } else {
            now = single.down ? .contact(x: single.x, y: single.y) : .lifted
        }
        guard now != last else { return nil }
        last = now
        return now
    }
}
