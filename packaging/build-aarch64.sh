#!/usr/bin/env bash
# Builds paneld and panelgauge-bench for aarch64-unknown-linux-gnu (Raspberry Pi OS
# bookworm, 64-bit) on an x86_64 Debian machine, from Debian packages only.
#
#   bash packaging/build-aarch64.sh           # release binaries -> .build-aarch64/out/
#   bash packaging/build-aarch64.sh --tests   # also the debug test bundle (Tests/aarch64/run.sh runs it)
#
# Which compiler makes which artefact, and why:
# - aarch64 (this script): Swift 6.0.3, Debian trixie's `swiftlang`, run in an amd64
#   trixie chroot. Debian ships that toolchain for arm64 too, and its arm64 package holds
#   the target's Swift runtime and static stdlib, which a cross build links; no Swift for
#   arm64 comes from anywhere else here. The package builds with 6.0.3 and with 6.3.1.
# - x86_64 (`swift build` on the host, README and CI): the host's Swift 6.3.1.
#
# glibc: the release binaries link against a bookworm arm64 sysroot (glibc 2.36, what
# Raspberry Pi OS bookworm has), so they need at most GLIBC_2.36. The Swift runtime
# archives come from trixie and call C23 entry points of glibc 2.38
# (`__isoc23_strtol` and friends); packaging/isoc23-shim.c defines them over the 2.36
# functions, and explains why their C23 differences do not change what the runtime reads.
# The script checks the result: at most GLIBC_2.36, and only the expected NEEDED libraries.
#
# Release builds keep Swift's exclusivity checks on (the -O default; PanelGauge has no
# unsafe flags): with them off (-Ounchecked), the 6.0.3 optimizer miscompiles a mutating
# access to a ~Copyable struct with a deinit (a "double free" at run time; a 13-line
# reproducer is in the project's shared notes, aarch64.md).
#
# `paneld --version` names the revision built: git runs here on the host (the chroot has
# no git, and a worktree's git directory lies outside the tree it sees), and the chroot's
# build gets the revision through PANELD_GIT_REVISION, which Package.swift reads; the
# script then runs the binary (qemu-aarch64-static) and checks that it says so.
#
# Everything lives in .build-aarch64/ (git-ignored) and is reused on the next run:
#   chroot/            amd64 trixie with swiftlang (debootstrap and apt, about 1 minute once)
#   sysroot-bookworm/  arm64 libraries and headers the release binaries link against
#   sysroot-trixie/    arm64 trixie userland for the debug test bundle (its dynamic
#                      Swift runtime needs glibc 2.38) and valgrind (Tests/aarch64/)
#   out/               paneld, panelgauge-bench (debug info stripped)
# Needs root (apt-get, debootstrap, chroot, mount namespaces). Environment:
# DEBIAN_MIRROR (default http://deb.debian.org/debian).
set -Eeuo pipefail
trap 'echo "[aarch64] FAIL: line $LINENO: $BASH_COMMAND exited with status $?" >&2' ERR

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=$ROOT/.build-aarch64
CH=$B/chroot
SYSROOT=$B/sysroot-bookworm
TEST_SYSROOT=$B/sysroot-trixie
OUT=$B/out
APT_STATE=$B/apt
export DEBIAN_FRONTEND=noninteractive
# shellcheck source=foreign-apt.sh
. "$ROOT/packaging/foreign-apt.sh"

TESTS=0
for a in "$@"; do
    case $a in
        --tests) TESTS=1 ;;
        *) echo "usage: $0 [--tests]" >&2; exit 2 ;;
    esac
done

# The revision Package.swift would take from git: the commit's first 12 digits, +dirty
# with changes git sees (untracked files included); "unknown" outside git.
REVISION=unknown
if head=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null); then
    REVISION=${head:0:12}
    [ -z "$(git -C "$ROOT" status --porcelain 2>/dev/null)" ] || REVISION=$REVISION+dirty
fi

T0=$SECONDS
log() { echo "[aarch64 $((SECONDS - T0))s] $*"; }
# stamp NAME INPUT...: a file name that changes when the inputs (package lists, ...) change.
stamp() {
    local name=$1
    shift
    echo "$name-$(printf '%s\n' "$@" | sha256sum | cut -c1-12)"
}

