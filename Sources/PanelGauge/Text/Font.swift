import CFreeType
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Which font file to draw text with. Sizes are chosen per use, so one
/// descriptor serves every label.
public struct FontDescriptor: Sendable, Hashable {
    /// Path of a TrueType or OpenType file.
    public var path: String
    /// Face index inside the file (collections hold several).
    public var faceIndex: Int

    /// Creates a descriptor for a font file; the file is opened on first use, not here.
    ///
    /// - Parameters:
    ///   - path: The path of a TrueType or OpenType file.
    ///   - faceIndex: The face inside the file; 0 for a file with one face.
    public init(path: String, faceIndex: Int = 0) {
        self.path = path
        self.faceIndex = faceIndex
    }

    /// DejaVu Sans from Debian's fonts-dejavu-core.
    public static let `default` = FontDescriptor(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
}

/// Why a font could not be used.
public enum FontError: Error, Equatable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case unreadable(path: String)
    /// The path names a FIFO, a device or a directory, which is never opened.
    case notRegularFile(path: String)
    /// FreeType refused the file or a request; `call` is the FreeType function.
    case freeType(call: String, code: Int32, path: String)
    /// The size is not a positive finite number of pixels.
    case invalidSize(Double)

    /// A sentence saying why the font could not be used, naming the file.
    public var description: String {
        switch self {
        case .unreadable(let p):
            "font file \(p) does not exist or is not readable (install fonts-dejavu-core, or set another font path)"
        case .notRegularFile(let p): "font file \(p) is not a regular file"
        case .freeType(let call, let code, let p):
            "FreeType \(call) failed with error 0x\(String(code, radix: 16)) for font \(p)"
        case .invalidSize(let s): "font size \(s) px is not a positive number"
        }
    }
}

/// One rendered glyph: its advance and its coverage bitmap relative to the pen.
public struct Glyph: Sendable {
    /// Horizontal advance in pixels (hinted, so whole pixels with light hinting).
    public let advance: Double
    /// Offset from the pen position to the bitmap's left column.
    public let left: Int
    /// Offset from the baseline up to the bitmap's top row (positive = above).
    public let top: Int
    /// The bitmap's width, in pixels (0 for a glyph without ink, such as a space).
    public let width: Int
    /// The bitmap's height, in pixels (0 for a glyph without ink).
    public let height: Int
    /// 8-bit coverage, row-major, `width * height` bytes.
    public let coverage: [UInt8]
}

/// An open font file: one FreeType library and face, shared by every size of
/// it (each size is an `FT_Size` of the face, so a new size costs its metrics
/// and glyphs, not another copy of the font's tables). All FreeType calls on
/// the face go through its lock, since a face is not safe to share across
/// threads.
public final class FontFile: Sendable {
    /// The file and face this font file was opened from.
    public let descriptor: FontDescriptor
    /// Whether the face has a 'kern' table that layout applies.
    public let hasKerning: Bool
    fileprivate let state: Mutex<FaceState>

    /// Opens the file; throws ``FontError`` if it is missing or not a font.
    public init(_ descriptor: FontDescriptor) throws(FontError) {
        let path = descriptor.path
        // FreeType opens the path itself, with a blocking open: a FIFO would hang it.
        guard access(path, R_OK) == 0 else { throw .unreadable(path: path) }
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path) }
        var lib: FT_Library?
        var rc = FT_Init_FreeType(&lib)
        guard rc == 0, let lib else { throw .freeType(call: "FT_Init_FreeType", code: rc, path: path) }
        var faceOpt: FT_Face?
        rc = FT_New_Face(lib, path, FT_Long(descriptor.faceIndex), &faceOpt)
        guard rc == 0, let face = faceOpt else {
            FT_Done_FreeType(lib)
            throw .freeType(call: "FT_New_Face", code: rc, path: path)
        }
        self.descriptor = descriptor
        hasKerning = cft_has_kerning(face) != 0
        state = Mutex(FaceState(library: lib, face: face))
    }
}

/// The face and its sizes; lives inside the file's lock.
private struct FaceState: ~Copyable {
    let library: FT_Library
    let face: FT_Face
    /// Character to glyph index, the same at every size.
    var indices: [Unicode.Scalar: UInt32] = [:]
    /// Per size, keyed by the size in 26.6 fixed point.
    var sizes: [Int: SizeState] = [:]

    deinit {
        FT_Done_Face(face)  // also frees every FT_Size of the face
        FT_Done_FreeType(library)
    }
}

