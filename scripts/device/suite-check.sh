#!/usr/bin/env bash
# Runs on the GPU machine over a carried pack (scripts/devrun-pack.sh DEST build/tests/swarm_gpu_tests
# build/tests/swarm_gpu_cuda_tests build/tests/tracker_gpu_tests build/app/swarmtrack-bench; tar -cJf):
# every GPU suite, memcheck on the start-box trajectory tests and the fault tests, the tracker benchmark, and
# Nsight Compute's kernel times for the tracker's per-frame preprocessing (what the 0.5 ms frame spends
# before the search). Usage (repository root there): scripts/device/suite-check.sh PACK
set -uo pipefail
source "$(dirname "$0")/check-lib.sh"
check_setup "$1" suite
step swarm_gpu ./swarm_gpu_tests --gtest_brief=1
step cuda_tests ./swarm_gpu_cuda_tests --gtest_brief=1
step tracker_gpu ./tracker_gpu_tests --gtest_brief=1
grep -E '^\[ gpu scene' "$out/tracker_gpu.log"
step memcheck_startbox compute-sanitizer --tool memcheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter='*StartBox*'
step racecheck_startbox compute-sanitizer --tool racecheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter='*StartBox*'
step bench_tracker ./swarmtrack-bench bench --suite tracker --json "$out/bench-tracker.json"
sed -n '/^|/p' "$out/bench_tracker.log" | head -40
LIMIT=120 step ncu_pre ncu --clock-control none --launch-skip 10 --launch-count 6 -k regex:'preprocess|brightness' \
    ./swarmtrack-bench bench --suite tracker --quick
grep -E '^  [a-z_]+.*\(|Duration|Registers Per|Grid Size|Block Size|Memory Throughput' "$out/ncu_pre.log" | head -40
[ -x ./upload ] && step upload ./upload && cat "$out/upload.log"
cp "$out/bench-tracker.json" "$final/" 2>/dev/null
tar -C "$out" -czf "$final/suite-logs.tgz" .
