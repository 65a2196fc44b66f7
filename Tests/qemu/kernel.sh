# Sourced by Tests/qemu/run-e2e.sh and Tests/systemd-boot/run-arm64.sh: Debian's arm64
# kernel for qemu-system-aarch64, and the modules a driver needs. Uses ROOT, log, die.
# shellcheck shell=bash disable=SC2034

# prepare_kernel_arm64 CACHE APT-STATE: trixie's kernel (the one linux-image-arm64
# depends on), unpacked into CACHE/kernel-VERSION with modules.dep made by depmod, and
# busybox-static:arm64 in CACHE/busybox-arm64, through an apt configuration of its own
# (packaging/foreign-apt.sh, its lists in APT-STATE). Sets KVER, KROOT and KERNEL
# (vmlinuz: a plain Image).
prepare_kernel_arm64() {
    local CACHE=$1 pkg deb
    APT_STATE=$2
    # shellcheck source=../../packaging/foreign-apt.sh
    . "$ROOT/packaging/foreign-apt.sh"
    mkdir -p "$CACHE/dl-arm64"
    [ -n "$(ls "$APT_STATE"/trixie/lists/*Packages* 2>/dev/null)" ] || foreign_apt trixie update -qq >/dev/null
    pkg=$(foreign_depends trixie linux-image-arm64:arm64 '^linux-image-[0-9]') || true
    [ -n "$pkg" ] || { foreign_apt trixie update -qq >/dev/null; pkg=$(foreign_depends trixie linux-image-arm64:arm64 '^linux-image-[0-9]') || true; }
    pkg=${pkg%:arm64}
    [ -n "$pkg" ] || die "cannot tell which kernel linux-image-arm64 (trixie) depends on"
    KVER=${pkg#linux-image-}
    KROOT=$CACHE/kernel-$KVER
    if [ ! -f "$KROOT/.done" ]; then
        log "downloading $pkg (trixie, arm64)"
        rm -rf "$KROOT" "$CACHE/dl-arm64"/*.deb
        foreign_download trixie "$CACHE/dl-arm64" "$pkg:arm64" || die "cannot download $pkg"
        deb=$(ls -t "$CACHE/dl-arm64/${pkg}_"*.deb | head -1)
        dpkg -x "$deb" "$KROOT"
        # trixie's packages are merged-/usr: modules in usr/lib/modules, where depmod -b does not look.
        [ -e "$KROOT/lib" ] || ln -s usr/lib "$KROOT/lib"
        depmod -b "$KROOT" "$KVER"
        rm -f "$deb"
        touch "$KROOT/.done"
    fi
    if [ ! -x "$CACHE/busybox-arm64/usr/bin/busybox" ]; then
        log "downloading busybox-static:arm64 (trixie)"
        rm -rf "$CACHE/busybox-arm64" "$CACHE/dl-arm64"/busybox-static_*.deb
        foreign_download trixie "$CACHE/dl-arm64" busybox-static:arm64 || die "cannot download busybox-static:arm64"
        dpkg -x "$(ls "$CACHE/dl-arm64"/busybox-static_*.deb | head -1)" "$CACHE/busybox-arm64"
    fi
    KERNEL=$KROOT/boot/vmlinuz-$KVER
    [ -f "$KERNEL" ] || die "no kernel image in $pkg"
    log "kernel $KVER (arm64 Image)"
}

# modules_for MODULE...: the module files to insmod, in order (modprobe --show-depends
# against KROOT), each once; built-in ones are left out.
modules_for() {
    local m
    for m in "$@"; do
        modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" | awk '$1 == "insmod" {print $2}'
    done | awk '!seen[$0]++'
}

# unpack_modules DIR LIST...: the modules each LIST (from modules_for) names, copied
# into DIR at their paths below KROOT, uncompressed (trixie's are .ko.xz; busybox's
# insmod loads only plain ones); the LISTs then name them as DIR's /init sees them.
unpack_modules() {
    local dir=$1 f rel
    shift
    for f in $(cat "$@"); do
        mkdir -p "$dir/$(dirname "${f#"$KROOT"}")"
        case "$f" in
            *.ko.xz) rel=${f#"$KROOT"} && xz -dc "$f" >"$dir/${rel%.xz}" ;;
            *.xz) die "compressed module $f: busybox insmod cannot load it" ;;
            *) cp "$f" "$dir/${f#"$KROOT"}" ;;
        esac
    done
    sed -i "s|^$KROOT||; s|\\.ko\\.xz\$|.ko|" "$@"
}

# virt_dtb_with_backlight OUT SMP: the device tree of qemu-system-aarch64's virt
# machine (cortex-a72, SMP cpus, 1024 MiB), as QEMU makes it, with a gpio-backlight
# node on line 4 of its PL061 GPIO controller (line 3 is the power key's). No
# "default-on": the driver comes up with the light off (bl_power 4). The kernel's
# gpio_backlight driver then offers /sys/class/backlight/backlight, levels 0 and 1.
# Needs fdtget and fdtput (device-tree-compiler).
virt_dtb_with_backlight() {
    local out=$1 smp=$2 phandle
    qemu-system-aarch64 -nodefaults -no-user-config -machine "virt,accel=tcg,dumpdtb=$out" -cpu cortex-a72 \
        -m 1024 -smp "$smp" -display none >/dev/null 2>&1 || die "qemu could not dump the virt machine's device tree"
    phandle=$(fdtget -t x "$out" /pl061@9030000 phandle) || die "no PL061 in the virt machine's device tree"
    fdtput -c "$out" /backlight
    fdtput -t s "$out" /backlight compatible gpio-backlight
    fdtput -t x "$out" /backlight gpios "$phandle" 4 0
}