private struct SizeState {
    let size: FT_Size
    var glyphs: [UInt32: Glyph] = [:]
    /// Advances of glyphs measured but not (yet) rendered.
    var advances: [UInt32: Int] = [:]
    /// Advances of whole texts measured: styles size a gauge's text from the
    /// same few texts on every draw (paneld draws a ring's dynamic layer once
    /// per repainted rectangle). Emptied when full, as values' texts vary.
    var textAdvances: [String: Int] = [:]
    static let maxTextAdvances = 256
}

/// A font file at one pixel size, with its glyph cache.
///
/// Glyphs are loaded with FreeType's light hinting (`FT_LOAD_TARGET_LIGHT`):
/// outlines snap vertically to the pixel grid, which keeps 10-14 px text crisp
/// on small panels, while horizontal shapes and spacing keep the designer's
/// proportions. Pens sit on whole pixels.
public final class Font: Sendable {
    /// The open font file this size belongs to.
    public let file: FontFile
    /// The file and face the font was opened from.
    public var descriptor: FontDescriptor { file.descriptor }
    /// The requested size: the em square in pixels (to 1/64 px).
    public let pixelSize: Double
    /// Distance from the baseline up to the top of tall glyphs, in pixels.
    public let ascender: Double
    /// Distance from the baseline down to the bottom of descenders (positive).
    public let descender: Double
    /// Recommended baseline-to-baseline distance.
    public let lineHeight: Double
    /// Whether the face has kerning that ``advance(of:)`` applies.
    public var hasKerning: Bool { file.hasKerning }
    /// The size in 26.6 fixed point: the key of this size in the face.
    private let key: Int
    /// The last text laid out, and its run: a label is measured, placed and
    /// drawn from the same string, and a repaint asks for its boxes too.
    private let lastRun = Mutex<(text: String, run: Run)?>(nil)

    /// Opens `descriptor`'s file at `pixelSize` pixels per em (a face of its
    /// own; ``FontCache`` shares one face between sizes).
    public convenience init(_ descriptor: FontDescriptor = .default, pixelSize: Double) throws(FontError) {
        guard pixelSize.isFinite, pixelSize > 0, pixelSize < 10_000 else { throw .invalidSize(pixelSize) }
        try self.init(file: FontFile(descriptor), pixelSize: pixelSize)
    }

    /// `file` at `pixelSize` pixels per em.
    public init(file: FontFile, pixelSize: Double) throws(FontError) {
        guard pixelSize.isFinite, pixelSize > 0, pixelSize < 10_000 else { throw .invalidSize(pixelSize) }
        let key = Int((pixelSize * 64).rounded())
        let path = file.descriptor.path
        let metrics = try file.state.withLock { (s: inout FaceState) throws(FontError) -> FT_Size_Metrics in
            if let existing = s.sizes[key] {
                FT_Activate_Size(existing.size)
            } else {
                var sizeOpt: FT_Size?
                var rc = FT_New_Size(s.face, &sizeOpt)
                guard rc == 0, let size = sizeOpt else { throw .freeType(call: "FT_New_Size", code: rc, path: path) }
                FT_Activate_Size(size)
                // 72 dpi makes points equal pixels.
                rc = FT_Set_Char_Size(s.face, 0, FT_F26Dot6(key), 72, 72)
                guard rc == 0 else {
                    FT_Done_Size(size)
                    throw .freeType(call: "FT_Set_Char_Size", code: rc, path: path)
                }
                s.sizes[key] = SizeState(size: size)
            }
            return s.face.pointee.size.pointee.metrics
        }
        self.file = file
        self.key = key
        self.pixelSize = Double(key) / 64
        ascender = Double(metrics.ascender) / 64
        descender = -Double(metrics.descender) / 64
        lineHeight = Double(metrics.height) / 64
    }

    /// Runs `body` under the face's lock with this size active.
    private func withSize<R: Sendable>(_ body: @Sendable (inout FaceState, inout SizeState) -> R) -> R {
        file.state.withLock { s in
            // Take the size's state out while it changes, so its caches are not copied.
            var size = s.sizes.removeValue(forKey: key)!
            defer { s.sizes[key] = size }
            FT_Activate_Size(size.size)
            return body(&s, &size)
        }
    }

