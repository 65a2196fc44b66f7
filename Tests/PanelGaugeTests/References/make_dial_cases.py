#!/usr/bin/env python3
"""Writes the cases.json of the dial features (ticks, needles, thin-arcs) from
their geometry: tick marks as butt-ended radial rectangles at odd angles,
needles as tapered convex quadrilaterals with a hub, thin round-capped arcs.
The shapes follow shared/bench/SCENE-B.md (section 4) at several scales.
make_references.py then renders each case's image from exact geometry.

Usage: python3 make_dial_cases.py && python3 make_references.py ticks needles thin-arcs
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BG = "#101418"


def solid(c, alpha=1.0):
    return {"solid": c, "alpha": alpha}


def radial_rect(cx, cy, a_deg, r0, r1, width):
    """The butt-ended segment from radius r0 to r1 at angle a, widened by width/2 each side."""
    a = math.radians(a_deg)
    dx, dy = math.cos(a), math.sin(a)
    nx, ny = -dy, dx
    h = width / 2

    def at(r, s):
        return [cx + r * dx + s * nx, cy + r * dy + s * ny]

    return [["M"] + at(r0, h), ["L"] + at(r1, h), ["L"] + at(r1, -h), ["L"] + at(r0, -h)]


def ticks_op(cx, cy, angles, r_in, r_out, width, colour):
    return {"op": "path", "rule": "nonzero", "contours": [radial_rect(cx, cy, a, r_in, r_out, width) for a in angles],
            "paint": solid(colour)}


def needle_op(cx, cy, a_deg, length, base, tip, tail, colour):
    a = math.radians(a_deg)
    dx, dy = math.cos(a), math.sin(a)
    nx, ny = -dy, dx

    def at(r, s):
        return [cx + r * dx + s * nx, cy + r * dy + s * ny]

    b, t = base / 2, tip / 2
    contour = [["M"] + at(-tail, b), ["L"] + at(length, t), ["L"] + at(length, -t), ["L"] + at(-tail, -b)]
    return {"op": "path", "rule": "nonzero", "contours": [contour], "paint": solid(colour)}


def ticks_cases():
    out = []
    # Scene B's 41 ticks (every 6.75 degrees from 135) at k = 0.5 and k = 1.
    for name, s, k in [("scene-b-320x240", 120, 0.5), ("scene-b-800x480", 240, 1.0)]:
        size = int(math.ceil(0.8 * s)) + 4
        c = size / 2
        angles = [135 + 6.75 * t for t in range(41)]
        minor = [a for t, a in enumerate(angles) if t % 4]
        major = [a for t, a in enumerate(angles) if t % 4 == 0]
        out.append({"name": name, "width": size, "height": size, "background": BG, "ops": [
            ticks_op(c, c, minor, 0.315 * s, 0.355 * s, 1.5 * k, "#D0D4D8"),
            ticks_op(c, c, major, 0.275 * s, 0.355 * s, 3 * k, "#D0D4D8")]})
    # Odd angles off any grid, hairline to wide, off-centre pixel phase.
    angles = [7.3 + 21.17 * i for i in range(17)]
    out.append({"name": "odd-angles", "width": 96, "height": 96, "background": BG, "ops": [
        ticks_op(48.37, 47.81, angles, 26.3, 41.9, 1.1, "#FFFFFF"),
        ticks_op(48.37, 47.81, [a + 10.5 for a in angles], 18.2, 24.6, 0.5, "#FF9500"),
        ticks_op(48.37, 47.81, [a + 5 for a in angles[::3]], 8.1, 16.7, 2.7, "#34C759")]})
    # Near-axis ticks: a hair off 0, 90, 180 and 270 degrees.
    out.append({"name": "near-axes", "width": 64, "height": 64, "background": BG, "ops": [
        ticks_op(32.2, 31.7, [0.4, 89.7, 180.25, 270.9, 45.0, 135.0], 12.5, 28.3, 2.0, "#D0D4D8")]})
    return out


def needles_cases():
    out = []
    size = 72
    c = (36.3, 35.6)
    for i, a in enumerate([0.0, 17.3, 45.0, 93.7, 200.1, 301.4]):
        out.append({"name": "angle-%d" % i, "width": size, "height": size, "background": BG, "ops": [
            needle_op(c[0], c[1], a, 30.5, 5.4, 0.72, 0.0, "#FF3B30"),
            {"op": "disc", "cx": c[0], "cy": c[1], "r": 4.5, "paint": solid("#E0E0E0")}]})
    out.append({"name": "tail", "width": size, "height": size, "background": BG, "ops": [
        needle_op(c[0], c[1], 231.7, 31.0, 4.0, 1.0, 7.5, "#FF9500"),
        {"op": "disc", "cx": c[0], "cy": c[1], "r": 3.2, "paint": solid("#E0E0E0")}]})
    # Scene B's needle at v = 0.73 (A = 332.1 degrees) at k = 0.5, no hub.
    out.append({"name": "scene-b-320x240", "width": 96, "height": 96, "background": BG, "ops": [
        needle_op(48, 48, 135 + 270 * 0.73, 40.8, 3.6, 0.48, 0.0, "#FF3B30")]})
    # Translucent: the convex polygon must cover every pixel once.
    out.append({"name": "translucent", "width": size, "height": size, "background": BG, "ops": [
        needle_op(c[0], c[1], 122.9, 33.0, 9.0, 2.0, 6.0, "#0A84FF")]})
    out[-1]["ops"][0]["paint"]["alpha"] = 0.6
    return out


def thin_arcs_cases():
    out = []
    # Scene B's value arc (centre-line radius 0.255 S, width 4 k, round caps) at k = 0.5 and 1.
    for name, s, k, p in [("scene-b-320x240", 120, 0.5, 0.73), ("scene-b-800x480", 240, 1.0, 0.19)]:
        size = int(math.ceil(0.56 * s)) + 4
        out.append({"name": name, "width": size, "height": size, "background": BG, "ops": [
            {"op": "arc", "cx": size / 2, "cy": size / 2, "r": 0.255 * s, "width": 4 * k, "start": 135,
             "sweep": 270 * p, "cap": "round", "paint": solid("#0A84FF")}]})
    # Widths from a hairline up, odd starts, short and long sweeps.
    ops = []
    for i, (w, start, sweep) in enumerate([(0.75, 12.3, 1.2), (1.0, 61.7, 33.3), (1.5, 147.2, 95.5),
                                            (2.0, 251.9, 200.4), (3.0, 8.8, -57.1)]):
        ops.append({"op": "arc", "cx": 40.4, "cy": 39.7, "r": 8.3 + 6.1 * i, "width": w, "start": start,
                    "sweep": sweep, "cap": "round", "paint": solid("#FFFFFF")})
    out.append({"name": "widths", "width": 80, "height": 80, "background": BG, "ops": ops})
    # A 1.2-degree arc: the two caps nearly one disc (scene B's shortest value arc).
    out.append({"name": "shortest", "width": 48, "height": 48, "background": BG, "ops": [
        {"op": "arc", "cx": 24, "cy": 24, "r": 18.6, "width": 2.0, "start": 135, "sweep": 1.2, "cap": "round",
         "paint": solid("#0A84FF")}]})
    return out


def main():
    for feature, cases in [("ticks", ticks_cases()), ("needles", needles_cases()), ("thin-arcs", thin_arcs_cases())]:
        os.makedirs(os.path.join(HERE, feature), exist_ok=True)
        with open(os.path.join(HERE, feature, "cases.json"), "w") as f:
            json.dump(cases, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
