import PanelGauge

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where the daemon's frames go: a DRM/KMS display, an fbdev device, or a PNG file.
///
/// The contract, shared by every backend:
/// - The daemon works in *logical* coordinates: `width` x `height` after rotation.
/// - `present(damage:draw:)` asks the backend for a frame. The backend calls `draw`
///   with a surface in logical coordinates and the rectangles that must be redrawn
///   there (they may overlap). That list can be larger than `damage` (a
///   double-buffered backend adds what changed since its back buffer was last
///   shown); `draw` must repaint at
///   least those rectangles and may change nothing else (it may rewrite other
///   pixels, but only with the values they already have, as paneld's renderer
///   does when it redraws a gauge whole). Then the backend shows it.
/// - While `isBusy` (a page flip is pending) the daemon must not call `present`;
///   it polls `pollDescriptor` and calls `handleEvents()` when it is readable.
/// - `close()` releases everything in reverse order of acquisition (waiting for a
///   pending flip first) and is safe to call twice.
public protocol FrameOutput: AnyObject {
    /// Logical width (after rotation) that frames are drawn at.
    var width: Int { get }
    /// Logical height (after rotation) that frames are drawn at.
    var height: Int { get }
    /// The format of the surface passed to `draw`.
    var format: PixelFormat { get }
    /// A descriptor the poll loop waits on for reading (POLLIN): DRM's
    /// page-flip events, or fbdev's watch for the console taking the terminal
    /// back; nil when the output has none (PNG).
    var pollDescriptor: Int32? { get }
    /// True while the previous frame is not yet on screen (a page flip is pending).
    var isBusy: Bool { get }
    /// True when the next `present` must redraw everything (first frame, DRM master regained).
    var needsFullRedraw: Bool { get }
    /// Draws a frame through `draw` (the surface and the rectangles it must repaint)
    /// and shows it; `damage` is what changed since the previous frame.
    func present(damage: [IntRect], draw: (Surface, [IntRect]) throws -> Void) throws
    /// Reads and handles what is pending on `pollDescriptor` (page-flip
    /// completions; on fbdev, a terminal reset by a getty).
    func handleEvents() throws
    /// Releases the display (waiting for a pending flip first); safe to call twice.
    func close()
    /// Turns the display off (`true`: nothing is scanned out, so the panel and,
    /// through its driver, its backlight go dark) or on again (`false`: the next
    /// `present` redraws everything). While off, `isBusy` is true: no `present`.
    func setBlanked(_ blanked: Bool)
}

extension FrameOutput {
    /// An output without a screen (a PNG file) has nothing to turn off.
    public func setBlanked(_ blanked: Bool) {}
}

extension FrameOutput {
    /// Waits until the last presented frame is on screen (its page flip done), at
    /// most `timeout` milliseconds; for programs without a poll loop of their own.
    public func waitUntilShown(timeout: Int32 = 1000) throws {
        var left = timeout
        while isBusy, left > 0, let fd = pollDescriptor {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, min(left, 100))
            if r < 0 && errno != EINTR { throw DRMError("poll", errno: errno) }
            if r > 0 { try handleEvents() }
            left -= 100
        }
    }
}

/// Holds the daemon's current output and owns its release: ``Run`` closes the slot
/// after the loop; the daemon replaces a fallback output with a display that
/// appeared later (the old one is closed first, so a framebuffer hands the
/// console back before the display is taken).
package final class OutputSlot {
    package private(set) var current: FrameOutput

    package init(_ output: FrameOutput) { current = output }

    package func replace(with output: FrameOutput) {
        current.close()
        current = output
    }

    package func close() { current.close() }
}
