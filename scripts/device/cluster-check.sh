#!/usr/bin/env bash
# Runs on the GPU machine over a carried pack (scripts/devrun-pack.sh DEST build/tests/swarm_gpu_cuda_tests
# build/tests/tracker_gpu_tests build/tests/swarm_gpu_tests build/app/swarmtrack-bench; tar -cJf): the
# warp-functor search's cluster form against its grid form, the one-launch preprocessing against the CPU, all
# three GPU suites, the sanitizers on both, the tracker benchmark (its barrier section compares the two
# forms) and Nsight Compute's kernel times of the preprocessing and of the search's first generations.
# Usage (repository root there): scripts/device/cluster-check.sh PACK [bench]   (bench: stop after the
# benchmark and the kernel times, for a re-measure)
set -uo pipefail
source "$(dirname "$0")/check-lib.sh"
check_setup "$1" cluster
step warp_functor ./swarm_gpu_cuda_tests --gtest_brief=1 --gtest_filter='GpuWarpFunctor*'
step agreement ./tracker_gpu_tests --gtest_brief=1 --gtest_filter='*Agreement*:FusedSearch*'
step bench_tracker ./swarmtrack-bench bench --suite tracker --json "$out/bench-tracker.json"
sed -n '/^|/p' "$out/bench_tracker.log" | head -60
grep -iE 'target' "$out/bench_tracker.log" | head -3
if [ "${2:-}" = bench ]; then
    LIMIT=90 step ncu_search ncu --clock-control none --launch-skip 30 --launch-count 6 -k regex:'grid_warp' \
        ./swarmtrack-bench bench --suite tracker --quick
    grep -E '^  [a-z_]+.*\(|Duration|Registers Per|Grid Size|Block Size|Cluster Size' "$out/ncu_search.log" | head -50
    cp "$out/bench-tracker.json" "$final/" 2>/dev/null
    tar -C "$out" -czf "$final/cluster-logs.tgz" .
    exit 0
fi
step memcheck_cluster compute-sanitizer --tool memcheck --error-exitcode 9 ./swarm_gpu_cuda_tests --gtest_filter='GpuWarpFunctor.ClusterAndGridBarriersAgree'
step racecheck_cluster compute-sanitizer --tool racecheck --error-exitcode 9 ./swarm_gpu_cuda_tests --gtest_filter='GpuWarpFunctor.ClusterAndGridBarriersAgree'
step synccheck_cluster compute-sanitizer --tool synccheck --error-exitcode 9 ./swarm_gpu_cuda_tests --gtest_filter='GpuWarpFunctor.ClusterAndGridBarriersAgree'
step memcheck_tracker compute-sanitizer --tool memcheck --error-exitcode 9 ./tracker_gpu_tests --gtest_filter='*Agreement*:FusedSearch*'
step racecheck_tracker compute-sanitizer --tool racecheck --error-exitcode 9 ./tracker_gpu_tests --gtest_filter='*Agreement.Preprocessing*:FusedSearch.Follows*'
LIMIT=90 step ncu_pre ncu --clock-control none --launch-skip 10 --launch-count 4 -k regex:'preprocess|grid_warp' \
    ./swarmtrack-bench bench --suite tracker --quick
grep -E '^  [a-z_]+.*\(|Duration|Registers Per|Grid Size|Block Size|Cluster Size' "$out/ncu_pre.log" | head -40
step cuda_tests ./swarm_gpu_cuda_tests --gtest_brief=1
step tracker_gpu ./tracker_gpu_tests --gtest_brief=1
grep -E '^\[ gpu scene' "$out/tracker_gpu.log"
step swarm_gpu ./swarm_gpu_tests --gtest_brief=1
cp "$out/bench-tracker.json" "$final/" 2>/dev/null
tar -C "$out" -czf "$final/cluster-logs.tgz" .
