# Sourced by Tests/systemd-boot/run.sh (amd64) and run-arm64.sh: the log, the cleanup
# of what a run started, and driving a booted guest (serial FIFO, 9p share, QEMU
# monitor), checks and their summary. The sourcing script sets SB_TAG (the log's
# prefix), WORK, ROOT, SB_DEVICE (the default display device), PANELD and LAYOUT, and
# defines start_qemu DIR DEVICE KERNEL-ARGS. paneld_host (the expected pictures'
# paneld, default "$PANELD") may be redefined after sourcing.
# shellcheck shell=bash disable=SC2034

T0=${EPOCHREALTIME/./}

log() {
    local ms=$(((${EPOCHREALTIME/./} - T0) / 1000))
    printf '[%s %4d.%01ds] %s\n' "$SB_TAG" $((ms / 1000)) $((ms % 1000 / 100)) "$*"
}
die() {
    log "FAIL: $*"
    exit 1
}

QEMU_PID=""
READER_PIDS=()
MOUNTS=()
cleanup() {
    local rc=$? m
    # Only what this script started or mounted.
    if [ -n "$QEMU_PID" ] && kill -0 "$QEMU_PID" 2>/dev/null; then kill "$QEMU_PID" 2>/dev/null || true; fi
    for p in "${READER_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for ((m = ${#MOUNTS[@]} - 1; m >= 0; m--)); do umount "${MOUNTS[m]}" 2>/dev/null || umount -l "${MOUNTS[m]}" 2>/dev/null || true; done
    exit "$rc"
}
trap cleanup EXIT
trap 'log "FAIL: line $LINENO: $BASH_COMMAND exited with status $?"' ERR
trap 'log "FAIL: overall timeout (or terminated)"; exit 124' TERM INT

PHASES=()
phase_done() { # NAME START_SECONDS
    PHASES+=("$1 $((SECONDS - $2)) s")
    log "phase $1: $((SECONDS - $2)) s"
}

# paneld_host ARGS...: the paneld that draws the expected pictures on the host.
paneld_host() { "$PANELD" "$@"; }

# test_system ROOT TTY: a root file system made a test system, with files only: the
# hostname, fstab with the 9p share, autologin as root on the serial console TTY, a
# service that reports the end of the boot to the share, a quiet shell prompt.
# (Root's empty password is set by the caller: it needs the guest's passwd.)
test_system() {
    local r=$1 tty=$2
    echo paneld-test >"$r/etc/hostname"
    printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\nshare /mnt/share 9p trans=virtio,version=9p2000.L,msize=262144 0 0\n' >"$r/etc/fstab"
    mkdir -p "$r/mnt/share" "$r/etc/systemd/system/serial-getty@$tty.service.d" "$r/etc/systemd/system/multi-user.target.wants"
    cat >"$r/etc/systemd/system/serial-getty@$tty.service.d/autologin.conf" <<'UNIT'
[Service]
ExecStart=
ExecStart=-/sbin/agetty --autologin root --noclear --keep-baud 115200,57600,38400,9600 %I $TERM
UNIT
    cat >"$r/etc/systemd/system/boot-report.service" <<'UNIT'
[Unit]
Description=Reports the end of the boot to the test host
RequiresMountsFor=/mnt/share

[Service]
Type=simple
ExecStart=/bin/sh -c 'systemctl is-system-running --wait >/mnt/share/boot-state; systemd-analyze >/mnt/share/boot-time 2>&1; touch /mnt/share/booted'

[Install]
WantedBy=multi-user.target
UNIT
    ln -sf ../boot-report.service "$r/etc/systemd/system/multi-user.target.wants/boot-report.service"
}

# quiet_shell ROOT: the guest's prompt stays out of the way; commands do not echo.
quiet_shell() { printf 'stty -echo 2>/dev/null\nPS1="\\n"\n' >>"$1/root/.bashrc"; }

