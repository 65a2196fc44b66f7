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
