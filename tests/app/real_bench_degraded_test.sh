#!/usr/bin/env bash
# `bench --suite real --blur S --resave-quality Q [--resave-chroma 420|444]` on the first frames of the GTSDB dev set: the frames are degraded
# before tracking (the fitness of what is found changes), the report says how, and bad values are refused.
# Exit 77 (skipped) when the data is not there. Usage: real_bench_degraded_test.sh PATH/TO/swarmtrack DATA_DIR
set -uo pipefail
bin="$1"
data="$2"
source "$(dirname "$0")/../dev_set.sh"

# Bad values first: they need no data.
for bad in "--resave-quality 101" "--resave-quality -5" "--blur -1" "--resave-chroma 422" "--resave-chroma 444" \
    "--resave-chroma 444 --resave-quality 0"; do
    # shellcheck disable=SC2086
    "$bin" bench --suite real --data "$tmp" $bad >"$tmp/out" 2>"$tmp/err" && fail "$bad was accepted"
    grep -q -- "${bad%% *}" "$tmp/err" || { cat "$tmp/err"; fail "$bad: the error does not name the option"; }
done

need_dev_set "$data"
# The degraded runs are whole-tracker runs: the sanitizer pass skips them (tests/tracker/long_runs.h says why)
# and keeps the bad values above.
if [ -n "${TRACKER_SKIP_LONG_RUNS:-}" ]; then
    echo "SKIP: TRACKER_SKIP_LONG_RUNS is set (the bad values were checked)"
    exit 77
fi
frames=4
"$bin" bench --suite real --data "$data" --frames $frames --backend cpu --predictions "$tmp/plain.jsonl" \
    >"$tmp/plain.out" 2>"$tmp/err" || { cat "$tmp/err"; fail "plain run: exit $?"; }
"$bin" bench --suite real --data "$data" --frames $frames --backend cpu --blur 1 --resave-quality 60 \
    --predictions "$tmp/soft.jsonl" --json "$tmp/soft.json" >"$tmp/soft.out" 2>"$tmp/err" ||
    { cat "$tmp/err"; fail "degraded run: exit $?"; }
cat "$tmp/soft.out"
grep -q "blurred by a Gaussian of sigma 1 px, then saved once more as JPEG at quality 60" "$tmp/soft.out" ||
    fail "the report does not say how the frames were degraded"
grep -q '"resave_quality": 60' "$tmp/soft.json" || fail "the JSON does not name the quality"
grep -q "blurred" "$tmp/plain.out" && fail "the plain run says its frames were degraded"
# The same save with the chroma kept: said so, and other pixels than the 4:2:0 save's.
"$bin" bench --suite real --data "$data" --frames $frames --backend cpu --blur 1 --resave-quality 60 --resave-chroma 444 \
    --predictions "$tmp/full.jsonl" --json "$tmp/full.json" >"$tmp/full.out" 2>"$tmp/err" ||
    { cat "$tmp/err"; fail "4:4:4 run: exit $?"; }
grep -q "saved once more as JPEG at quality 60 (4:4:4)" "$tmp/full.out" || fail "the report does not say 4:4:4"
grep -q '"resave_chroma": "444"' "$tmp/full.json" || fail "the JSON does not name the chroma"
if diff <(grep '"category"' "$tmp/soft.jsonl") <(grep '"category"' "$tmp/full.jsonl") >/dev/null; then
    fail "the 4:4:4 save gave exactly the 4:2:0 save's detections"
fi
# What the swarms fit (poses, fitness) on the degraded frames is not what they fit on the originals.
strip() { grep '"category"' "$1"; } # the detection lines (frame lines carry timings)
[ -n "$(strip "$tmp/plain.jsonl")" ] || fail "nothing found on the first $frames frames to compare"
if diff <(strip "$tmp/plain.jsonl") <(strip "$tmp/soft.jsonl") >/dev/null; then
    fail "the degraded frames gave exactly the originals' detections"
fi
echo "ok"
