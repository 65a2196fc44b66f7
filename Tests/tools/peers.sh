#!/usr/bin/env bash
# The figures of docs/performance.md that set PanelGauge beside other renderers, from
# this checkout: scene A (the gauge panel) and scene B (the dial panel) of the peer
# benchmark, run by its own run-peers.sh with panelgauge-bench joined as a peer, and
# the thin-strokes scene of this repository (Sources/panelgauge-bench/ThinStrokeScene.swift),
# counted the same way.
#
# The peer benchmark (scenes SCENE.md and SCENE-B.md, the cairo, AGG, Blend2D and
# Skia peers, the exact reference reference.py, run-peers.sh) is the folder BENCH_DIR
# (default ../shared/bench beside the checkout). It is copied to a scratch folder
# first, so it can be read-only; its tables are printed and kept in OUT.
#
# Usage: bash Tests/tools/peers.sh [a] [b] [strokes]   (default: all three)
# Environment: BENCH_DIR, OUT (default /tmp/paneld-peers), and run-peers.sh's own
#   knobs (ROUNDS, FRAMES, SIZES, PIN, ...), passed through; ROUNDS defaults to 1 and
#   FRAMES to 100 here (the counts do not depend on them).
# Instruction counts do not move with the machine's load; wall times here do (+-40 %).
# The native Blend2D figures that issue 40 quotes (Blend2D 0.21.2 built from source,
# its JIT on) were measured elsewhere: the Blend2D peer here is its Python binding,
# which adds about 0.42 M instructions a frame of interpreter work.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH_DIR=${BENCH_DIR:-$ROOT/../shared/bench}
OUT=${OUT:-/tmp/paneld-peers}
export ROUNDS=${ROUNDS:-1} FRAMES=${FRAMES:-100}
SCENES=("$@")
[ ${#SCENES[@]} -gt 0 ] || SCENES=(a b strokes)
[ -f "$BENCH_DIR/run-peers.sh" ] || { echo "no peer benchmark in $BENCH_DIR (set BENCH_DIR)" >&2; exit 1; }
cd "$ROOT"
swift build -c release --product panelgauge-bench >/dev/null
BENCH=$ROOT/.build/release/panelgauge-bench
mkdir -p "$OUT"
rm -rf "$OUT/bench"
cp -r "$BENCH_DIR" "$OUT/bench"
rm -rf "$OUT/bench/out" "$OUT/bench/results"
for scene in "${SCENES[@]}"; do
    case $scene in
    a | b)
        SCENE=$scene EXTRA_PEERS="panelgauge=$BENCH" bash "$OUT/bench/run-peers.sh"
        res=$OUT/bench/results
        [ "$scene" = a ] || res=$res/b
        echo "scene $scene: $res/tables.md"
        ;;
    strokes)
        # Counted as Tests/aarch64/callgrind.sh counts a scene on this machine.
        SCENES=strokes bash "$ROOT/Tests/aarch64/callgrind.sh" --host "$BENCH" | tee "$OUT/strokes.jsonl"
        ;;
    *)
        echo "unknown scene $scene (a, b or strokes)" >&2
        exit 2
        ;;
    esac
done
