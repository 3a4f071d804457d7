#!/usr/bin/env bash
# Runs on the GPU machine over a carried pack (scripts/devrun-pack.sh DEST build/tests/swarm_gpu_tests
# build/app/swarmtrack-bench, then tar -cJf): the gpu-bees tests, the bees' nine-function bench with
# cpu-bees in the same run, colony/nep sweeps for Rosenbrock (50/50 target) and the shifted Griewank
# (time target), memcheck, racecheck and synccheck on the GpuBees tests, and one ncu profile of a
# Griewank launch. Usage (repository root there): scripts/device/bees-check.sh .devrun/bees.tar.xz
set -uo pipefail
source "$(dirname "$0")/check-lib.sh"
check_setup "$1" bees
bench="./swarmtrack-bench bench --suite bees"
step gpu_tests ./swarm_gpu_tests --gtest_filter='*Bees*' --gtest_brief=1
step bench_all $bench --strategy gpu-bees,cpu-bees --function all
for cfg in "32768 4" "65536 4" "32768 8" "131072 4"; do
    set -- $cfg
    LIMIT=60 step "ros_${1}_nep$2" $bench --strategy gpu-bees --function rosenbrock --bees-colonies "$1" --bees-nep "$2"
done
for c in 16384 32768 65536; do
    LIMIT=40 step "grw_$c" $bench --strategy gpu-bees --function griewank-shifted --bees-colonies "$c"
done
step memcheck compute-sanitizer --tool memcheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter='GpuBees.*'
small='GpuBees.MatchesTheHostEmulation*:GpuBees.LaunchSplitting*'
step racecheck compute-sanitizer --tool racecheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter="$small"
step synccheck compute-sanitizer --tool synccheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter="$small"
LIMIT=120 step ncu ncu --clock-control none -k regex:cuba_kernel --launch-skip 20 --launch-count 1 --section SpeedOfLight \
    --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    $bench --strategy gpu-bees --function griewank-shifted --quick
tar -C "$out" -czf "$final/bees-logs.tgz" .
echo "--- gpu-bees / cpu-bees (function, strategy, settings, success, median ms, cycles, thesis, target, met)"
grep -hE 'bees' "$out"/bench_all.log "$out"/ros_*.log "$out"/grw_*.log | grep -E '[0-9]+/[0-9]+' | cut -c1-220
