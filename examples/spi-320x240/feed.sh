#!/bin/sh
# Sends this example's gauges to paneld: CPU % (two /proc/stat samples),
# temperature (/sys/class/thermal/thermal_zone0), memory in use (/proc/meminfo).
#
#   PANELD_SOCKET=/run/paneld.sock   the control socket (the package's default)
#   PANELD_FEED_INTERVAL=1           seconds between the two CPU samples
#   PANELD_FEED_DRY_RUN=1            print the lines instead of sending them
set -eu
socket=${PANELD_SOCKET:-/run/paneld.sock}
interval=${PANELD_FEED_INTERVAL:-1}

# "total idle" jiffies of all CPUs (user to steal; guest time is counted in user already).
cpu_times() { awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9 && i <= NF; i++) t += $i; print t, $5 + $6; exit }' /proc/stat; }

before=$(cpu_times)
sleep "$interval"
after=$(cpu_times)

lines=$(
    echo "$before $after" | awk '{ dt = $3 - $1; di = $4 - $2; if (dt > 0) printf "cpu %.1f\n", 100 * (dt - di) / dt }'
    zone=/sys/class/thermal/thermal_zone0/temp
    if [ -r "$zone" ]; then awk '{ printf "temp %.1f\n", $1 / 1000 }' "$zone"; fi
    awk '$1 == "MemTotal:" { t = $2 } $1 == "MemAvailable:" { a = $2 }
        END { if (t > 0) printf "mem %.1f\n", 100 * (t - a) / t }' /proc/meminfo
)

if [ "${PANELD_FEED_DRY_RUN:-0}" = 1 ]; then
    printf '%s\n' "$lines"
else
    printf '%s\n' "$lines" | paneld send --socket "$socket"
fi
