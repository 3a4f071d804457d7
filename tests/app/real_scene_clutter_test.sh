#!/usr/bin/env bash
# Clutter in a video of real appearances: the real scene drawn (seed 11) from the dev set's last third of frames puts
# its signs over a backlit highway (00417), whose foliage against the sky the verifier takes for prohibitory discs
# at a first look and reads as no sign on most later frames. The first 30 frames, CPU, default settings: an unvouched
# track that fits under 0.7 is not reported on a frame whose box the verifier reads as background (hide_refused), so
# at most 40 false detections and fewer than with the setting off (56 without the rule) for at least 28 true ones and
# at most 2 fewer than with it off (30 either way). Exit 77 (skipped) when the data is not there.
# Usage: real_scene_clutter_test.sh PATH/TO/swarmtrack DATA_DIR
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
run() { # name, extra process arguments...: prints "tp fp" of eval's "all" row
    local name="$1"
    shift
    "$bin" process "$tmp/scene/real.avi" --backend cpu --no-video -q --out "$tmp/$name" "$@" >"$tmp/$name.out" 2>&1 ||
        { cat "$tmp/$name.out"; fail "process exit $? ($name)"; }
    "$bin" eval --gt "$tmp/scene/real.truth.jsonl" --pred "$tmp/$name/detections.jsonl" >"$tmp/$name.eval" 2>&1
    awk '$1 == "all" {print $2, $3}' "$tmp/$name.eval"
}
echo '{"hide_refused": false}' >"$tmp/shown.json"
read -r tp fp < <(run hidden)
read -r tp_shown fp_shown < <(run shown --config "$tmp/shown.json")
[ -n "${tp:-}" ] && [ -n "${fp_shown:-}" ] || { cat "$tmp/hidden.eval" "$tmp/shown.eval"; fail "no 'all' row in eval's output"; }
echo "real scene over the last third, 30 frames: $tp true detections, $fp false ($tp_shown and $fp_shown with hide_refused off)"
[ "$fp" -le 40 ] || fail "$fp false detections (at most 40)"
[ "$fp" -lt "$fp_shown" ] || fail "hide_refused took no false detection away ($fp against $fp_shown)"
[ "$tp" -ge 28 ] || fail "$tp true detections (at least 28)"
[ "$tp" -ge $((tp_shown - 2)) ] || fail "hide_refused cost more than 2 true detections ($tp against $tp_shown)"
echo "ok"
