/// Where the scan converter delivers coverage: the one protocol between shapes
/// and pixels. A sink never knows the shape; the rasterizer never knows the
/// pixel format or the paint.
///
/// Coverage is 0...255 (255 = pixel fully inside). Spans arrive row by row, left
/// to right within a row, never overlapping, always inside the clip rectangle.
protocol SpanSink {
    /// Pixels `x ..< x + count` of row `y`, pixel `x + i` with coverage `coverage[i]`.
    mutating func blendSpan(y: Int, x: Int, count: Int, coverage: UnsafePointer<UInt8>)
    /// Pixels `x ..< x + count` of row `y`, all with the same coverage (> 0).
    mutating func blendRun(y: Int, x: Int, count: Int, coverage: UInt8)
    /// True when the sink composites single pixels as cheaply as spans (a solid
    /// paint): the banded sweep then hands it each edge pixel as it computes it
    /// (`blendPixel`) instead of gathering spans. Sinks that shade along a span
    /// say false.
    static var takesPixels: Bool { get }
    /// Pixel (x, y) with coverage `coverage` (> 0).
    mutating func blendPixel(y: Int, x: Int, coverage: UInt8)
    /// The address of row `y`'s pixel 0, for `blendQuad` (sinks that take pixels).
    func rowAddress(_ y: Int) -> UnsafeMutableRawPointer
    /// Pixels `x ..< x + 4` of the row at `row` (from `rowAddress`, computed
    /// once per row), lane i with coverage `coverage[i]` (0...255; 0 leaves the
    /// pixel alone). Only for sinks that take pixels; all four pixels lie
    /// inside the clip.
    mutating func blendQuad(row: UnsafeMutableRawPointer, x: Int, coverage: SIMD4<UInt32>)
    /// True when the sink shades a span straight into the surface (an opaque
    /// shader over a format that holds its colours): the banded sweep then
    /// hands it each edge quad (`stashQuad`) before the span the quad lies in
    /// (`shadeSpan`), which takes every pixel between those quads as wholly
    /// covered; runs of partial coverage still come as runs. Such a sink also
    /// takes `blendSpan`, from the other sweeps.
    static var shadesInPlace: Bool { get }
    /// Pixels `x ..< x + count` (count <= 4, inside the clip) of the row at
    /// `row`, lane i with coverage `coverage[i]` (0...255), for the next
    /// `shadeSpan`, which holds them. Only for sinks that shade in place.
    mutating func stashQuad(row: UnsafeMutableRawPointer, x: Int, count: Int, coverage: SIMD4<UInt32>)
    /// Pixels `x ..< x + count` of row `y`: the quads stashed since the last
    /// span with their coverage, the others wholly covered. Only for sinks
    /// that shade in place.
    mutating func shadeSpan(y: Int, x: Int, count: Int)
}

extension SpanSink {
    static var takesPixels: Bool { false }

    mutating func blendPixel(y: Int, x: Int, coverage: UInt8) {
        blendRun(y: y, x: x, count: 1, coverage: coverage)
    }

    func rowAddress(_ y: Int) -> UnsafeMutableRawPointer {
        preconditionFailure("only sinks that take pixels have quads")
    }

    mutating func blendQuad(row: UnsafeMutableRawPointer, x: Int, coverage: SIMD4<UInt32>) {
        preconditionFailure("only sinks that take pixels have quads")
    }

    static var shadesInPlace: Bool { false }

    mutating func stashQuad(row: UnsafeMutableRawPointer, x: Int, count: Int, coverage: SIMD4<UInt32>) {
        preconditionFailure("only sinks that shade in place stash quads")
    }

    mutating func shadeSpan(y: Int, x: Int, count: Int) {
        preconditionFailure("only sinks that shade in place shade spans")
    }
}

/// How overlapping parts of a filled path combine.
public enum FillRule: Sendable, Hashable {
    /// Inside where the winding number is not zero (union of all contours of the same direction).
    case nonZero
    /// Inside where an odd number of contours overlap.
    case evenOdd
}
