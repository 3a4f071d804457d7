# Sourced by the device check scripts (fused-check.sh, bees-check.sh, teams-check.sh).
# check_setup PACK NAME: $final is where results come back ($OUT, or ./out), $out (/tmp/NAME-logs) holds the
# logs (only 8 files come back from $OUT, so each script archives $out at the end); the pack is unpacked under
# /tmp/st and becomes the current folder with its libraries on LD_LIBRARY_PATH; gpu.txt names the card.
# step NAME CMD...: runs CMD for at most ${LIMIT:-$STEP_LIMIT} seconds into $out/NAME.log and prints its rc,
# time and gtest / compute-sanitizer verdicts on one line.
check_setup() {
    local pack="$1"
    final="${OUT:-$PWD/out}"
    out="/tmp/$2-logs"
    mkdir -p "$final" "$out" /tmp/st && tar -C /tmp/st -xJf "$pack" && cd /tmp/st/"$(basename "$pack" .tar.xz)" || exit 1
    export LD_LIBRARY_PATH=.
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader |
        tee "$out/gpu.txt"
}
STEP_LIMIT=200
step() {
    local name="$1"
    shift
    local t0=$SECONDS
    timeout "${LIMIT:-$STEP_LIMIT}" "$@" >"$out/$name.log" 2>&1
    local rc=$?
    echo "$name rc=$rc $((SECONDS - t0))s: $(grep -E '^\[  (PASSED|FAILED)  \]|ERROR SUMMARY|RACECHECK SUMMARY' \
        "$out/$name.log" | tr '\n' ' ')"
}
