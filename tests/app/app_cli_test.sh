#!/usr/bin/env bash
# Bad input to `process` and `track`, through the real binary: each gives one error line, a non-zero exit
# and leaves nothing half-written. Usage: app_cli_test.sh PATH/TO/swarmtrack
set -uo pipefail
bin="$1"
tmp="$(mktemp -d)"
trap 'chmod -R u+rw "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
check() { # name, expected exit code, command...
    local name="$1" want="$2"
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL $name: exit $got, wanted $want"; cat "$tmp/err"; fail=1
    else
        echo "ok   $name"
    fi
}
one_line_error() { # name, a word the error must contain
    if [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -q "^swarmtrack: error: " "$tmp/err"; then
        echo "FAIL $1: stderr is not one error line:"; cat "$tmp/err"; fail=1
    elif ! grep -q -- "$2" "$tmp/err"; then
        echo "FAIL $1: error does not mention '$2':"; cat "$tmp/err"; fail=1
    fi
}
nothing_written() { # name, folder
    if [ -e "$2" ] && [ -n "$(ls -A "$2")" ]; then
        echo "FAIL $1: $2 was written:"; ls -la "$2"; fail=1
    fi
}
run_process() { "$bin" process "$@" --backend cpu -q; }
# The runs that track use the tracker's search at 50 generations (the default is 100): these checks are about
# inputs and outputs, and under the sanitizers every generation counts.
echo '{"generations": 50}' >"$tmp/light.json"
light=(--config "$tmp/light.json")

# A small clip to break: recorded by track itself (Motion-JPEG AVI survives truncation, unlike MP4).
check "record a clip" 0 "$bin" track synthetic --headless --backend cpu --fps 0 --width 320 --height 240 --frames 24 "${light[@]}" --record "$tmp/clip.avi"
[ -s "$tmp/clip.avi" ] || { echo "FAIL no clip recorded"; exit 1; }

check "missing file" 2 run_process "$tmp/nothere.mp4" --out "$tmp/o"
one_line_error "missing file" "no such file"
nothing_written "missing file" "$tmp/o"

echo "just text" >"$tmp/notes.mp4"
check "not a video" 2 run_process "$tmp/notes.mp4" --out "$tmp/o"
one_line_error "not a video" "not a video"
nothing_written "not a video" "$tmp/o"

if [ "$(id -u)" != 0 ]; then
    cp "$tmp/clip.avi" "$tmp/locked.avi" && chmod 000 "$tmp/locked.avi"
    check "unreadable file" 2 run_process "$tmp/locked.avi" --out "$tmp/o"
    one_line_error "unreadable file" "not readable"
    nothing_written "unreadable file" "$tmp/o"
else
    echo "skip unreadable file (running as root, which reads anything)"
fi

size=$(stat -c %s "$tmp/clip.avi")
head -c $((size / 2)) "$tmp/clip.avi" >"$tmp/cut.avi"
check "truncated video" 1 run_process "$tmp/cut.avi" --out "$tmp/cut" --no-video "${light[@]}"
grep -q "could not be decoded" "$tmp/err" || { echo "FAIL truncated: no report of skipped frames"; cat "$tmp/err"; fail=1; }
grep -q '"skipped_frames": [1-9]' "$tmp/cut/summary.json" 2>/dev/null || { echo "FAIL truncated: summary lacks skipped frames"; fail=1; }
frames=$(grep -o '"frames": [0-9]*' "$tmp/cut/summary.json" | head -1 | grep -o '[0-9]*$')
[ "${frames:-0}" -gt 0 ] && [ "${frames:-0}" -lt 24 ] || { echo "FAIL truncated: processed ${frames:-?} frames"; fail=1; }

check "camera that does not exist" 2 run_process camera:97 --out "$tmp/o"
one_line_error "camera that does not exist" "/dev/video97"
nothing_written "camera" "$tmp/o"

echo x >"$tmp/afile"
check "unwritable output folder" 2 run_process "$tmp/clip.avi" --out "$tmp/afile/sub"
one_line_error "unwritable output folder" "\-\-out"
check "output folder under /proc" 2 run_process "$tmp/clip.avi" --out /proc/swarmtrack-out
one_line_error "output folder under /proc" "\-\-out"

check "good run" 0 run_process "$tmp/clip.avi" --out "$tmp/good" "${light[@]}"
for f in annotated.mp4 detections.jsonl detections_mot.csv settings.json summary.json; do
    [ -s "$tmp/good/$f" ] || [ "$f" = detections.jsonl ] || [ "$f" = detections_mot.csv ] || { echo "FAIL good run: $f missing"; fail=1; }
done
ls -a "$tmp/good" | grep -q 'tmp-' && { echo "FAIL good run: temporary left behind"; fail=1; }
check "existing output needs --force" 2 run_process "$tmp/clip.avi" --out "$tmp/good"
one_line_error "existing output needs --force" "\-\-force"
check "--force overwrites" 0 run_process "$tmp/clip.avi" --out "$tmp/good" --force "${light[@]}"
check "--smooth-angles" 0 run_process "$tmp/clip.avi" --out "$tmp/smooth" --smooth-angles "${light[@]}"
# The same detections, one line each (only their angles may change), and the summary says how angles were made.
[ "$(wc -l <"$tmp/smooth/detections.jsonl")" = "$(wc -l <"$tmp/good/detections.jsonl")" ] ||
    { echo "FAIL --smooth-angles: detections.jsonl has a different number of lines"; fail=1; }
grep -q '"angles": "smoothed' "$tmp/smooth/summary.json" || { echo "FAIL --smooth-angles: summary does not say so"; fail=1; }
grep -q '"angles": "online"' "$tmp/good/summary.json" || { echo "FAIL good run: summary does not say angles are online"; fail=1; }

echo '{"particles": 64, "partcles": 10}' >"$tmp/typo.json"
check "config with an unknown key" 2 run_process "$tmp/clip.avi" --out "$tmp/o" --config "$tmp/typo.json"
one_line_error "config with an unknown key" "partcles"
nothing_written "config" "$tmp/o"
echo '{"generations": "many"}' >"$tmp/type.json"
check "preset with a wrong type" 2 "$bin" track "$tmp/clip.avi" --headless --backend cpu --frames 2 --config "$tmp/type.json"
one_line_error "preset with a wrong type" "generations"
echo '{"particles": 64' >"$tmp/broken.json"
check "config that is not JSON" 2 run_process "$tmp/clip.avi" --out "$tmp/o" --config "$tmp/broken.json"
one_line_error "config that is not JSON" "broken.json"

# Option errors are one line too, naming the option.
check "unknown option" 2 run_process "$tmp/clip.avi" --out "$tmp/o" --bogus
one_line_error "unknown option" "\-\-bogus"
check "negative frame count" 2 "$bin" synth --scene easy --frames -3 --out "$tmp"
one_line_error "negative frame count" "\-\-frames: Value -3 not in range 0 to 100000000"
check "missing required option" 2 "$bin" process "$tmp/clip.avi"
one_line_error "missing required option" "\-\-out"
nothing_written "option errors" "$tmp/o"

check "track without a display" 3 env -u DISPLAY -u WAYLAND_DISPLAY "$bin" track synthetic --backend cpu
one_line_error "track without a display" "--headless"

if [ -e /dev/nvidia0 ] || [ -e /dev/dxg ]; then
    echo "skip --backend cuda without a GPU (this machine has one)"
else
    check "--backend cuda without a GPU" 3 "$bin" process "$tmp/clip.avi" --out "$tmp/o" --backend cuda -q
    one_line_error "--backend cuda without a GPU" "cuda"
    nothing_written "--backend cuda" "$tmp/o"
fi

exit $fail
