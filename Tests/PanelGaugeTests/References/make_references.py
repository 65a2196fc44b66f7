#!/usr/bin/env python3
"""Renders the reference images for PanelGauge's image tests from exact geometry.

Each feature folder here holds a `cases.json` (the scenes: size, background,
operations) and, written by this script, one `<case>.png` per scene. The Swift
tests render the same cases with PanelGauge and compare. This script never
runs PanelGauge: it evaluates analytic inside-tests for every shape (annular
sectors, round caps, dashes along the centre line, rounded rectangles, discs,
polygons and finely subdivided curves with a winding-number test) at a
4181-point Fibonacci lattice per pixel (samples spread in x and y, so even
axis-aligned edges resolve to 1/4181 px), composites source-over in floating
point on 8-bit sRGB values with colours of gradients taken at pixel centres, and
rounds to 8 bits once at the end.

Usage: python3 make_references.py [feature ...]   (needs numpy)
"""
import json
import math
import os
import struct
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def hexrgb(s):
    s = s.lstrip("#")
    return np.array([int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)], dtype=np.float64)


def lattice(n=4181):
    a, b = 1, 1
    while b < n:
        a, b = b, a + b
    k = np.arange(b)
    return (k + 0.5) / b, np.mod((k * a + 0.5) / b, 1.0)


# ------------------------------------------------------------------ shapes
def in_rect(px, py, x, y, w, h):
    return (px >= x) & (px <= x + w) & (py >= y) & (py <= y + h)


def in_rounded_rect(px, py, x, y, w, h, r):
    r = max(0.0, min(r, w / 2, h / 2))
    cx, cy = x + w / 2, y + h / 2
    ax, ay = np.abs(px - cx), np.abs(py - cy)
    qx, qy = np.maximum(ax - (w / 2 - r), 0), np.maximum(ay - (h / 2 - r), 0)
    return (ax <= w / 2) & (ay <= h / 2) & (qx * qx + qy * qy <= r * r)


def dash_intervals(length, dash, phase):
    if len(dash) % 2:
        dash = dash + dash
    period = sum(dash)
    off = math.fmod(phase, period)
    if off < 0:
        off += period
    i = 0
    while off >= dash[i]:
        off -= dash[i]
        i = (i + 1) % len(dash)
    u, out = -off, []
    while u < length:
        end = u + dash[i]
        if i % 2 == 0:
            a, b = max(u, 0.0), min(end, length)
            if b > a or (dash[i] == 0 and u >= 0):
                out.append((a, b))
        u = end
        i = (i + 1) % len(dash)
    return out


def in_arc(px, py, op):
    cx, cy, r, w = op["cx"], op["cy"], op["r"], op["width"]
    a0, sweep = math.radians(op["start"]), math.radians(op["sweep"])
    d = 1.0 if sweep >= 0 else -1.0
    sweep = min(abs(sweep), 2 * math.pi)
    rr = np.hypot(px - cx, py - cy)
    band = np.abs(rr - r) <= w / 2
    theta = np.arctan2(py - cy, px - cx)
    phi = np.mod(d * (theta - a0), 2 * math.pi)  # angle travelled from the start
    rnd = op.get("cap", "butt") == "round"
    if "dash" in op:
        pieces = dash_intervals(sweep * r, list(op["dash"]), op.get("phase", 0.0))
        pieces = [(u0 / r, u1 / r) for u0, u1 in pieces]
    else:
        pieces = [(0.0, sweep)]
    out = np.zeros(px.shape, dtype=bool)
    for s0, s1 in pieces:
        if s1 - s0 >= 2 * math.pi - 1e-12:
            out |= band
            continue
        out |= band & (phi >= s0) & (phi <= s1)
        if rnd:
            for s in (s0, s1):
                ex, ey = cx + r * math.cos(a0 + d * s), cy + r * math.sin(a0 + d * s)
                out |= np.hypot(px - ex, py - ey) <= w / 2
    return out


def flatten(contour):
    """contour: list of ["M",x,y] / ["L",x,y] / ["Q",cx,cy,x,y] / ["C",c1x,c1y,c2x,c2y,x,y]"""
    pts = []
    for seg in contour:
        k = seg[0]
        if k in ("M", "L"):
            pts.append((seg[1], seg[2]))
        elif k == "Q":
            p0 = pts[-1]
            for t in np.linspace(0, 1, 2001)[1:]:
                u = 1 - t
                pts.append((u * u * p0[0] + 2 * u * t * seg[1] + t * t * seg[3],
                            u * u * p0[1] + 2 * u * t * seg[2] + t * t * seg[4]))
        elif k == "C":
            p0 = pts[-1]
            for t in np.linspace(0, 1, 3001)[1:]:
                u = 1 - t
                pts.append((u**3 * p0[0] + 3 * u * u * t * seg[1] + 3 * u * t * t * seg[3] + t**3 * seg[5],
                            u**3 * p0[1] + 3 * u * u * t * seg[2] + 3 * u * t * t * seg[4] + t**3 * seg[6]))
    return np.array(pts)


