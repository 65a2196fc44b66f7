#!/bin/sh
# Checks the unit files with `systemd-analyze verify` against a built paneld,
# without installing anything: the units are copied to a temporary directory
# with ExecStart pointed at the binary given (default: .build/debug/paneld).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "${1:-$here/../.build/debug/paneld}")" && pwd)/$(basename "${1:-paneld}")
[ -x "$bin" ] || { echo "verify.sh: $bin is not an executable (build first)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/paneld.socket" "$tmp/"
sed "s|^\(Exec[A-Za-z]*\)=/usr/bin/paneld|\1=$bin|" "$here/paneld.service" > "$tmp/paneld.service"
out=$(systemd-analyze verify "$tmp/paneld.socket" "$tmp/paneld.service" 2>&1) || { echo "$out" >&2; exit 1; }
# verify exits 0 on some warnings; treat any output as a failure.
if [ -n "$out" ]; then echo "$out" >&2; exit 1; fi
echo "systemd-analyze verify: OK"
