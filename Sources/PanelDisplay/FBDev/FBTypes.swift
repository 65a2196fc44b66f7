import PanelGauge

/// Swift values for the legacy framebuffer's screen info (`linux/fb.h`).

/// One colour channel inside a pixel word (`struct fb_bitfield`).
package struct FBBitfield: Equatable, Sendable, CustomStringConvertible {
    package var offset: UInt32
    package var length: UInt32

    package var description: String { "\(length)@\(offset)" }

    /// Every stored field, as the memberwise initializer (which is internal) takes them.
    package init(offset: UInt32, length: UInt32) {
        self.offset = offset
        self.length = length
    }
}

/// The variable screen info (`struct fb_var_screeninfo`) fields paneld reads and sets.
package struct FBVarInfo: Equatable, Sendable {
    package var xres: UInt32
    package var yres: UInt32
    package var xresVirtual: UInt32
    package var yresVirtual: UInt32
    package var xoffset: UInt32 = 0
    package var yoffset: UInt32 = 0
    package var bitsPerPixel: UInt32
    package var red: FBBitfield
    package var green: FBBitfield
    package var blue: FBBitfield
    package var transp: FBBitfield = FBBitfield(offset: 0, length: 0)

    /// Every stored field, as the memberwise initializer (which is internal) takes them.
    package init(
        xres: UInt32, yres: UInt32, xresVirtual: UInt32, yresVirtual: UInt32, xoffset: UInt32 = 0, yoffset: UInt32 = 0,
        bitsPerPixel: UInt32, red: FBBitfield, green: FBBitfield, blue: FBBitfield,
        transp: FBBitfield = FBBitfield(offset: 0, length: 0)
    ) {
        self.xres = xres
        self.yres = yres
        self.xresVirtual = xresVirtual
        self.yresVirtual = yresVirtual
        self.xoffset = xoffset
        self.yoffset = yoffset
        self.bitsPerPixel = bitsPerPixel
        self.red = red
        self.green = green
        self.blue = blue
        self.transp = transp
    }
}

/// The fixed screen info (`struct fb_fix_screeninfo`) fields paneld needs.
package struct FBFixInfo: Equatable, Sendable {
    package var id: String
    /// Bytes of framebuffer memory (`smem_len`).
    package var memoryLength: UInt32
    /// `FB_TYPE_*`; paneld needs packed pixels (0).
    package var type: UInt32
    /// `FB_VISUAL_*`; drawing needs true colour (2) or direct colour (4).
    package var visual: UInt32
    /// Pan granularity in lines; 0 means the driver cannot pan vertically.
    package var ypanstep: UInt16
    /// Bytes per line (the stride; may exceed xres * bytes per pixel).
    package var lineLength: UInt32

    package static let typePackedPixels: UInt32 = 0
    package static let visualTrueColor: UInt32 = 2
    package static let visualDirectColor: UInt32 = 4

    /// Every stored field, as the memberwise initializer (which is internal) takes them.
    package init(id: String, memoryLength: UInt32, type: UInt32, visual: UInt32, ypanstep: UInt16, lineLength: UInt32) {
        self.id = id
        self.memoryLength = memoryLength
        self.type = type
        self.visual = visual
        self.ypanstep = ypanstep
        self.lineLength = lineLength
    }
}

/// The console's display mode (`KD_TEXT` / `KD_GRAPHICS` in linux/kd.h).
package enum ConsoleMode: UInt32, Sendable {
    case text = 0
    case graphics = 1
}

