#!/usr/bin/env bash
# Runs on the GPU machine over a carried pack (scripts/devrun-pack.sh + tar -cJf): the engine's and the
# tracker's GPU suites, the tracker benchmark, the sanitizers on the fused kernels, the memcheck log of
# the out-of-memory tests, and a kernel-time profile of gpu-bees on the shifted Griewank.
# Usage (repository root there): scripts/device/fused-check.sh .devrun/lead.tar.xz
set -uo pipefail
source "$(dirname "$0")/check-lib.sh"
STEP_LIMIT=240
check_setup "$1" fused
step cuda_tests ./swarm_gpu_cuda_tests --gtest_brief=1
step tracker_gpu ./tracker_gpu_tests --gtest_brief=1
grep -E '^\[ gpu scene' "$out/tracker_gpu.log"
step swarm_gpu ./swarm_gpu_tests --gtest_brief=1
step bench_tracker ./swarmtrack-bench bench --suite tracker --json "$out/bench-tracker.json"
sed -n '/^|/p' "$out/bench_tracker.log" | head -40
step memcheck_warp compute-sanitizer --tool memcheck --error-exitcode 9 ./swarm_gpu_cuda_tests --gtest_filter='GpuWarpFunctor*'
step racecheck_warp compute-sanitizer --tool racecheck --error-exitcode 9 ./swarm_gpu_cuda_tests --gtest_filter='GpuWarpFunctor.LaneZeroDecides:GpuWarpFunctor.SwarmIndex*'
step memcheck_fused compute-sanitizer --tool memcheck --error-exitcode 9 ./tracker_gpu_tests --gtest_filter='FusedSearch*'
step racecheck_fused compute-sanitizer --tool racecheck --error-exitcode 9 ./tracker_gpu_tests --gtest_filter='FusedSearch.Follows*'
step synccheck_fused compute-sanitizer --tool synccheck --error-exitcode 9 ./tracker_gpu_tests --gtest_filter='FusedSearch.Follows*'
step memcheck_faults compute-sanitizer --tool memcheck ./swarm_gpu_tests --gtest_filter='GpuFaults.*'
grep -E '^=========' "$out/memcheck_faults.log" | sed -E 's/0x[0-9a-f]+/0x./g' | sort | uniq -c | sort -rn | head -12
step bees_griewank ./swarmtrack-bench bench --suite bees --strategy gpu-bees --function griewank-shifted --runs 5
sed -n '/^|/p' "$out/bees_griewank.log"
LIMIT=120 step ncu_bees ncu --clock-control none --metrics gpu__time_duration.sum -k regex:cuba ./swarmtrack-bench bench --suite bees --strategy gpu-bees --function griewank-shifted --runs 1
grep -E 'cuba_kernel|gpu__time_duration' "$out/ncu_bees.log" | head -20
LIMIT=120 step ncu_fused ncu --clock-control none --launch-skip 20 --launch-count 3 -k regex:grid_warp ./swarmtrack-bench bench --suite tracker --quick
grep -E 'Duration|Registers|Achieved Occupancy|Block Size|Grid Size|Theoretical Occupancy' "$out/ncu_fused.log" | head -24
cp "$out/bench-tracker.json" "$final/" 2>/dev/null
tar -C "$out" -czf "$final/logs.tar.gz" .
