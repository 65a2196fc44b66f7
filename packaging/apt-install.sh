#!/usr/bin/env bash
# Installs Debian packages on this machine with apt-get, waiting for another apt
# (unattended-upgrades, apt-daily, a second CI step) instead of failing at once.
#
#   bash packaging/apt-install.sh [--update] PACKAGE...
#
# --update runs `apt-get update` first. apt-get waits for the dpkg lock only when
# told to (DPkg::Lock::Timeout) and never for the package lists' lock
# (/var/lib/apt/lists/lock: it exits 100 with "Could not get lock"), so `update`
# is retried while that lock is held. Both waits end after APT_LOCK_TIMEOUT
# seconds (default 600). Used by .ci/run, the QEMU and boot tests and the
# aarch64 build; Tests/tools/apt-lock.sh tests the waits against held locks.
set -euo pipefail

timeout=${APT_LOCK_TIMEOUT:-600}
update=0
if [ "${1:-}" = --update ]; then
    update=1
    shift
fi
export DEBIAN_FRONTEND=noninteractive

if [ $update = 1 ]; then
    deadline=$((SECONDS + timeout))
    said=0
    while true; do
        if err=$(apt-get -o DPkg::Lock::Timeout="$timeout" update -qq 2>&1 >/dev/null); then
            break
        fi
        if ! grep -q "Could not get lock" <<<"$err" || [ $SECONDS -ge $deadline ]; then
            echo "$err" >&2
            exit 100
        fi
        if [ $said = 0 ]; then
            echo "apt-install.sh: another apt holds the package lists; waiting (at most ${timeout} s)" >&2
            said=1
        fi
        sleep 2
    done
fi

[ $# -gt 0 ] || exit 0
exec apt-get -o DPkg::Lock::Timeout="$timeout" install -y -qq --no-install-recommends "$@" >/dev/null
