#!/usr/bin/env bash
# Runs on the GPU machine over a carried pack (scripts/devrun-pack.sh DEST build/tests/swarm_gpu_tests
# build/app/swarmtrack-bench; tar -cJf): gpu-elementwise's speed rows (100,000 x 100 against the
# copy bandwidth, FastPSO's 5,000 x 200 x 2,000, fp64, other shapes on both sides of the L2 size) with the CPU
# reference in the same run, then its tests and compute-sanitizer on the one-launch path. A `bench_base`
# binary in the pack (an earlier build) is measured beside it, shape for shape.
# Usage (repository root there): scripts/device/elementwise-check.sh PACK
# BENCH=0 skips the timings, SANITIZERS=0 the compute-sanitizer runs (to split the work over two device calls).
set -uo pipefail
source "$(dirname "$0")/check-lib.sh"
check_setup "$1" elementwise
bench() { # BINARY NAME ARGS...: the markdown rows of one bench call
    local bin="$1" name="$2"
    shift 2
    step "$name" "./$bin" bench --suite functions --json "$out/$name.json" "$@"
    grep -E '^\| (gpu|cpu)' "$out/$name.log" | cut -c1-200 | sed "s/^/$name /"
}
if [ "${BENCH:-1}" = 1 ]; then
shapes=("100000 100 300" "5000 200 2000" "1000000 32 100" "200000 256 100" "20000 100 1000")
for rep in 1 2; do
    for shape in "${shapes[@]}"; do
        set -- $shape
        for bin in bench_base swarmtrack-bench; do
            [ -x "$bin" ] || continue
            bench "$bin" "${bin}_$1x$2_r$rep" --strategy gpu-elementwise --function sphere --particles "$1" --dims "$2" \
                --iters "$3" --runs 10
        done
    done
done
for bin in bench_base swarmtrack-bench; do
    [ -x "$bin" ] || continue
    bench "$bin" "${bin}_fp64" --strategy gpu-elementwise --function sphere --particles 100000 --dims 100 --iters 300 \
        --runs 5 --precision fp64
done
bench swarmtrack-bench cpu_100k --strategy cpu-parallel --function sphere --particles 100000 --dims 100 --iters 3 --runs 1
step seeds ./swarmtrack-bench bench --suite seeds --quick --json "$out/seeds.json"
grep -iE "bandwidth|traffic" "$out/seeds.log" | cut -c1-250
fi
step tests_ew ./swarm_gpu_tests --gtest_brief=1 --gtest_filter='Elementwise*'
step tests ./swarm_gpu_tests --gtest_brief=1
[ -x swarm_gpu_cuda_tests ] && step tests_cuda ./swarm_gpu_cuda_tests --gtest_brief=1
if [ "${SANITIZERS:-1}" = 1 ]; then
step memcheck compute-sanitizer --tool memcheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter='Elementwise.OneLaunch*'
LIMIT=400 step racecheck compute-sanitizer --tool racecheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter='Elementwise.OneLaunch*'
step synccheck compute-sanitizer --tool synccheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter='Elementwise.OneLaunch*'
fi
tar -C "$out" -czf "$final/elementwise-logs.tgz" .
