#!/usr/bin/env bash
# Runs on the GPU machine over a carried pack (scripts/devrun-pack.sh DEST build/app/swarmtrack-bench
# build/tests/tracker_gpu_tests; tar -cJf) and a part of the dev set (a folder of images with its labels.csv:
# the whole set is over the device tool's 64 MB, so it travels in halves, one call each). The real suite on both
# backends (predictions kept, so the halves are scored together afterwards with `swarmtrack eval --labels`); with
# `tests`: the tracker GPU suite and memcheck on the preprocessing/fitness agreement and the device-frame path;
# with `benches`: the tracker and scenes benches (each extra fits one call's 10 minutes beside half the set).
# Usage (repository root there): scripts/device/real-check.sh PACK DATA_DIR [tests|benches]
set -uo pipefail
data="$(cd "$2" && pwd)"
mode="${3:-}"
source "$(dirname "$0")/check-lib.sh"
check_setup "$1" real
export SWARMTRACK_ASSETS="$OLDPWD/assets"
bench=./swarmtrack-bench
LIMIT=400 step real_cuda $bench bench --suite real --data "$data" --backend cuda --predictions "$final/pred_cuda.jsonl" \
    --json "$out/real_cuda.json"
LIMIT=400 step real_cpu $bench bench --suite real --data "$data" --backend cpu --predictions "$final/pred_cpu.jsonl" \
    --json "$out/real_cpu.json"
grep -hE '^\| (any sign|CPU|NVIDIA)' "$out/real_cuda.log" "$out/real_cpu.log"
if [ "$mode" = tests ]; then
    LIMIT=400 step tracker_gpu ./tracker_gpu_tests --gtest_brief=1
    grep -E '^\[ gpu scene' "$out/tracker_gpu.log"
    step memcheck compute-sanitizer --tool memcheck --error-exitcode 9 ./tracker_gpu_tests \
        --gtest_filter='*Agree*:GpuDeviceFrame*:GpuDetectionTiles*' --gtest_brief=1
fi
if [ "$mode" = benches ]; then
    step bench_tracker $bench bench --suite tracker
    sed -n '/^|/p' "$out/bench_tracker.log" | head -12
    LIMIT=400 step bench_scenes $bench bench --suite scenes --backend cuda
    sed -n '/^|/p' "$out/bench_scenes.log" | head -12
fi
tar -C "$out" -czf "$final/real-logs.tgz" .
