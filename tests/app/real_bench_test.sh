#!/usr/bin/env bash
# `bench --suite real` on the first frames of the GTSDB dev set beside the checkout (../shared/data/gtsdb-dev).
# Exit 77 (skipped) when the data is not there.
# Usage: real_bench_test.sh PATH/TO/swarmtrack DATA_DIR [FRAMES [RECALL_FLOOR PRECISION_FLOOR]]
#   FRAMES defaults to 3 (the output's shape only). With floors, the any-sign recall and precision must reach
#   them. On the first 30 frames (42 modelled signs) the floors 0.76 / 0.9 fail the tiles-only detector
#   (28.6 % recall at 48.0 % precision), the first candidate detector (35.7 % at 62.5 %), a later one before
#   white balance and the bordered disc models (50.0 % at 75.0 %) and the one before the shade reading of the
#   colour classes (71.4 % at 96.8 %), and hold today's (81.0 % at 97.1 %) with two signs of margin.
set -uo pipefail
bin="$1"
data="$2"
frames="${3:-3}"
recall_floor="${4:-}"
precision_floor="${5:-}"
source "$(dirname "$0")/../dev_set.sh"
need_dev_set "$data"
"$bin" bench --suite real --data "$data" --frames "$frames" --backend cpu --json "$tmp/real.json" >"$tmp/out" 2>"$tmp/err" || {
    echo "FAIL: exit $?"; cat "$tmp/err" "$tmp/out"; exit 1; }
cat "$tmp/out"
grep -q "($frames of 466 images)" "$tmp/out" || { echo "FAIL: not $frames of 466 images"; exit 1; }
grep -q "| any sign " "$tmp/out" || { echo "FAIL: no any-sign row"; exit 1; }
grep -q '"median_frame"' "$tmp/real.json" || { echo "FAIL: no timing in the JSON"; exit 1; }
if [ -n "$recall_floor" ]; then
    # The "any_sign" object's recall and precision (nlohmann's indented dump: one key per line).
    value() { awk -v key="\"$1\":" '/"any_sign": \{/{inside=1} inside && $1==key {gsub(",", "", $2); print $2; exit}' "$tmp/real.json"; }
    recall="$(value recall)"
    precision="$(value precision)"
    [ -n "$recall" ] && [ -n "$precision" ] || { echo "FAIL: no any-sign recall/precision in the JSON"; exit 1; }
    awk -v r="$recall" -v p="$precision" -v rf="$recall_floor" -v pf="$precision_floor" 'BEGIN { exit !(r >= rf && p >= pf) }' || {
        echo "FAIL: any-sign recall $recall (floor $recall_floor), precision $precision (floor $precision_floor)"; exit 1; }
    echo "any-sign recall $recall, precision $precision"
fi
echo "ok"
