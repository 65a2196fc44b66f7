import CFreeType
import Testing
@testable import PanelGauge

@Suite struct FontTests {
    static let dejaVu = FontDescriptor.default

    @Test func missingFontGivesAClearError() {
        let path = "/nonexistent/fonts/NoSuchFont.ttf"
        #expect(throws: FontError.unreadable(path: path)) { try Font(FontDescriptor(path: path), pixelSize: 12) }
        #expect(FontError.unreadable(path: path).description.contains(path))
        #expect(FontError.unreadable(path: path).description.contains("not readable"))
    }

    @Test func aFileThatIsNotAFontIsRefusedByFreeType() {
        let notAFont = Paths.repoRoot + "/Package.swift"
        // The error caught by hand: Swift 6.0's `#expect(throws:)` returns none.
        var caught: FontError?
        do {
            _ = try Font(FontDescriptor(path: notAFont), pixelSize: 12)
        } catch {
            caught = error as? FontError
        }
        guard case .freeType(let call, let code, let path)? = caught else {
            Issue.record("expected a FreeType error, got \(String(describing: caught))")
            return
        }
        #expect(call == "FT_New_Face" && code != 0 && path == notAFont)
    }

    @Test func sizesMustBePositive() {
        #expect(throws: FontError.invalidSize(0)) { try Font(pixelSize: 0) }
        #expect(throws: FontError.self) { try Font(pixelSize: .nan) }
    }

    /// `layout` remembers the last text: asking for others in between, or for a
    /// text again, gives what a font that never saw them gives.
    @Test func layoutsDoNotMixTexts() throws {
        let f = try Font(pixelSize: 20)
        func shape(_ run: Font.Run) -> [Int] {
            [Int(run.advance)] + run.glyphs.flatMap { [$0.penX, $0.glyph.width, $0.glyph.height] }
        }
        for t in ["12", "345", "12", "12", "7%", "", "345"] {
            let fresh = try Font(pixelSize: 20).layout(t)
            #expect(shape(f.layout(t)) == shape(fresh), "\(t)")
        }
    }

    /// A font says which characters it has a glyph of its own for (DejaVu Sans
    /// has the em dash paneld draws for a stale value, not a private-use character).
    @Test func tellsWhichCharactersItHas() throws {
        let f = try Font(pixelSize: 12)
        #expect(f.hasGlyph(for: "A") && f.hasGlyph(for: "\u{2014}"))
        #expect(!f.hasGlyph(for: "\u{E000}") && !f.hasGlyph(for: "\u{10FFFD}"))
    }

    @Test func widerValuesMeasureWider() throws {
        let f = try Font(pixelSize: 12)
        #expect(f.advance(of: "100 %") > f.advance(of: "73 %"))
        #expect(f.advance(of: "73 %") > f.advance(of: "7 %"))
        #expect(f.advance(of: "") == 0)
        // Measuring is deterministic and cache-independent.
        let again = try Font(pixelSize: 12)
        #expect(again.advance(of: "73 %") == f.advance(of: "73 %"))
        #expect(try Font(pixelSize: 24).advance(of: "73 %") > f.advance(of: "73 %"))
    }

    /// Measuring loads metrics only, drawing renders bitmaps: both give the same
    /// widths, in either order.
    @Test func measuringAndRenderingAgree() throws {
        let texts = ["100 %", "73 %", "CPU", "21.5 °C", "AVATAR To", "gjpqy"]
        for size in [10.0, 11, 12, 13, 14, 27] {
            let measuredFirst = try Font(pixelSize: size), renderedFirst = try Font(pixelSize: size)
            for t in texts {
                let rendered = renderedFirst.layout(t).advance
                #expect(measuredFirst.advance(of: t) == rendered, "\(t) at \(size) px")
                #expect(renderedFirst.advance(of: t) == rendered)
                #expect(measuredFirst.layout(t).advance == rendered)
            }
        }
    }

