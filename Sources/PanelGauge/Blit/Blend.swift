/// Exact integer compositing on 8-bit values.

/// `round(x / 255)` for x in 0 ... 255 * 255 + 127, exactly (Blinn's method).
@inline(__always)
func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}

/// `div255` in every lane, for x <= 255 * 255.
@inline(__always)
func div255(_ x: SIMD4<UInt32>) -> SIMD4<UInt32> {
    let t = x &+ 128
    return (t &+ (t &>> 8)) &>> 8
}

/// Source-over of the colour `src` (0x00RRGGBB) onto `dst` with alpha `a`
/// (0...255), every channel `round((src * a + dst * (255 - a)) / 255)`.
/// Red and blue are computed side by side in one word (each lane stays below
/// 2^16, so lanes never carry into each other).
@inline(__always)
func blendXRGB(_ dst: UInt32, _ src: UInt32, _ a: UInt32) -> UInt32 {
    let ia = 255 &- a
    var rb = (src & 0xFF00FF) &* a &+ (dst & 0xFF00FF) &* ia &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0xFF00FF)) >> 8) & 0xFF00FF
    var g = ((src >> 8) & 0xFF) &* a &+ ((dst >> 8) & 0xFF) &* ia &+ 0x80
    g = ((g &+ (g >> 8)) >> 8) & 0xFF
    return 0xFF00_0000 | rb | g << 8
}

/// Bytes `i ..< i + 4` of `c` as one word, little-endian (byte i lowest).
@inline(__always)
func fourBytes(_ c: UnsafePointer<UInt8>, _ i: Int) -> UInt32 {
    UInt32(littleEndian: UnsafeRawPointer(c + i).loadUnaligned(as: UInt32.self))
}

/// The bytes of the last `n` (1 ... 3) of four little-endian byte lanes.
@inline(__always)
func lastLanes(_ n: Int) -> UInt32 { UInt32.max << (32 &- 8 &* n) }

/// Calls `step(i, lanes)` for the pixels `0 ..< count` (count >= 4) four at a
/// time: i = 0, 4, 8, ... with `lanes` all ones, and if one to three pixels are
/// left, once more for the four that end the run, with `lanes` the byte mask of
/// the pixels not done yet (a step gives the others alpha 0).
@inline(__always)
func forEachQuad(_ count: Int, _ step: (_ i: Int, _ lanes: UInt32) -> Void) {
    var i = 0
    while i &+ 4 <= count {
        step(i, 0xFFFF_FFFF)
        i &+= 4
    }
    if i < count { step(count &- 4, lastLanes(count &- i)) }
}

/// Four 8-bit values, one per pixel, each repeated in both 16-bit halves of its
/// pixel's 32-bit lane: the multiplier layout `blendXRGB(_:_:_:)` (four pixels)
/// needs. `bytes` holds the values little-endian (pixel 0 in the low byte). The
/// lane-by-lane form compiles to two unpack instructions.
@inline(__always)
func spreadBytes(_ bytes: UInt32) -> SIMD8<UInt16> {
    let v = unsafeBitCast(SIMD4<UInt32>(bytes, 0, 0, 0), to: SIMD16<UInt8>.self)
    let w = SIMD16<UInt8>(
        v[0], v[0], v[0], v[0], v[1], v[1], v[1], v[1], v[2], v[2], v[2], v[2], v[3], v[3], v[3], v[3])
    return unsafeBitCast(unsafeBitCast(w, to: SIMD4<UInt32>.self) & 0x00FF_00FF, to: SIMD8<UInt16>.self)
}

/// One 8-bit value for the pixels of a quad that `lanes` (a byte mask, see
/// `forEachQuad`) selects, 0 for the others, in the layout of `spreadBytes`.
/// (Masking the spread value instead, `splat & spreadBytes(lanes)`, compiled
/// to some eighty instructions of lane inserts.)
@inline(__always)
func spreadByte(_ value: UInt32, lanes: UInt32) -> SIMD8<UInt16> {
    spreadBytes(value &* 0x0101_0101 & lanes)
}

/// `div255` in every 16-bit lane, for x <= 255 * 255 (so x + 128 stays below 2^16).
@inline(__always)
func div255(_ x: SIMD8<UInt16>) -> SIMD8<UInt16> {
    highHalf257(x &+ 128)
}

