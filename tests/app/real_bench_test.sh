#!/usr/bin/env bash
# `bench --suite real` on the first 3 frames of the GTSDB dev set beside the checkout (../shared/data/gtsdb-dev).
# Exit 77 (skipped) when the data is not there. Usage: real_bench_test.sh PATH/TO/swarmtrack DATA_DIR
set -uo pipefail
bin="$1"
data="$2"
if [ ! -f "$data/labels.csv" ] || [ ! -d "$data/images" ]; then
    echo "SKIP: no dev set at $data (the folder shared/data/gtsdb-dev beside the checkout)"
    exit 77
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$bin" bench --suite real --data "$data" --frames 3 --backend cpu --json "$tmp/real.json" >"$tmp/out" 2>"$tmp/err" || {
    echo "FAIL: exit $?"; cat "$tmp/err" "$tmp/out"; exit 1; }
cat "$tmp/out"
grep -q "(3 of 466 images)" "$tmp/out" || { echo "FAIL: not 3 of 466 images"; exit 1; }
grep -q "| any sign " "$tmp/out" || { echo "FAIL: no any-sign row"; exit 1; }
grep -q '"median_frame"' "$tmp/real.json" || { echo "FAIL: no timing in the JSON"; exit 1; }
echo "ok"
