import Glibc
import PanelGauge

/// What a picture of a whole value arc was drawn for (over the static picture
/// it is kept with, whose key the scene checks first).
struct ArcKey: Equatable {
    var layout: CircularGaugeLayout
    var cap: LineCap
    var stroke: GaugeLayering.ValueArc.Stroke

    /// Nil when the arc's stroke is not known.
    init?(_ arc: GaugeLayering.ValueArc) {
        guard let stroke = arc.stroke else { return nil }
        layout = arc.layout
        cap = arc.cap
        self.stroke = stroke
    }
}

/// The pixels of a frame that differ from its static picture (the whole value
/// arc drawn over it), row by row as runs: a ring's annulus, not its frame.
final class ArcOverlay {
    private struct Run {
        var x0: Int32
        var x1: Int32
        /// Byte offset of the run's pixels in `pixels`.
        var offset: Int32
        /// Byte offset of the static picture's pixel under x0 in its kept
        /// pixels (`StaticPicture.offset(of:)`), or -1 when the run does not
        /// lie in them.
        var under: Int32
    }

    private let frame: IntRect
    /// The static picture the runs were found over (whose pixels `Run.under` points into).
    private let base: StaticPicture
    private let bpp: Int
    /// Row y's runs are `runs[rowStarts[y - frame.minY] ..< rowStarts[y - frame.minY + 1]]`.
    /// (Immutable pointers, not arrays: an array in a class property is
    /// checked for exclusive access at every read.)
    private let rowStarts: UnsafeMutablePointer<Int32>
    private let runs: UnsafeMutablePointer<Run>
    private let pixels: UnsafeMutableRawPointer
    let bytes: Int

    /// Differing pixels closer than this join one run (fewer runs to look
    /// up; the pixels between are the static picture's, kept twice).
    private static let joinGap = 8

