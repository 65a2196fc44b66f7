#!/usr/bin/env bash
# paneld's arm64 Debian package under a real systemd: a Debian 12 arm64 booted in
# qemu-system-aarch64 (-machine virt, cortex-a72, TCG) with a virtio-gpu display.
#
# The root file system: `debootstrap --foreign --arch=arm64` of bookworm (minbase with
# systemd, udev and paneld's dependencies) on the host, Debian trixie's arm64 kernel
# modules copied in (the kernel itself is given to QEMU, as in Tests/qemu/run-e2e.sh
# --arch arm64), an ext4 image of it (mkfs.ext4 -d), then a first boot with an
# initramfs of our own (busybox-static:arm64, arm64-init.sh) that runs debootstrap's
# second stage in the guest: this host has no binfmt_misc for arm64 and does not get
# one. That image is cached in .cache/ (per suite, package list, kernel and test
# system); each run boots a copy of it twice, the same initramfs handing the root to
# systemd, and drives the guest like run.sh (lib.sh: serial FIFO, 9p share, monitor).
#
# Checks:
#   boot 1  apt-install      `apt-get install ./paneld_*_arm64.deb` in the booted guest
#                            (offline: its dependencies are in the image) installs it:
#                            dpkg says "install ok installed", architecture arm64, on
#                            an aarch64 kernel; postinst starts paneld.socket
#   boot 2  socket-at-boot   paneld.socket listens at boot (root:paneld 0660), paneld.service
#                            is not running, its SystemCallFilter is set (not empty)
#           first-value      `echo 73 | socat` starts paneld.service; the screendump of the
#                            virtio-gpu display (800x480, the package layout's mode) equals,
#                            pixel for pixel, the PNG the package's own arm64 binary draws
#                            on the host (`paneld render` under qemu-aarch64-static with
#                            the bookworm arm64 sysroot) with the package's layout
#           sandbox          the running daemon as the unit makes it: user paneld, seccomp
#                            filter mode, no new privileges, CAP_SYS_TTY_CONFIG only, a
#                            read-only /usr
#           backlight-under-unit  a gpio-backlight (the virt machine's device tree
#                            with a node on its PL061) has its files in group video (the
#                            package's udev rule at coldplug); `screen 0` and `screen 100`
#                            on the socket set its level and the GPIO line under the unit
#           syscalls-kill    the daemon ran with a test-only drop-in (SystemCallErrorNumber=
#                            emptied: a refused system call kills it with SIGSYS) from its
#                            start: after the first and a second value (shown on the screen)
#                            and a stop, it was never restarted, stopped with success, and
#                            the journal has no SIGSYS or "Main process exited"
#           kill-control     the same filter kills a program that makes a refused call
#                            (chroot(2)) with SIGSYS: the check above can fail
#           version          `paneld --version` in the guest names a git revision, the same
#                            as the binary says on the host
#
# Usage: bash Tests/systemd-boot/run-arm64.sh
# Environment: PANELD_DEB (the arm64 .deb; default: packaging/build-deb.sh arm64, which
#   needs packaging/build-aarch64.sh's binary), PANELD_ARM64_SYSROOT (the sysroot the
#   host's qemu-aarch64-static runs the package's binary with; default
#   .build-aarch64/sysroot-bookworm), SB_TIMEOUT (seconds, default 1500), SB_FRESH=1
#   (bootstrap again, ignoring the cached image), SB_KEEP=1 (keep .work-arm64),
#   DEBIAN_MIRROR. Needs root (debootstrap, mkfs.ext4 -d with owners).
set -Eeuo pipefail

if [ -z "${SB_UNDER_TIMEOUT:-}" ]; then
    SB_UNDER_TIMEOUT=1 exec timeout --kill-after=15 "${SB_TIMEOUT:-1500}" bash "$0" "$@"
