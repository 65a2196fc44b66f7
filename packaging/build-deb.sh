#!/usr/bin/env bash
# Builds the Debian package paneld_UPSTREAM-REVISION_ARCH.deb with Debian's own tools
# (dpkg-shlibdeps, dpkg-gencontrol, dpkg-deb), no debhelper.
#
# Usage: packaging/build-deb.sh amd64|arm64 [BINARY]
#   amd64: BINARY defaults to a fresh
#          `swift build -c release --static-swift-stdlib --product paneld`.
#   arm64: BINARY defaults to .build-aarch64/out/paneld (packaging/build-aarch64.sh).
# Environment:
#   PANELD_VERSION   the upstream version (default: packaging/VERSION)
#   PANELD_DEB_REVISION the Debian revision (default: 1); the package's version is
#                    UPSTREAM-REVISION, so the changelog is changelog.Debian.gz
#   PANELD_DEB_OUT   where the .deb goes (default: .build-deb/)
#   PANELD_DEB_SUITE arm64 only: the Debian suite whose arm64 libraries the binary
#                    was linked against (default: bookworm); their shlibs and symbols
#                    files decide the Depends.
# Prints the path of the .deb on its last line.
#
# Depends: dpkg-shlibdeps reads the binary's NEEDED entries and versioned symbols.
# For amd64 it asks the host's dpkg database; for arm64 it runs against a small
# dpkg database of its own (packaging/.cache/arm64-SUITE/), made from the arm64
# library packages of that suite (downloaded with an apt configuration of its own:
# the host's apt sources stay untouched). A versioned need that no symbol carries
# (GLIBC_ABI_DT_RELR, which lld's pack-relative-relocs adds) is mapped to the libc6
# version that introduced it, from the same binary's version references.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ARCH=${1:-}
BINARY=${2:-}
UPSTREAM=${PANELD_VERSION:-$(tr -d ' \n' <"$HERE/VERSION")}
VERSION=$UPSTREAM-${PANELD_DEB_REVISION:-1}
OUT=${PANELD_DEB_OUT:-$ROOT/.build-deb}
SUITE=${PANELD_DEB_SUITE:-bookworm}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

die() {
    echo "build-deb.sh: $*" >&2
    exit 1
}

case "$ARCH" in
amd64) triplet=x86_64-linux-gnu elf=x86-64 ;;
arm64) triplet=aarch64-linux-gnu elf=aarch64 ;;
*) die "usage: packaging/build-deb.sh amd64|arm64 [BINARY]" ;;
esac
[[ "$VERSION" =~ ^[0-9][0-9A-Za-z.+~-]*$ ]] || die "version '$VERSION' is not a Debian version"

