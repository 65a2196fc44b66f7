#!/usr/bin/env bash
# Instructions per frame of the aarch64 panelgauge-bench (scene A, the gauge panel, and
# scene B, the dial panel), counted by trixie's callgrind for arm64, as
# shared/bench/run-peers.sh counts them on x86_64: 20 frames, stride 5, 2 warm-up
# frames, collection only around the frames. With PEERS_DIR (the peer benchmark's
# folder, e.g. ../shared/bench) the cairo peer is counted beside it: its
# peers/cairo_bench.c built for arm64 against trixie's cairo.
#
# valgrind runs in an arm64 VM (qemu-system-aarch64, TCG; trixie's arm64 kernel, no
# devices): under qemu-user (this machine's QEMU 7.2 and trixie's 10.0 alike) the
# client's first malloc returns NULL in the Swift runtime's start-up, so no Swift
# program gets to main there. The initramfs holds busybox, valgrind (launcher, tool,
# preload library), the trixie arm64 libraries, a tiny libcgctl.so (the peer
# benchmark's cgctl.c contract: cg_start_instrumentation, cg_toggle_collect, built
# with the chroot's clang) and the bench binaries; its /init runs every count, prints
# "CG name size variant instructions" on the serial console and powers off.
#
# Usage: bash Tests/aarch64/callgrind.sh [BENCH...]   (aarch64 builds; default
#   .build-aarch64/out/panelgauge-bench; needs packaging/build-aarch64.sh --tests for
#   the trixie sysroot, and Tests/qemu/run-e2e.sh --arch arm64 for the kernel and busybox)
#        bash Tests/aarch64/callgrind.sh --host [BENCH]   the same count on this x86_64 machine
#   (host valgrind; default .build/release/panelgauge-bench), for the table beside it.
# Environment: SIZES (default "320x240 800x480 1920x1080"), VARIANTS (scene A's; default
#   "simple gradient"), SCENES (default "a b"; any scene panelgauge-bench --scene takes,
#   e.g. strokes, the others in simple alone), PEERS_DIR (default none: PanelGauge alone).
# Output: one JSON line a count, as run-peers.sh writes them, with "arch" and "scene".
set -Eeuo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
B=$ROOT/.build-aarch64
S=$B/sysroot-trixie
HOST=0
if [ "${1:-}" = --host ]; then
    HOST=1
    shift
fi
SIZES=${SIZES:-"320x240 800x480 1920x1080"}
VARIANTS=${VARIANTS:-"simple gradient"}
SCENES=${SCENES:-"a b"}
PEERS_DIR=${PEERS_DIR:-}
# scene_args SCENE: the options that pick it (none for scene A, the default);
# scene_variants SCENE: its variants (scene A's two, simple for the others).
scene_args() { [ "$1" = a ] || echo "--scene $1"; }
scene_variants() { [ "$1" = a ] && echo "$VARIANTS" || echo simple; }
if [ "$HOST" = 1 ]; then
    BENCH=${1:-$ROOT/.build/release/panelgauge-bench}
    mkdir -p "$B"
    printf '%s\n' '#include <valgrind/callgrind.h>' \
        'void cg_start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }' \
        'void cg_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }' >"$B/cgctl-host.c"
    gcc -O2 -shared -fPIC -o "$B/libcgctl-host.so" "$B/cgctl-host.c"
    for scene in $SCENES; do for size in $SIZES; do
        for var in $(scene_variants "$scene"); do
            # shellcheck disable=SC2046 # scene_args is one option and its value, or nothing
            out=$(CGCTL_LIB=$B/libcgctl-host.so valgrind --tool=callgrind --collect-atstart=no --instr-atstart=no \
                --callgrind-out-file=/dev/null "$BENCH" $(scene_args "$scene") --size "$size" --variant "$var" \
                --frames 20 --stride 5 --warmup 2 --callgrind 2>&1)
            ir=$(echo "$out" | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -1)
            [ -n "$ir" ] || { echo "$out" | tail -20 >&2; exit 1; }
            echo "{\"renderer\": \"$(basename "$BENCH")\", \"arch\": \"x86_64\", \"scene\": \"$scene\", \"size\": \"$size\", \"variant\": \"$var\", \"frames\": 20, \"instr_total\": $ir, \"instr_per_frame\": $((ir / 20))}"
        done
    done; done
    exit 0
