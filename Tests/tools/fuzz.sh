#!/usr/bin/env bash
# Coverage-guided fuzzing of paneld's readers of untrusted input with libFuzzer:
# the control socket's line framer and parser (line), statsd/DogStatsD datagrams
# (statsd), the layout reader (layout) and the MQTT payload reader (mqtt); the
# targets are PaneldCore's FuzzTarget, their checks in Sources/PaneldCore/Fuzz.
#
# Builds the `paneld-fuzz` library with `--sanitize=fuzzer` (in .build-fuzz),
# links it with libFuzzer's main, and runs each target for FUZZ_SECONDS (default
# 30) starting from its kept corpus, Tests/fuzz/corpus/NAME (read only: new inputs
# go to a temporary folder). A crash, a trap or a broken check fails the script
# and prints the input; keep it in the target's corpus folder, where
# FuzzCorpusTests replays it in every `swift test`, and fix the reader.
#
# Usage: bash Tests/tools/fuzz.sh [TARGET...]   (default: all four)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
SECONDS_EACH=${FUZZ_SECONDS:-30}
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(line statsd layout mqtt touch)
SCRATCH=$ROOT/.build-fuzz
swift build -c release --sanitize=fuzzer --product paneld-fuzz --scratch-path "$SCRATCH" >/dev/null
SWIFT_LIB=$(dirname "$(command -v swift)")/../lib/swift/linux
WORK=$(mktemp -d /tmp/paneld-fuzz.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
: >"$WORK/empty.c"
clang=$(dirname "$(command -v swift)")/clang
"$clang" -fsanitize=fuzzer "$WORK/empty.c" -o "$SCRATCH/paneld-fuzz" -L"$SCRATCH/release" -lpaneld-fuzz \
    -Wl,-rpath,"$SCRATCH/release" -Wl,-rpath,"$SWIFT_LIB"
status=0
for t in "${TARGETS[@]}"; do
    [ -d "Tests/fuzz/corpus/$t" ] || { echo "fuzz.sh: no corpus folder Tests/fuzz/corpus/$t" >&2; exit 2; }
    mkdir -p "$WORK/$t"
    if PANELD_FUZZ=$t "$SCRATCH/paneld-fuzz" -max_total_time="$SECONDS_EACH" -max_len=16384 -rss_limit_mb=1024 \
        -timeout=10 -artifact_prefix="$WORK/$t-" -print_final_stats=1 "$WORK/$t" "Tests/fuzz/corpus/$t" \
        >"$WORK/$t.log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$WORK/$t.log" | grep -o '[0-9]*$' || echo '?')
        edges=$(grep -o 'cov: [0-9]*' "$WORK/$t.log" | tail -1 | grep -o '[0-9]*' || echo '?')
        echo "fuzz $t: $runs inputs in ${SECONDS_EACH} s, $edges coverage points, no failure"
    else
        status=1
        echo "fuzz $t: FAILED" >&2
        tail -40 "$WORK/$t.log" >&2
        for a in "$WORK/$t"-*; do
            [ -e "$a" ] || continue
            echo "the input ($(wc -c <"$a") bytes), base64; keep it as Tests/fuzz/corpus/$t/crash-NAME:" >&2
            base64 -w 0 "$a" >&2
            echo >&2
        done
    fi
done
exit $status
