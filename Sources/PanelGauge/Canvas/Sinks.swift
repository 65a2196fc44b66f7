/// Span sinks that apply a paint to one pixel format: the join between the
/// rasterizer's coverage and the blenders.

/// A solid colour: `alpha` (0...255) times coverage.
struct SolidSink<B: PixelBlender>: SpanSink {
    let base: UnsafeMutableRawPointer
    let stride: Int
    let color: UInt32
    let alpha: UInt32
    let quadSource: B.QuadSource
    /// `alpha` in every 16-bit lane (for `blendQuad`).
    let alphas: SIMD8<UInt16>
    /// The last run's blend (`blendRun`).
    var runMemo = RunMemo()

    init(base: UnsafeMutableRawPointer, stride: Int, color: UInt32, alpha: UInt32) {
        self.base = base
        self.stride = stride
        self.color = color
        self.alpha = alpha
        quadSource = B.quadSource(color)
        alphas = SIMD8(repeating: UInt16(truncatingIfNeeded: alpha))
    }

    @inline(__always)
    mutating func blendSpan(y: Int, x: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        let row = base + y * stride
        if alpha == 255 {
            B.blend(row: row, x: x, count: count, color: color, alphas: coverage)
        } else {
            B.blend(row: row, x: x, count: count, color: color, alpha: alpha, coverage: coverage)
        }
    }

    /// The paint's alpha times `coverage`.
    @inline(__always)
    private func alpha(times coverage: UInt8) -> UInt32 {
        alpha == 255 ? UInt32(coverage) : div255(UInt32(coverage) &* alpha)
    }

    @inline(__always)
    mutating func blendRun(y: Int, x: Int, count: Int, coverage: UInt8) {
        B.blend(row: rowAddress(y), x: x, count: count, color: color, alpha: alpha(times: coverage), memo: &runMemo)
    }

    static var takesPixels: Bool { true }

    @inline(__always)
    mutating func blendPixel(y: Int, x: Int, coverage: UInt8) {
        let a = alpha(times: coverage)
        if a != 0 { B.blendPixel(row: rowAddress(y), x: x, color: color, alpha: a) }
    }

    @inline(__always)
    func rowAddress(_ y: Int) -> UnsafeMutableRawPointer { base + y &* stride }

    @inline(__always)
    mutating func blendQuad(row: UnsafeMutableRawPointer, x: Int, coverage: SIMD4<UInt32>) {
        var a = unsafeBitCast(coverage | coverage &<< 16, to: SIMD8<UInt16>.self)
        if alpha != 255 { a = div255(a &* alphas) }
        B.blendQuad(row: row, x: x, source: quadSource, alphas: a)
    }
}

/// A shader (gradient): per-pixel colours times coverage.
struct ShaderSink<B: PixelBlender, S: Shader>: SpanSink {
    let base: UnsafeMutableRawPointer
    let stride: Int
    var shader: S
    let colors: UnsafeMutablePointer<UInt32>
    /// Every colour the shader gives has alpha 255.
    let opaque: Bool

    @inline(__always)
    mutating func blendSpan(y: Int, x: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        shader.shade(y: y, x: x, count: count, into: colors)
        B.blend(
            row: base + y * stride, y: y, x: x, count: count, colors: colors, coverage: coverage,
            constantCoverage: 0, opaque: opaque)
    }

    @inline(__always)
    mutating func blendRun(y: Int, x: Int, count: Int, coverage: UInt8) {
        shader.shade(y: y, x: x, count: count, into: colors)
        B.blend(
            row: base + y * stride, y: y, x: x, count: count, colors: colors, coverage: nil,
            constantCoverage: UInt32(coverage), opaque: opaque)
    }
}
