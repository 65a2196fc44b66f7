#!/usr/bin/env bash
# Tests packaging/apt-install.sh, the apt wrapper of .ci/run, the QEMU and boot
# tests and the aarch64 build, against apt locks held by another process:
#
#   dpkg-wait      the dpkg frontend lock held for 3 s: the install waits, then succeeds
#                  (plain apt-get install exits 100 at once under the same lock)
#   lists-wait     the package lists' lock held for 3 s: --update waits, then succeeds
#                  (plain apt-get update exits 100 at once under the same lock)
#   bounded        APT_LOCK_TIMEOUT=1 against a lock held for 8 s: gives up within 4 s
#   callers        no host apt-get install or update in .ci/run, Tests/qemu/run-e2e.sh
#                  and packaging/build-aarch64.sh bypasses the wrapper
#
# apt runs in a sandbox (its own status file, lists, cache and empty sources,
# through APT_CONFIG): the machine's package state is neither read nor locked.
# The locks are fcntl locks, as apt and dpkg take them, held by python3.
# Usage: bash Tests/tools/apt-lock.sh (root: apt-get insists on it).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
S=$(mktemp -d /tmp/apt-lock.XXXXXX)
trap 'rm -rf "$S"' EXIT
mkdir -p "$S/dpkg/updates" "$S/lists/partial" "$S/cache/archives/partial" "$S/sources.d"
: >"$S/sources.list"
# One installed package without dependencies, so `install` has nothing to do but lock.
printf 'Package: apt-lock-probe\nStatus: install ok installed\nPriority: optional\nMaintainer: paneld tests <tests@localhost>\nArchitecture: all\nVersion: 1\nDescription: lock probe\n' >"$S/dpkg/status"
cat >"$S/apt.conf" <<EOF
Dir::State::status "$S/dpkg/status";
Dir::State::Lists "$S/lists";
Dir::Cache "$S/cache";
Dir::Etc::SourceList "$S/sources.list";
Dir::Etc::SourceParts "$S/sources.d";
EOF
export APT_CONFIG=$S/apt.conf

PASSED=0
FAILED=()
pass() { echo "PASS $1: $2"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL $1: $2"; FAILED+=("$1"); }

HOLDER=
hold() { # SECONDS LOCKFILE: holds an fcntl lock on LOCKFILE from another process
    python3 - "$1" "$2" >"$S/held" <<'EOF' &
import fcntl, os, sys, time
fd = os.open(sys.argv[2], os.O_RDWR | os.O_CREAT, 0o640)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("held", flush=True)
time.sleep(float(sys.argv[1]))
EOF
    HOLDER=$!
    for _ in $(seq 50); do grep -q held "$S/held" 2>/dev/null && return 0; sleep 0.1; done
    echo "cannot hold $2" >&2
    exit 1
}
release() { kill "$HOLDER" 2>/dev/null || true; wait "$HOLDER" 2>/dev/null || true; }

RC=0
T=0
timed() { # COMMAND...: sets RC and T (milliseconds)
    local t0=${EPOCHREALTIME/./}
    RC=0
    "$@" >"$S/out" 2>&1 || RC=$?
    T=$(((${EPOCHREALTIME/./} - t0) / 1000))
}

# wait_case NAME LOCK PLAIN-ARGS -- WRAPPER-ARGS: under LOCK held by another
# process, `apt-get PLAIN-ARGS` must exit 100 at once, and the wrapper with
# WRAPPER-ARGS must wait for the lock's 3 s and then succeed.
wait_case() {
    local name=$1 lock=$2 plain=() plain_rc
    shift 2
    while [ "$1" != -- ]; do plain+=("$1"); shift; done
    shift
    hold 10 "$lock"
    timed apt-get "${plain[@]}"
    plain_rc=$RC
    release
    hold 3 "$lock"
    timed bash "$ROOT/packaging/apt-install.sh" "$@"
    release
    if [ "$plain_rc" = 100 ] && [ "$RC" = 0 ] && [ "$T" -ge 2500 ]; then
        pass "$name" "plain apt-get ${plain[0]} exit $plain_rc; the wrapper waited ${T} ms, exit 0"
    else
        fail "$name" "plain apt-get ${plain[0]} exit $plain_rc; the wrapper exit $RC after ${T} ms: $(tail -3 "$S/out")"
    fi
}
wait_case dpkg-wait "$S/dpkg/lock-frontend" install -y -qq apt-lock-probe -- apt-lock-probe
wait_case lists-wait "$S/lists/lock" update -qq -- --update

# bounded
hold 8 "$S/lists/lock"
APT_LOCK_TIMEOUT=1 timed bash "$ROOT/packaging/apt-install.sh" --update apt-lock-probe
release
if [ "$RC" != 0 ] && [ "$T" -lt 4000 ] && grep -q "Could not get lock" "$S/out"; then
    pass bounded "gave up after ${T} ms with exit $RC and apt's lock message"
else
    fail bounded "exit $RC after ${T} ms: $(tail -3 "$S/out")"
fi

# callers: a host apt-get that installs or updates, outside the wrapper.
bypass=$(grep -nE '^[[:space:]]*(DEBIAN_FRONTEND=[^ ]+ )?apt-get( -[^ ]+)* (update|install)' \
    "$ROOT/.ci/run" "$ROOT/Tests/qemu/run-e2e.sh" "$ROOT/packaging/build-aarch64.sh" || true)
if [ -z "$bypass" ]; then
    pass callers "every host apt-get install and update goes through packaging/apt-install.sh"
else
    fail callers "apt-get without the wrapper: $bypass"
fi

echo "$PASSED passed, ${#FAILED[@]} failed${FAILED:+: ${FAILED[*]}}"
[ ${#FAILED[@]} -eq 0 ]