    /// Whether the font has a glyph of its own for `scalar` (not .notdef).
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        file.state.withLock { s in Self.index(scalar, &s) != 0 }
    }

    /// The glyph for `scalar` (the font's .notdef glyph if it has none).
    public func glyph(for scalar: Unicode.Scalar) -> Glyph {
        withSize { s, z in Self.glyph(Self.index(scalar, &s), s.face, &z) }
    }

    /// A laid-out run: each glyph with its pen position relative to the start of
    /// the baseline, and the total advance.
    public struct Run: Sendable {
        /// Each glyph with its pen position, in whole pixels from the start of the baseline.
        public let glyphs: [(glyph: Glyph, penX: Int)]
        /// Width from the first pen position to the pen after the last glyph.
        public let advance: Double
    }

    /// Lays out `text` on one line: hinted advances plus kerning, pens on whole
    /// pixels. Kerning is read unfitted and rounded here: FreeType's grid-fitted
    /// kerning rounds small pairs (DejaVu's "AV", 0.9 px at 14 px) to nothing.
    public func layout(_ text: String) -> Run {
        if let known = lastRun.withLock({ $0?.text == text ? $0?.run : nil }) { return known }
        let run = withSize { s, z in
            let (pens, advance) = Self.pens(text, hasKerning: hasKerning, &s, &z)
            return Run(glyphs: pens.map { (Self.glyph($0.index, s.face, &z), $0.penX) }, advance: Double(advance))
        }
        lastRun.withLock { $0 = (text, run) }
        return run
    }

    /// The advance width of `text` in pixels (what a label's slot must hold).
    /// Measuring loads metrics only; no glyph is rendered.
    public func advance(of text: String) -> Double {
        withSize { s, z in
            if let known = z.textAdvances[text] { return Double(known) }
            let advance = Self.pens(text, hasKerning: hasKerning, &s, &z).advance
            if z.textAdvances.count >= SizeState.maxTextAdvances { z.textAdvances.removeAll(keepingCapacity: true) }
            z.textAdvances[text] = advance
            return Double(advance)
        }
    }

    /// Glyph indices with their pen positions, and the total advance.
    private static func pens(_ text: String, hasKerning: Bool, _ s: inout FaceState, _ z: inout SizeState) -> (
        [(index: UInt32, penX: Int)], advance: Int
    ) {
        var pen = 0
        var out = [(index: UInt32, penX: Int)]()
        var previous: UInt32?
        for scalar in text.unicodeScalars {
            let index = Self.index(scalar, &s)
            if hasKerning, let previous {
                var k = FT_Vector()
                if FT_Get_Kerning(s.face, previous, index, FT_UInt(FT_KERNING_UNFITTED.rawValue), &k) == 0 {
                    pen += Int((Double(k.x) / 64).rounded())
                }
            }
            out.append((index, pen))
            pen += Self.advance(index, s.face, &z)
            previous = index
        }
        return (out, pen)
    }

    /// The hinted advance of a glyph in whole pixels, from the glyph cache or
    /// from the glyph's metrics (loaded with the same light hinting as rendering,
    /// so both agree).
    private static func advance(_ index: UInt32, _ face: FT_Face, _ z: inout SizeState) -> Int {
        if let g = z.glyphs[index] { return Int(g.advance.rounded()) }
        if let a = z.advances[index] { return a }
        var a = 0
        if FT_Load_Glyph(face, index, cft_load_light()) == 0 {
            a = Int((Double(face.pointee.glyph!.pointee.advance.x) / 64).rounded())
        }
        z.advances[index] = a
        return a
    }

    private static func index(_ scalar: Unicode.Scalar, _ s: inout FaceState) -> UInt32 {
        if let i = s.indices[scalar] { return i }
        let i = UInt32(FT_Get_Char_Index(s.face, FT_ULong(scalar.value)))
        s.indices[scalar] = i
        return i
    }

    private static func glyph(_ index: UInt32, _ face: FT_Face, _ z: inout SizeState) -> Glyph {
        if let g = z.glyphs[index] { return g }
        let g: Glyph
        if FT_Load_Glyph(face, index, cft_load_light_render()) == 0 {
            let slot = face.pointee.glyph!.pointee
            let bm = slot.bitmap
            let w = Int(bm.width), h = Int(bm.rows)
            var cov = [UInt8](repeating: 0, count: w * h)
            if let buffer = bm.buffer, bm.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) {
                // The pitch may be negative (rows stored bottom-up).
                let pitch = Int(bm.pitch)
                for y in 0..<h {
                    let row = pitch >= 0 ? buffer + y * pitch : buffer + (h - 1 - y) * -pitch
                    for x in 0..<w { cov[y * w + x] = row[x] }
                }
            }
            g = Glyph(
                advance: Double(slot.advance.x) / 64, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top),
                width: w, height: h, coverage: cov)
        } else {
            g = Glyph(advance: 0, left: 0, top: 0, width: 0, height: 0, coverage: [])
        }
        z.glyphs[index] = g
        return g
    }
}
