/// Compositing into one pixel format. One conforming type per format (in its own
/// file); every method is required, so a new format cannot compile half-done.
///
/// Colours are `0x00RRGGBB` (opaque source colour) or `0xAARRGGBB`
/// (non-premultiplied, per pixel); alphas are 0...255 and already include
/// coverage. Compositing is source-over on 8-bit sRGB values, correctly rounded.
protocol PixelBlender {
    /// Source copy of an opaque colour.
    static func fill(row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32)
    /// One pixel, one colour, alpha 1...255.
    static func blendPixel(row: UnsafeMutableRawPointer, x: Int, color: UInt32, alpha: UInt32)
    /// A colour prepared for `blendQuad` (computed once per paint).
    associatedtype QuadSource
    static func quadSource(_ color: UInt32) -> QuadSource
    /// Pixels `x ..< x + 4`, one colour, pixel i with alpha (0...255; 0 leaves
    /// the pixel as it is) in both 16-bit halves of lane i of `alphas`
    /// (the layout of `spreadBytes`).
    static func blendQuad(row: UnsafeMutableRawPointer, x: Int, source: QuadSource, alphas: SIMD8<UInt16>)
    /// `blendQuad` for a quad whose four alphas are equal (a shape's inside),
    /// for a shape drawn quad by quad over mostly one colour: `memo` holds a
    /// pixel this blended and its result, and four pixels of that colour take
    /// the result without the arithmetic. A format may ignore `memo`.
    static func blendEvenQuad(
        row: UnsafeMutableRawPointer, x: Int, source: QuadSource, alphas: SIMD8<UInt16>, memo: inout EvenQuadMemo)
    /// One colour, one alpha for the whole run.
    static func blend(row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32)
    /// `blend` for the runs of one colour, one after another (a shape's
    /// rows): `memo` holds a pixel a run blended, the alpha and the result,
    /// for the next run that starts over that pixel with that alpha. A format
    /// may ignore `memo`.
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32, memo: inout RunMemo)
    /// One colour, per-pixel alphas.
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alphas: UnsafePointer<UInt8>)
    /// One colour with alpha `alpha`, times per-pixel coverage: pixel i gets alpha
    /// `div255(alpha * coverage[i])`.
    static func blend(
        row: UnsafeMutableRawPointer, x: Int, count: Int, color: UInt32, alpha: UInt32,
        coverage: UnsafePointer<UInt8>)
    /// Per-pixel colours (their alpha times `coverage[i]`, or times `constantCoverage`
    /// when `coverage` is nil). `y` lets a format dither (RGB565 does).
    /// `opaque`: every colour has alpha 255 (a format may then skip the
    /// multiply; false is always correct).
    static func blend(
        row: UnsafeMutableRawPointer, y: Int, x: Int, count: Int, colors: UnsafePointer<UInt32>,
        coverage: UnsafePointer<UInt8>?, constantCoverage: UInt32, opaque: Bool)
}

/// A pixel and what an even quad's blend made of it (see
/// `PixelBlender.blendEvenQuad`). Valid for one colour and one alpha.
struct EvenQuadMemo {
    var under: UInt32 = 0
    var over: UInt32 = 0
    var valid = false
}

/// A pixel, an alpha and what a run's blend made of the pixel (see
/// `PixelBlender.blend(row:x:count:color:alpha:memo:)`). Valid for one colour.
struct RunMemo {
    var under: UInt32 = 0
    var over: UInt32 = 0
    /// 0: nothing held (runs of alpha 0 blend nothing).
    var alpha: UInt32 = 0
}