    /// Sizes sharing one face switch the face's active size under its lock:
    /// interleaved use gives what separate faces give.
    @Test func sizesSharingAFaceDoNotDisturbEachOther() throws {
        let file = try FontFile(.default)
        let small = try Font(file: file, pixelSize: 12), large = try Font(file: file, pixelSize: 20)
        let alone12 = try Font(pixelSize: 12), alone20 = try Font(pixelSize: 20)
        for t in ["100 %", "Tg", "73"] {
            #expect(large.advance(of: t) == alone20.advance(of: t))
            #expect(small.advance(of: t) == alone12.advance(of: t))
            #expect(large.inkBounds(of: t) == alone20.inkBounds(of: t))
            #expect(small.inkBounds(of: t) == alone12.inkBounds(of: t))
        }
        #expect(small.ascender == alone12.ascender && large.lineHeight == alone20.lineHeight)
    }

    /// Many tasks measuring and rendering at different sizes of one shared face
    /// get the answers a single task gets.
    @Test func concurrentUseOfOneFaceIsSafe() async throws {
        let cache = FontCache()
        let texts = ["100 %", "73 %", "CPU", "Temp 21.5 °C"]
        var expected = [Double: [Double]]()
        for size in [10.0, 12, 14, 18] {
            expected[size] = try texts.map { try Font(pixelSize: size).advance(of: $0) }
        }
        let results = try await withThrowingTaskGroup(of: (Double, [Double]).self) { group in
            for i in 0..<32 {
                let size = [10.0, 12, 14, 18][i % 4]
                group.addTask {
                    let f = try cache.font(.default, pixelSize: size)
                    _ = texts.map { f.layout($0) }  // render too, interleaved with other sizes
                    return (size, texts.map { f.advance(of: $0) })
                }
            }
            var out = [(Double, [Double])]()
            for try await r in group { out.append(r) }
            return out
        }
        #expect(results.count == 32)
        for (size, widths) in results { #expect(widths == expected[size]) }
    }

    /// The hinted width at 12 px agrees with the font's design advances scaled to
    /// 12 px (read unscaled and unhinted through FT_LOAD_NO_SCALE): each glyph's
    /// advance is rounded to whole pixels, so at most half a pixel per glyph.
    @Test func widthsAgreeWithTheDesignAdvances() throws {
        let text = "100 % CPU 21.5 °C"
        let f = try Font(pixelSize: 12)
        var lib: FT_Library?
        #expect(FT_Init_FreeType(&lib) == 0)
        defer { FT_Done_FreeType(lib) }
        var face: FT_Face?
        #expect(FT_New_Face(lib, Self.dejaVu.path, 0, &face) == 0)
        defer { FT_Done_Face(face) }
        let upem = Double(face!.pointee.units_per_EM)
        var design = 0.0
        for s in text.unicodeScalars {
            let index = FT_Get_Char_Index(face, FT_ULong(s.value))
            #expect(index != 0, "DejaVu Sans has \(s)")
            #expect(FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_SCALE)) == 0)
            design += Double(face!.pointee.glyph.pointee.advance.x) * 12 / upem
        }
        let n = Double(text.unicodeScalars.count)
        #expect(abs(f.advance(of: text) - design) <= n * 0.5)
    }

    /// DejaVu Sans has a 'kern' table; its "To" pair is -348/2048 em (-2.4 px at
    /// 14 px) and "AV" -131/2048 em (-0.9 px).
    @Test func kerningTightensPairs() throws {
        let f = try Font(pixelSize: 14)
        try #require(f.hasKerning)
        #expect(f.advance(of: "To") == f.advance(of: "T") + f.advance(of: "o") - 2)
        #expect(f.advance(of: "AV") == f.advance(of: "A") + f.advance(of: "V") - 1)
        #expect(f.advance(of: "oo") == 2 * f.advance(of: "o"))  // no pair, no change
    }

    /// DejaVu Sans capitals are 1493/2048 em tall (0.729 em): 8.75 px at 12 px,
    /// which light hinting snaps to a whole pixel (8 or 9).
    @Test func inkBoundsSitOnTheBaseline() throws {
        let f = try Font(pixelSize: 12)
        let h = try #require(f.inkBounds(of: "H"))
        #expect(h.maxY == 0)
        #expect(h.minY == -9 || h.minY == -8)
        let g = try #require(f.inkBounds(of: "g"))
        #expect(g.maxY > 0)  // a descender
        #expect(f.inkBounds(of: "   ") == nil)
        #expect(f.ascender > 0 && f.descender > 0 && f.lineHeight >= f.ascender + f.descender - 1)
    }

    /// Light hinting snaps horizontal stems to whole pixels: the top bar of a
    /// "T" fills its first row at every label size. (Unhinted, DejaVu's cap
    /// height of 0.729 em puts the bar across two rows at most of these sizes,
    /// e.g. 8.75 px at 12 px, leaving the top row about three quarters covered.)
    @Test(arguments: [10.0, 11, 12, 13, 14])
    func horizontalStemsSnapToThePixelGrid(size: Double) throws {
        let t = try Font(pixelSize: size).glyph(for: "T")
        let topRow = t.coverage[0..<t.width].max() ?? 0
        #expect(topRow >= 240)
        #expect(t.top == Int((0.729 * size).rounded()) || t.top == Int((0.729 * size).rounded(.up)))
    }

    /// Value labels are centred on their ink, so the ink must not move as the
    /// value changes: with hinting, every number from 0 to 100 (with or without
    /// " %") has the same top and bottom at each size.
    @Test(arguments: [10.0, 12, 14, 17, 24])
    func valueTextInkDoesNotJumpVertically(size: Double) throws {
        let f = try Font(pixelSize: size)
        for suffix in ["", " %"] {
            let boxes = (0...100).map { f.inkBounds(of: "\($0)" + suffix)! }
            #expect(Set(boxes.map(\.minY)).count == 1 && Set(boxes.map(\.maxY)) == [0], "suffix '\(suffix)'")
        }
    }

    @Test func drawnTextLandsOnItsInkBounds() throws {
        let f = try Font(pixelSize: 14)
        let img = Image(width: 60, height: 24)
        let canvas = Canvas(surface: img.surface)
        canvas.clear(.black)
        f.draw("73 %", at: Point(x: 5, y: 18), on: canvas, paint: .solid(.white))
        var ink: IntRect?
        var brightest = 0
        for y in 0..<img.height {
            for x in 0..<img.width {
                let p = img.surface.pixel(x: x, y: y)
                if p.red != 0 {
                    let r = IntRect(x: x, y: y, width: 1, height: 1)
                    ink = ink.map { $0.union(r) } ?? r
                    brightest = max(brightest, Int(p.red))
                }
                #expect(p.red == p.green && p.green == p.blue, "white text stays grey")
            }
        }
        let expected = try #require(f.inkBounds(of: "73 %"))
        let drawn = try #require(ink)
        #expect(drawn == IntRect(x: expected.x + 5, y: expected.y + 18, width: expected.width, height: expected.height))
        #expect(brightest == 255)  // hinted horizontals are fully covered
    }

    @Test func theCacheSharesFacesPerSize() throws {
        let cache = FontCache()
        let a = try cache.font(.default, pixelSize: 12)
        #expect(try cache.font(.default, pixelSize: 12) === a)
        let b = try cache.font(.default, pixelSize: 13)
        #expect(b !== a && b.file === a.file)  // one FreeType face, two sizes
        #expect(throws: FontError.self) { try cache.font(FontDescriptor(path: "/nope.ttf"), pixelSize: 12) }
    }
}

@Suite struct MissingFontTests {
    @Test func aGaugeWithAMissingFontReportsItAndDrawsWithoutText() throws {
        let path = "/nonexistent/Missing.ttf"
        let g = try Gauge(value: 0.5).valueFormat(.percent()).gaugeStyle(.accessoryCircularCapacity)
        let broken = g.environment { $0.font = FontDescriptor(path: path) }
        #expect(throws: FontError.unreadable(path: path)) { try broken.validateFont() }
        try g.validateFont()
        // The ring is still drawn, without its text.
        let withText = render(g, width: 60, height: 60), without = render(broken, width: 60, height: 60)
        #expect(
            withText.inkBounds(in: IntRect(x: 18, y: 18, width: 24, height: 24), background: RGB(Panel.background))
                != nil)
        #expect(
            without.inkBounds(in: IntRect(x: 18, y: 18, width: 24, height: 24), background: RGB(Panel.background))
                == nil)
        #expect(without.rgb(30, 3) == withText.rgb(30, 3))
    }
}
