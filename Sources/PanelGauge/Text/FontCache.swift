import Synchronization

/// Opened fonts by file and pixel size: every label of every gauge on a panel
/// shares one FreeType face per file, and one glyph cache per size.
public final class FontCache: Sendable {
    private struct Key: Hashable {
        let descriptor: FontDescriptor
        let size: Double
    }
    private let fonts = Mutex<[Key: Font]>([:])
    private let files = Mutex<[FontDescriptor: FontFile]>([:])

    /// Creates an empty cache; fonts are opened on first request. Most programs use ``shared``.
    public init() {}

    /// The process-wide cache.
    public static let shared = FontCache()

    /// The font at `pixelSize` (rounded to 1/64 px, FreeType's resolution).
    public func font(_ descriptor: FontDescriptor, pixelSize: Double) throws(FontError) -> Font {
        let size = (pixelSize * 64).rounded() / 64
        let key = Key(descriptor: descriptor, size: size)
        if let f = fonts.withLock({ $0[key] }) { return f }
        let f = try Font(file: file(descriptor), pixelSize: size)
        return fonts.withLock { table in
            if let existing = table[key] { return existing }
            table[key] = f
            return f
        }
    }

    /// The open file for `descriptor`, opened once.
    private func file(_ descriptor: FontDescriptor) throws(FontError) -> FontFile {
        if let f = files.withLock({ $0[descriptor] }) { return f }
        let f = try FontFile(descriptor)
        return files.withLock { table in
            if let existing = table[descriptor] { return existing }
            table[descriptor] = f
            return f
        }
    }
}
