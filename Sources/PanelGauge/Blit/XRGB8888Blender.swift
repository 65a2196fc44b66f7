#if canImport(Glibc)
    import Glibc
#endif

/// glibc's `wmemset` (wchar_t is 32 bits on Linux): a 32-bit fill that glibc
/// vectorises for the CPU at hand (AVX2 where present). The Glibc module does
/// not export it, so it is looked up once at run time; nil where absent.
enum WideFill {
    typealias Function = @convention(c) (UnsafeMutableRawPointer?, UInt32, Int) -> UnsafeMutableRawPointer?
    static let wmemset: Function? = {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wmemset") else { return nil }
        return unsafeBitCast(sym, to: Function.self)
    }()
}

/// XRGB8888: one little-endian word `0xXXRRGGBB` per pixel; X is written 0xFF.
enum XRGB8888Blender: PixelBlender {
    @inline(__always)
    static func fill(row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32) {
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        let word = 0xFF00_0000 | color
        if count >= 64, let wmemset = WideFill.wmemset {
            wmemset(UnsafeMutableRawPointer(p), word, count)
            return
        }
        // Eight pixels per (unaligned) vector store, then the rest one by one.
        let v = SIMD8<UInt32>(repeating: word)
        let raw = UnsafeMutableRawPointer(p)
        var i = 0
        while i + 8 <= count {
            raw.storeBytes(of: v, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < count {
            p[i] = word
            i += 1
        }
    }

    @inline(__always)
    static func blend(row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32) {
        if alpha >= 255 { return fill(row: row, x: x, count: count, color: color) }
        if alpha == 0 { return }
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        for i in 0..<count { p[i] = blendXRGB(p[i], color, alpha) }
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alphas: UnsafePointer<UInt8>
    ) {
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        for i in 0..<count {
            let a = UInt32(alphas[i])
            if a == 255 {
                p[i] = 0xFF00_0000 | color
            } else if a != 0 {
                p[i] = blendXRGB(p[i], color, a)
            }
        }
    }

    @inline(__always)
    static func blend(
        row: UnsafeMutableRawPointer, y: Int, x: Int, count: Int, colors: UnsafePointer<UInt32>,
        coverage: UnsafePointer<UInt8>?, constantCoverage: UInt32
    ) {
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        for i in 0..<count {
            let c = colors[i]
            let cov = coverage.map { UInt32($0[i]) } ?? constantCoverage
            let a = div255((c >> 24) &* cov)
            if a == 255 {
                p[i] = 0xFF00_0000 | c
            } else if a != 0 {
                p[i] = blendXRGB(p[i], c & 0xFF_FFFF, a)
            }
        }
    }
}
