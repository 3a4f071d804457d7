#!/usr/bin/env bash
# Interrupting `process`: a real run on a synthetic clip gets SIGINT (then, in a second run,
# SIGTERM) after a few frames. It must exit 130 / 143 and leave complete, valid outputs for the frames it
# did: every JSON line parses (through `eval`'s strict reader), the MOT CSV has whole rows, the summary
# says "interrupted": true with the same frame count as the JSON lines, the annotated MP4 plays back
# (decoded again by `process`) with that many frames, and no temporary file is left.
# Usage: process_interrupt_test.sh PATH/TO/swarmtrack
set -uo pipefail
bin="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL $*"; exit 1; }

mkdir -p "$tmp/clip"
"$bin" synth --scene easy --frames 300 --width 320 --height 240 --out "$tmp/clip" >/dev/null 2>&1 ||
    die "synth could not render the clip"
# A light search so frames are quick even under the sanitizers; the point is the output path.
echo '{"particles": 8, "generations": 3, "backend": "cpu"}' >"$tmp/light.json"

frame_lines() { grep -c '"type":"frame"' "$1" 2>/dev/null || true; }

interrupt_run() { # signal name, expected exit code, output folder, extra process args...
    local sig="$1" want="$2" out="$3"
    shift 3
    "$bin" process "$tmp/clip/easy.avi" --out "$out" --config "$tmp/light.json" -q "$@" 2>"$out.err" &
    pid=$!
    # Wait until at least 3 whole frames reached the temporary JSON lines (flushed per frame).
    local waited=0
    while :; do
        local temp
        temp="$(ls "$out"/detections.tmp-*.jsonl 2>/dev/null | head -n 1)"
        if [ -n "$temp" ] && [ "$(frame_lines "$temp")" -ge 3 ]; then break; fi
        kill -0 "$pid" 2>/dev/null || die "$sig: process ended before it could be interrupted: $(cat "$out.err")"
        sleep 0.1
        waited=$((waited + 1))
        [ "$waited" -lt 3000 ] || die "$sig: no frame written in 300 s"
    done
    kill -s "$sig" "$pid"
    wait "$pid"
    local got=$?
    pid=""
    if [ "$got" != "$want" ]; then echo "FAIL $sig: exit $got, wanted $want"; cat "$out.err"; fail=1; fi
    grep -q "interrupted by SIG$sig" "$out.err" || { echo "FAIL $sig: no 'interrupted by SIG$sig' line"; cat "$out.err"; fail=1; }
    if ls -A "$out" | grep -q "tmp-"; then echo "FAIL $sig: temporaries left:"; ls -la "$out"; fail=1; fi
    for f in detections.jsonl settings.json summary.json; do
        [ -s "$out/$f" ] || { echo "FAIL $sig: $f missing or empty"; fail=1; }
    done
    # The MOT CSV has rows only for detections, which the first frames may not have yet.
    [ -f "$out/detections_mot.csv" ] || { echo "FAIL $sig: detections_mot.csv missing"; fail=1; }
    local frames
    frames="$(frame_lines "$out/detections.jsonl")"
    [ "$frames" -ge 3 ] && [ "$frames" -lt 300 ] || { echo "FAIL $sig: $frames frame lines (wanted 3..299)"; fail=1; }
    cmake -DSUMMARY="$out/summary.json" -DSETTINGS="$out/settings.json" -DFRAMES="$frames" -DSIGNAL="$sig" \
        -P "$here/check_interrupted.cmake" || fail=1
    # The MOT CSV: whole rows of 11 numeric fields (the last the class id), frames within those done.
    if grep -vqE '^[0-9]+,-?[0-9]+(,[-+0-9.eE]+){9}$' "$out/detections_mot.csv"; then
        echo "FAIL $sig: malformed MOT rows:"; grep -vE '^[0-9]+,-?[0-9]+(,[-+0-9.eE]+){9}$' "$out/detections_mot.csv" | head -3; fail=1
    fi
    # Every JSON line through the strict reader of `eval`.
    "$bin" eval --gt "$tmp/clip/easy.truth.jsonl" --pred "$out/detections.jsonl" >"$out.eval" 2>&1 ||
        { echo "FAIL $sig: eval rejects the JSON lines:"; cat "$out.eval"; fail=1; }
    frames_done="$frames"
}

frames_done=0
interrupt_run INT 130 "$tmp/int"
frames_int="$frames_done"
echo "ok   SIGINT after $frames_int frames"
# The annotated video plays: decode it again, every frame.
"$bin" process "$tmp/int/annotated.mp4" --out "$tmp/replay" --config "$tmp/light.json" --no-video -q >/dev/null 2>"$tmp/replay.err" ||
    { echo "FAIL the interrupted annotated.mp4 cannot be processed:"; cat "$tmp/replay.err"; fail=1; }
replayed="$(frame_lines "$tmp/replay/detections.jsonl")"
if [ "$replayed" != "$frames_int" ]; then
    echo "FAIL annotated.mp4 holds $replayed frames, the interrupted run did $frames_int"; fail=1
else
    echo "ok   annotated.mp4 plays back $replayed frames"
fi

interrupt_run TERM 143 "$tmp/term" --no-video
frames_term="$frames_done"
echo "ok   SIGTERM after $frames_term frames"
[ -e "$tmp/term/annotated.mp4" ] && { echo "FAIL --no-video wrote a video"; fail=1; }

exit $fail
