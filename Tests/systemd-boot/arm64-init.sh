#!/bin/busybox sh
# /init of run-arm64.sh's initramfs (busybox-static:arm64 and the modules for the
# virtio disk and ext4). Mounts /dev/vda and then, with sbmode=setup on the kernel
# command line (it reaches us as $sbmode), finishes the foreign debootstrap in a chroot
# (--second-stage: the host has no binfmt_misc for arm64, so this runs here), gives
# root an empty password, removes run-arm64.sh's dpkg speed-up (sb-unsafe-io) and
# powers off, having said "SB-SETUP-DONE rc=N" on the console; without it, hands the
# root to systemd (switch_root to /sbin/init).
/bin/busybox mkdir -p /proc /sys /dev /newroot /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
export PATH=/usr/bin:/bin:/usr/sbin:/sbin

for m in $(cat /modules); do
    [ -d "/sys/module/$(basename "$m" .ko | tr - _)" ] || insmod "$m" || echo "SB-INIT-ERROR insmod $m failed"
done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mount -t ext4 -o rw /dev/vda /newroot || { echo "SB-INIT-ERROR cannot mount /dev/vda"; poweroff -f; }

if [ "$sbmode" = setup ]; then
    mount --bind /proc /newroot/proc
    mount --bind /sys /newroot/sys
    mount --bind /dev /newroot/dev
    chroot /newroot /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        sh -c '/debootstrap/debootstrap --second-stage && passwd -d root && rm -f /var/cache/apt/archives/*.deb /etc/dpkg/dpkg.cfg.d/sb-unsafe-io'
    rc=$?
    [ $rc = 0 ] || tail -20 /newroot/debootstrap/debootstrap.log
    umount /newroot/dev /newroot/sys /newroot/proc
    umount /newroot
    sync
    echo "SB-SETUP-DONE rc=$rc"
    poweroff -f
fi

mount --move /dev /newroot/dev
mount --move /sys /newroot/sys
mount --move /proc /newroot/proc
exec switch_root /newroot /sbin/init
