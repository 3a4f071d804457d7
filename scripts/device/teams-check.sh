#!/usr/bin/env bash
# Runs on the GPU machine over a carried pack (scripts/devrun-pack.sh DEST build/tests/tracker_gpu_tests
# build/tests/swarm_gpu_cuda_tests build/tests/swarm_gpu_tests build/app/swarmtrack-bench, plus
# block-check.sh and main's bench as swarmtrack-bench-main; then tar -cJf): the team-of-warps tests, the
# tracker benchmark (its "GPU warps per particle" sweep decides gpu_team_warps' auto rule), racecheck on
# the team kernels next to a minimal named-barrier kernel (namedbar, when packed: variant 0 = __syncwarp
# only, 1/2 = bar.sync per team of two warps) to tell a real hazard from racecheck's view of named
# barriers, then the block kernel's check (block-check.sh). Usage: scripts/device/teams-check.sh PACK
set -uo pipefail
source "$(dirname "$0")/check-lib.sh"
check_setup "$1" teams
if [ -x ./namedbar ]; then
    for v in 0 1 2; do LIMIT=60 step "namedbar_$v" compute-sanitizer --tool racecheck ./namedbar $v; done
fi
step tracker_gpu ./tracker_gpu_tests --gtest_brief=1
grep -E '^\[ gpu scene' "$out/tracker_gpu.log"
step warp_functor ./swarm_gpu_cuda_tests --gtest_brief=1 --gtest_filter='GpuWarpFunctor*'
LIMIT=150 step racecheck_team compute-sanitizer --tool racecheck --error-exitcode 9 ./swarm_gpu_cuda_tests \
    --gtest_filter='GpuWarpFunctor.FollowsCpuSerial'
grep -E 'Race reported' "$out/racecheck_team.log" | sort | uniq -c | head -6
step bench_tracker ./swarmtrack-bench bench --suite tracker --json "$out/bench-tracker.json"
sed -n '/^|/p' "$out/bench_tracker.log" | head -60
cp "$out/bench-tracker.json" "$final/" 2>/dev/null
if [ -x ./block-check.sh ] || [ -f ./block-check.sh ]; then
    OUT=/tmp/block-out timeout 300 bash ./block-check.sh 2>&1 | tail -40
    cp /tmp/block-out/logs.tgz "$final/block-logs.tgz" 2>/dev/null
fi
tar -C "$out" -czf "$final/teams-logs.tgz" .
