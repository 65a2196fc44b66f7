#!/usr/bin/env bash
# The PanelGauge tests built for aarch64 and run under QEMU's user-mode emulation.
#
# packaging/build-aarch64.sh --tests builds the package's test bundle (debug, Swift
# 6.0.3 cross toolchain, trixie arm64 sysroot: the dynamic Swift runtime of trixie
# needs its glibc 2.41); qemu-aarch64-static runs it with that sysroot as its
# library root (-L), so the Swift runtime, glibc, libdrm and FreeType are the arm64
# ones. The worktree is at the same path in the build chroot, so the test files'
# own paths (reference images, fonts, Package.swift) are valid here too.
# Prints swift-testing's closing line ("Test run with N tests passed ...").
# Measured: 2004 s for 182 tests on this project's 2-core machine while other builds
# shared it (TCG emulation of a debug build); the bundle's first build takes a few minutes.
#
# Usage: bash Tests/aarch64/run.sh [FILTER]   (FILTER default PanelGaugeTests)
set -Eeuo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
B=$ROOT/.build-aarch64
FILTER=${1:-PanelGaugeTests}

bash "$ROOT/packaging/build-aarch64.sh" --tests
BUNDLE=$B/debug/aarch64-unknown-linux-gnu/debug/paneldPackageTests.xctest
SYSROOT=$B/sysroot-trixie

echo "[aarch64 tests] qemu-aarch64-static -L $SYSROOT $BUNDLE (filter $FILTER)"
LOG=$B/tests.log
t=$SECONDS
set +e
qemu-aarch64-static -L "$SYSROOT" -E LD_LIBRARY_PATH="$SYSROOT/usr/libexec/swift/lib/swift/linux" \
    "$BUNDLE" --testing-library swift-testing --filter "$FILTER" </dev/null 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$LOG"
rc=${PIPESTATUS[0]}
set -e
grep -a -E 'failed|recorded an issue' "$LOG" | head -50 || true
closing=$(grep -a -E 'Test run with [0-9]+ tests? ' "$LOG" | tail -1)
echo "[aarch64 tests] ${closing:-no closing line from the test run (see $LOG)} ($((SECONDS - t)) s, exit status $rc)"
[ "$rc" = 0 ] && [[ $closing == *" passed "* ]]
