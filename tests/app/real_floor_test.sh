#!/usr/bin/env bash
# Floors on real footage: the first 30 frames of the GTSDB dev set (../shared/data/gtsdb-dev), each frame alone,
# default settings, CPU backend. The tiles-only detector before the candidate detection and the verifier found
# 28.6 % of these frames' 42 modelled signs at 48.0 % precision; the floors (recall 0.33, precision 0.55) fail
# on it and hold with margin for a sign or two on today's (35.7 %, 60.0 %). Exit 77 (skipped) without the data.
# Usage: real_floor_test.sh PATH/TO/swarmtrack DATA_DIR
set -uo pipefail
bin="$1"
data="$2"
if [ ! -f "$data/labels.csv" ] || [ ! -d "$data/images" ]; then
    echo "SKIP: no dev set at $data (the folder shared/data/gtsdb-dev beside the checkout)"
    exit 77
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$bin" bench --suite real --data "$data" --frames 30 --backend cpu --json "$tmp/real.json" >"$tmp/out" 2>"$tmp/err" || {
    echo "FAIL: exit $?"; cat "$tmp/err" "$tmp/out"; exit 1; }
grep "| any sign " "$tmp/out"
# The "any_sign" object's recall and precision (nlohmann's indented dump: one key per line).
value() { awk -v key="\"$1\":" '/"any_sign": \{/{inside=1} inside && $1==key {gsub(",", "", $2); print $2; exit}' "$tmp/real.json"; }
recall="$(value recall)"
precision="$(value precision)"
[ -n "$recall" ] && [ -n "$precision" ] || { echo "FAIL: no any-sign recall/precision in the JSON"; exit 1; }
awk -v r="$recall" -v p="$precision" 'BEGIN { exit !(r >= 0.33 && p >= 0.55) }' || {
    echo "FAIL: any-sign recall $recall (floor 0.33), precision $precision (floor 0.55)"; exit 1; }
echo "ok: any-sign recall $recall, precision $precision"