    /// Keeps what `surface` shows in `frame` where it differs from `picture`.
    init(of frame: IntRect, on surface: Surface, over picture: StaticPicture) {
        self.frame = frame
        base = picture
        let bpp = surface.format.bytesPerPixel
        self.bpp = bpp
        var rowStarts: [Int32] = [], runs: [Run] = [], pixels: [UInt8] = []
        let line = Image(width: max(1, frame.width), height: 1, format: surface.format)
        let under = line.surface.row(0)
        rowStarts.reserveCapacity(frame.height + 1)
        for y in frame.minY..<frame.maxY {
            rowStarts.append(Int32(runs.count))
            // The static row, its column frame.minX at the start of `line`.
            picture.restoreRow(y, columns: frame.minX..<frame.maxX, into: under - frame.minX * bpp)
            let row = surface.row(y) + frame.minX * bpp
            var x = 0
            while x < frame.width {
                if memcmp(row + x * bpp, under + x * bpp, bpp) == 0 {
                    x += 1
                    continue
                }
                // A run of differing pixels, gaps under `joinGap` included.
                var end = x + 1, same = 0
                while end < frame.width && same < Self.joinGap {
                    same = memcmp(row + end * bpp, under + end * bpp, bpp) == 0 ? same + 1 : 0
                    end += 1
                }
                end -= same
                let x0 = frame.minX + x, x1 = frame.minX + end
                let under = picture.offset(of: IntRect(minX: x0, minY: y, maxX: x1, maxY: y + 1)) ?? -1
                runs.append(Run(x0: Int32(x0), x1: Int32(x1), offset: Int32(pixels.count), under: Int32(under)))
                pixels.append(contentsOf: UnsafeRawBufferPointer(start: row + x * bpp, count: (end - x) * bpp))
                x = end
            }
        }
        rowStarts.append(Int32(runs.count))
        self.rowStarts = .allocate(capacity: rowStarts.count)
        self.rowStarts.initialize(from: rowStarts, count: rowStarts.count)
        self.runs = .allocate(capacity: max(1, runs.count))
        self.runs.initialize(from: runs, count: runs.count)
        let kept = UnsafeMutableRawPointer.allocate(byteCount: max(1, pixels.count), alignment: 16)
        pixels.withUnsafeBytes { kept.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        self.pixels = kept
        bytes = pixels.count + runs.count * MemoryLayout<Run>.stride + rowStarts.count * 4
    }

    deinit {
        rowStarts.deallocate()
        runs.deallocate()
        pixels.deallocate()
    }

    /// Copies onto `surface` the pixels of the kept runs within `rect`: the
    /// runs' own, or `picture`'s (the static one) when given.
    func copyRuns(in rect: IntRect, on surface: Surface, from picture: StaticPicture?) {
        let y0 = max(rect.minY, frame.minY), y1 = min(rect.maxY, frame.maxY)
        guard y0 < y1 else { return }
        if let picture, picture === base, let kept = picture.keptPixels {
            // A run in the picture's kept pixels is copied from there at once.
            // (A loop of its own: the test for the picture inside the copy
            // loop would cost every run.)
            let runs = self.runs, bpp = self.bpp
            copyRuns(y0..<y1, rect.minX, rect.maxX, on: surface) { y, a, b, x0, k, row in
                let under = Int(runs[k].under)
                if under >= 0 {
                    (row + a &* bpp).copyMemory(from: kept + (under &+ (a &- x0) &* bpp), byteCount: (b &- a) &* bpp)
                } else {
                    picture.restoreRow(y, columns: a..<b, into: row)
                }
            }
        } else if let picture {
            copyRuns(y0..<y1, rect.minX, rect.maxX, on: surface) { y, a, b, _, _, row in
                picture.restoreRow(y, columns: a..<b, into: row)
            }
        } else {
            let pixels = self.pixels, bpp = self.bpp
            let runs = self.runs
            copyRuns(y0..<y1, rect.minX, rect.maxX, on: surface) { _, a, b, x0, k, row in
                let offset = Int(runs[k].offset)
                (row + a &* bpp).copyMemory(from: pixels + (offset &+ (a &- x0) &* bpp), byteCount: (b &- a) &* bpp)
            }
        }
    }

    /// Copies onto `surface` the pixels of the kept runs within `rect`: the
    /// runs' own where their centres lie in `sector`, `picture`'s (the static
    /// one) elsewhere.
    func copyRuns(in rect: IntRect, on surface: Surface, split sector: ArcSector, over picture: StaticPicture) {
        let y0 = max(rect.minY, frame.minY), y1 = min(rect.maxY, frame.maxY)
        guard y0 < y1 else { return }
        let pixels = self.pixels, bpp = self.bpp
        let runs = self.runs
        copyRuns(y0..<y1, rect.minX, rect.maxX, on: surface) { y, a, b, x0, k, row in
            let offset = Int(runs[k].offset)
            // The pieces between the row's cuts each lie on one side (their
            // middle pixel tells which). `ArcSector.forEachRun` splits a row
            // the same way, but its closure costs the default ring's update
            // more, so the pieces are copied here.
            let cuts = sector.cuts(row: y)
            var from = a
            @inline(__always) func piece(to end: Int) {
                let to = min(end, b)
                guard to > from else { return }
                if sector.contains(columns: from, to, row: y) {
                    (row + from &* bpp).copyMemory(
                        from: pixels + (offset &+ (from &- x0) &* bpp), byteCount: (to &- from) &* bpp)
                } else {
                    picture.restoreRow(y, columns: from..<to, into: row)
                }
                from = to
            }
            piece(to: cuts.0)
            piece(to: cuts.1)
            piece(to: cuts.2)
            piece(to: b)
        }
    }

    /// The parts within columns lo ..< hi of the runs of rows `rows`, to `copy`
    /// (row, columns a ..< b, the run's first column and index, and the
    /// surface row's address). The loop's values in locals: read through
    /// `self`, they were loaded again after every copy.
    @inline(__always)
    private func copyRuns(
        _ rows: Range<Int>, _ lo: Int, _ hi: Int, on surface: Surface,
        _ copy: (Int, Int, Int, Int, Int, UnsafeMutableRawPointer) -> Void
    ) {
        let rowStarts = self.rowStarts, runs = self.runs, minY = frame.minY, stride = surface.stride
        var row = surface.row(rows.lowerBound)
        var k = Int(rowStarts[rows.lowerBound &- minY])
        for y in rows {
            // A row's runs lie left to right.
            let end = Int(rowStarts[y &- minY &+ 1])
            while k < end {
                let run = runs[k]
                let x0 = Int(run.x0), x1 = Int(run.x1)
                if x0 >= hi { break }
                k &+= 1
                if x1 <= lo { continue }
                copy(y, max(x0, lo), min(x1, hi), x0, k &- 1, row)
            }
            k = end
            row += stride
        }
    }

    /// Puts the whole-arc picture back over `columns` of row `y`: the kept
    /// pixels, and `picture` (the static one) between them.
    func restoreRow(_ y: Int, columns: Range<Int>, on surface: Surface, over picture: StaticPicture) {
        guard y >= frame.minY && y < frame.maxY else {
            return picture.restoreRow(y, columns: columns, on: surface)
        }
        let row = surface.row(y)
        var x = columns.lowerBound
        let r = y &- frame.minY
        for k in Int(rowStarts[r])..<Int(rowStarts[r &+ 1]) {
            let run = runs[k]
            let lo = max(Int(run.x0), x), hi = min(Int(run.x1), columns.upperBound)
            if lo >= hi { continue }
            if x < lo { picture.restoreRow(y, columns: x..<lo, into: row) }
            let offset: Int = Int(run.offset) &+ (lo &- Int(run.x0)) &* bpp
            let source = pixels + offset
            (row + lo &* bpp).copyMemory(from: source, byteCount: (hi &- lo) &* bpp)
            x = hi
        }
        if x < columns.upperBound { picture.restoreRow(y, columns: x..<columns.upperBound, into: row) }
    }
}

/// One gauge's frame with the background and the gauge's static layer, in a
/// surface format, as drawn for one static key. Only the box around what
/// differs from the background is kept (a ring filling the screen needs its
/// square, not the screen); the rest is cleared to the background again, as a
/// full redraw does.
final class StaticPicture {
    let frame: IntRect
    let format: PixelFormat
    let key: AnyHashable
    /// The part of the frame that is not plain background, and its pixels.
    let extent: IntRect
    private let image: Image?
    /// A row of the frame cleared to the background, as `Canvas.clear` paints it.
    private let backgroundLine: Image
    /// The first rows of `image` and `backgroundLine` (kept alive by them), and
    /// the image's stride: what `restoreRow` reads, without touching the images.
    private let pixels: UnsafeRawPointer?
    private let pixelStride: Int
    private let backgroundRow: UnsafeRawPointer

