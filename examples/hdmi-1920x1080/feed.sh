#!/bin/sh
# Sends this example's gauges to paneld: CPU % (two /proc/stat samples), the
# 1-minute load and the number of processes (/proc/loadavg), temperature
# (/sys/class/thermal/thermal_zone0), memory in use (/proc/meminfo), disk use
# of / (df), network throughput in and out (two /proc/net/dev samples).
#
#   PANELD_SOCKET=/run/paneld.sock   the control socket (the package's default)
#   PANELD_FEED_INTERVAL=1           seconds between the two samples
#   PANELD_FEED_DRY_RUN=1            print the lines instead of sending them
set -eu
socket=${PANELD_SOCKET:-/run/paneld.sock}
interval=${PANELD_FEED_INTERVAL:-1}

# "total idle" jiffies of all CPUs (user to steal; guest time is counted in user already).
cpu_times() { awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9 && i <= NF; i++) t += $i; print t, $5 + $6; exit }' /proc/stat; }
# "received transmitted" bytes of every interface but lo.
net_bytes() {
    awk 'NR > 2 { sub(/:/, " "); if ($1 != "lo") { rx += $2; tx += $10 } } END { print rx + 0, tx + 0 }' /proc/net/dev
}

before="$(cpu_times) $(net_bytes)"
sleep "$interval"
after="$(cpu_times) $(net_bytes)"

lines=$(
    echo "$before $after" | awk -v s="$interval" '{
        dt = $5 - $1; di = $6 - $2
        if (dt > 0) printf "cpu %.1f\n", 100 * (dt - di) / dt
        printf "rx %.2f\n", ($7 - $3) * 8 / 1e6 / s
        printf "tx %.2f\n", ($8 - $4) * 8 / 1e6 / s
    }'
    awk '{ split($4, p, "/"); print "load", $1; print "procs", p[2] }' /proc/loadavg
    zone=/sys/class/thermal/thermal_zone0/temp
    if [ -r "$zone" ]; then awk '{ printf "temp %.1f\n", $1 / 1000 }' "$zone"; fi
    awk '$1 == "MemTotal:" { t = $2 } $1 == "MemAvailable:" { a = $2 }
        END { if (t > 0) printf "mem %.1f\n", 100 * (t - a) / t }' /proc/meminfo
    df -P / | awk 'NR == 2 { sub(/%/, "", $5); print "disk", $5 }'
)

if [ "${PANELD_FEED_DRY_RUN:-0}" = 1 ]; then
    printf '%s\n' "$lines"
else
    printf '%s\n' "$lines" | paneld send --socket "$socket"
fi
