import Testing
@testable import PanelGauge

@Suite struct PNGTests {
    @Test func roundTripsPixelsOfBothFormats() throws {
        for format in PixelFormat.allCases {
            let img = Image(width: 5, height: 3, format: format, stride: 8 * format.bytesPerPixel)  // padded rows
            // Write a known pattern through the 8-bit packing of each format.
            for y in 0..<3 {
                for x in 0..<5 {
                    let (r, g, b) = (UInt8(x * 50), UInt8(y * 100), UInt8(255 - x * 40))
                    switch format {
                    case .xrgb8888:
                        img.surface.row(y).storeBytes(
                            of: 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b), toByteOffset: x * 4,
                            as: UInt32.self)
                    case .rgb565:
                        img.surface.row(y).storeBytes(of: RGB565.pack(r, g, b), toByteOffset: x * 2, as: UInt16.self)
                    }
                }
            }
            let png = try PNG.encode(img.surface)
            let back = try PNG.decode(png)
            #expect(back.width == 5 && back.height == 3)
            #expect(back.rgb == img.surface.rgbBytes())
        }
    }

    @Test func rejectsGarbage() {
        #expect(throws: PNG.Error.self) { try PNG.decode([1, 2, 3]) }
        #expect(throws: PNG.Error.self) { try PNG.decode([137, 80, 78, 71, 13, 10, 26, 10, 0, 0]) }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct AtomicWriteTests {
    /// A private directory for one test.
    func scratch() -> String {
        var t = Array("/tmp/panelgauge-test.XXXXXX".utf8CString)
        let p = t.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return String(cString: p!)
    }

    func entries(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    @Test func replacesTheFileWithItsModeAndLeavesNoTemporaries() throws {
        let dir = scratch()
        let path = dir + "/frame.png"
        try FileIO.writeAtomically([1, 2, 3], to: path, mode: 0o640)
        try FileIO.writeAtomically([4, 5], to: path, mode: 0o640)
        #expect(try FileIO.read(path) == [4, 5])
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o640)
        #expect(entries(dir) == ["frame.png"])
    }

    /// A symlink planted where a file is written is neither written through nor
    /// replaced: the write is refused and both the link and its target stay.
    @Test func refusesASymlinkAndLeavesItAndItsTarget() throws {
        let dir = scratch()
        let victim = dir + "/victim"
        try FileIO.writeAtomically([9], to: victim)
        #expect(symlink(victim, dir + "/frame.png") == 0)
        #expect(throws: FileIO.Error.self) { try FileIO.writeAtomically([1], to: dir + "/frame.png") }
        #expect(try FileIO.read(victim) == [9])  // the link's target is untouched
        #expect(FileIO.fileType(dir + "/frame.png") == .symbolicLink)
        #expect(entries(dir) == ["frame.png", "victim"])
    }

    @Test func missingDirectoryIsAnError() {
        #expect(throws: FileIO.Error.self) { try FileIO.writeAtomically([1], to: "/nonexistent-dir-paneld/x.png") }
    }
}
