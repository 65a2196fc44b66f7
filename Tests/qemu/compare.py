#!/usr/bin/env python3
"""Compare two images pixel for pixel: PNG (8-bit gray/RGB/RGBA, any filter) or PPM (P6).

usage: compare.py EXPECTED ACTUAL [--rotate 0|90|180|270] [--expect-different]

--rotate turns EXPECTED clockwise first (a logical picture shown on a rotated
panel: logical top-left lands at the panel's top-right for 90). Exit 0 when the
images are equal (or, with --expect-different, when they differ); otherwise
exit 1 and print how many pixels differ and the first few, with both colours.
Only the standard library: zlib for PNG's IDAT stream.
"""
import struct
import sys
import zlib


def read_ppm(data):
    # P6 <ws> width <ws> height <ws> maxval <single ws> raster; comments start with '#'.
    fields, i = [], 2
    while len(fields) < 3:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while data[i:i + 1] not in (b"\n", b""):
                i += 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(int(data[i:j]))
        i = j
    w, h, maxval = fields
    if maxval != 255:
        raise ValueError("PPM maxval %d is not supported" % maxval)
    raster = data[i + 1:i + 1 + w * h * 3]
    if len(raster) != w * h * 3:
        raise ValueError("PPM raster is truncated")
    return w, h, bytes(raster)


def read_png(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    i, idat, ihdr = 8, b"", None
    while i < len(data):
        length, kind = struct.unpack(">I4s", data[i:i + 8])
        body = data[i + 8:i + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        i += 12 + length
    w, h, depth, ctype, _, _, interlace = ihdr
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(ctype)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError("PNG depth %d colour type %d interlace %d is not supported" % (depth, ctype, interlace))
    raw, bpp, stride = zlib.decompress(idat), channels, w * channels
    out, prev, pos = bytearray(), bytearray(stride), 0
    for _ in range(h):
        f, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        out += line
        prev = line
    rgb = bytearray()
    for k in range(0, len(out), channels):
        if channels >= 3:
            rgb += out[k:k + 3]
        else:
            rgb += bytes([out[k]]) * 3
    return w, h, bytes(rgb)


def read_image(path):
    with open(path, "rb") as f:
        data = f.read()
    return read_png(data) if data[:4] == b"\x89PNG" else read_ppm(data) if data[:2] == b"P6" else None


def rotate(w, h, rgb, degrees):
    """Turns the picture clockwise; returns the new (w, h, rgb)."""
    if degrees == 0:
        return w, h, rgb
    nw, nh = (h, w) if degrees in (90, 270) else (w, h)
    out = bytearray(len(rgb))
    for y in range(h):
        for x in range(w):
            if degrees == 90:
                px, py = h - 1 - y, x
            elif degrees == 180:
                px, py = w - 1 - x, h - 1 - y
            else:
                px, py = y, w - 1 - x
            s, d = (y * w + x) * 3, (py * nw + px) * 3
            out[d:d + 3] = rgb[s:s + 3]
    return nw, nh, bytes(out)


def main(argv):
    args, rot, expect_diff = [], 0, False
    it = iter(argv)
    for a in it:
        if a == "--rotate":
            rot = int(next(it))
        elif a == "--expect-different":
            expect_diff = True
        else:
            args.append(a)
    if len(args) != 2 or rot not in (0, 90, 180, 270):
        print(__doc__, file=sys.stderr)
        return 2
    expected, actual = read_image(args[0]), read_image(args[1])
    if expected is None or actual is None:
        print("compare: cannot read %s" % (args[0] if expected is None else args[1]))
        return 1
    ew, eh, e = rotate(*expected, rot)
    aw, ah, a = actual
    if (ew, eh) != (aw, ah):
        print("compare: size differs: expected %dx%d, actual %dx%d" % (ew, eh, aw, ah))
        return 0 if expect_diff else 1
    diffs = [k // 3 for k in range(0, len(e), 3) if e[k:k + 3] != a[k:k + 3]]
    if expect_diff:
        if diffs:
            print("compare: %d of %d pixels differ, as expected" % (len(diffs), aw * ah))
            return 0
        print("compare: the images are identical, but they should differ")
        return 1
    if not diffs:
        print("compare: all %d pixels equal" % (aw * ah))
        return 0
    print("compare: %d of %d pixels differ; first ones (x,y expected -> actual):" % (len(diffs), aw * ah))
    for p in diffs[:10]:
        x, y = p % aw, p // aw
        print("  (%d,%d) #%s -> #%s" % (x, y, e[p * 3:p * 3 + 3].hex(), a[p * 3:p * 3 + 3].hex()))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
