#!/usr/bin/env bash
# Clutter in a video of real appearances: the real scene drawn (seed 11) from the dev set's last third of frames puts
# its signs over a backlit highway (00417), whose foliage against the sky the verifier takes for prohibitory discs
# at a first look and reads as no sign on most later frames. The first 30 frames, CPU, default settings: an unvouched
# track is not reported on a frame whose box the verifier reads as background, so at most 40 false detections
# (56 before that rule, 29 with it) for at least 28 true ones (30 either way). Exit 77 (skipped) when the data is not
# there. Usage: real_scene_clutter_test.sh PATH/TO/swarmtrack DATA_DIR
set -uo pipefail
bin="$1"
data="$2"
source "$(dirname "$0")/../dev_set.sh"
need_dev_set "$data"
mkdir -p "$tmp/data/images"
images="$(cd "$data/images" && pwd)"
all=("$images"/*.jpg)
third=$((${#all[@]} / 3))
for f in "${all[@]:$((2 * third))}"; do
    ln -s "$f" "$tmp/data/images/$(basename "$f")"
    key="$(basename "$f" .jpg)"
    grep "^$key;" "$data/labels.csv" >>"$tmp/data/labels.csv"
done
"$bin" synth --scene real --seed 11 --frames 30 --data "$tmp/data" --out "$tmp/scene" >"$tmp/synth.out" 2>&1 ||
    { cat "$tmp/synth.out"; fail "synth exit $?"; }
"$bin" process "$tmp/scene/real.avi" --backend cpu --no-video -q --out "$tmp/run" >"$tmp/process.out" 2>&1 ||
    { cat "$tmp/process.out"; fail "process exit $?"; }
"$bin" eval --gt "$tmp/scene/real.truth.jsonl" --pred "$tmp/run/detections.jsonl" >"$tmp/eval.out" 2>&1
read -r tp fp < <(awk '$1 == "all" {print $2, $3}' "$tmp/eval.out")
[ -n "${tp:-}" ] && [ -n "${fp:-}" ] || { cat "$tmp/eval.out"; fail "no 'all' row in eval's output"; }
echo "real scene over the last third, 30 frames: $tp true detections, $fp false"
[ "$fp" -le 40 ] || fail "$fp false detections (at most 40)"
[ "$tp" -ge 28 ] || fail "$tp true detections (at least 28)"
echo "ok"
