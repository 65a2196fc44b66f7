#!/usr/bin/env bash
# paneld's Debian package under a real systemd: a Debian 12 booted in QEMU (TCG).
#
# Builds the amd64 package (packaging/build-deb.sh), installs it with apt into a
# debootstrap'd bookworm (systemd as PID 1, udev, Debian's kernel) as a user would,
# makes an ext4 image of it (mkfs.ext4 -d) and boots it twice with a bochs display
# at 800x480. The host drives the guest over the serial console (one persistent
# FIFO client; autologin as root): each step is a shell script the host writes to
# a 9p share, the guest runs it and leaves its output and exit status there. The
# QEMU monitor's screendump must equal, pixel for pixel, the PNG that the package's
# own binary draws on the host (`paneld render`) with the layout the package
# installs. Facts this relies on: shared/notes/systemd-in-qemu.md, drm-in-qemu.md.
#
# Checks:
#   boot 1  socket-at-boot    paneld.socket listens, paneld.service is not running
#           first-value       `echo 73 | socat` starts paneld; the screen shows value=73
#           vt-unit           under the unit paneld follows the terminal's switches (VT_PROCESS)
#           restart-keeps     `systemctl restart paneld`: a new process, same picture
#           reload-rejects    `systemctl reload` fails on a broken layout; the old one stays
#           fbdev-unit        the unit with --output fbdev draws on /dev/fb0 (bochs's fbdev)
#                             and blanks the console
#           tty0-minimum      console blanking's steps work under the unit as shipped
#           console-back      stopping both units gives the console picture back
#           layout-error      a broken layout: the start fails and `journalctl -p err
#                             -u paneld` shows the layout's own message
#   boot 2  late-driver       both units enabled, bochs blacklisted and loaded (modprobe)
#                             seconds after paneld started: paneld ends on the display
#           upgrade-conffile  apt installs the next version over an edited
#                             /etc/paneld/layout.json: the edit is kept
#           network-refused   under the unit as shipped, MQTT (to the guest's mosquitto)
#                             retries and statsd over UDP stops the start, each with a
#                             journal line naming the package's network drop-in
#           network-mqtt      with network.conf installed: the retained MQTT value shows
#           network-statsd    with network.conf: a statsd gauge over UDP shows
#           example-feeder    the packaged Pi dashboard, installed as its README says: its
#                             feeder's service runs (DynamicUser, group paneld) and
#                             memory and disk reach paneld; its timer enables
#           remove            apt remove: units stopped, conffile and state kept
#           purge             apt purge: /etc/paneld and /var/lib/paneld gone
#           old-libc          against a dpkg status whose libc6 and libdrm2 are
#                             bullseye's (no newer ones available), apt refuses the package
#                             with a dependency message
#           install-live      apt install on the running system: the socket listens and serves
#   console  (a framebuffer only: QEMU's standard VGA as vesafb, vga=0x314, bochs-drm
#             blacklisted; the getty on tty1 as Debian enables it)
#           getty-after-paneld  paneld (the unit as shipped) draws over the console; then
#                             `systemctl restart getty@tty1` (text mode, cleared):
#                             1 s after agetty runs, the screendump is paneld's frame again,
#                             and paneld's journal says it took the console back
#
# Usage: bash Tests/systemd-boot/run.sh
# Environment: SB_BOOTS (the boots to run, default "boot1 boot2 console"; boot2 needs
#   boot1), SB_TIMEOUT (seconds, default 1500), SB_FRESH=1 (debootstrap again,
#   ignoring the cached root), SB_KEEP=1 (keep Tests/systemd-boot/.work), PANELD_DEB
#   and PANELD_DEB_NEXT (use these .debs instead of building), DEBIAN_MIRROR.
# Needs root (debootstrap, chroot, apt-get).
set -Eeuo pipefail

if [ -z "${SB_UNDER_TIMEOUT:-}" ]; then
    SB_UNDER_TIMEOUT=1 exec timeout --kill-after=15 "${SB_TIMEOUT:-1500}" bash "$0" "$@"
fi

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CACHE=$HERE/.cache
WORK=$HERE/.work
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
INCLUDE=systemd,systemd-sysv,udev,dbus,kmod,procps,socat,linux-image-amd64,initramfs-tools
SB_TAG=systemd-boot
SB_DEVICE=bochs-display,xres=800,yres=480
# shellcheck source=lib.sh
. "$HERE/lib.sh"

# ---------------------------------------------------------------- tools
t=$SECONDS
install_missing debootstrap qemu-system-x86 e2fsprogs python3 dpkg-dev gcc libc6-dev
phase_done tools $t

# ---------------------------------------------------------------- packages
t=$SECONDS
mkdir -p "$CACHE" && rm -rf "$WORK" && mkdir -p "$WORK"
the_package amd64
# The package's own binary and layout draw the expected pictures on the host.
dpkg-deb -x "$PANELD_DEB" "$WORK/deb"
PANELD=$WORK/deb/usr/bin/paneld
LAYOUT=$WORK/deb/etc/paneld/layout.json
DEFAULT_GAUGE=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("default", ""))' "$LAYOUT")
[ -n "$DEFAULT_GAUGE" ] || die "the package's layout names no default gauge"
if [ -z "${PANELD_DEB_NEXT:-}" ]; then
    # The next version: the same files, Debian revision + 1 (for the upgrade check).
    rev=$(dpkg-deb -f "$PANELD_DEB" Version | sed 's/.*-//')
    PANELD_DEB_NEXT=$(PANELD_DEB_REVISION=$((rev + 1)) PANELD_DEB_OUT=$WORK/next \
        bash "$ROOT/packaging/build-deb.sh" amd64 "$PANELD" 2>>"$WORK/build-deb.log" | tail -1)