# ---------------------------------------------------------------- one boot
SHARE=$WORK/share
# boot NAME [DEVICE [KERNEL-ARGS]]: starts the guest (start_qemu DIR DEVICE KERNEL-ARGS,
# defined by the script, runs QEMU in the background) with the display DEVICE (default
# SB_DEVICE) and waits until systemd reports the end of the boot on the share and the
# serial shell answers (at most SB_BOOT_SECONDS, default 240).
boot() {
    BOOT_NAME=$1
    local device=${2:-$SB_DEVICE} kargs=${3:-}
    local d=$WORK/$1 start=$SECONDS
    mkdir -p "$d"
    VM=$d
    rm -rf "$SHARE" && mkdir -p "$SHARE/c"
    mkfifo "$d/serial.in" "$d/serial.out" "$d/mon.in" "$d/mon.out"
    exec 7<>"$d/serial.in" 8<>"$d/mon.in"
    cat "$d/serial.out" >"$d/serial.log" &
    READER_PIDS+=($!)
    cat "$d/mon.out" >"$d/mon.log" &
    READER_PIDS+=($!)
    start_qemu "$d" "$device" "$kargs"
    QEMU_PID=$!
    SEQ=0
    DUMPS=0
    local deadline=$((SECONDS + ${SB_BOOT_SECONDS:-240}))
    while [ ! -f "$SHARE/booted" ]; do
        kill -0 "$QEMU_PID" 2>/dev/null || fail_vm "QEMU exited during the boot"
        [ $SECONDS -lt $deadline ] || fail_vm "the guest did not finish booting in ${SB_BOOT_SECONDS:-240} s"
        sleep 0.5
    done
    # The serial shell may start after the boot is reported: the first command is
    # repeated until the guest answers (it only touches a file).
    deadline=$((SECONDS + 60))
    while [ ! -f "$SHARE/shell" ]; do
        printf 'touch /mnt/share/shell\n' >&7
        [ $SECONDS -lt $deadline ] || fail_vm "no shell on the serial console"
        sleep 2
    done
    log "$BOOT_NAME: booted in $((SECONDS - start)) s (wall); guest: $(head -1 "$SHARE/boot-time" | sed 's/^Startup finished in //'), state $(cat "$SHARE/boot-state")"
    BOOTS+=("$BOOT_NAME $((SECONDS - start)) s: $(head -1 "$SHARE/boot-time" | sed 's/^Startup finished in //')")
}
BOOTS=()

# guest SCRIPT [SECONDS]: runs SCRIPT (bash) in the guest; GUEST_RC and GUEST_OUT
# (a file) hold its status and output.
guest() {
    SEQ=$((SEQ + 1))
    local f=$SHARE/c/$SEQ
    printf 'set -u\ncd /root\n%s\n' "$1" >"$f.sh"
    printf 'bash /mnt/share/c/%d.sh >/mnt/share/c/%d.out 2>&1; echo $? >/mnt/share/c/%d.tmp; mv /mnt/share/c/%d.tmp /mnt/share/c/%d.rc\n' \
        "$SEQ" "$SEQ" "$SEQ" "$SEQ" "$SEQ" >&7
    local deadline=$((SECONDS + ${2:-60}))
    while [ ! -f "$f.rc" ]; do
        kill -0 "$QEMU_PID" 2>/dev/null || fail_vm "QEMU exited while the guest ran: $1"
        [ $SECONDS -lt $deadline ] || fail_vm "no answer from the guest to: $1"
        sleep 0.1
    done
    GUEST_RC=$(cat "$f.rc")
    GUEST_OUT=$f.out
}

# screendump FILE: the monitor writes it; the reply to 'info status' means it is done.
screendump() {
    DUMPS=$((DUMPS + 1))
    printf 'screendump %s\ninfo status\n' "$1" >&8
    local deadline=$((SECONDS + 20))
    while [ "$(grep -c 'VM status' "$VM/mon.log" || true)" -lt "$DUMPS" ]; do
        [ $SECONDS -lt $deadline ] || fail_vm "screendump timed out"
        sleep 0.05
    done
    [ -s "$1" ] || fail_vm "screendump wrote nothing"
}

