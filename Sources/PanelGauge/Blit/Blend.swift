/// Exact integer compositing on 8-bit values.

/// `round(x / 255)` for x in 0 ... 255 * 255 + 127, exactly (Blinn's method).
@inline(__always)
func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
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
