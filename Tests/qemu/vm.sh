# Sourced by Tests/qemu/run-e2e.sh and Tests/systemd-boot/lib.sh: what both do with a
# running guest. Uses QEMU_PID, READER_PIDS and descriptors 7 (the guest's console
# input) and 8 (its output).
# shellcheck shell=bash disable=SC2034

# stop_vm COMMAND SECONDS: types COMMAND on the guest's console (a poweroff), waits up
# to SECONDS for QEMU to exit and kills it after that, then closes the console and
# stops the readers of the guest's output.
stop_vm() {
    local command=$1 deadline=$((SECONDS + $2))
    printf '%s\n' "$command" >&7
    while kill -0 "$QEMU_PID" 2>/dev/null; do
        [ $SECONDS -lt $deadline ] || { kill "$QEMU_PID"; break; }
        sleep 0.1
    done
    wait "$QEMU_PID" 2>/dev/null || true
    QEMU_PID=""
    exec 7>&- 8>&-
    for p in "${READER_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    READER_PIDS=()
}