fi

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CACHE=$HERE/.cache
WORK=$HERE/.work-arm64
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
# paneld's Depends (libc6, libdrm2, libfreetype6, zlib1g, libmosquitto1, fonts-dejavu-core,
# systemd-sysusers: systemd provides it in bookworm) are installed here, so that apt in
# the guest needs no network.
INCLUDE=systemd,systemd-sysv,udev,dbus,kmod,procps,socat,libdrm2,libfreetype6,zlib1g,libmosquitto1,fonts-dejavu-core
SYSROOT=${PANELD_ARM64_SYSROOT:-$ROOT/.build-aarch64/sysroot-bookworm}
SB_TAG=systemd-boot-arm64
SB_DEVICE=virtio-gpu-pci,xres=800,yres=480
# Under TCG an arm64 systemd boot is slower than the amd64 one.
SB_BOOT_SECONDS=${SB_BOOT_SECONDS:-420}
# shellcheck source=lib.sh
. "$HERE/lib.sh"
# shellcheck source=../qemu/kernel.sh
. "$ROOT/Tests/qemu/kernel.sh"

# ---------------------------------------------------------------- tools
t=$SECONDS
install_missing debootstrap qemu-system-arm qemu-user-static e2fsprogs python3 dpkg-dev kmod cpio xz-utils \
    binutils-aarch64-linux-gnu fonts-dejavu-core debian-archive-keyring device-tree-compiler
phase_done tools $t

# ---------------------------------------------------------------- package
t=$SECONDS
mkdir -p "$CACHE" && rm -rf "$WORK" && mkdir -p "$WORK"
the_package arm64
[ "$(dpkg-deb -f "$PANELD_DEB" Architecture)" = arm64 ] || die "$PANELD_DEB is not an arm64 package"
[ -d "$SYSROOT/usr/lib/aarch64-linux-gnu" ] || die "no arm64 sysroot at $SYSROOT (packaging/build-aarch64.sh makes it)"
# The package's own arm64 binary and layout draw the expected pictures on the host.
dpkg-deb -x "$PANELD_DEB" "$WORK/deb"
PANELD=$WORK/deb/usr/bin/paneld
LAYOUT=$WORK/deb/etc/paneld/layout.json
paneld_host() { qemu-aarch64-static -L "$SYSROOT" "$PANELD" "$@"; }
HOST_VERSION=$(paneld_host --version)
DEFAULT_GAUGE=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("default", ""))' "$LAYOUT")
[ -n "$DEFAULT_GAUGE" ] || die "the package's layout names no default gauge"
MODE=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["mode"])' "$LAYOUT")
[ "$MODE" = 800x480 ] || die "the package's layout wants $MODE; the display here is $SB_DEVICE"
log "package $(basename "$PANELD_DEB") ($(($(stat -c %s "$PANELD_DEB") / 1024)) KiB): $HOST_VERSION; Depends: $(dpkg-deb -f "$PANELD_DEB" Depends)"
phase_done package $t

# ---------------------------------------------------------------- kernel, initramfs
t=$SECONDS
# The kernel run-e2e.sh --arch arm64 boots (its cache is shared).
mkdir -p "$ROOT/Tests/qemu/.cache"
prepare_kernel_arm64 "$ROOT/Tests/qemu/.cache" "$CACHE/apt-arm64"
dir=$WORK/initramfs
mkdir -p "$dir/bin"
cp "$ROOT/Tests/qemu/.cache/busybox-arm64/usr/bin/busybox" "$dir/bin/busybox"
install -m 0755 "$HERE/arm64-init.sh" "$dir/init"
modules_for virtio_pci virtio_blk ext4 >"$dir/modules"
unpack_modules "$dir" "$dir/modules"
(cd "$dir" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -6) >"$WORK/initrd"
# The virt machine with a GPIO backlight (check backlight-under-unit).
virt_dtb_with_backlight "$WORK/virt.dtb" 2
phase_done kernel $t

