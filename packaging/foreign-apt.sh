# Sourced by packaging/build-aarch64.sh and Tests/qemu/run-e2e.sh:
# downloads Debian packages for arm64 (from bookworm or trixie) through an apt
# configuration of their own, so the host's apt sources, lists and caches stay
# untouched. arm64 is that configuration's only architecture: a package name without
# :ARCH means arm64, and architecture-independent packages come along. Needs
# APT_STATE (a folder for the lists and caches); DEBIAN_MIRROR is optional.

DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

# foreign_apt SUITE APT-GET-ARGS...: apt-get with SUITE's main (arm64) as its only source.
foreign_apt() {
    local suite=$1 dir=$APT_STATE/$1
    shift
    if [ ! -f "$dir/sources/debian.sources" ]; then
        mkdir -p "$dir/sources" "$dir/lists/partial" "$dir/cache/archives/partial"
        cat >"$dir/sources/debian.sources" <<EOF
Types: deb
URIs: $DEBIAN_MIRROR
Suites: $suite
Components: main
Architectures: arm64
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    fi
    ${FOREIGN_APT_TOOL:-apt-get} -q -o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts="$dir/sources" \
        -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
        -o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
        -o APT::Sandbox::User=root "$@"
}

# foreign_download SUITE DEST PACKAGE...: the .debs (e.g. libc6:arm64) into DEST;
# refreshes SUITE's lists once per day, and once more when a download fails.
foreign_download() {
    local suite=$1 dest=$2 lists=$APT_STATE/$1/lists
    shift 2
    mkdir -p "$dest"
    if [ -z "$(find "$lists" -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
        foreign_apt "$suite" update -qq >/dev/null
    fi
    (cd "$dest" && foreign_apt "$suite" download -qq "$@" >/dev/null) || {
        foreign_apt "$suite" update -qq >/dev/null
        (cd "$dest" && foreign_apt "$suite" download -qq "$@" >/dev/null)
    }
}

# foreign_depends SUITE PACKAGE PATTERN: the first dependency of PACKAGE matching PATTERN
# (e.g. the kernel that linux-image-arm64 pulls in today).
foreign_depends() {
    FOREIGN_APT_TOOL=apt-cache foreign_apt "$1" depends "$2" 2>/dev/null | awk -v p="$3" '$1 == "Depends:" && $2 ~ p {print $2; exit}'
}
