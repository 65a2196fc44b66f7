#!/bin/busybox sh
# /init of the e2e initramfs. Mounts the basics, loads the DRM driver named by
# the kernel command line word gpu=bochs|virtio (it reaches us as $gpu), waits
# for /dev/dri/card0, then serves the host: it reads one command per line from
# the serial console, runs it, and answers "E2E-DONE <n> rc=<status>".
# The host (run-e2e.sh) drives every test step through this channel.
/bin/busybox mkdir -p /proc /sys /dev /run /tmp /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /run
mount -t tmpfs tmp /tmp
mkdir -p /dev/pts /dev/shm
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin

# late=1 on the kernel command line: no driver yet (the cases "late" and "latefb"
# load it later with load_driver, while paneld runs). gpu= may name several drivers,
# comma-separated (gpu=virtio,bochs), loaded in that order: one card each.
load_driver() {
    cards=0
    for g in $(echo "$gpu" | tr , ' '); do
        cards=$((cards + 1))
        for m in $(cat "/e2e/modules.$g"); do
            # A module another driver already needed (drm, drm_kms_helper).
            [ -d "/sys/module/$(basename "$m" .ko | tr - _)" ] && continue
            params=""
            # fbdev_overalloc=200 on the kernel command line: fbdev emulation with room for two pages.
            case "$m" in */drm_kms_helper.ko) [ -n "$fbdev_overalloc" ] && params="drm_fbdev_overalloc=$fbdev_overalloc" ;; esac
            insmod "$m" $params || echo "E2E-INIT-ERROR insmod $m $params failed"
        done
    done
    last=/dev/dri/card$((cards - 1))
    i=0
    while [ ! -e $last ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    [ -e $last ] || echo "E2E-INIT-ERROR no $last after loading $gpu"
}
[ -n "$late" ] || load_driver
# A steady console picture: no blinking cursor, so two dumps of fbcon compare equal.
echo 0 > /sys/class/graphics/fbcon/cursor_blink 2>/dev/null

stty -echo 2>/dev/null
echo "E2E-READY gpu=$gpu"
n=0
while read -r line; do
    n=$((n + 1))
    eval "$line"
    echo "E2E-DONE $n rc=$?"
done
echo "E2E-EOF"
poweroff -f
