import Testing

@testable import PaneldCore

/// Kernel uevents as NETLINK_KOBJECT_UEVENT delivers them (`ACTION@DEVPATH`, then `KEY=VALUE`, NUL-separated).
@Suite struct UeventTests {
    static func datagram(_ header: String, _ fields: [String]) -> [UInt8] {
        ([header] + fields).flatMap { Array($0.utf8) + [0] }
    }

    @Test func aConnectorChangeOnACardIsADisplayChange() throws {
        let bytes = UeventTests.datagram(
            "change@/devices/pci0000:00/0000:00:02.0/drm/card0",
            [
                "ACTION=change", "DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0", "SUBSYSTEM=drm", "HOTPLUG=1",
                "DEVNAME=dri/card0", "DEVTYPE=drm_minor", "SEQNUM=1234", "MAJOR=226", "MINOR=0",
            ])
        let event = try #require(Uevent.parse(bytes[...]))
        #expect(event.fields["DEVNAME"] == "dri/card0" && event.fields["HOTPLUG"] == "1")
        #expect(event.isDisplayChange)
    }

    @Test func cardsAddedOrRemovedCountRenderNodesAndOtherDevicesDoNot() throws {
        func event(_ action: String, _ devname: String, subsystem: String = "drm", hotplug: Bool = false) -> Uevent? {
            Uevent.parse(
                UeventTests.datagram(
                    "\(action)@/devices/x",
                    ["ACTION=\(action)", "SUBSYSTEM=\(subsystem)", "DEVNAME=\(devname)"]
                        + (hotplug ? ["HOTPLUG=1"] : [])
                )[...])
        }
        #expect(event("add", "dri/card1")?.isDisplayChange == true)
        #expect(event("remove", "dri/card1")?.isDisplayChange == true)
        #expect(event("add", "dri/renderD128")?.isDisplayChange == false)
        #expect(event("change", "dri/card0")?.isDisplayChange == true, "a synthetic change (udevadm trigger)")
        #expect(event("change", "dri/renderD128")?.isDisplayChange == false)
        #expect(event("add", "fb0", subsystem: "graphics")?.isDisplayChange == false)
    }

    @Test func udevsRebroadcastAndGarbageAreIgnored() {
        #expect(Uevent.parse(Array("libudev\0\u{FE}\u{ED}\u{CA}\u{FE}".utf8)[...]) == nil)
        #expect(Uevent.parse([][...]) == nil)
        #expect(Uevent.parse(UeventTests.datagram("add@/x", ["SUBSYSTEM=drm"])[...]) == nil, "no ACTION")
    }

    @Test func theSocketOpensUnprivileged() throws {
        let socket = try UeventSocket()
        #expect(socket.drain().isEmpty)
        socket.close()
    }
}
