#!/bin/bash
# Checks that paneld's system calls pass paneld.service's seccomp filter
# (SystemCallFilter=@system-service ~@privileged ~@resources): runs the built
# paneld under strace with PNG output, a state file, a client session and a
# SIGHUP reload, then compares the calls it made with systemd's syscall sets.
# DRM output is not exercised here (it adds ioctl and mmap, both in @system-service).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../.build/debug/paneld}
command -v strace >/dev/null || { echo "syscalls.sh: strace is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
pid=""
trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi; rm -rf "$tmp"' EXIT
printf '{"gauges": [{"name": "cpu", "label": "CPU", "units": "%%"}, {"name": "mem", "style": "linearCapacity"}]}' > "$tmp/l.json"
strace -f -qq -o "$tmp/trace" "$bin" run --socket "$tmp/s.sock" --output "png:$tmp/f.png" --state "$tmp/state" \
    --config "$tmp/l.json" 2>"$tmp/log" &
tracer=$!
for _ in $(seq 100); do [ -S "$tmp/s.sock" ] && break; sleep 0.05; done
pid=$(pgrep -P "$tracer" | head -1)  # paneld itself: signals go to it, not to strace
printf 'cpu 50\nlist\nmem:+3|g\nbogus\n' | "$bin" send --socket "$tmp/s.sock" >/dev/null || true
kill -HUP "$pid"; sleep 0.3
kill -TERM "$pid"; wait "$tracer" || true
expand() {
    systemd-analyze syscall-filter "$1" | sed -n '/^    /p' | tr -d ' ' | grep -v '^#' | while read -r s; do
        case "$s" in @*) expand "$s" ;; *) echo "$s" ;; esac
    done
}
sed -E -n 's/^[0-9]+ +([a-z_0-9]+)\(.*/\1/p' "$tmp/trace" | sort -u > "$tmp/used"
expand @system-service | sort -u > "$tmp/allowed"
{ expand @privileged; expand @resources; } | sort -u > "$tmp/denied"
bad=$( { comm -23 "$tmp/used" "$tmp/allowed"; comm -12 "$tmp/used" "$tmp/denied"; } | sort -u)
if [ -n "$bad" ]; then echo "syscalls.sh: paneld calls what the unit's filter refuses:" $bad >&2; exit 1; fi
echo "syscalls.sh: $(wc -l < "$tmp/used") distinct system calls, all allowed by the unit's filter"