def winding(px, py, polys):
    w = np.zeros(px.shape, dtype=np.int32)
    for poly in polys:
        x0, y0 = poly[:, 0], poly[:, 1]
        # A closed polygon winds 0 around every point outside its bounding
        # box: only the samples inside it are tested (same result, faster).
        sel = (px >= x0.min()) & (px <= x0.max()) & (py >= y0.min()) & (py <= y0.max())
        if not sel.any():
            continue
        qx, qy = px[sel], py[sel]
        acc = np.zeros(qx.shape, dtype=np.int32)
        x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
        for i in range(len(x0)):
            ax, ay, bx, by = x0[i], y0[i], x1[i], y1[i]
            if ay == by:
                continue
            up = (ay <= qy) & (by > qy)
            down = (by <= qy) & (ay > qy)
            cross = (bx - ax) * (qy - ay) - (qx - ax) * (by - ay)
            acc += np.where(up & (cross > 0), 1, 0) - np.where(down & (cross < 0), 1, 0)
        w[sel] += acc
    return w


def inside(op, px, py, cache):
    k = op["op"]
    if k == "rect":
        return in_rect(px, py, op["x"], op["y"], op["w"], op["h"])
    if k == "roundedRect":
        r = min(op["w"], op["h"]) / 2 if op.get("capsule") else op["radius"]
        return in_rounded_rect(px, py, op["x"], op["y"], op["w"], op["h"], r)
    if k == "disc":
        return np.hypot(px - op["cx"], py - op["cy"]) <= op["r"]
    if k == "arc":
        return in_arc(px, py, op)
    if k == "path":
        if "polys" not in cache:
            cache["polys"] = [flatten(c) for c in op["contours"]]
        w = winding(px, py, cache["polys"])
        return (w % 2 == 1) if op.get("rule") == "evenodd" else (w != 0)
    raise ValueError(k)


# ------------------------------------------------------------------ paints
def paint_colour(paint, xs, ys):
    """colour (H, W, 3) and alpha at pixel centres xs, ys"""
    alpha = paint.get("alpha", 1.0)
    if "solid" in paint:
        return np.broadcast_to(hexrgb(paint["solid"]), xs.shape + (3,)), alpha
    if "linear" in paint:
        (sx, sy), (ex, ey) = paint["start"], paint["end"]
        vx, vy = ex - sx, ey - sy
        t = ((xs - sx) * vx + (ys - sy) * vy) / (vx * vx + vy * vy)
    else:
        t = np.mod(np.degrees(np.arctan2(ys - paint["cy"], xs - paint["cx"])) - paint["start"], 360.0) / 360.0
    cols = [hexrgb(c) for c in (paint.get("linear") or paint.get("conic"))]
    t = np.clip(t, 0, 1) * (len(cols) - 1)
    i = np.minimum(np.floor(t).astype(int), len(cols) - 2)
    f = (t - i)[..., None]
    c0 = np.stack(cols)[i]
    c1 = np.stack(cols)[i + 1]
    return c0 + (c1 - c0) * f, alpha


# ------------------------------------------------------------------ render
def render(case):
    W, H = case["width"], case["height"]
    img = np.empty((H, W, 3))
    img[:, :] = hexrgb(case.get("background", "#000000"))
    ox, oy = lattice()
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float64)
    for op in case["ops"]:
        clip = op.get("clip", case.get("clip", [0, 0, W, H]))
        x0, y0 = max(0, clip[0]), max(0, clip[1])
        x1, y1 = min(W, clip[0] + clip[2]), min(H, clip[1] + clip[3])
        if x1 <= x0 or y1 <= y0:
            continue
        cache = {}
        cov = np.zeros((y1 - y0, x1 - x0))
        for j in range(y0, y1):  # one row at a time keeps memory small
            px = (np.arange(x0, x1, dtype=np.float64)[:, None] + ox[None, :])
            py = np.full_like(px, j) + oy[None, :]
            cov[j - y0] = inside(op, px, py, cache).mean(axis=1)
        col, alpha = paint_colour(op["paint"], xs[y0:y1, x0:x1] + 0.5, ys[y0:y1, x0:x1] + 0.5)
        a = (alpha * cov)[:, :, None]
        img[y0:y1, x0:x1] = col * a + img[y0:y1, x0:x1] * (1 - a)
    return np.clip(np.rint(img), 0, 255).astype(np.uint8)


def write_png(path, rgb8):
    H, W, _ = rgb8.shape
    raw = np.zeros((H, 1 + 3 * W), dtype=np.uint8)
    raw[:, 1:] = rgb8.reshape(H, 3 * W)

    def chunk(tp, data):
        return struct.pack(">I", len(data)) + tp + data + struct.pack(">I", zlib.crc32(tp + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw.tobytes(), 9)) + chunk(b"IEND", b""))


def main():
    features = sys.argv[1:] or sorted(d for d in os.listdir(HERE) if os.path.isfile(os.path.join(HERE, d, "cases.json")))
    for feat in features:
        cases = json.load(open(os.path.join(HERE, feat, "cases.json")))
        for case in cases:
            out = os.path.join(HERE, feat, case["name"] + ".png")
            write_png(out, render(case))
            print("wrote", os.path.relpath(out, HERE))


if __name__ == "__main__":
    main()
