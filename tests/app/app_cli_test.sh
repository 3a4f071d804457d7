#!/usr/bin/env bash
# Bad input to `process` and `track`, through the real binary: each gives one error line, a non-zero exit
# and leaves nothing half-written. Usage: app_cli_test.sh PATH/TO/swarmtrack
set -uo pipefail
bin="$1"
source "$(dirname "$0")/../cli_checks.sh"
nothing_written() { # name, folder
    if [ -e "$2" ] && [ -n "$(ls -A "$2")" ]; then
        echo "FAIL $1: $2 was written:"; ls -la "$2"; fail=1
    fi
}
run_process() { "$bin" process "$@" --backend cpu -q; }
# The runs that track use the tracker's search at 20 generations (the default is 100) and 2 candidate swarms (the
# CPU's default is 20): these checks are about inputs and outputs, and under the sanitizers every swarm counts.
echo '{"generations": 20, "candidate_swarms": 2}' >"$tmp/light.json"
light=(--config "$tmp/light.json")

# A small clip to break: recorded by track itself (Motion-JPEG AVI survives truncation, unlike MP4).
check "record a clip" 0 "$bin" track synthetic --headless --backend cpu --fps 0 --width 320 --height 240 --frames 12 "${light[@]}" --record "$tmp/clip.avi"
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

# Sign classes (the classes setting): a missing class folder, and one whose classifier is not one.
echo "{\"classes\": \"$tmp/no_classes\"}" >"$tmp/classes_missing.json"
check "missing class folder" 2 run_process "$tmp/clip.avi" --out "$tmp/o" --config "$tmp/classes_missing.json"
one_line_error "missing class folder" "$tmp/no_classes"
nothing_written "missing class folder" "$tmp/o"
mkdir -p "$tmp/bad_classes" && printf '{"classes": [{"id": 1, "name": "x", "category": "prohibitory"}]}\n' >"$tmp/bad_classes/classes.json"
echo "not a classifier" >"$tmp/bad_classes/classifier.yml.gz"
echo "{\"classes\": \"$tmp/bad_classes\"}" >"$tmp/classes_bad.json"
check "bad classifier file" 2 run_process "$tmp/clip.avi" --out "$tmp/o" --config "$tmp/classes_bad.json"
one_line_error "bad classifier file" "train_classes"
nothing_written "bad classifier file" "$tmp/o"

size=$(stat -c %s "$tmp/clip.avi")
head -c $((size / 2)) "$tmp/clip.avi" >"$tmp/cut.avi"
check "truncated video" 1 run_process "$tmp/cut.avi" --out "$tmp/cut" --no-video "${light[@]}"
grep -q "could not be decoded" "$tmp/err" || { echo "FAIL truncated: no report of skipped frames"; cat "$tmp/err"; fail=1; }
grep -q '"skipped_frames": [1-9]' "$tmp/cut/summary.json" 2>/dev/null || { echo "FAIL truncated: summary lacks skipped frames"; fail=1; }
frames=$(grep -o '"frames": [0-9]*' "$tmp/cut/summary.json" | head -1 | grep -o '[0-9]*$')
[ "${frames:-0}" -gt 0 ] && [ "${frames:-0}" -lt 12 ] || { echo "FAIL truncated: processed ${frames:-?} frames"; fail=1; }

check "camera that does not exist" 2 run_process camera:97 --out "$tmp/o"
one_line_error "camera that does not exist" "/dev/video97"
nothing_written "camera" "$tmp/o"

echo x >"$tmp/afile"
check "unwritable output folder" 2 run_process "$tmp/clip.avi" --out "$tmp/afile/sub"
one_line_error "unwritable output folder" "\-\-out"
check "output folder under /proc" 2 run_process "$tmp/clip.avi" --out /proc/swarmtrack-out
one_line_error "output folder under /proc" "\-\-out"

check "good run" 0 run_process "$tmp/clip.avi" --out "$tmp/good" "${light[@]}"
# Every output exists; all but the MOT file (no rows when nothing was detected) have content: the JSON lines
# hold a frame line per frame even without detections.
for f in annotated.mp4 detections.jsonl settings.json summary.json; do
    [ -s "$tmp/good/$f" ] || { echo "FAIL good run: $f missing or empty"; fail=1; }