need=()
for tool in dpkg-deb dpkg-shlibdeps dpkg-gencontrol; do command -v "$tool" >/dev/null || need+=(dpkg-dev); done
[ "$ARCH" = amd64 ] || command -v "$triplet-objdump" >/dev/null || need+=("binutils-$triplet")
if [ ${#need[@]} -gt 0 ]; then
    echo "build-deb.sh: installing ${need[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# ---------------------------------------------------------------- the binary
if [ -z "$BINARY" ]; then
    if [ "$ARCH" = amd64 ]; then
        echo "build-deb.sh: swift build -c release --static-swift-stdlib --product paneld" >&2
        # SwiftPM re-evaluates Package.swift (which reads the git revision for
        # `paneld --version`) only when the file changes, and keeps the build
        # description made from it: both are made afresh here.
        rm -f "$ROOT/.build/release.yaml"
        (cd "$ROOT" && swift build -c release --static-swift-stdlib --manifest-cache none --product paneld >&2)
        BINARY=$(cd "$ROOT" && swift build -c release --static-swift-stdlib --show-bin-path)/paneld
    else
        BINARY=$ROOT/.build-aarch64/out/paneld
    fi
fi
[ -f "$BINARY" ] || die "no binary at $BINARY"
file_format=$(objdump -f "$BINARY" 2>/dev/null | sed -n 's/.*file format //p' || true)
if [ "$ARCH" = arm64 ]; then file_format=$("$triplet-objdump" -f "$BINARY" | sed -n 's/.*file format //p'); fi
[[ "$file_format" == *"$elf"* ]] || die "$BINARY is not an $ARCH binary (file format: ${file_format:-unknown})"
# The binary's own version (paneld --version, from Package.swift) must be the package's,
# and the revision the default binary was built from this tree's HEAD. An arm64 binary
# runs under qemu-user with the sysroot it was linked against (PANELD_ARM64_SYSROOT,
# default build-aarch64.sh's); without them, its two C strings (Sources/PaneldBuildInfo)
# are read from the file.
head=
[ -n "${2:-}" ] || head=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null | cut -c1-12) || true
version_text() {
    local sysroot=${PANELD_ARM64_SYSROOT:-$ROOT/.build-aarch64/sysroot-bookworm} strings revision
    if [ "$ARCH" = amd64 ]; then
        "$BINARY" --version
    elif command -v qemu-aarch64-static >/dev/null && [ -d "$sysroot" ]; then
        qemu-aarch64-static -L "$sysroot" "$BINARY" --version
    else
        strings=$("$triplet-strings" -a -n 5 "$BINARY")
        revision='[0-9a-f]{12}'
        [ -z "$head" ] || revision=$head
        printf 'paneld %s (git %s)\n' "$(grep -Fx "$UPSTREAM" <<<"$strings" | head -1)" \
            "$(grep -Ex "$revision(\\+dirty)?" <<<"$strings" | head -1)"
    fi
}
said=$(version_text)
[ "$(awk '{print $2}' <<<"$said")" = "$UPSTREAM" ] || die "$BINARY says '$said', the package would be $UPSTREAM"
[ -z "$head" ] || [[ "$said" == *"(git $head"* ]] || die "$BINARY says '$said', built from $head"
echo "build-deb.sh: $BINARY: $said" >&2

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PKG=$WORK/src/debian/paneld
SRC=$WORK/src # the source-package view (the package tree is debian/paneld in it) dpkg-shlibdeps and dpkg-gencontrol expect
mkdir -p "$PKG/DEBIAN" "$SRC/debian"

# ---------------------------------------------------------------- the files
install -d -m 0755 "$PKG/usr/bin" "$PKG/usr/lib/systemd/system" "$PKG/usr/lib/sysusers.d" \
    "$PKG/etc/paneld" "$PKG/usr/share/doc/paneld" "$PKG/usr/share/man/man1" "$PKG/usr/share/lintian/overrides"
install -m 0755 "$BINARY" "$PKG/usr/bin/paneld"
strip_tool=strip
[ "$ARCH" = amd64 ] || strip_tool=$triplet-strip
"$strip_tool" --strip-unneeded --remove-section=.comment --remove-section=.note "$PKG/usr/bin/paneld"
install -m 0644 "$ROOT/systemd/paneld.service" "$ROOT/systemd/paneld.socket" "$PKG/usr/lib/systemd/system/"
install -m 0644 "$ROOT/systemd/paneld.sysusers" "$PKG/usr/lib/sysusers.d/paneld.conf"
install -D -m 0644 "$ROOT/systemd/paneld-backlight.rules" "$PKG/usr/lib/udev/rules.d/70-paneld-backlight.rules"
install -m 0644 "$HERE/layout.json" "$PKG/etc/paneld/layout.json"
install -m 0644 "$HERE/debian/copyright" "$PKG/usr/share/doc/paneld/copyright"
# The network drop-in (statsd over UDP, MQTT) and what the unit's hardening costs with it.
install -D -m 0644 "$ROOT/systemd/network.conf" "$PKG/usr/share/doc/paneld/examples/network.conf"
install -m 0644 "$ROOT/systemd/SECURITY.md" "$PKG/usr/share/doc/paneld/SECURITY.md"
# The layout reference, for a Pi owner offline (paneld(1), FILES).
install -m 0644 "$ROOT/docs/layout.md" "$PKG/usr/share/doc/paneld/layout.md"
# The example dashboards (layout, feeder script, its service and timer), as examples/
# holds them; examples/README.md says how to install one from here.
for d in "$ROOT"/examples/*/; do
    install -D -m 0644 -t "$PKG/usr/share/doc/paneld/examples/dashboards/$(basename "$d")" "$d"*
done
install -m 0644 "$HERE/debian/lintian-overrides" "$PKG/usr/share/lintian/overrides/paneld"
gzip -9n <"$HERE/debian/paneld.1" >"$PKG/usr/share/man/man1/paneld.1.gz"
chmod 0644 "$PKG/usr/share/man/man1/paneld.1.gz"

# changelog.Debian: one entry for this version (the project keeps its history in git).
date_r=$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || date +%s)}")
cat >"$SRC/debian/changelog" <<EOF
paneld ($VERSION) unstable; urgency=medium

  * Upstream release $UPSTREAM, built from git $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown).

 -- paneld maintainers <maintainers@users.noreply.a-seed-f37619d2.example>  $date_r
EOF
gzip -9n <"$SRC/debian/changelog" >"$PKG/usr/share/doc/paneld/changelog.Debian.gz"
chmod 0644 "$PKG/usr/share/doc/paneld/changelog.Debian.gz"

echo /etc/paneld/layout.json >"$PKG/DEBIAN/conffiles"
for s in postinst prerm postrm; do install -m 0755 "$HERE/debian/$s" "$PKG/DEBIAN/$s"; done
cp "$HERE/debian/control" "$SRC/debian/control"

# ---------------------------------------------------------------- Depends
# A dpkg database holding SUITE's arm64 library packages (status, file lists,
# shlibs and symbols files), and their files unpacked beside it.
# The candidates: the runtime packages whose libraries a paneld build may load;
# dpkg-shlibdeps below fails if the binary needs a library none of them ships.
CANDIDATES=(libc6 libgcc-s1 libdrm2 libfreetype6 zlib1g)
foreign_admindir() {
    local key dir apt=$HERE/.cache/apt-$SUITE deb pkg
    key=$(printf '%s ' "${CANDIDATES[@]}" | sha256sum | cut -c1-8)
    dir=$HERE/.cache/$ARCH-$SUITE-$key # a new list of candidates starts a new database
    if [ ! -f "$dir/.done" ]; then
        rm -rf "$dir" && mkdir -p "$dir/admin/info" "$dir/root" "$dir/debs" "$apt/sources" "$apt/lists/partial" "$apt/cache/archives/partial"
        cat >"$apt/sources/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: $SUITE
Components: main
Architectures: $ARCH
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
        local aptopts=(-o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts="$apt/sources"
            -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Architectures::="$ARCH"
            -o APT::Sandbox::User=root)
        apt-get -qq "${aptopts[@]}" update >&2
        (cd "$dir/debs" && apt-get -qq "${aptopts[@]}" download "${CANDIDATES[@]/%/:$ARCH}" >&2)
        : >"$dir/admin/status"
        # A multiarch database (info/PKG:ARCH.*) that knows ARCH as a foreign architecture.
        echo 1 >"$dir/admin/info/format"
        printf 'amd64\n%s\n' "$ARCH" >"$dir/admin/arch"
        for deb in "$dir"/debs/*.deb; do
            pkg=$(dpkg-deb -f "$deb" Package)
            dpkg-deb -x "$deb" "$dir/root"
            mkdir -p "$dir/ctl/$pkg" && dpkg-deb -e "$deb" "$dir/ctl/$pkg"
            {
                dpkg-deb -f "$deb" Package Version Architecture Multi-Arch Source Maintainer Description
                echo "Status: install ok installed"
                echo
            } >>"$dir/admin/status"
            # File lists with the unpacked root's prefix: dpkg-shlibdeps finds the
            # libraries there (-l) and asks dpkg-query which package holds that path.
            dpkg-deb -c "$deb" | awk '{print $6}' | sed -e 's|^\./|/|' -e "s|^/|$dir/root/|" -e 's|/$||' \
                >"$dir/admin/info/$pkg:$ARCH.list"
            for f in shlibs symbols; do
                [ -f "$dir/ctl/$pkg/$f" ] && cp "$dir/ctl/$pkg/$f" "$dir/admin/info/$pkg:$ARCH.$f"
            done
        done
        touch "$dir/.done"
    fi
    FOREIGN=$dir
}

shlibdeps=(dpkg-shlibdeps -Tdebian/substvars -edebian/paneld/usr/bin/paneld)
if [ "$ARCH" != amd64 ]; then
    foreign_admindir
    export DEB_HOST_ARCH=$ARCH
    shlibdeps=(dpkg-shlibdeps --admindir="$FOREIGN/admin" -l"$FOREIGN/root/lib/$triplet" -l"$FOREIGN/root/usr/lib/$triplet"
        -Tdebian/substvars -edebian/paneld/usr/bin/paneld)
fi
(cd "$SRC" && "${shlibdeps[@]}") || die "dpkg-shlibdeps failed"

objdump_tool=objdump
[ "$ARCH" = amd64 ] || objdump_tool=$triplet-objdump
# A binary linked against a newer glibc than SUITE's (e.g. a trixie sysroot) would
# get a Depends that is too low: refuse, naming the suite to use.
if [ "$ARCH" != amd64 ]; then
    newest=$("$objdump_tool" -p "$PKG/usr/bin/paneld" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)
    libc=$(awk '/^Package: libc6$/ {p = 1} p && /^Version:/ {print $2; exit}' "$FOREIGN/admin/status")
    if [ -n "$newest" ] && dpkg --compare-versions "${libc%%-*}" lt "$newest"; then
        die "the binary needs GLIBC_$newest, $SUITE's libc6 is $libc: set PANELD_DEB_SUITE to the suite it was linked for"
    fi
fi

# GLIBC_ABI_DT_RELR: a version the binary needs from libc.so.6 without any symbol
# (packed relative relocations, new in glibc 2.36); dpkg-shlibdeps only weighs
# symbols, so the libc6 bound is raised here when the binary asks for it.
if "$objdump_tool" -p "$PKG/usr/bin/paneld" | grep -q 'GLIBC_ABI_DT_RELR'; then
    have=$(sed -n -E 's/.*libc6 \(>= ([0-9.]+)\).*/\1/p' "$SRC/debian/substvars")
    [ -n "$have" ] || die "no versioned libc6 in $(cat "$SRC/debian/substvars")"
    if dpkg --compare-versions "$have" lt 2.36; then
        sed -i -E 's/libc6 \(>= [0-9.]+\)/libc6 (>= 2.36)/' "$SRC/debian/substvars"
        echo "build-deb.sh: GLIBC_ABI_DT_RELR needed: libc6 (>= $have) raised to (>= 2.36)" >&2
    fi
fi

# ---------------------------------------------------------------- control, md5sums, build
(cd "$PKG" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum >DEBIAN/md5sums)
chmod 0644 "$PKG/DEBIAN/md5sums" "$PKG/DEBIAN/conffiles"
(cd "$SRC" && dpkg-gencontrol -ppaneld -P"$PKG" -Tdebian/substvars -DArchitecture="$ARCH")
[ -s "$PKG/DEBIAN/control" ] || die "dpkg-gencontrol wrote no control file"
mkdir -p "$OUT"
deb=$OUT/paneld_${VERSION}_$ARCH.deb
dpkg-deb --root-owner-group -Zxz --build "$PKG" "$deb" >&2
echo "build-deb.sh: $(dpkg-deb -f "$deb" Depends)" >&2
echo "$deb"