fail_vm() {
    log "FAIL ($BOOT_NAME): $*"
    echo "----- guest console (${VM}/serial.log, last lines) -----"
    tail -c 6000 "$VM/serial.log" 2>/dev/null | tr -d '\r' || true
    echo "----- qemu -----"
    cat "$VM/qemu.log" 2>/dev/null || true
    FAILED+=("$BOOT_NAME: $*")
    summary
    exit 1
}

# install_missing PACKAGE...: installs those of the host's packages that are missing.
install_missing() {
    local need=() pkg
    for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg"); done
    if [ ${#need[@]} -gt 0 ]; then
        log "installing ${need[*]}"
        bash "$ROOT/packaging/apt-install.sh" --update "${need[@]}"
    fi
}

# the_package ARCH: PANELD_DEB, built for ARCH by packaging/build-deb.sh unless given.
the_package() {
    if [ -z "${PANELD_DEB:-}" ]; then
        log "building the $1 package"
        PANELD_DEB=$(bash "$ROOT/packaging/build-deb.sh" "$1" 2>"$WORK/build-deb.log" | tail -1) ||
            { tail -30 "$WORK/build-deb.log"; die "packaging/build-deb.sh $1 failed"; }
    fi
    [ -f "$PANELD_DEB" ] || die "no package at $PANELD_DEB"
}

# shellcheck source=../qemu/vm.sh
. "$ROOT/Tests/qemu/vm.sh"
shutdown_vm() { stop_vm "systemctl poweroff" 60; }

# ---------------------------------------------------------------- checks
PASSED=()
FAILED=()
pass() {
    log "PASS $1${2:+: $2}"
    PASSED+=("$1")
}
fail() {
    log "FAIL $1: $2"
    if [ -n "${GUEST_OUT:-}" ] && [ -f "$GUEST_OUT" ]; then sed 's/^/    | /' "$GUEST_OUT" | tail -25; fi
    FAILED+=("$1")
}
# check NAME MESSAGE SCRIPT [SECONDS]: passes when SCRIPT exits 0 in the guest.
check() {
    guest "$3" "${4:-60}"
    if [ "$GUEST_RC" = 0 ]; then pass "$1"; else fail "$1" "$2 (exit $GUEST_RC)"; fi
}

# render NAME NAME=VALUE...: the expected picture, drawn by the package's binary
# with the package's layout, in $WORK/NAME.png.
render() {
    local name=$1 v args=()
    shift
    for v in "$@"; do args+=(--set "$v"); done
    paneld_host render --config "$LAYOUT" "${args[@]}" --output "$WORK/$name.png" || die "paneld render failed for $name"
}

# screen_is NAME EXPECTED [SECONDS]: the scanout equals EXPECTED (PNG or PPM); the
# frame may still be on its way (or animating), so dumps are retried.
guest_ok() {
    guest "$@"
    [ "$GUEST_RC" = 0 ] || fail_vm "guest command failed (rc=$GUEST_RC): $1 :: $(tail -5 "$GUEST_OUT")"
}

screen_is() {
    local name=$1 expected=$2 shot deadline=$((SECONDS + ${3:-20}))
    SCREEN_DIFF=""
    while true; do
        shot=$VM/$name.ppm
        screendump "$shot"
        if SCREEN_DIFF=$(python3 "$ROOT/Tests/qemu/compare.py" "$expected" "$shot"); then return 0; fi
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.5
    done
}

summary() {
    echo "== phases: ${PHASES[*]/%/;}"
    echo "== boots: ${BOOTS[*]/%/;}"
    [ ${#FAILED[@]} -eq 0 ] || echo "== failed: ${FAILED[*]}"
    echo "${#PASSED[@]} passed, ${#FAILED[@]} failed"
}