fi
[ -f "$PANELD_DEB_NEXT" ] || die "no next package at $PANELD_DEB_NEXT"
log "packages $(basename "$PANELD_DEB") ($(($(stat -c %s "$PANELD_DEB") / 1024)) KiB), $(basename "$PANELD_DEB_NEXT")"
phase_done packages $t

# ---------------------------------------------------------------- root file system
# debootstrap (cached per suite and package list; SB_FRESH=1 or a fresh clone
# starts from scratch), then a copy with the package installed by apt.
t=$SECONDS
key=$SUITE-$(printf '%s %s' "$INCLUDE" "$MIRROR" | sha256sum | cut -c1-10)
BASE=$CACHE/base-$key
if [ -n "${SB_FRESH:-}" ] || [ ! -f "$BASE/.done" ]; then
    log "debootstrap --variant=minbase $SUITE (with $INCLUDE)"
    rm -rf "$BASE" "$BASE.tmp"
    nice -n 5 debootstrap --variant=minbase --include="$INCLUDE" "$SUITE" "$BASE.tmp" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
        { tail -20 "$WORK/debootstrap.log"; die "debootstrap failed"; }
    rm -f "$BASE.tmp"/var/cache/apt/archives/*.deb
    mv "$BASE.tmp" "$BASE" && touch "$BASE/.done"
    phase_done debootstrap $t
    t=$SECONDS
fi
R=$WORK/root
cp -a "$BASE" "$R"
rm -f "$R/.done"

chroot_mount() { mount "$@" && MOUNTS+=("${*: -1}"); }
chroot_mount -t proc proc "$R/proc"
chroot_mount --bind /dev "$R/dev"
# Downloaded packages (paneld's dependencies) survive between runs.
mkdir -p "$CACHE/apt-archives/partial"
chroot_mount --bind "$CACHE/apt-archives" "$R/var/cache/apt/archives"
cp /etc/resolv.conf "$R/etc/resolv.conf"
cp "$PANELD_DEB" "$PANELD_DEB_NEXT" "$R/root/"
log "apt-get install ./$(basename "$PANELD_DEB") (in the chroot)"
chroot "$R" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ./root/$(basename "$PANELD_DEB") mosquitto mosquitto-clients" \
    >"$WORK/apt-install.log" 2>&1 || { tail -30 "$WORK/apt-install.log"; die "apt-get install of the package failed"; }
grep -E '^(Setting up|The following NEW)' "$WORK/apt-install.log" | sed 's/^/    /' | head -20
# The guest has no network: the package lists only slow apt down there (the
# upgrade, remove and purge install local files or nothing).
rm -rf "$R"/var/lib/apt/lists/*
for ((m = ${#MOUNTS[@]} - 1; m >= 0; m--)); do umount "${MOUNTS[m]}"; done
MOUNTS=()

# The test system (lib.sh's test_system): autologin as root on the serial console,
# the 9p share, a service that reports the end of the boot to the share.
test_system "$R" ttyS0
chroot "$R" passwd -dq root
quiet_shell "$R"
phase_done root $t

# ---------------------------------------------------------------- image
t=$SECONDS
KERNEL=$(ls "$R"/boot/vmlinuz-* | sort -V | tail -1)
INITRD=$(ls "$R"/boot/initrd.img-* | sort -V | tail -1)
cp "$KERNEL" "$WORK/vmlinuz" && cp "$INITRD" "$WORK/initrd.img"
mkfs.ext4 -q -F -L root -d "$R" "$WORK/disk.img" 2G >"$WORK/mkfs.log" 2>&1 || { cat "$WORK/mkfs.log"; die "mkfs.ext4 failed"; }
rm -rf "$R"
phase_done image $t
log "kernel $(basename "$KERNEL"), image $(du -m "$WORK/disk.img" | cut -f1) MB used"

# ---------------------------------------------------------------- one boot
# wants BOOT: whether SB_BOOTS names it.
wants() { [[ " ${SB_BOOTS:-boot1 boot2 console} " == *" $1 "* ]]; }
start_qemu() { # DIR DEVICE KERNEL-ARGS (lib.sh's boot)
    local d=$1 device=$2 kargs=$3
    qemu-system-x86_64 -nodefaults -no-user-config -machine q35,accel=tcg -cpu max -smp 2 -m 1024 \
        -kernel "$WORK/vmlinuz" -initrd "$WORK/initrd.img" \
        -append "root=/dev/vda rw console=ttyS0,115200 panic=-1 loglevel=4${kargs:+ $kargs}" \
        -drive "file=$WORK/disk.img,if=virtio,format=raw,cache=unsafe" \
        -virtfs "local,path=$SHARE,mount_tag=share,security_model=none" \
        -display none -vga none -device "$device" \
        -serial "pipe:$d/serial" -monitor "pipe:$d/mon" -no-reboot >"$d/qemu.log" 2>&1 &
}

g=$DEFAULT_GAUGE
# ---------------------------------------------------------------- boot 1
if wants boot1; then
t=$SECONDS
boot boot1
check socket-at-boot "paneld.socket does not listen at boot as root:paneld 0660, or paneld.service already runs" '
systemctl is-active paneld.socket
systemctl is-enabled paneld.socket
stat -c "%a %U:%G" /run/paneld.sock
[ "$(stat -c "%a %U:%G" /run/paneld.sock)" = "660 root:paneld" ]
! systemctl is-active paneld.service'

# The display's console (tty1's login prompt, drawn by fbcon) before paneld ever drew,
# with a steady cursor: fbcon's blinking stopped and the cursor shown, the state
# paneld leaves when it gives the console back (FBDevOutput writes DECTCEM "show").
guest_ok 'echo 0 >/sys/class/graphics/fbcon/cursor_blink
printf "\033[?25h" >/dev/tty1'
sleep 0.5
screendump "$VM/console-before.ppm"

render v73 "$g=73"
guest 'echo 73 | socat - UNIX:/run/paneld.sock
for i in $(seq 100); do systemctl is-active --quiet paneld.service && break; sleep 0.1; done
systemctl is-active paneld.service
systemctl show -p MainPID --value paneld.service >/mnt/share/pid-first'
if [ "$GUEST_RC" != 0 ]; then
    fail first-value "the first value did not start paneld.service"
elif screen_is first-value "$WORK/v73.png"; then
    pass first-value "socket activation; the screen equals paneld render --set $g=73"
    # Under the unit paneld may put the foreground terminal in VT_PROCESS mode
    # (group tty, /dev/tty0 write-only, CAP_SYS_TTY_CONFIG).
    check vt-unit "paneld did not take the terminal's switching under the unit" '
journalctl -b -u paneld --no-pager -o cat | grep -E "tty|terminal"
journalctl -b -u paneld --no-pager -o cat | grep -q "the display is given up while another terminal is shown"'
else
    echo "$SCREEN_DIFF"
    fail first-value "the screen does not show $g=73"
fi

# For the record: what paneld says about the console's virtual terminal under the unit.
guest 'journalctl -b -u paneld --no-pager -o cat | grep -m2 -i "virtual terminal\|tty"'
log "journal (virtual terminal): $(tr '\n' ' ' <"$GUEST_OUT")"

guest 'systemctl restart paneld.service
systemctl is-active paneld.service
pid=$(systemctl show -p MainPID --value paneld.service)
echo "MainPID $(cat /mnt/share/pid-first) -> $pid"
[ "$pid" != "$(cat /mnt/share/pid-first)" ] && [ "$pid" != 0 ]'
if [ "$GUEST_RC" != 0 ]; then
    fail restart-keeps "systemctl restart did not give a new running paneld"
elif screen_is restart-keeps "$WORK/v73.png"; then
    pass restart-keeps "new process, the screen still shows $g=73"
else
    echo "$SCREEN_DIFF"
    fail restart-keeps "after the restart the screen does not show $g=73"
fi

# A layout with a mistake (a style that does not exist): the start fails, and the
# journal has the layout's own message at priority err. The expected text is what
# the same binary says on the host about the same file.
python3 - "$LAYOUT" "$SHARE/broken.json" <<'PY'
import sys
text = open(sys.argv[1]).read()
assert '"style": "ring"' in text
open(sys.argv[2], "w").write(text.replace('"style": "ring"', '"style": "rnig"', 1))
PY
"$PANELD" render --config "$SHARE/broken.json" --output "$WORK/broken.png" >/dev/null 2>"$WORK/broken.txt" &&
    die "paneld render accepted the broken layout"
# The first issue line, without the file name (the guest's file is /etc/paneld/layout.json).
grep -m1 -o 'line [0-9]*: .*' "$WORK/broken.txt" >"$SHARE/expected-error" || die "no layout issue in: $(cat "$WORK/broken.txt")"
log "broken layout: expect in the journal at err: $(cat "$SHARE/expected-error")"
guest 'cp /etc/paneld/layout.json /root/layout.good
cp /mnt/share/broken.json /etc/paneld/layout.json
if systemctl reload paneld.service; then echo "systemctl reload succeeded with a broken layout"; rc=1; else rc=0; fi
systemctl is-active paneld.service || rc=1
cp /root/layout.good /etc/paneld/layout.json
systemctl reload paneld.service || { echo "systemctl reload failed with the good layout"; rc=1; }
journalctl -b -u paneld --no-pager -o cat | tail -4
exit $rc'
if [ "$GUEST_RC" != 0 ]; then
    fail reload-rejects "systemctl reload did not fail on a broken layout, or failed on the good one"
elif screen_is reload-rejects "$WORK/v73.png"; then
    pass reload-rejects "systemctl reload fails on a broken layout; the old one stays on the screen"
else
    echo "$SCREEN_DIFF"
    fail reload-rejects "after the rejected reload the screen does not show $g=73"
fi

# An fbdev panel: the same unit with --output fbdev (a drop-in), on bochs's fbdev
# emulation (/dev/fb0): the unit's device policy must let paneld draw there.
guest 'mkdir -p /etc/systemd/system/paneld.service.d
printf "[Service]\nExecStart=\nExecStart=/usr/bin/paneld run --config /etc/paneld/layout.json --output fbdev\n" >/etc/systemd/system/paneld.service.d/fbdev.conf
systemctl daemon-reload
systemctl restart paneld.service
sleep 1
systemctl is-active paneld.service
journalctl -b -u paneld --no-pager -o cat | tail -5 | tee /mnt/share/fbdev-journal
journalctl -b -u paneld --no-pager -o cat | tail -5 | grep -q "framebuffer\|fbdev\|/dev/fb0"
! journalctl -b -u paneld --no-pager -o cat | tail -5 | grep -q "console left as it is"'
if [ "$GUEST_RC" != 0 ]; then
    fail fbdev-unit "paneld.service with --output fbdev did not run, or left the console as it is"
elif screen_is fbdev-unit "$WORK/v73.png"; then
    pass fbdev-unit "paneld draws on /dev/fb0 under the unit, the console blanked"
else
    echo "$SCREEN_DIFF"
    fail fbdev-unit "with --output fbdev the screen does not show $g=73"
fi
guest 'rm -r /etc/systemd/system/paneld.service.d; systemctl daemon-reload; systemctl restart paneld.service'

# What console blanking on /dev/tty0 needs under the unit (FBDevOutput opens
# /dev/tty0, KDGETMODE, writes the hide-cursor escape, KDSETMODE KD_GRAPHICS):
# tty0-probe does those steps in copies of paneld.service with its ExecStart
# replaced, as is (A), with write access to /dev/tty0 (B: group tty, DeviceAllow w),
# and with B plus CAP_SYS_TTY_CONFIG (C). Each step's result goes to the log.
gcc -static -O2 -o "$SHARE/tty0-probe" "$HERE/tty0-probe.c" 2>"$WORK/tty0-probe.log" || die "cannot build tty0-probe: $(cat "$WORK/tty0-probe.log")"
check tty0-minimum "tty0-probe could not set KD_GRAPHICS under the unit as shipped (A) or with its tty settings added again (C)" '
add_B="SupplementaryGroups=tty\nDeviceAllow=/dev/tty0 w"
add_C="$add_B\nCapabilityBoundingSet=CAP_SYS_TTY_CONFIG\nAmbientCapabilities=CAP_SYS_TTY_CONFIG"
for v in A B C; do
    sed -e "/^\(Type\|NotifyAccess\|WatchdogSec\|ExecReload\|Requires\|After\|Restart\)=/d" \
        -e "s|^ExecStart=.*|ExecStart=/mnt/share/tty0-probe|" /usr/lib/systemd/system/paneld.service >/run/systemd/system/tty0-probe-$v.service
    add=""; [ $v = B ] && add=$add_B; [ $v = C ] && add=$add_C
    printf "[Service]\nType=oneshot\nStandardOutput=file:/mnt/share/tty0-$v\n$add\n" >/run/systemd/system/tty0-probe-$v.service.d.conf
    mkdir -p /run/systemd/system/tty0-probe-$v.service.d && mv /run/systemd/system/tty0-probe-$v.service.d.conf /run/systemd/system/tty0-probe-$v.service.d/probe.conf
done
systemctl daemon-reload
for v in A B C; do systemctl start tty0-probe-$v.service; echo "$v: $(tr "\n" " " </mnt/share/tty0-$v)"; done
grep -q "^kdsetmode ok" /mnt/share/tty0-A && grep -q "^kdsetmode ok" /mnt/share/tty0-C'
for v in A B C; do log "tty0-probe $v: $(tr '\n' ' ' <"$SHARE/tty0-$v" 2>/dev/null)"; done

guest 'systemctl stop paneld.socket paneld.service
! systemctl is-active paneld.service && ! systemctl is-active paneld.socket && [ ! -e /run/paneld.sock ]'
if [ "$GUEST_RC" != 0 ]; then
    fail console-back "the units did not stop"
elif screen_is console-back "$VM/console-before.ppm" 15 &&
    python3 "$ROOT/Tests/qemu/compare.py" "$WORK/v73.png" "$VM/console-back.ppm" --expect-different >/dev/null; then
    pass console-back "the console picture from before paneld is back"
else
    echo "$SCREEN_DIFF"
    fail console-back "after stopping both units the screen is not the console"
fi

check layout-error "journalctl -p err -u paneld does not show the layout's message" '
# Only what is logged from here on counts (the rejected reload above logged this
# message too). A time, not --after-cursor: with a filter, systemd 252 skips the
# first matching entry after the cursor.
since=$(date "+%Y-%m-%d %H:%M:%S")
sleep 1
cp /etc/paneld/layout.json /root/layout.good
cp /mnt/share/broken.json /etc/paneld/layout.json
systemctl start paneld.socket
if systemctl start paneld.service; then echo "paneld.service started with a broken layout"; started=1; else started=0; fi
sleep 1
systemctl stop paneld.service paneld.socket
cp /root/layout.good /etc/paneld/layout.json
systemctl reset-failed paneld.service
echo "--- journalctl -p err -u paneld:"; journalctl --since "$since" -p err -u paneld --no-pager -o cat
echo "--- journalctl -u paneld (all priorities):"; journalctl --since "$since" -u paneld --no-pager -o cat | tail -8
[ $started = 0 ] && journalctl --since "$since" -p err -u paneld --no-pager -o cat | grep -qF -f /mnt/share/expected-error' 90

# For boot 2: both units enabled at boot, the display driver only on request.
guest_ok 'systemctl enable paneld.socket paneld.service
echo "blacklist bochs" >/etc/modprobe.d/paneld-test-late-display.conf'
shutdown_vm
phase_done boot1 $t
fi

# ---------------------------------------------------------------- boot 2
if wants boot2; then
t=$SECONDS
boot boot2
render v64 "$g=64"
guest 'for i in $(seq 100); do systemctl is-active --quiet paneld.service && break; sleep 0.1; done
systemctl is-active paneld.service
! lsmod | grep -q "^bochs" && [ ! -e /dev/dri/card0 ]
echo 64 | socat - UNIX:/run/paneld.sock
sleep 3
modprobe bochs
for i in $(seq 100); do [ -e /dev/dri/card0 ] && break; sleep 0.1; done
ls -l /dev/dri
journalctl -b -u paneld --no-pager -o "short-monotonic" | tail -6'
if [ "$GUEST_RC" != 0 ]; then
    fail late-driver "paneld was not running before the driver loaded, or bochs was already loaded"
elif screen_is late-driver "$WORK/v64.png" 30; then
    pass late-driver "paneld started without a display and moved to bochs when it appeared"
else
    echo "$SCREEN_DIFF"
    guest 'journalctl -b -u paneld --no-pager -o short-monotonic | tail -8'
    fail late-driver "after modprobe bochs the screen does not show $g=64"
fi
guest 'rm /etc/modprobe.d/paneld-test-late-display.conf; systemctl disable paneld.service'

# Upgrade over an edited conffile: the edit stays, and the running daemon restarts
# into the new version with it (the screen shows the edited background).
python3 - "$LAYOUT" "$WORK/edited.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
bg = json.loads(text)["background"]
open(sys.argv[2], "w").write(text.replace(bg, "#203040", 1))
PY
"$PANELD" render --config "$WORK/edited.json" --set "$g=64" --output "$WORK/edited64.png"
next=$(basename "$PANELD_DEB_NEXT")
next_version=$(dpkg-deb -f "$PANELD_DEB_NEXT" Version)
cp "$WORK/edited.json" "$SHARE/edited.json"
guest "echo 64 | socat - UNIX:/run/paneld.sock; sleep 1
pid=\$(systemctl show -p MainPID --value paneld.service)
cp /mnt/share/edited.json /etc/paneld/layout.json
DEBIAN_FRONTEND=noninteractive apt-get install -y /root/$next
echo version \$(dpkg-query -W -f='\${Version}' paneld)
[ \"\$(dpkg-query -W -f='\${Version}' paneld)\" = '$next_version' ]
cmp /mnt/share/edited.json /etc/paneld/layout.json
ls /etc/paneld
[ -z \"\$(ls /etc/paneld | grep dpkg)\" ]
systemctl is-active paneld.service
echo MainPID \$pid -> \$(systemctl show -p MainPID --value paneld.service)
[ \"\$(systemctl show -p MainPID --value paneld.service)\" != \"\$pid\" ]" 180
if [ "$GUEST_RC" != 0 ]; then
    fail upgrade-conffile "apt-get install of $next did not keep the edited layout or did not restart paneld"
elif screen_is upgrade-conffile "$WORK/edited64.png" 20; then
    pass upgrade-conffile "$next_version installed by apt; the edited layout.json kept and shown"
else
    echo "$SCREEN_DIFF"
    fail upgrade-conffile "after the upgrade the screen does not show the edited layout"
fi

# Network inputs under the unit: as shipped, Internet sockets are refused and the
# journal names the drop-in; with the package's network.conf installed, MQTT from
# the guest's mosquitto and statsd over UDP reach the screen.
python3 - "$LAYOUT" "$WORK/network.json" "$g" <<'PY'
import json, sys
layout = json.load(open(sys.argv[1]))
layout["statsd"] = "127.0.0.1:8125"
layout["mqtt"] = {"broker": "mqtt://127.0.0.1:1883", "clientId": "paneld-boot-test"}
for gauge in layout["gauges"]:
    if gauge["name"] == sys.argv[3]:
        gauge["mqtt"] = "panel/" + sys.argv[3]
json.dump(layout, open(sys.argv[2], "w"), indent=1)
del layout["statsd"]
json.dump(layout, open(sys.argv[2].replace(".json", "-mqtt.json"), "w"), indent=1)
PY
cp "$WORK/network.json" "$WORK/network-mqtt.json" "$SHARE/"
"$PANELD" render --config "$WORK/network.json" --set "$g=58" --output "$WORK/net58.png"
"$PANELD" render --config "$WORK/network.json" --set "$g=47" --output "$WORK/net47.png"
guest "since=\$(date '+%Y-%m-%d %H:%M:%S'); sleep 1
systemctl is-active mosquitto
cp /etc/paneld/layout.json /root/layout.before-network
cp /mnt/share/network-mqtt.json /etc/paneld/layout.json
mosquitto_pub -h 127.0.0.1 -t panel/$g -m 58 -r
systemctl restart paneld.service; sleep 3
echo '--- MQTT without the drop-in:'; journalctl --since \"\$since\" -u paneld --no-pager -o cat | tail -4
systemctl is-active paneld.service
journalctl --since \"\$since\" -u paneld --no-pager -o cat | grep -F 'Address family not supported' | grep -qF /usr/share/doc/paneld/examples/network.conf
since=\$(date '+%Y-%m-%d %H:%M:%S'); sleep 1
cp /mnt/share/network.json /etc/paneld/layout.json
systemctl restart paneld.service; sleep 2
echo '--- statsd over UDP without the drop-in:'; journalctl --since \"\$since\" -p err -u paneld --no-pager -o cat | tail -4
! systemctl is-active --quiet paneld.service
journalctl --since \"\$since\" -p err -u paneld --no-pager -o cat | grep -F 'Address family not supported' | grep -qF /usr/share/doc/paneld/examples/network.conf" 60
if [ "$GUEST_RC" = 0 ]; then
    pass network-refused "as shipped, MQTT keeps retrying and statsd over UDP stops the start, each naming the drop-in in the journal"
else
    fail network-refused "under the unit as shipped, MQTT or statsd over UDP did not fail, or the journal does not name the drop-in"
fi
guest "install -D -m 0644 /usr/share/doc/paneld/examples/network.conf /etc/systemd/system/paneld.service.d/network.conf
systemctl daemon-reload; systemctl reset-failed paneld.service
systemctl restart paneld.socket paneld.service
systemctl is-active paneld.service" 60
if [ "$GUEST_RC" != 0 ]; then
    fail network-mqtt "paneld did not start with the network drop-in"
elif screen_is network-mqtt "$WORK/net58.png" 30; then
    pass network-mqtt "with network.conf, the retained MQTT value from the guest's mosquitto is on the screen"
else
    echo "$SCREEN_DIFF"
    guest 'journalctl -b -u paneld --no-pager -o cat | tail -8'
    fail network-mqtt "with network.conf the screen does not show the MQTT value $g=58"
fi
guest "bash -c 'echo \"$g:47|g\" >/dev/udp/127.0.0.1/8125'"
if screen_is network-statsd "$WORK/net47.png" 20; then
    pass network-statsd "with network.conf, a statsd gauge over UDP is on the screen"
else
    echo "$SCREEN_DIFF"
    fail network-statsd "with network.conf the screen does not show the statsd value $g=47"
fi
guest_ok "systemctl stop paneld.service
rm /etc/systemd/system/paneld.service.d/network.conf; systemctl daemon-reload
cp /root/layout.before-network /etc/paneld/layout.json
mosquitto_pub -h 127.0.0.1 -t panel/$g -r -n"

# Touch under the unit as shipped: a uinput touch screen (Tests/qemu/tools/touch-inject.c,
# ft5x06-like) appears while paneld runs; udev gives its node the group input a moment
# after the kernel announces it, so paneld's first open may be refused and is retried;
# then a swipe left shows the next page. The group and DeviceAllow=char-input r are the
# package's.
cc -static -O2 -Wall -o "$SHARE/touch-inject" "$ROOT/Tests/qemu/tools/touch-inject.c" || die "cc failed for touch-inject"
cp "$ROOT/Tests/qemu/layouts/touch.json" "$SHARE/touch.json"
"$PANELD" render --config "$SHARE/touch.json" --page two --set temp=61 --output "$WORK/touch-two.png"
guest "cp /etc/paneld/layout.json /root/layout.before-touch
cp /mnt/share/touch.json /etc/paneld/layout.json
modprobe uinput
systemctl restart paneld.socket paneld.service; sleep 2
echo temp=61 | socat - UNIX:/run/paneld.sock
id paneld
/mnt/share/touch-inject --wait 1500 600,240:150,240:200
journalctl -b -u paneld --no-pager -o cat | grep touch | tail -5
journalctl -b -u paneld --no-pager -o cat | grep -q 'touch: /dev/input/event[0-9]* (paneld-e2e ft5x06)'" 60
if [ "$GUEST_RC" != 0 ]; then
    fail touch "under the unit, paneld did not open the uinput touch screen"
elif screen_is touch "$WORK/touch-two.png" 20; then
    pass touch "under the unit, a swipe on a uinput touch screen showed the next page"
else
    echo "$SCREEN_DIFF"
    guest 'journalctl -b -u paneld --no-pager -o cat | tail -8'
    fail touch "after a swipe the screen does not show the touch layout's page two"
fi
# The screen off and on under the unit: `screen off` turns the CRTC off (the KMS state
# as paneld drm-info reads it beside the daemon), a touch turns it on again and does
# nothing else (the page stays two).
guest "echo 'screen off' | socat - UNIX:/run/paneld.sock
paneld drm-info | sed -n '/crtcs:/,/planes:/p'
paneld drm-info | sed -n '/crtcs:/,/planes:/p' | grep -q ': off\$'
/mnt/share/touch-inject --wait 1500 600,240:150,240:200
paneld drm-info | sed -n '/crtcs:/,/planes:/p' | grep -q '800x480@'
journalctl -b -u paneld --no-pager -o cat | grep 'light:' | tail -3" 60
if [ "$GUEST_RC" != 0 ]; then
    fail screen-off "under the unit, screen off did not turn the CRTC off, or a touch did not turn it on"
elif screen_is screen-off "$WORK/touch-two.png" 20; then
    pass screen-off "under the unit, screen off turned the CRTC off and a touch turned it on, on the same page"
else
    echo "$SCREEN_DIFF"
    fail screen-off "after the screen came back on it does not show the touch layout's page two"
fi
guest_ok "systemctl stop paneld.service; cp /root/layout.before-touch /etc/paneld/layout.json"

# The backlight's files under the unit: ProtectKernelTunables makes /sys read-only and
# ReadWritePaths=-/sys/devices makes device attributes writable again, where their own
# permissions let paneld's groups write (a backlight's, group video by the package's
# udev rule). QEMU's PC has no backlight, so a device attribute given to group video the
# same way stands in (fbcon's cursor_blink, its own value written back): written under
# the unit as shipped (its ExecStart replaced by a test-only drop-in in /run), refused
# (read-only file system) without that line.
check sysfs-under-unit "under the unit a video-group device attribute in /sys could not be written, or could be without ReadWritePaths" '
f=/sys/class/graphics/fbcon/cursor_blink
v=$(cat $f)
chgrp video $f && chmod g+w $f && ls -l $f
d=/run/systemd/system/paneld.service.d
mkdir -p $d
printf "[Service]\nType=oneshot\nExecStart=\nExecStart=/bin/sh -c \"echo %s >%s\"\nWatchdogSec=0\nRestart=no\n" $v $f >$d/sysfs-probe.conf
systemctl daemon-reload; systemctl start paneld.service; shipped=$?
printf "[Service]\nReadWritePaths=\n" >$d/zz-control.conf
systemctl daemon-reload; systemctl start paneld.service; control=$?
journalctl -b -u paneld --no-pager -o cat | tail -3
rm -r $d; systemctl daemon-reload; systemctl reset-failed paneld.service
echo "as shipped: $shipped, without ReadWritePaths: $control"
[ $shipped = 0 ] && [ $control != 0 ]' 60

# The package's Pi example as its README installs it: the feeder's service (a
# DynamicUser in group paneld, sandboxed) runs once and its readings reach paneld.
check example-feeder "the packaged Pi example's feeder did not set its gauges under its own unit" '
d=/usr/share/doc/paneld/examples/dashboards/pi-7inch-800x480
cp /etc/paneld/layout.json /root/layout.before-example
install -m 0644 $d/layout.json /etc/paneld/layout.json
install -m 0755 $d/feed.sh /usr/local/bin/paneld-feed
install -m 0644 $d/paneld-feed.service $d/paneld-feed.timer /etc/systemd/system/
systemctl daemon-reload
systemctl start paneld-feed.service; rc=$?
journalctl -u paneld-feed --no-pager -o cat | tail -5
echo list | socat - UNIX:/run/paneld.sock | tee /tmp/example-list
[ $rc = 0 ] && [ "$(systemctl show -p Result --value paneld-feed.service)" = success ]
grep -Eq "^mem [1-9]" /tmp/example-list && grep -Eq "^disk [1-9]" /tmp/example-list
systemctl enable --now paneld-feed.timer && systemctl is-active paneld-feed.timer
systemctl disable --now paneld-feed.timer; systemctl stop paneld.service
rm /etc/systemd/system/paneld-feed.service /etc/systemd/system/paneld-feed.timer /usr/local/bin/paneld-feed
systemctl daemon-reload; cp /root/layout.before-example /etc/paneld/layout.json' 120

check remove "apt-get remove left paneld running or removed its configuration or state" '
DEBIAN_FRONTEND=noninteractive apt-get remove -y paneld
dpkg-query -W -f="\${db:Status-Abbrev}\n" paneld
[ "$(dpkg-query -W -f="\${db:Status-Abbrev}" paneld)" = "rc " ]
! systemctl is-active paneld.service && ! systemctl is-active paneld.socket && [ ! -e /run/paneld.sock ]
[ ! -e /usr/bin/paneld ] && [ -f /etc/paneld/layout.json ] && [ -d /var/lib/paneld ]
ls /var/lib/paneld' 120

check purge "apt-get purge left /etc/paneld or /var/lib/paneld" '
DEBIAN_FRONTEND=noninteractive apt-get purge -y paneld
! dpkg-query -W paneld 2>/dev/null || [ -z "$(dpkg-query -W -f="\${db:Status-Abbrev}" paneld | tr -d " n")" ]
[ ! -e /etc/paneld ] && [ ! -e /var/lib/paneld ]
! systemctl list-unit-files paneld.service paneld.socket | grep -q paneld
getent passwd paneld' 120

# A system whose libraries are older than the package needs (bullseye's libc6 and
# libdrm2, nothing newer available): apt refuses with the dependency message.
grep -v '^#' "$HERE/old-status" >"$SHARE/old-status"
first=$(basename "$PANELD_DEB")
check old-libc "apt did not refuse the package on a system with bullseye's libc6 and libdrm2" "
mkdir -p /tmp/empty/lists/partial /tmp/empty/cache/archives/partial
apt-get -s -o Dir::State::status=/mnt/share/old-status -o Dir::State::Lists=/tmp/empty/lists -o Dir::Cache=/tmp/empty/cache install /root/$first; rc=\$?
echo \"apt exit \$rc\"
[ \$rc != 0 ] && apt-get -s -o Dir::State::status=/mnt/share/old-status -o Dir::State::Lists=/tmp/empty/lists -o Dir::Cache=/tmp/empty/cache install /root/$first 2>&1 | grep -q 'Depends: libc6 (>= [0-9.]*) but 2.31-13+deb11u11 is to be installed'"

# Installing on a running system (after the purge): postinst creates the user,
# enables and starts the socket at once; the first value starts the daemon.
check install-live "apt-get install on the running system did not leave paneld.socket listening and working" "
DEBIAN_FRONTEND=noninteractive apt-get install -y /root/$first
systemctl is-enabled paneld.socket && systemctl is-active paneld.socket && [ -S /run/paneld.sock ]
echo 41 | socat - UNIX:/run/paneld.sock
for i in \$(seq 100); do systemctl is-active --quiet paneld.service && break; sleep 0.1; done
systemctl is-active paneld.service
echo get $g | socat - UNIX:/run/paneld.sock | tee /dev/stderr | grep -q 41" 120
shutdown_vm
phase_done boot2 $t
fi

# ---------------------------------------------------------------- console
# A framebuffer panel that also holds the console: QEMU's standard VGA driven by
# vesafb (vga=0x314: 800x600 RGB565), bochs-drm blacklisted, so there is no DRM card
# and the unit as shipped falls back to /dev/fb0. The getty of tty1, restarted after
# paneld, sets the console to text mode and clears it (TTYReset, TTYVTDisallocate;
# systemd opens /dev/tty1 for it and again as agetty's input): paneld must take the
# console back and redraw. Measured here: the restart hangs up no /dev/tty0 descriptor
# and wakes no poll on one; the login prompt stays until paneld's watch on /dev sees it.
if wants console; then
t=$SECONDS
boot console VGA "vga=0x314 modprobe.blacklist=bochs"
guest 'ls /dev/dri/card* 2>/dev/null; cat /sys/class/graphics/fb0/name
[ ! -e /dev/dri/card0 ] && [ -e /dev/fb0 ] && systemctl is-active getty@tty1.service
echo 0 >/sys/class/graphics/fbcon/cursor_blink'
[ "$GUEST_RC" = 0 ] || fail_vm "not a framebuffer-only boot with a getty on tty1: $(tr '\n' ' ' <"$GUEST_OUT")"
sleep 0.5
screendump "$VM/console-text.ppm"
guest 'systemctl start paneld.socket && echo 58 | socat - UNIX:/run/paneld.sock
for i in $(seq 100); do systemctl is-active --quiet paneld.service && break; sleep 0.1; done
systemctl is-active paneld.service && sleep 2'
[ "$GUEST_RC" = 0 ] || fail_vm "paneld did not start: $(tr '\n' ' ' <"$GUEST_OUT")"
screendump "$VM/gauges.ppm"
if ! python3 "$ROOT/Tests/qemu/compare.py" "$VM/console-text.ppm" "$VM/gauges.ppm" --expect-different >/dev/null; then
    fail getty-after-paneld "paneld did not draw over the console"
else
    guest 'date "+%Y-%m-%d %H:%M:%S" >/root/since; sleep 1
systemctl restart getty@tty1.service
for i in $(seq 100); do pgrep -t tty1 -x agetty >/dev/null && break; sleep 0.05; done
pgrep -t tty1 -x agetty && sleep 1'
    screendump "$VM/after-getty.ppm"
    rc=$GUEST_RC
    guest 'echo "--- paneld since the restart:"; journalctl --since "$(cat /root/since)" -u paneld --no-pager -o cat
echo "--- paneld this boot:"; journalctl -b -u paneld --no-pager -o cat | tail -8
echo "--- its descriptors:"; ls -l /proc/$(pgrep -x paneld)/fd | grep -v "socket:"
journalctl --since "$(cat /root/since)" -u paneld --no-pager -o cat | grep -q "a getty set the console to text mode"'
    if [ "$rc" != 0 ]; then
        fail getty-after-paneld "agetty did not start on tty1 after the restart"
    elif ! SCREEN_DIFF=$(python3 "$ROOT/Tests/qemu/compare.py" "$VM/gauges.ppm" "$VM/after-getty.ppm"); then
        echo "$SCREEN_DIFF" | head -3
        fail getty-after-paneld "1 s after the getty restarted, the screen is not paneld's frame"
    elif [ "$GUEST_RC" != 0 ]; then
        fail getty-after-paneld "the frame is there, but paneld's journal does not say it took the console back"
    else
        pass getty-after-paneld "the getty's restart is answered with the whole frame within 1 s"
    fi
fi
shutdown_vm
phase_done console $t
fi

[ -n "${SB_KEEP:-}" ] || rm -rf "$WORK"
summary
if [ ${#FAILED[@]} -gt 0 ]; then exit 1; fi
