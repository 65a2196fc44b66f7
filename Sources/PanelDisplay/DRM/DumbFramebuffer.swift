#if canImport(Glibc)
    import Glibc
#endif
import PanelGauge

/// One scanout buffer: a dumb buffer, the framebuffer object over it, and its
/// CPU mapping. The single owner of those three kernel resources.
///
/// Acquired in the order create -> add framebuffer -> map, and released in the
/// reverse order (remove framebuffer... see ``release()``), on failure as on exit.
package final class DumbFramebuffer {
    package let framebufferID: UInt32
    package let info: DumbBufferInfo
    /// The mapped pixels at the buffer's pitch (which may exceed width * bytes per pixel).
    package let surface: Surface
    private let fd: Int32
    private let sys: DRMSyscalls
    private let mapping: UnsafeMutableRawPointer
    private var released = false

    /// Creates, registers and maps a `width` x `height` buffer of `format`. On
    /// failure, whatever was already acquired is released before the error is thrown.
    package init(sys: DRMSyscalls, fd: Int32, width: Int, height: Int, format: PixelFormat) throws {
        let bpp = UInt32(format.bytesPerPixel * 8)
        let fourcc = DRMFourCC.code(of: format)
        let dumb = try sys.createDumb(fd, width: UInt32(width), height: UInt32(height), bitsPerPixel: bpp)
        let fb: UInt32
        do {
            fb = try sys.addFramebuffer(
                fd, width: UInt32(width), height: UInt32(height), fourcc: fourcc, handle: dumb.handle, pitch: dumb.pitch
            )
        } catch {
            try? sys.destroyDumb(fd, handle: dumb.handle)
            throw error
        }
        let base: UnsafeMutableRawPointer
        do {
            let offset = try sys.mapDumbOffset(fd, handle: dumb.handle)
            base = try sys.mmap(fd, size: Int(dumb.size), offset: offset)
        } catch {
            try? sys.removeFramebuffer(fd, id: fb)
            try? sys.destroyDumb(fd, handle: dumb.handle)
            throw error
        }
        self.fd = fd
        self.sys = sys
        self.info = dumb
        self.framebufferID = fb
        self.mapping = base
        self.surface = Surface(base: base, width: width, height: height, stride: Int(dumb.pitch), format: format)
    }

    /// Removes the framebuffer, unmaps and destroys the dumb buffer; safe to call
    /// twice. Errors are reported on stderr: at teardown there is nothing else to do.
    package func release() {
        guard !released else { return }
        released = true
        do { try sys.removeFramebuffer(fd, id: framebufferID) } catch { DRMLog.teardownWarning(error) }
        do { try sys.munmap(mapping, size: Int(info.size)) } catch { DRMLog.teardownWarning(error) }
        do { try sys.destroyDumb(fd, handle: info.handle) } catch { DRMLog.teardownWarning(error) }
    }

    deinit { release() }
}

/// Failed DRM calls that were worked around, through ``DisplayLog`` with a `drm: `
/// prefix (the e2e tests look for them by it).
package enum DRMLog {
    package static func warning(_ message: String) { DisplayLog.warning("drm: \(message)") }

    /// A failure while releasing: reported, except ENODEV (the card is gone, its
    /// driver unbound; the kernel frees what the descriptor held when it is closed).
    package static func teardownWarning(_ error: any Error, doing what: String? = nil) {
        if let e = error as? DRMError, e.errno == ENODEV { return }
        warning((what.map { "\($0): " } ?? "") + "\(error)")
    }
}
