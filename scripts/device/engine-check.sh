#!/usr/bin/env bash
# Runs on the GPU machine over a carried pack (scripts/devrun-pack.sh DEST build/tests/swarm_gpu_tests
# build/app/swarmtrack-bench; tar -cJf): the engine's speed-target rows that the latest kernels touch, with
# the CPU reference in the same run (RingPSO's Table 2 shape on Rastrigin and Sphere; cuPSO's 1-D cubic at
# 32 / 256 / 1,024 particles; SyncPSO's 112 x 32 Rastrigin 5-D), then the trajectory tests and memcheck /
# racecheck of those paths. Usage (repository root there): scripts/device/engine-check.sh PACK
set -uo pipefail
source "$(dirname "$0")/check-lib.sh"
check_setup "$1" engine
bench() { # NAME ARGS...: the markdown rows of one bench call
    local name="$1"
    shift
    step "$name" ./swarmtrack-bench bench --suite functions --json "$out/$name.json" "$@"
    grep -E '^\| (gpu|cpu)' "$out/$name.log" | cut -c1-220
}
bench ring_rastrigin --strategy gpu-fused --function rastrigin --particles 1024 --dims 100 --iters 100000 --topology ring --runs 3
bench ring_sphere --strategy gpu-fused --function sphere --particles 1024 --dims 100 --iters 100000 --topology ring --runs 3
bench ring_cpu --strategy cpu-parallel --function rastrigin --particles 1024 --dims 100 --iters 1000 --topology ring --runs 1
for n in 32 256 1024; do
    bench "cubic_$n" --strategy gpu-fused --function cubic --dims 1 --particles "$n" --iters 100000 --runs 5
done
bench cubic_cpu --strategy cpu-serial --function cubic --dims 1 --particles 32 --iters 100000 --runs 3
bench sync112 --strategy gpu-fused --function rastrigin --dims 5 --particles 32 --swarms 112 --iters 10000 --runs 5
step tests ./swarm_gpu_tests --gtest_brief=1 --gtest_filter='*BlockReg*:*GpuPso*'
step tests_fused ./swarm_gpu_cuda_tests --gtest_brief=1 --gtest_filter='GpuFused*'
step memcheck compute-sanitizer --tool memcheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter='*BlockReg*'
step memcheck_gp compute-sanitizer --tool memcheck --error-exitcode 9 ./swarm_gpu_cuda_tests --gtest_filter='GpuFused.GridPhases*'
LIMIT=150 step racecheck compute-sanitizer --tool racecheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter='*BlockReg.Follows*'
step racecheck_gp compute-sanitizer --tool racecheck --error-exitcode 9 ./swarm_gpu_cuda_tests --gtest_filter='GpuFused.GridPhases*'
tar -C "$out" -czf "$final/engine-logs.tgz" .
