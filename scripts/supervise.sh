# Sourced by run.sh: `supervise NAME LOG COMMAND...` runs COMMAND in the background and starts it
# again whenever it exits (a crash, an unrecoverable broker error), after saying so on stderr and in
# LOG. Its pid goes into the PIDS array; TERM or INT to it stops the command and the loop.
SUPERVISE_PAUSE="${SUPERVISE_PAUSE:-2}"

supervise() {
    local name="$1" log="$2"
    shift 2
    (
        child=0
        stopping=0
        stop() {
            stopping=1
            if [ "$child" -gt 0 ]; then
                kill -TERM "$child" 2>/dev/null || true
                wait "$child" 2>/dev/null || true
            fi
            exit 0
        }
        trap stop TERM INT
        while :; do
            "$@" >>"$log" 2>&1 &
            child=$!
            status=0
            wait "$child" || status=$?
            [ "$stopping" = 1 ] && exit 0
            line="==> $(date -u +%Y-%m-%dT%H:%M:%SZ) $name (pid $child) exited with status $status; restarting it in ${SUPERVISE_PAUSE}s (log: $log)"
            echo "$line" >&2
            echo "$line" >>"$log"
            sleep "$SUPERVISE_PAUSE" &
            wait $! || true
        done
    ) &
    PIDS+=($!)
}
