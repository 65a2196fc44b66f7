/// Where the scan converter delivers coverage: the one protocol between shapes
/// and pixels. A sink never knows the shape; the rasterizer never knows the
/// pixel format or the paint.
///
/// Coverage is 0...255 (255 = pixel fully inside). Spans arrive row by row, left
/// to right within a row, never overlapping, always inside the clip rectangle.
///
/// Every sink takes spans and runs. Two kinds take more, each its own protocol
/// with nothing optional: ``QuadSink`` (single pixels and quads, for solid
/// paints) and ``InPlaceShadingSink`` (spans shaded straight into the
/// surface). The kind picks how the banded sweep delivers a row
/// (`sweepBandRow`), in one place.
protocol SpanSink {
    /// Pixels `x ..< x + count` of row `y`, pixel `x + i` with coverage `coverage[i]`.
    mutating func blendSpan(y: Int, x: Int, count: Int, coverage: UnsafePointer<UInt8>)
    /// Pixels `x ..< x + count` of row `y`, all with the same coverage (> 0).
    mutating func blendRun(y: Int, x: Int, count: Int, coverage: UInt8)
    /// Delivers band row `row` (surface row `y`) of `band` to `sink`, and clears
    /// it: the banded sweep's choice of path for this kind of sink. The
    /// extensions below give each kind its sweep; a sink does not write it.
    static func sweepBandRow(
        _ band: inout DenseBand, _ row: Int, y: Int, buffer: UnsafeMutablePointer<UInt8>, into sink: inout Self)
}

extension SpanSink {
    /// Spans of per-pixel coverage gathered in `buffer`.
    @inline(__always)
    static func sweepBandRow(
        _ band: inout DenseBand, _ row: Int, y: Int, buffer: UnsafeMutablePointer<UInt8>, into sink: inout Self
    ) {
        band.sweepRowSpans(row, y: y, buffer: buffer, into: &sink)
    }
}

/// A sink that composites single pixels and quads as cheaply as spans (a solid
/// paint): the banded sweep hands it each edge quad as it computes it instead
/// of gathering spans.
protocol QuadSink: SpanSink {
    /// Pixel (x, y) with coverage `coverage` (> 0).
    mutating func blendPixel(y: Int, x: Int, coverage: UInt8)
    /// The address of row `y`'s pixel 0, for `blendQuad`.
    func rowAddress(_ y: Int) -> UnsafeMutableRawPointer
    /// Pixels `x ..< x + 4` of the row at `row` (from `rowAddress`, computed
    /// once per row), lane i with coverage `coverage[i]` (0...255; 0 leaves the
    /// pixel alone). All four pixels lie inside the clip.
    mutating func blendQuad(row: UnsafeMutableRawPointer, x: Int, coverage: SIMD4<UInt32>)
}

extension QuadSink {
    /// Quads blended as they are read.
    @inline(__always)
    static func sweepBandRow(
        _ band: inout DenseBand, _ row: Int, y: Int, buffer: UnsafeMutablePointer<UInt8>, into sink: inout Self
    ) {
        band.sweepRowQuads(row, y: y, into: &sink)
    }
}

/// A sink that shades a span straight into the surface (an opaque shader over
/// a format that holds its colours): the banded sweep hands it each edge quad
/// (`stashQuad`) before the span the quad lies in (`shadeSpan`), which takes
/// every pixel between those quads as wholly covered; runs of partial
/// coverage still come as runs, and the other sweeps' spans as spans.
protocol InPlaceShadingSink: SpanSink {
    /// The address of row `y`'s pixel 0, for `stashQuad`.
    func rowAddress(_ y: Int) -> UnsafeMutableRawPointer
    /// Pixels `x ..< x + count` (count <= 4, inside the clip) of the row at
    /// `row`, lane i with coverage `coverage[i]` (0...255), for the next
    /// `shadeSpan`, which holds them.
    mutating func stashQuad(row: UnsafeMutableRawPointer, x: Int, count: Int, coverage: SIMD4<UInt32>)
    /// Pixels `x ..< x + count` of row `y`: the quads stashed since the last
    /// span with their coverage, the others wholly covered.
    mutating func shadeSpan(y: Int, x: Int, count: Int)
}

extension InPlaceShadingSink {
    /// Spans shaded in place, edge quads stashed for them.
    @inline(__always)
    static func sweepBandRow(
        _ band: inout DenseBand, _ row: Int, y: Int, buffer: UnsafeMutablePointer<UInt8>, into sink: inout Self
    ) {
        band.sweepRowInPlace(row, y: y, into: &sink)
    }
}

/// How overlapping parts of a filled path combine.
public enum FillRule: Sendable, Hashable {
    /// Inside where the winding number is not zero (union of all contours of the same direction).
    case nonZero
    /// Inside where an odd number of contours overlap.
    case evenOdd
}