/// The pure decisions of the fbdev output.
package enum FBLayout {
    /// The pixel format a framebuffer's bit layout is, or an error naming what it is.
    /// Accepted: 16 bpp R5 G6 B5 (`rgb565`) and 32 bpp with 8-bit red at 16, green
    /// at 8, blue at 0 (`xrgb8888`; an alpha channel at 24, ARGB, is ignored).
    package static func pixelFormat(of v: FBVarInfo, fix: FBFixInfo) throws -> PixelFormat {
        guard fix.type == FBFixInfo.typePackedPixels else {
            throw DRMError.notFound(
                "framebuffer \(fix.id) is not packed pixels (type \(fix.type)); only packed pixels can be drawn")
        }
        guard fix.visual == FBFixInfo.visualTrueColor || fix.visual == FBFixInfo.visualDirectColor else {
            throw DRMError.notFound(
                "framebuffer \(fix.id) uses a palette (visual \(fix.visual)); drawing needs true colour")
        }
        let rgb = (v.red, v.green, v.blue)
        if v.bitsPerPixel == 16,
            rgb == (
                FBBitfield(offset: 11, length: 5), FBBitfield(offset: 5, length: 6), FBBitfield(offset: 0, length: 5)
            )
        {
            return .rgb565
        }
        if v.bitsPerPixel == 32,
            rgb == (
                FBBitfield(offset: 16, length: 8), FBBitfield(offset: 8, length: 8), FBBitfield(offset: 0, length: 8)
            )
        {
            return .xrgb8888
        }
        throw DRMError.notFound(
            "framebuffer \(fix.id) has \(v.bitsPerPixel) bpp with red \(v.red), green \(v.green), blue \(v.blue) "
                + "(length@offset); drawing supports 16 bpp RGB565 and 32 bpp XRGB8888/ARGB8888 only")
    }

    /// Two pages when the virtual height holds two screens, the driver can pan, and
    /// the memory covers both; else one (drawn in place). Never two on DRM's fbdev
    /// emulation (see ``pansReliably(_:)``).
    package static func pageCount(_ v: FBVarInfo, _ fix: FBFixInfo) -> Int {
        guard pansReliably(fix) else { return 1 }
        let twoPages = UInt64(fix.lineLength) * UInt64(v.yres) * 2
        return v.yresVirtual >= 2 * v.yres && fix.ypanstep > 0 && UInt64(fix.memoryLength) >= twoPages ? 2 : 1
    }
}

extension FBLayout {
    /// False for DRM's fbdev emulation (its id ends in `drmfb`). Measured on Linux
    /// 6.1 in QEMU with two pages (`drm_kms_helper.drm_fbdev_overalloc=200`):
    /// bochs-drm ignores the pan offset and keeps showing the first page, and
    /// virtio-gpu pans to a second page that was never flushed (black). A real
    /// fbdev driver that offers a virtual height of two screens is trusted.
    package static func pansReliably(_ fix: FBFixInfo) -> Bool { !fix.id.hasSuffix("drmfb") }

    /// The byte range to write back for a damaged panel rectangle on a page at
    /// `pageOffset`: from its first pixel to its last, rows at `stride`. A range
    /// that covers exactly one whole line is widened by one pixel (onto the next
    /// line, or the previous at the end of memory): Linux 6.1's DRM fbdev emulation
    /// computes an empty damage clip for it and never shows the write.
    package static func flushRange(
        _ rect: IntRect, pageOffset: Int, stride: Int, bytesPerPixel: Int, memoryLength: Int
    ) -> Range<Int> {
        var start = pageOffset + rect.minY * stride + rect.minX * bytesPerPixel
        var end = pageOffset + (rect.maxY - 1) * stride + rect.maxX * bytesPerPixel
        if rect.height == 1 && (end - pageOffset) % stride == 0 {
            if end + bytesPerPixel <= memoryLength {
                end += bytesPerPixel
            } else if start >= bytesPerPixel {
                start -= bytesPerPixel
            }
        }
        return start..<end
    }
}

/// The `==` above compares tuples of bitfields.
private func == (a: (FBBitfield, FBBitfield, FBBitfield), b: (FBBitfield, FBBitfield, FBBitfield)) -> Bool {
    a.0 == b.0 && a.1 == b.1 && a.2 == b.2
}
