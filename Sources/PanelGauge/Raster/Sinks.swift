/// Span sinks that apply a paint to one pixel format: the join between the
/// rasterizer's coverage and the blenders.

/// A solid colour: `alpha` (0...255) times coverage.
struct SolidSink<B: PixelBlender>: QuadSink {
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
        let row = base + y &* stride
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
            row: base + y &* stride, y: y, x: x, count: count, colors: colors, coverage: coverage,
            constantCoverage: 0, opaque: opaque)
    }

    @inline(__always)
    mutating func blendRun(y: Int, x: Int, count: Int, coverage: UInt8) {
        shader.shade(y: y, x: x, count: count, into: colors)
        B.blend(
            row: base + y &* stride, y: y, x: x, count: count, colors: colors, coverage: nil,
            constantCoverage: UInt32(coverage), opaque: opaque)
    }
}

/// An edge quad an in-place span holds until it is shaded: the pixels under
/// it and their coverage (see `InPlaceShaderSink`).
struct StashedQuad {
    var under: SIMD4<UInt32>
    var coverage: SIMD4<UInt32>
    var x: Int
    var count: Int
}

/// An opaque shader over XRGB8888, whose pixels hold the shader's colours as
/// they are: the banded sweep's spans are shaded straight into the surface,
/// then the edge quads stashed for the span are blended from what was under
/// them to the colours shaded over them. A covered pixel is written once, not
/// shaded into `colors` and copied. The other sweeps' spans and the runs of
/// partial coverage go through `colors`, as a `ShaderSink` takes them.
struct InPlaceShaderSink<S: Shader>: InPlaceShadingSink {
    /// The colour buffer's way, and the shader both ways use.
    var buffered: ShaderSink<XRGB8888Blender, S>
    /// The surface's width.
    let width: Int
    /// Room for a row's quads (a quarter of the clip's width, plus one).
    let stash: UnsafeMutablePointer<StashedQuad>
    var stashed = 0
    /// Spans shaded (for tests).
    var spans = 0

    init(buffered: ShaderSink<XRGB8888Blender, S>, width: Int, stash: UnsafeMutablePointer<StashedQuad>) {
        self.buffered = buffered
        self.width = width
        self.stash = stash
    }

    @inline(__always)
    func rowAddress(_ y: Int) -> UnsafeMutableRawPointer { buffered.base + y &* buffered.stride }

    @inline(__always)
    mutating func blendSpan(y: Int, x: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        buffered.blendSpan(y: y, x: x, count: count, coverage: coverage)
    }

    @inline(__always)
    mutating func blendRun(y: Int, x: Int, count: Int, coverage: UInt8) {
        buffered.blendRun(y: y, x: x, count: count, coverage: coverage)
    }

    @inline(__always)
    mutating func stashQuad(row: UnsafeMutableRawPointer, x: Int, count: Int, coverage: SIMD4<UInt32>) {
        let p = row.assumingMemoryBound(to: UInt32.self) + x
        var under = SIMD4<UInt32>()
        if count == 4 {
            // A wholly covered quad takes the shaded colours as they are.
            let partial = unsafeBitCast(coverage ^ 255, to: SIMD2<UInt64>.self)
            if partial[0] | partial[1] == 0 { return }
            under = UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt32>.self)
        } else {
            if count <= 0 { return }
            for i in 0..<count { under[i] = p[i] }
        }
        stash[stashed] = StashedQuad(under: under, coverage: coverage, x: x, count: count)
        stashed &+= 1
    }

    @inline(__always)
    mutating func shadeSpan(y: Int, x: Int, count: Int) {
        let row = rowAddress(y).assumingMemoryBound(to: UInt32.self)
        let end = x &+ count
        if end &+ 4 <= width {
            // The shader may write three past the end: the four pixels there
            // are put back (none of them is drawn yet).
            let tail = UnsafeMutableRawPointer(row + end)
            let kept = tail.loadUnaligned(as: SIMD4<UInt32>.self)
            buffered.shader.shade(y: y, x: x, count: count, into: row + x)
            tail.storeBytes(of: kept, as: SIMD4<UInt32>.self)
        } else {
            buffered.shader.shadeExactly(y: y, x: x, count: count, into: row + x)
        }
        for i in 0..<stashed {
            let q = stash[i]
            let p = row + q.x
            if q.count == 4 {
                let raw = UnsafeMutableRawPointer(p)
                let shaded = raw.loadUnaligned(as: SIMD4<UInt32>.self)
                let alphas = unsafeBitCast(q.coverage | q.coverage &<< 16, to: SIMD8<UInt16>.self)
                raw.storeBytes(of: blendXRGB(q.under, shaded, alphas), as: SIMD4<UInt32>.self)
            } else {
                for k in 0..<q.count {
                    let a = q.coverage[k]
                    // (Coverage 255 keeps the shaded colour, whose top byte is 0xFF.)
                    if a == 0 {
                        p[k] = q.under[k]
                    } else if a != 255 {
                        p[k] = blendXRGB(q.under[k], p[k] & 0xFF_FFFF, a)
                    }
                }
            }
        }
        stashed = 0
        spans &+= 1
    }
}

/// Coverage summed in an 8-bit mask, at most 255 (`Canvas.fillPieces`):
/// the mask's top-left pixel is (x, y). Pieces that share no area add up to
/// the coverage of their union. Each row keeps the columns it was given
/// coverage in (`rowStart..<rowEnd`, relative to x), so only those are composited.
struct SumMaskSink: SpanSink {
    let mask: UnsafeMutablePointer<UInt8>
    let pitch: Int
    let x: Int
    let y: Int
    /// Per mask row, the first column given coverage (`pitch` for none) and one past the last.
    let rowStart: UnsafeMutablePointer<Int>
    let rowEnd: UnsafeMutablePointer<Int>

    private func note(_ row: Int, _ from: Int, _ count: Int) {
        if from < rowStart[row] { rowStart[row] = from }
        if from &+ count > rowEnd[row] { rowEnd[row] = from &+ count }
    }

    mutating func blendSpan(y: Int, x: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        let r = y &- self.y, c = x &- self.x
        note(r, c, count)
        let row = mask + r &* pitch + c
        for i in 0..<count { row[i] = UInt8(min(255, Int(row[i]) &+ Int(coverage[i]))) }
    }

    mutating func blendRun(y: Int, x: Int, count: Int, coverage: UInt8) {
        let r = y &- self.y, c = x &- self.x
        note(r, c, count)
        let row = mask + r &* pitch + c
        for i in 0..<count { row[i] = UInt8(min(255, Int(row[i]) &+ Int(coverage))) }
    }
}