    /// Keeps the static layer that `canvas`'s surface now shows in `frame`
    /// (drawn over the frame cleared to `background`).
    init(of frame: IntRect, on canvas: Canvas, background: Color, key: AnyHashable) {
        let surface = canvas.surface
        self.frame = frame
        format = surface.format
        self.key = key
        extent = Self.inkedBox(of: frame, on: canvas, background: background)
        image = extent.isEmpty ? nil : Image(width: extent.width, height: extent.height, format: format)
        if let image { Self.copyRows(extent.height, from: surface.subsurface(extent), to: image.surface) }
        backgroundLine = Image(width: max(1, frame.width), height: 1, format: format)
        Canvas(surface: backgroundLine.surface).clear(background)
        pixels = image.map { UnsafeRawPointer($0.surface.base) }
        pixelStride = image?.surface.stride ?? 0
        backgroundRow = UnsafeRawPointer(backgroundLine.surface.base)
    }

    /// Puts the picture back over `rect` (screen coordinates, within the frame).
    func restore(_ rect: IntRect, on canvas: Canvas, background: Color) {
        let rect = rect.intersection(frame)
        for part in rect.subtracting(extent) { canvas.withClip(part) { canvas.clear(background) } }
        let inked = rect.intersection(extent)
        guard let image, !inked.isEmpty else { return }
        let local = IntRect(x: inked.x - extent.x, y: inked.y - extent.y, width: inked.width, height: inked.height)
        Self.copyRows(inked.height, from: image.surface.subsurface(local), to: canvas.surface.subsurface(inked))
    }

    /// Where `rect`'s first pixel lies in the kept pixels (bytes from
    /// `keptPixels`), when `rect` lies in them.
    func offset(of rect: IntRect) -> Int? {
        guard pixels != nil, extent.contains(rect) else { return nil }
        return (rect.minY - extent.minY) * pixelStride + (rect.minX - extent.minX) * format.bytesPerPixel
    }