# ---------------------------------------------------------------- root file system
# Cached per suite, package list, mirror, kernel and test system (SB_FRESH=1 or a fresh
# clone starts from scratch).
t=$SECONDS
key=$SUITE-$( (printf '%s %s %s\n' "$INCLUDE" "$MIRROR" "$KVER" && declare -f test_system quiet_shell && cat "$HERE/arm64-init.sh") | sha256sum | cut -c1-10)
BASE=$CACHE/base-arm64-$key.img
# start_qemu DIR DEVICE KERNEL-ARGS [DISK]: lib.sh's boot (serial and monitor on FIFOs
# in DIR), and the setup boot below (SERIAL_LOG set: the console to that file, no monitor).
start_qemu() {
    local d=$1 device=$2 kargs=$3 disk=${4:-$WORK/disk.img} io
    io=(-serial "pipe:$d/serial" -monitor "pipe:$d/mon")
    [ -z "${SERIAL_LOG:-}" ] || io=(-serial "file:$SERIAL_LOG" -monitor none)
    nice -n 5 qemu-system-aarch64 -nodefaults -no-user-config -machine virt,accel=tcg -cpu cortex-a72 -smp 2 -m 1024 \
        -dtb "$WORK/virt.dtb" -kernel "$KERNEL" -initrd "$WORK/initrd" \
        -append "console=ttyAMA0 panic=-1 loglevel=4${kargs:+ $kargs}" \
        -drive "file=$disk,if=none,id=disk,format=raw,cache=unsafe" -device virtio-blk-pci,drive=disk \
        -virtfs "local,path=$SHARE,mount_tag=share,security_model=none" \
        -display none -device "$device" "${io[@]}" -no-reboot >"$d/qemu.log" 2>&1 &
}
if [ -n "${SB_FRESH:-}" ] || [ ! -f "$BASE" ]; then
    R=$CACHE/root-arm64.tmp
    rm -rf "$R" "$BASE.tmp"
    log "debootstrap --foreign --arch=arm64 --variant=minbase $SUITE (with $INCLUDE)"
    nice -n 5 debootstrap --foreign --arch=arm64 --variant=minbase --include="$INCLUDE" "$SUITE" "$R" "$MIRROR" \
        >"$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log"; die "debootstrap --foreign failed"; }
    phase_done debootstrap-first-stage $t
    t=$SECONDS
    test_system "$R" ttyAMA0
    # Before the second stage: base-files keeps a /root/.bashrc that exists.
    mkdir -p "$R/root" && quiet_shell "$R"
    # dpkg without a sync per file in the second stage (the disk is a scratch image
    # with cache=unsafe anyway); arm64-init.sh removes this file afterwards.
    mkdir -p "$R/etc/dpkg/dpkg.cfg.d" && echo force-unsafe-io >"$R/etc/dpkg/dpkg.cfg.d/sb-unsafe-io"
    mkdir -p "$R/usr/lib/modules"
    cp -a "$KROOT/usr/lib/modules/$KVER" "$R/usr/lib/modules/"
    mkfs.ext4 -q -F -L root -d "$R" "$BASE.tmp" 2G >"$WORK/mkfs.log" 2>&1 || { cat "$WORK/mkfs.log"; die "mkfs.ext4 failed"; }
    rm -rf "$R"
    log "debootstrap --second-stage in the guest"
    mkdir -p "$WORK/setup" "$SHARE"
    SERIAL_LOG=$WORK/setup/serial.log start_qemu "$WORK/setup" "$SB_DEVICE" sbmode=setup "$BASE.tmp"
    QEMU_PID=$!
    wait "$QEMU_PID" || true
    QEMU_PID=""
    if ! grep -q "SB-SETUP-DONE rc=0" "$WORK/setup/serial.log"; then
        tail -c 4000 "$WORK/setup/serial.log" | tr -d '\r'
        die "debootstrap's second stage in the guest failed"
    fi
    mv "$BASE.tmp" "$BASE"
    phase_done debootstrap-second-stage $t
    t=$SECONDS