fi
[ -x "$S/usr/libexec/valgrind/callgrind-arm64-linux" ] || { echo "no arm64 valgrind in $S (run packaging/build-aarch64.sh --tests)" >&2; exit 1; }
KERNEL=$(ls -t "$ROOT"/Tests/qemu/.cache/kernel-*-arm64/boot/vmlinuz-* 2>/dev/null | head -1)
BUSYBOX=$ROOT/Tests/qemu/.cache/busybox-arm64/usr/bin/busybox
[ -n "$KERNEL" ] && [ -x "$BUSYBOX" ] || { echo "no arm64 kernel or busybox (run Tests/qemu/run-e2e.sh --arch arm64)" >&2; exit 1; }
[ $# -gt 0 ] || set -- "$B/out/panelgauge-bench"

CG=$B/libcgctl.so
if [ ! -f "$CG" ]; then
    printf '%s\n' '#include <valgrind/callgrind.h>' \
        'void cg_start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }' \
        'void cg_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }' >"$B/cgctl.c"
    unshare --mount --propagation private -- bash -euc '
        mount --bind "$2" "$1$2"
        chroot "$1" /usr/libexec/swift/bin/clang --target=aarch64-linux-gnu --sysroot="$3" -O2 -shared -fPIC \
            -fuse-ld=lld -o "$4" "$5"' cg "$B/chroot" "$ROOT" "$S" "$CG" "$B/cgctl.c"
fi

# The cairo peer for arm64: trixie's cairo and the libraries it loads, in a folder of
# their own (the sysroot stays as packaging/build-aarch64.sh makes it), and
# cairo_bench.c built by the chroot's clang against them.
CAIRO_LIBS=
if [ -n "$PEERS_DIR" ]; then
    [ -f "$PEERS_DIR/peers/cairo_bench.c" ] || { echo "no peers/cairo_bench.c in $PEERS_DIR" >&2; exit 1; }
    C=$B/cairo-arm64
    if [ ! -f "$C/.done" ]; then
        # shellcheck source=packaging/foreign-apt.sh
        . "$ROOT/packaging/foreign-apt.sh"
        APT_STATE=$B/apt
        foreign_apt trixie update -qq >/dev/null
        # libcairo2's run-time closure (Depends and Pre-Depends), and its headers.
        mapfile -t pkgs < <(FOREIGN_APT_TOOL=apt-cache foreign_apt trixie depends --recurse --no-recommends \
            --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances libcairo2 2>/dev/null |
            grep -E '^[a-z0-9]' | grep -v ':' | sort -u)
        rm -rf "$C" "$B/dl/cairo" && mkdir -p "$C"
        foreign_download trixie "$B/dl/cairo" libcairo2-dev "${pkgs[@]}"
        for deb in "$B/dl/cairo"/*.deb; do dpkg -x "$deb" "$C"; done
        touch "$C/.done"
    fi
    mkdir -p "$B/peers"
    cp "$PEERS_DIR/peers/cairo_bench.c" "$PEERS_DIR/peers/bench_common.h" "$B/peers/"
    unshare --mount --propagation private -- bash -euc '
        mount --bind "$2" "$1$2"
        chroot "$1" /usr/libexec/swift/bin/clang --target=aarch64-linux-gnu --sysroot="$3" -O2 \
            -I"$4/usr/include/cairo" -fuse-ld=lld -o "$5/cairo_bench" "$5/cairo_bench.c" \
            -L"$4/usr/lib/aarch64-linux-gnu" -Wl,-rpath-link,"$4/usr/lib/aarch64-linux-gnu" -lcairo -lz -lm' \
        cg "$B/chroot" "$ROOT" "$S" "$C" "$B/peers"
    set -- "$@" "$B/peers/cairo_bench"
    CAIRO_LIBS=$C/usr/lib/aarch64-linux-gnu
fi

W=$B/callgrind-vm
R=$W/root
rm -rf "$W"
mkdir -p "$R/bin" "$R/bench" "$R/lib/aarch64-linux-gnu" "$R/usr/libexec/valgrind" "$R/usr/bin" "$R/proc" "$R/sys" "$R/dev" "$R/tmp"
cp "$BUSYBOX" "$R/bin/busybox"
cp -L "$S/usr/lib/ld-linux-aarch64.so.1" "$R/lib/"
for lib in libc.so.6 libm.so.6 libz.so.1 libfreetype.so.6 libpng16.so.16 libbrotlidec.so.1 libbrotlicommon.so.1 \
    libbz2.so.1.0 libgcc_s.so.1; do
    cp -L "$S/usr/lib/aarch64-linux-gnu/$lib" "$R/lib/aarch64-linux-gnu/"
done
# Debian's /usr/bin/valgrind is a wrapper script around valgrind.bin, the launcher.
cp -L "$S/usr/bin/valgrind.bin" "$R/usr/bin/valgrind"
cp -L "$S"/usr/libexec/valgrind/{callgrind-arm64-linux,vgpreload_core-arm64-linux.so,default.supp} "$R/usr/libexec/valgrind/"
cp "$CG" "$R/lib/libcgctl.so"
if [ -n "$CAIRO_LIBS" ]; then
    for lib in "$CAIRO_LIBS"/*.so.*; do
        [ -e "$R/lib/aarch64-linux-gnu/$(basename "$lib")" ] || cp -L "$lib" "$R/lib/aarch64-linux-gnu/"
    done
fi
names=()
for bench in "$@"; do
    cp "$bench" "$R/bench/$(basename "$bench")"
    names+=("$(basename "$bench")")
done
cat >"$R/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev; mount -t tmpfs tmp /tmp
export PATH=/usr/bin:/bin CGCTL_LIB=/lib/libcgctl.so
for n in ${names[*]}; do for scene in $SCENES; do for size in $SIZES; do
    if [ \$scene = a ]; then opt=; vars="$VARIANTS"; else opt="--scene \$scene"; vars=simple; fi
    for var in \$vars; do
    ir=\$(valgrind --tool=callgrind --collect-atstart=no --instr-atstart=no --callgrind-out-file=/dev/null \\
        /bench/\$n \$opt --size \$size --variant \$var --frames 20 --stride 5 --warmup 2 --callgrind 2>&1 | tee /tmp/vg.log | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    [ -n "\$ir" ] || tail -20 /tmp/vg.log
    echo "CG \$n \$scene \$size \$var \${ir:-none}"
    done
done; done; done
poweroff -f
INIT
chmod +x "$R/init"
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$W/initrd"
timeout 3000 qemu-system-aarch64 -nodefaults -no-user-config -machine virt,accel=tcg -cpu cortex-a72 -m 2048 -smp 1 \
    -kernel "$KERNEL" -initrd "$W/initrd" -append "console=ttyAMA0 panic=-1 loglevel=4" \
    -display none -serial "file:$W/serial.log" -no-reboot
grep -a '^CG ' "$W/serial.log" | tr -d '\r' | while read -r _ n scene size var ir; do
    [ "$ir" != none ] || { echo "callgrind failed for $n $scene $size $var (see $W/serial.log)" >&2; exit 1; }
    echo "{\"renderer\": \"$n\", \"arch\": \"aarch64\", \"scene\": \"$scene\", \"size\": \"$size\", \"variant\": \"$var\", \"frames\": 20, \"instr_total\": $ir, \"instr_per_frame\": $((ir / 20))}"
done