    /// The first kept pixel (nil when none is kept).
    var keptPixels: UnsafeRawPointer? { pixels }

    /// The pixels kept, and a background row.
    var bytes: Int { (extent.area + frame.width) * format.bytesPerPixel }

    /// Puts the picture back over `columns` of row `y` (within the frame).
    func restoreRow(_ y: Int, columns: Range<Int>, on surface: Surface) {
        restoreRow(y, columns: columns, into: surface.row(y))
    }

    /// `restoreRow` into the row whose column 0 is at `row`.
    // (Wrapping arithmetic: the values are pixel coordinates within the
    // screen; the checked forms cost a branch each in the repaint's row loop.)
    func restoreRow(_ y: Int, columns: Range<Int>, into row: UnsafeMutableRawPointer) {
        let bpp = format.bytesPerPixel
        var x = columns.lowerBound
        if let pixels, y >= extent.minY && y < extent.maxY {
            let lo = max(x, extent.minX), hi = min(columns.upperBound, extent.maxX)
            if lo < hi {
                if x < lo { (row + x &* bpp).copyMemory(from: backgroundRow, byteCount: (lo &- x) &* bpp) }
                let offset: Int = (y &- extent.minY) &* pixelStride &+ (lo &- extent.minX) &* bpp
                let source = pixels + offset
                (row + lo &* bpp).copyMemory(from: source, byteCount: (hi &- lo) &* bpp)
                x = hi
            }
        }
        if x < columns.upperBound {
            (row + x &* bpp).copyMemory(from: backgroundRow, byteCount: (columns.upperBound &- x) &* bpp)
        }
    }

    /// The box around the pixels of `frame` that differ from the background as
    /// `clear` paints it; each row is compared with a cleared copy of itself
    /// and then put back.
    private static func inkedBox(of frame: IntRect, on canvas: Canvas, background: Color) -> IntRect {
        let surface = canvas.surface
        let bpp = surface.format.bytesPerPixel
        let saved = UnsafeMutableRawPointer.allocate(byteCount: max(1, frame.width * bpp), alignment: 16)
        defer { saved.deallocate() }
        var box: IntRect?
        for y in frame.minY..<frame.maxY {
            let row = surface.row(y) + frame.x * bpp
            saved.copyMemory(from: row, byteCount: frame.width * bpp)
            canvas.withClip(IntRect(x: frame.x, y: y, width: frame.width, height: 1)) { canvas.clear(background) }
            if memcmp(row, saved, frame.width * bpp) != 0 {
                var first = 0, last = frame.width - 1
                while memcmp(row + first * bpp, saved + first * bpp, bpp) == 0 { first += 1 }
                while memcmp(row + last * bpp, saved + last * bpp, bpp) == 0 { last -= 1 }
                let inked = IntRect(x: frame.x + first, y: y, width: last - first + 1, height: 1)
                box = box.map { $0.union(inked) } ?? inked
                row.copyMemory(from: saved, byteCount: frame.width * bpp)
            }
        }
        return box ?? IntRect(x: frame.x, y: frame.y, width: 0, height: 0)
    }

    private static func copyRows(_ rows: Int, from source: Surface, to destination: Surface) {
        let bytes = source.width * source.format.bytesPerPixel
        for y in 0..<rows {
            destination.row(y).copyMemory(from: source.row(y), byteCount: bytes)
        }
    }
}

extension IntRect {
    /// The parts of this rectangle outside `other`: up to four rectangles
    /// (above, below, left and right of it), not overlapping.
    func subtracting(_ other: IntRect) -> [IntRect] {
        let o = intersection(other)
        if o.isEmpty { return isEmpty ? [] : [self] }
        return [
            IntRect(minX: minX, minY: minY, maxX: maxX, maxY: o.minY),
            IntRect(minX: minX, minY: o.maxY, maxX: maxX, maxY: maxY),
            IntRect(minX: minX, minY: o.minY, maxX: o.minX, maxY: o.maxY),
            IntRect(minX: o.maxX, minY: o.minY, maxX: maxX, maxY: o.maxY),
        ].filter { !$0.isEmpty }
    }
}
