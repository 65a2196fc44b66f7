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
}

/// How overlapping parts of a filled path combine.
public enum FillRule: Sendable, Hashable {
    /// Inside where the winding number is not zero (union of all contours of the same direction).
    case nonZero
    /// Inside where an odd number of contours overlap.
    case evenOdd
}