done
[ -f "$tmp/good/detections_mot.csv" ] || { echo "FAIL good run: detections_mot.csv missing"; fail=1; }
[ "$(grep -c '"type":"frame"' "$tmp/good/detections.jsonl")" = 12 ] ||
    { echo "FAIL good run: detections.jsonl lacks a frame line per frame"; fail=1; }
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
one_line_error "negative frame count" "\-\-frames: Value -3 not in range 1 to 100000000"
# --frames is at least 1 everywhere (0 and -1 were accepted: empty outputs, or the whole input).
for n in 0 -1; do
    check "process --frames $n" 2 run_process "$tmp/clip.avi" --out "$tmp/o" --frames $n
    one_line_error "process --frames $n" "\-\-frames: Value $n not in range 1 to 100000000"
    check "synth --frames $n" 2 "$bin" synth --scene easy --frames $n --out "$tmp/o"
    one_line_error "synth --frames $n" "\-\-frames"
    check "track --frames $n" 2 "$bin" track synthetic --headless --backend cpu --frames $n
    one_line_error "track --frames $n" "\-\-frames"
done
check "bench soak --frames 0" 2 "$bin" bench --suite soak --frames 0
one_line_error "bench soak --frames 0" "\-\-frames"
check "process --width 8" 2 run_process synthetic --out "$tmp/o" --width 8 --frames 2
one_line_error "process --width 8" "\-\-width"
nothing_written "--frames / --width" "$tmp/o"
# Integer settings are shown as integers.
echo '{"particles": 100000000}' >"$tmp/many.json"
check "integer setting out of range" 2 run_process "$tmp/clip.avi" --out "$tmp/o" --config "$tmp/many.json"
one_line_error "integer setting out of range" "setting 'particles': must be in \[2, 4096\], got 100000000$"
echo '{"w": 3}' >"$tmp/w.json"
check "real setting out of range" 2 run_process "$tmp/clip.avi" --out "$tmp/o" --config "$tmp/w.json"
one_line_error "real setting out of range" "setting 'w': must be in \[-1, 1.5\], got 3$"
check "missing required option" 2 "$bin" process "$tmp/clip.avi"
one_line_error "missing required option" "\-\-out"
nothing_written "option errors" "$tmp/o"

# Frames smaller than the tracker can use: one error at the input, nothing written.
mkdir -p "$tmp/tiny"
printf 'P6\n1 1\n255\n\x10\x20\x30' >"$tmp/tiny/a.ppm"
check "1x1 image" 2 run_process "$tmp/tiny" --out "$tmp/o"
one_line_error "1x1 image" "frames are 1x1, smaller than the tracker's minimum of 64x48"
nothing_written "1x1 image" "$tmp/o"

# synth creates its output folder as process does, and leaves nothing behind when it fails.
check "synth into a new folder" 0 "$bin" synth --scene easy --frames 3 --width 320 --height 180 --out "$tmp/new/data"
[ -s "$tmp/new/data/easy.avi" ] && [ -s "$tmp/new/data/easy.truth.jsonl" ] || { echo "FAIL synth: outputs missing"; fail=1; }
check "synth into a file" 2 "$bin" synth --scene easy --frames 3 --out "$tmp/afile/sub"
one_line_error "synth into a file" "\-\-out"
check "synth --scene real without data" 2 "$bin" synth --scene real --data "$tmp/no-data" --frames 3 --out "$tmp/real-out"
one_line_error "synth --scene real without data" "no-data has no images/ and labels.csv"
nothing_written "synth --scene real without data" "$tmp/real-out"