fi
cp --sparse=always "$BASE" "$WORK/disk.img"
phase_done image $t
log "kernel $KVER, image $(du -m "$WORK/disk.img" | cut -f1) MB used"

# ---------------------------------------------------------------- boot 1: apt
g=$DEFAULT_GAUGE
deb=$(basename "$PANELD_DEB")
t=$SECONDS
boot boot1
cp "$PANELD_DEB" "$SHARE/$deb"
check apt-install "apt-get install of the arm64 package in the guest failed, or dpkg does not list it as installed for arm64" "
uname -m; [ \"\$(uname -m)\" = aarch64 ]
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /mnt/share/$deb 2>&1 | tail -15
dpkg-query -W -f='\${db:Status-Status} \${Architecture} \${Version}\n' paneld
[ \"\$(dpkg-query -W -f='\${db:Status-Status} \${Architecture}' paneld)\" = 'installed arm64' ]
dpkg -s paneld | grep -x 'Status: install ok installed'
systemctl is-active paneld.socket" 300
shutdown_vm
phase_done boot1 $t

# ---------------------------------------------------------------- boot 2: at boot, under the unit
t=$SECONDS
boot boot2
check socket-at-boot "paneld.socket does not listen at boot as root:paneld 0660, paneld.service already runs, or its SystemCallFilter is empty" '
systemctl is-active paneld.socket
stat -c "%a %U:%G" /run/paneld.sock
[ "$(stat -c "%a %U:%G" /run/paneld.sock)" = "660 root:paneld" ]
! systemctl is-active paneld.service
systemctl show paneld.service -p SystemCallFilter | cut -c1-160
systemctl show paneld.service -p SystemCallErrorNumber
[ -n "$(systemctl show paneld.service -p SystemCallFilter --value)" ]'

# Test only: a refused system call kills paneld (SIGSYS) instead of failing with EPERM,
# from its first start on; the drop-in lives in /run (gone at the next boot).
guest_ok 'before=$(systemctl show paneld.service -p SystemCallErrorNumber --value)
mkdir -p /run/systemd/system/paneld.service.d
printf "[Service]\nSystemCallErrorNumber=\n" >/run/systemd/system/paneld.service.d/kill-on-refusal.conf
systemctl daemon-reload
after=$(systemctl show paneld.service -p SystemCallErrorNumber --value)
echo "SystemCallErrorNumber: as shipped $before, with the drop-in ${after:-(empty)}"
[ "$before" != "$after" ]'
log "$(cat "$GUEST_OUT")"

render v73 "$g=73"
guest 'echo 73 | socat - UNIX:/run/paneld.sock
for i in $(seq 200); do systemctl is-active --quiet paneld.service && break; sleep 0.1; done
systemctl is-active paneld.service
systemctl show -p MainPID --value paneld.service >/mnt/share/pid-first'
if [ "$GUEST_RC" != 0 ]; then
    fail first-value "the first value did not start paneld.service"
elif screen_is first-value "$WORK/v73.png" 30; then
    pass first-value "socket activation; the virtio-gpu screen equals the arm64 paneld render --set $g=73"
else
    echo "$SCREEN_DIFF"
    guest 'journalctl -b -u paneld --no-pager -o cat | tail -10'
    fail first-value "the screen does not show $g=73"
fi

check sandbox "the running paneld is not sandboxed as the unit says" '
pid=$(systemctl show -p MainPID --value paneld.service)
grep -E "^(Uid|Gid|Groups|NoNewPrivs|Seccomp|CapEff|CapBnd):" /proc/$pid/status
[ "$(awk "/^Uid:/ {print \$2}" /proc/$pid/status)" = "$(id -u paneld)" ]
grep -qx "Seccomp:[[:space:]]*2" /proc/$pid/status
grep -qx "NoNewPrivs:[[:space:]]*1" /proc/$pid/status
grep -qx "CapEff:[[:space:]]*0000000004000000" /proc/$pid/status
awk "\$5 == \"/\" {print \$5, \$6}" /proc/$pid/mountinfo
awk "\$5 == \"/\" {print \$6}" /proc/$pid/mountinfo | tail -1 | grep -q "^ro,"'

# A real backlight driver (gpio-backlight on the PL061), dimmed by paneld under the
# unit: the package's udev rule gives its files to group video at coldplug, the
# unit's ReadWritePaths=-/sys/devices and SupplementaryGroups let paneld write them.
# The GPIO line's state is the kernel's (debugfs), not paneld's files.
check backlight-under-unit "paneld under the unit cannot dim the GPIO backlight (the udev rule, ReadWritePaths, groups)" '
b=/sys/class/backlight/backlight
ls /sys/class/backlight
stat -c "%n %G %a" $b/brightness $b/bl_power
[ "$(stat -c %G $b/brightness)" = video ] && [ "$(stat -c %G $b/bl_power)" = video ]
echo "screen 0" | socat - UNIX:/run/paneld.sock | tee /tmp/screen-0
grep -qx "OK screen 0" /tmp/screen-0
[ "$(cat $b/brightness)" = 0 ] && [ "$(cat $b/bl_power)" = 0 ]
grep backlight /sys/kernel/debug/gpio | grep -q " out lo"
echo "screen 100" | socat - UNIX:/run/paneld.sock | grep -x "OK screen 100"
[ "$(cat $b/brightness)" = 1 ]
grep backlight /sys/kernel/debug/gpio
grep backlight /sys/kernel/debug/gpio | grep -q " out hi"
echo "screen auto" | socat - UNIX:/run/paneld.sock'

render v42 "$g=42"
guest 'echo 42 | socat - UNIX:/run/paneld.sock'
if screen_is second-value "$WORK/v42.png" 30; then
    log "the second value is on the screen"
    shown=1
else
    echo "$SCREEN_DIFF"
    shown=0
fi
check syscalls-kill "paneld was killed or restarted under the kill-on-refusal filter, or did not stop cleanly" "
[ $shown = 1 ] || { echo 'the screen does not show $g=42'; exit 1; }
systemctl show paneld.service -p NRestarts -p MainPID -p ActiveState -p SystemCallErrorNumber
[ \"\$(systemctl show -p MainPID --value paneld.service)\" = \"\$(cat /mnt/share/pid-first)\" ]
[ \"\$(systemctl show -p NRestarts --value paneld.service)\" = 0 ]
systemctl stop paneld.service
systemctl show paneld.service -p Result -p ExecMainCode -p ExecMainStatus
[ \"\$(systemctl show -p Result --value paneld.service)\" = success ]
journalctl -b --no-pager -o cat | grep -E 'SIGSYS|status=31|Main process exited|code=killed' | grep -i paneld && exit 1
journalctl -b -u paneld --no-pager -o cat | tail -6
true" 90

check kill-control "a refused system call under the same filter did not kill the program with SIGSYS" '
systemd-run --wait --collect -p SystemCallFilter=@system-service -p "SystemCallFilter=~@privileged @resources" \
    -p SystemCallArchitectures=native /usr/sbin/chroot / /bin/true; echo "systemd-run: $?"
journalctl -b --no-pager -o cat | grep -E "status=31/SYS|SIGSYS" | tail -2
journalctl -b --no-pager -o cat | grep -qE "status=31/SYS"'

check version "paneld --version in the guest names no git revision, or not the host'\''s" "
paneld --version
paneld --version | grep -Eq '\\(git [0-9a-f]{12}(\\+dirty)?\\)\$'
[ \"\$(paneld --version)\" = '$HOST_VERSION' ]"
shutdown_vm
phase_done boot2 $t

[ -n "${SB_KEEP:-}" ] || rm -rf "$WORK"
summary
if [ ${#FAILED[@]} -gt 0 ]; then exit 1; fi
