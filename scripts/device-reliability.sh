#!/usr/bin/env bash
# The reliability checks on the device in one call: the GPU fault tests, the GPU suites under compute-sanitizer
# (memcheck, racecheck, synccheck) and a GPU soak. Pack first (here):
#   cmake --build build --target swarm_gpu_tests swarm_gpu_cuda_tests swarmtrack-bench
#   scripts/devrun-pack.sh .devrun/reliability build/tests/swarm_gpu_tests build/tests/swarm_gpu_cuda_tests build/app/swarmtrack-bench
#   strip .devrun/reliability/{swarm_gpu_tests,swarm_gpu_cuda_tests,swarmtrack-bench}   # stays under the 64 MiB carry
# then on the device (carry .devrun/reliability):  bash scripts/device-reliability.sh .devrun/reliability [SOAK_FRAMES]
# Each step has a time limit so one call stays within budget; logs go to $OUT (or /tmp).
dir="$1"
frames="${2:-100000}"
out="${OUT:-/tmp}"
cd "$dir" || exit 2
export LD_LIBRARY_PATH=.
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# Every GPU PSO strategy (trajectory and per-swarm-bounds cases) and gpu-bees.
F='Strategies/GpuPso.FollowsCpuTrajectory/*:Strategies/GpuPso.PerSwarmBounds/*:GpuBees.MatchesTheHostEmulation'
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
step() { # name, seconds, command...
    local name="$1" t="$2"
    shift 2
    local s=$SECONDS
    timeout "$t" "$@" >"$out/$name.log" 2>&1
    local rc=$?
    echo "== $name rc=$rc $((SECONDS - s)) s"
    grep -E "ERROR SUMMARY|PASSED|FAILED|tests ran" "$out/$name.log" | head -6
}
step faults "${T_FAULTS:-30}" ./swarm_gpu_tests --gtest_filter='GpuFaults.*'
step check_launch "${T_LAUNCH:-20}" ./swarm_gpu_cuda_tests --gtest_filter='CheckLaunch.*'
step memcheck "${T_MEMCHECK:-120}" "$CS" --tool memcheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter="$F"
step racecheck "${T_RACECHECK:-120}" "$CS" --tool racecheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter="$F"
step synccheck "${T_SYNCCHECK:-120}" "$CS" --tool synccheck --error-exitcode 9 ./swarm_gpu_tests --gtest_filter="$F"
step memcheck_cuda "${T_MEMCHECK_CUDA:-120}" "$CS" --tool memcheck --error-exitcode 9 ./swarm_gpu_cuda_tests
step soak "${T_SOAK:-300}" ./swarmtrack-bench bench --suite soak --frames "$frames" --backend cuda
tail -n 14 "$out/soak.log"