/// (t * 257) >> 16 in every 16-bit lane: the high half of a 16-bit multiply
/// (one SSE2 `pmulhuw`, NEON `umull` and a narrowing shift). For any 16-bit t
/// it equals (t + (t >> 8)) >> 8, the rounding step of `div255`: with
/// n = t + floor(t / 256), t * 257 / 256 lies in [n, n + 1), and no multiple
/// of 256 lies strictly between n and n + 1. Three SSE2 instructions fewer
/// than the shifts and the add.
/// (Written lane by lane: the generic `init(truncatingIfNeeded:)` was left
/// as a call in large loops.)
@inline(__always)
func highHalf257(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> {
    let wide = SIMD8<UInt32>(
        UInt32(t[0]), UInt32(t[1]), UInt32(t[2]), UInt32(t[3]), UInt32(t[4]), UInt32(t[5]), UInt32(t[6]),
        UInt32(t[7]))
    let w = (wide &* 257) &>> 16
    return SIMD8<UInt16>(
        UInt16(truncatingIfNeeded: w[0]), UInt16(truncatingIfNeeded: w[1]), UInt16(truncatingIfNeeded: w[2]),
        UInt16(truncatingIfNeeded: w[3]), UInt16(truncatingIfNeeded: w[4]), UInt16(truncatingIfNeeded: w[5]),
        UInt16(truncatingIfNeeded: w[6]), UInt16(truncatingIfNeeded: w[7]))
}

/// `blendXRGB` on four pixels at once, bit for bit: pixel i is `dst[i]` under
/// `src[i]` (its top byte is ignored) with the alpha in both 16-bit halves of
/// lane i of `a` (see `spreadBytes`). Red and blue, then green and X, sit in the
/// 16-bit halves of each lane, so one 16-bit multiply (SSE2 `pmullw`) weighs
/// eight channels. Where an alpha is 0 the destination is returned unchanged,
/// X byte included, as the scalar path leaves such pixels alone.
@inline(__always)
func blendXRGB(_ dst: SIMD4<UInt32>, _ src: SIMD4<UInt32>, _ a: SIMD8<UInt16>) -> SIMD4<UInt32> {
    blendXRGB(dst, SplitXRGB(src), a)
}

/// Source pixels split for `blendXRGB`: red and blue, then green (and X), in the
/// low bytes of 16-bit lanes. A constant source is split once.
struct SplitXRGB {
    var rb: SIMD8<UInt16>
    var g: SIMD8<UInt16>

    @inline(__always)
    init(_ src: SIMD4<UInt32>) {
        let low = SIMD4<UInt32>(repeating: 0x00FF_00FF)
        rb = unsafeBitCast(src & low, to: SIMD8<UInt16>.self)
        g = unsafeBitCast((src &>> 8) & low, to: SIMD8<UInt16>.self)
    }
}

/// `blendXRGB` on four pixels with the source already split.
@inline(__always)
func blendXRGB(_ dst: SIMD4<UInt32>, _ src: SplitXRGB, _ a: SIMD8<UInt16>) -> SIMD4<UInt32> {
    let ia = a ^ 0xFF  // 255 - a, as a <= 255
    let low = SIMD4<UInt32>(repeating: 0x00FF_00FF)
    let drb = unsafeBitCast(dst & low, to: SIMD8<UInt16>.self)
    let dg = unsafeBitCast((dst &>> 8) & low, to: SIMD8<UInt16>.self)
    let srb = src.rb
    let sg = src.g
    let rb = div255(srb &* a &+ drb &* ia)
    // Green goes back to its place, 8 bits up.
    let g = div255(sg &* a &+ dg &* ia) &<< 8
    // 0xFF00_0000 where a > 0: lane i of `a` is a * 0x10001, so 0 - lane is negative.
    let nonZero = (0 &- unsafeBitCast(a, to: SIMD4<Int32>.self)) &>> 31
    let x = unsafeBitCast(nonZero, to: SIMD4<UInt32>.self) & 0xFF00_0000
    return unsafeBitCast(rb | g, to: SIMD4<UInt32>.self) | x
}
