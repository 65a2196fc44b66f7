import PanelGauge

/// The one seam between paneld and the kernel's DRM interface.
///
/// Every libdrm call, ioctl, `open`, `mmap` and `read` the display side makes goes
/// through this protocol, so modeset, page flips, damage and teardown can be
/// tested as a call trace with a fake (see `Tests/paneldTests/DRMFake.swift`).
/// `LiveDRMSyscalls` is the real implementation and the only file that imports
/// libdrm. Methods throw ``DRMError`` carrying the errno.
package protocol DRMSyscalls: AnyObject {
    /// The DRM primary nodes, `/dev/dri/card*`, sorted by their number.
    func listCards() -> [String]
    /// `realpath`: where a path such as `/dev/dri/by-path/pci-0000:00:02.0-card` leads; nil when it does not exist.
    func resolvedPath(_ path: String) -> String?
    /// The resolved `/sys/class/drm/cardN/device` of a card node, nil when sysfs has no such link.
    func sysfsDevice(ofCard path: String) -> String?
    /// Opens a device read-write, close-on-exec.
    func open(_ path: String) throws -> Int32
    func close(_ fd: Int32)

    func version(_ fd: Int32) throws -> DriverVersion
    func capability(_ fd: Int32, _ cap: DRMCapability) throws -> UInt64
    func resources(_ fd: Int32) throws -> CardResources
    func connector(_ fd: Int32, id: UInt32) throws -> ConnectorInfo
    func encoder(_ fd: Int32, id: UInt32) throws -> EncoderInfo
    func crtc(_ fd: Int32, id: UInt32) throws -> CrtcState
    /// `drmSetClientCap`.
    func setClientCapability(_ fd: Int32, _ cap: DRMClientCapability, _ value: UInt64) throws
    /// The card's planes (`drmModeGetPlaneResources`).
    func planeIDs(_ fd: Int32) throws -> [UInt32]
    /// One plane with its formats and, when the driver exposes it, its type property.
    func plane(_ fd: Int32, id: UInt32) throws -> PlaneInfo

    func createDumb(_ fd: Int32, width: UInt32, height: UInt32, bitsPerPixel: UInt32) throws -> DumbBufferInfo
    func addFramebuffer(
        _ fd: Int32, width: UInt32, height: UInt32, fourcc: UInt32, handle: UInt32, pitch: UInt32
    ) throws -> UInt32
    /// The fake offset to pass to `mmap` for a dumb buffer (`DRM_IOCTL_MODE_MAP_DUMB`).
    func mapDumbOffset(_ fd: Int32, handle: UInt32) throws -> UInt64
    /// `mmap(NULL, size, PROT_READ|PROT_WRITE, MAP_SHARED, fd, offset)`.
    func mmap(_ fd: Int32, size: Int, offset: UInt64) throws -> UnsafeMutableRawPointer
    func munmap(_ address: UnsafeMutableRawPointer, size: Int) throws
    func removeFramebuffer(_ fd: Int32, id: UInt32) throws
    func destroyDumb(_ fd: Int32, handle: UInt32) throws

    /// `drmSetMaster`: takes the display if no other program holds it (the kernel
    /// allows it to root, or to the descriptor that was master before).
    func acquireMaster(_ fd: Int32) throws
    /// `drmDropMaster`: gives the display up so that another program can take it.
    func dropMaster(_ fd: Int32) throws
    /// `drmModeSetCrtc`; a nil mode with framebuffer 0 turns the CRTC off.
    func setCrtc(
        _ fd: Int32, crtcID: UInt32, framebufferID: UInt32, x: UInt32, y: UInt32,
        connectorIDs: [UInt32], mode: ModeInfo?
    ) throws
    /// `drmModePageFlip` with `DRM_MODE_PAGE_FLIP_EVENT`: completion arrives as a
    /// ``DRMEvent/flipComplete(crtcID:userData:)`` from ``readEvents(_:)``.
    func pageFlip(_ fd: Int32, crtcID: UInt32, framebufferID: UInt32, userData: UInt64) throws
    /// `drmModeDirtyFB` with the given clips (framebuffer coordinates).
    func dirtyFramebuffer(_ fd: Int32, id: UInt32, clips: [IntRect]) throws

    /// Reads the events available on the descriptor; none when nothing is pending.
    func readEvents(_ fd: Int32) throws -> [DRMEvent]
    /// Waits until the descriptor is readable; false on timeout.
    func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws -> Bool
}