# The settings naming files: camera_file (scaled to the frame size when the aspect matches) and models_dir.
yaml_camera() { # rows cols data
    printf '%%YAML:1.0\n---\nimage_width: 1280\nimage_height: 720\ncamera_matrix: !!opencv-matrix\n   rows: %s\n   cols: %s\n   dt: d\n   data: [ %s ]\n' "$1" "$2" "$3"
}
yaml_camera 3 3 "1108.5, 0., 639.5, 0., 1108.5, 359.5, 0., 0., 1." >"$tmp/cam.yaml"
yaml_camera 2 2 "1108.5, 0., 0., 1108.5" >"$tmp/cam2x2.yaml"
echo "{\"generations\": 5, \"camera_file\": \"$tmp/cam.yaml\"}" >"$tmp/camera.json"
echo "{\"generations\": 5, \"camera_file\": \"$tmp/cam2x2.yaml\"}" >"$tmp/camera2x2.json"
echo "{\"generations\": 5, \"models_dir\": \"$tmp/no-models\"}" >"$tmp/nomodels.json"
mkdir -p "$tmp/models" && cp "$(dirname "$0")/../../assets/signs/"*.json "$tmp/models/"
echo "{\"generations\": 5, \"models_dir\": \"$tmp/models\"}" >"$tmp/models.json"
synth_small=(synthetic --frames 3 --width 320 --height 180 --no-video)
check "camera_file scaled to the frame" 0 run_process "${synth_small[@]}" --out "$tmp/cam" --config "$tmp/camera.json"
grep -q "cam.yaml" "$tmp/cam/settings.json" || { echo "FAIL camera_file: settings.json lacks it"; fail=1; }
check "camera_file of another aspect" 2 run_process synthetic --frames 3 --width 320 --height 240 --no-video --out "$tmp/o" --config "$tmp/camera.json"
one_line_error "camera_file of another aspect" "camera_file $tmp/cam.yaml: camera: calibrated for 1280x720 but frames are 320x240"
check "camera matrix not 3x3" 2 run_process "${synth_small[@]}" --out "$tmp/o" --config "$tmp/camera2x2.json"
one_line_error "camera matrix not 3x3" "cam2x2.yaml: field 'camera_matrix': must be 3x3"
check "models_dir" 0 run_process "${synth_small[@]}" --out "$tmp/models-out" --config "$tmp/models.json"
check "models_dir missing" 2 run_process "${synth_small[@]}" --out "$tmp/o" --config "$tmp/nomodels.json"
one_line_error "models_dir missing" "no-models: sign model folder not found"
nothing_written "camera_file / models_dir" "$tmp/o"

# --particles draws every swarm's particles: the annotated video differs from the run without them.
check "process without --particles" 0 run_process synthetic --frames 2 --width 320 --height 180 --out "$tmp/plain" "${light[@]}"
check "process --particles" 0 run_process synthetic --frames 2 --width 320 --height 180 --out "$tmp/dots" --particles "${light[@]}"
[ -s "$tmp/dots/annotated.mp4" ] && ! cmp -s "$tmp/plain/annotated.mp4" "$tmp/dots/annotated.mp4" ||
    { echo "FAIL --particles: the annotated video is the same as without it"; fail=1; }

# eval: the report as JSON, --require-bars' exit code, and missing or malformed files.
"$bin" synth --scene easy --frames 4 --width 320 --height 180 --seed 2 --out "$tmp/gt" >/dev/null 2>&1
echo '{"generations": 5, "detect_threshold": 2.0}' >"$tmp/blind.json" # detection off: recall 0
check "process for eval" 0 run_process "$tmp/gt/easy.avi" --out "$tmp/blind" --no-video --config "$tmp/blind.json"
check "eval --json" 0 "$bin" eval --gt "$tmp/gt/easy.truth.jsonl" --pred "$tmp/blind/detections.jsonl" --json "$tmp/eval.json"
grep -q '"frames": 4' "$tmp/eval.json" && grep -q '"bars_met": false' "$tmp/eval.json" && grep -q '"tp": 0' "$tmp/eval.json" ||
    { echo "FAIL eval --json: report lacks frames 4, bars_met false or tp 0:"; cat "$tmp/eval.json"; fail=1; }
check "eval --require-bars, bars missed" 1 "$bin" eval --gt "$tmp/gt/easy.truth.jsonl" --pred "$tmp/blind/detections.jsonl" --require-bars
grep -q "bar not met: true positives" "$tmp/out" || { echo "FAIL eval --require-bars: no 'bar not met: true positives' line"; fail=1; }
check "eval with a missing file" 2 "$bin" eval --gt "$tmp/gt/easy.truth.jsonl" --pred "$tmp/none.jsonl"
one_line_error "eval with a missing file" "none.jsonl"
echo '{"type":"frame","frame":' >"$tmp/bad.jsonl"
check "eval with a malformed file" 2 "$bin" eval --gt "$tmp/bad.jsonl" --pred "$tmp/blind/detections.jsonl"
one_line_error "eval with a malformed file" "bad.jsonl"
check "eval --json into a missing folder" 2 "$bin" eval --gt "$tmp/gt/easy.truth.jsonl" --pred "$tmp/blind/detections.jsonl" --json "$tmp/nodir/e.json"
one_line_error "eval --json into a missing folder" "nodir"

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