# ------------------------------------------------------------------ host tools
host_tools() {
    local need=() p
    for p in debootstrap qemu-user-static binutils-aarch64-linux-gnu xz-utils debian-archive-keyring; do
        dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
    done
    [ ${#need[@]} -eq 0 ] && return
    [ "$(id -u)" = 0 ] || { echo "[aarch64] need root to apt-get install ${need[*]}" >&2; exit 1; }
    log "apt-get install ${need[*]}"
    bash "$ROOT/packaging/apt-install.sh" --update "${need[@]}"
}

# ------------------------------------------------------------------ chroot
CHROOT_PACKAGES=(swiftlang pkg-config libstdc++-14-dev)
# in_chroot SCRIPT: runs SCRIPT with bash in the chroot, in a private mount namespace
# (proc, sys, dev and this worktree, at its own path, are mounted only for that
# process: nothing stays mounted after it, even when it fails).
in_chroot() {
    unshare --mount --propagation private -- bash -euc '
        CH=$1 ROOT=$2
        mount -t proc proc "$CH/proc"
        mount --rbind /sys "$CH/sys"
        mount --rbind /dev "$CH/dev"
        mkdir -p "$CH$ROOT"
        mount --bind "$ROOT" "$CH$ROOT"
        exec chroot "$CH" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
            DEBIAN_FRONTEND=noninteractive bash -euc "$3"' in_chroot "$CH" "$ROOT" "$1"
}

make_chroot() {
    local done
    done=$CH/.$(stamp chroot "${CHROOT_PACKAGES[@]}")
    [ -f "$done" ] && return
    if [ ! -f "$CH/.debootstrap-done" ]; then
        log "debootstrap trixie amd64 (minbase) into $CH"
        rm -rf "$CH"
        debootstrap --variant=minbase --arch=amd64 trixie "$CH" "$DEBIAN_MIRROR" >"$B/debootstrap.log" 2>&1 \
            || { tail -20 "$B/debootstrap.log"; exit 1; }
        touch "$CH/.debootstrap-done"
    fi
    log "chroot: apt-get install ${CHROOT_PACKAGES[*]}"
    in_chroot "apt-get update -qq && apt-get install -y -qq --no-install-recommends ${CHROOT_PACKAGES[*]} >/dev/null && apt-get clean"
    in_chroot "swift --version 2>&1 | head -1"
    rm -f "$CH"/.chroot-*
    touch "$done"
}

# ------------------------------------------------------------------ sysroots
# Headers and libraries the release build links against (bookworm, glibc 2.36).
BOOKWORM_PACKAGES=(libc6 libc6-dev linux-libc-dev libcrypt1 libcrypt-dev libgcc-s1 libgcc-12-dev
    libstdc++6 libstdc++-12-dev libdrm2 libdrm-dev libdrm-common libpciaccess0 libpciaccess-dev
    libfreetype6 libfreetype-dev zlib1g zlib1g-dev libpng16-16 libpng-dev libbrotli1 libbrotli-dev
    libbz2-1.0 libbz2-dev libatomic1 libmosquitto1 libmosquitto-dev libssl3)
# The test bundle's userland (dynamic Swift runtime built against glibc 2.41) and valgrind.
TRIXIE_PACKAGES=(libc6 libc6-dev linux-libc-dev libcrypt1 libcrypt-dev libgcc-s1 libgcc-14-dev
    libstdc++6 libstdc++-14-dev libdrm2 libdrm-dev libdrm-common libpciaccess0 libpciaccess-dev
    libfreetype6 libfreetype-dev zlib1g zlib1g-dev libpng16-16t64 libpng-dev libbrotli1 libbrotli-dev
    libbz2-1.0 libbz2-dev libatomic1 libmosquitto1 libmosquitto-dev libssl3t64 libzstd1 valgrind)

# fix_links DIR: bookworm's lib/ merged into usr/lib/ (trixie is merged already), lib -> usr/lib,
# and absolute symlinks made relative (they would point into the host otherwise).
fix_links() {
    local dir=$1 l t
    if [ -d "$dir/lib" ] && [ ! -L "$dir/lib" ]; then
        cp -a "$dir/lib/." "$dir/usr/lib/"
        rm -rf "$dir/lib"
    fi
    [ -e "$dir/lib" ] || ln -s usr/lib "$dir/lib"
    while IFS= read -r l; do
        t=$(readlink "$l")
        case $t in /lib/*) t=/usr$t ;; esac
        ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$dir$t")" "$l"
    done < <(find "$dir" -type l -lname '/*')
}

# swift_runtime DIR: the target's Swift runtime from trixie's arm64 packages: the static
# stdlib, module files and clang resource folder (swiftlang), the dynamic runtime
# libraries (libswiftlang).
swift_runtime() {
    local dir=$1 stage=$B/swiftlang-arm64 p
    if [ ! -f "$stage/.done-2" ]; then
        log "downloading swiftlang and libswiftlang (trixie, arm64)"
        rm -rf "$stage" "$B/dl/trixie" && mkdir -p "$stage"
        foreign_download trixie "$B/dl/trixie" swiftlang libswiftlang
        for p in "$B"/dl/trixie/*.deb; do dpkg -x "$p" "$stage"; done
        touch "$stage/.done-2"
    fi
    mkdir -p "$dir/usr/libexec/swift/lib/clang"
    cp -a "$stage/usr/libexec/swift/lib/swift" "$stage/usr/libexec/swift/lib/swift_static" "$dir/usr/libexec/swift/lib/"
    cp -a "$stage/usr/libexec/swift/lib/clang/." "$dir/usr/libexec/swift/lib/clang/"
}

# make_sysroot DIR SUITE PACKAGE...
make_sysroot() {
    local dir=$1 suite=$2 done deb
    shift 2
    done=$dir/.$(stamp sysroot "$suite" "$@")
    [ -f "$done" ] && return
    log "sysroot $dir: $suite arm64 packages"
    rm -rf "$dir" && mkdir -p "$dir"
    rm -rf "$B/dl/$suite-sysroot"
    foreign_download "$suite" "$B/dl/$suite-sysroot" "$@"
    for deb in "$B/dl/$suite-sysroot"/*.deb; do dpkg -x "$deb" "$dir"; done
    swift_runtime "$dir"
    fix_links "$dir"
    touch "$done"
}

# ------------------------------------------------------------------ build
# swift_build SYSROOT SCRATCH RESOURCE-DIR ARGS...: swift build in the chroot for aarch64.
swift_build() {
    local s=$1 scratch=$2 res=$3
    shift 3
    in_chroot "cd '$ROOT'
        export PANELD_GIT_REVISION='$REVISION'
        export PKG_CONFIG_SYSROOT_DIR='$s'
        export PKG_CONFIG_LIBDIR='$s/usr/lib/aarch64-linux-gnu/pkgconfig:$s/usr/share/pkgconfig'
        export PKG_CONFIG_PATH='$s/usr/lib/aarch64-linux-gnu/pkgconfig:$s/usr/share/pkgconfig'
        swift build --scratch-path '$scratch' --triple aarch64-unknown-linux-gnu --sdk '$s' \
            -Xswiftc -sdk -Xswiftc '$s' -Xswiftc -resource-dir -Xswiftc '$s/usr/libexec/swift/lib/$res' \
            -Xswiftc -use-ld=lld $*"
}

build_release() {
    local shim=$B/isoc23-shim.o
    [ "$shim" -nt "$ROOT/packaging/isoc23-shim.c" ] || in_chroot "/usr/libexec/swift/bin/clang --target=aarch64-linux-gnu --sysroot='$SYSROOT' -O2 -Wall -Werror -c '$ROOT/packaging/isoc23-shim.c' -o '$shim'"
    log "swift build -c release --static-swift-stdlib (Swift 6.0.3, aarch64, bookworm sysroot)"
    # paneld's release link puts Sources/paneld/Link (libstdc++.a instead of libstdc++.so)
    # first on its search path; the bench gets the same here, so neither binary needs
    # libstdc++.so.6 on the Pi.
    local t=$SECONDS
    # A fresh manifest and build description: `paneld --version` shows the
    # revision built (SwiftPM re-reads Package.swift only when it changes). Each
    # product's build plans again: a kept description holds the link flags of
    # the build that made it (the bench's -L below).
    rm -f "$B/release/release.yaml"
    swift_build "$SYSROOT" "$B/release" swift_static -c release --static-swift-stdlib --manifest-cache none \
        -Xlinker "'$shim'" \
        --product paneld >"$B/build-release.log" 2>&1 \
        || { tail -40 "$B/build-release.log"; exit 1; }
    rm -f "$B/release/release.yaml"
    swift_build "$SYSROOT" "$B/release" swift_static -c release --static-swift-stdlib \
        -Xlinker "'$shim'" \
        -Xlinker -L"'$ROOT/Sources/paneld/Link'" --product panelgauge-bench >>"$B/build-release.log" 2>&1 \
        || { tail -40 "$B/build-release.log"; exit 1; }
    # The display library's example (the arm64 e2e runs it on bochs-display).
    rm -f "$B/release/release.yaml"
    swift_build "$SYSROOT" "$B/release" swift_static -c release --static-swift-stdlib \
        -Xlinker "'$shim'" \
        -Xlinker -L"'$ROOT/Sources/paneld/Link'" --product gauge-on-screen >>"$B/build-release.log" 2>&1 \
        || { tail -40 "$B/build-release.log"; exit 1; }
    log "release build: $((SECONDS - t)) s"
    mkdir -p "$OUT"
    local p
    for p in paneld panelgauge-bench gauge-on-screen; do
        aarch64-linux-gnu-strip --strip-debug -o "$OUT/$p" "$B/release/aarch64-unknown-linux-gnu/release/$p"
    done
}

# check_binary FILE: at most GLIBC_2.36; NEEDED only libc, libm, libdrm, freetype (and its
# libraries), zlib, libgcc_s (libmosquitto is opened at run time, only with MQTT).
check_binary() {
    local f=$1 max needed bad
    max=$(aarch64-linux-gnu-objdump -T "$f" | grep -o 'GLIBC_[0-9.]*' | sort -t. -k2,2n -u | tail -1)
    needed=$(aarch64-linux-gnu-readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    log "$(basename "$f"): $(stat -c %s "$f") bytes, needs $max; NEEDED: $needed"
    case $max in GLIBC_2.3[7-9] | GLIBC_2.[4-9]*) echo "[aarch64] FAIL: $f needs $max (bookworm has 2.36)" >&2; exit 1 ;; esac
    bad=$(printf '%s\n' $needed | grep -Ev '^(libc|libm|libdrm|libfreetype|libz|libgcc_s|libpng16|libbrotli(dec|common)|libbz2)\.so\.[0-9]+$|^ld-linux-aarch64\.so\.1$' || true)
    [ -z "$bad" ] || { echo "[aarch64] FAIL: $f needs unexpected libraries: $bad" >&2; exit 1; }
}

# check_revision FILE: `paneld --version` (run by qemu-user with the bookworm sysroot)
# names the package version and the revision built.
check_revision() {
    local f=$1 said version
    version=$(tr -d ' \n' <"$ROOT/packaging/VERSION")
    said=$(qemu-aarch64-static -L "$SYSROOT" "$f" --version)
    log "$(basename "$f") --version: $said"
    [ "$said" = "paneld $version (git $REVISION)" ] \
        || { echo "[aarch64] FAIL: $f says '$said', built from $version at $REVISION" >&2; exit 1; }
}

build_tests() {
    log "swift build --build-tests (debug, Swift 6.0.3, aarch64, trixie sysroot)"
    local t=$SECONDS
    swift_build "$TEST_SYSROOT" "$B/debug" swift --build-tests >"$B/build-tests.log" 2>&1 \
        || { tail -40 "$B/build-tests.log"; exit 1; }
    log "test build: $((SECONDS - t)) s; bundle $B/debug/aarch64-unknown-linux-gnu/debug/paneldPackageTests.xctest"
}

mkdir -p "$B"
host_tools
make_chroot
make_sysroot "$SYSROOT" bookworm "${BOOKWORM_PACKAGES[@]}"
build_release
check_binary "$OUT/paneld"
check_revision "$OUT/paneld"
check_binary "$OUT/panelgauge-bench"
if [ "$TESTS" = 1 ]; then
    make_sysroot "$TEST_SYSROOT" trixie "${TRIXIE_PACKAGES[@]}"
    build_tests
fi
log "done in $((SECONDS - T0)) s: $OUT/paneld $OUT/panelgauge-bench"
