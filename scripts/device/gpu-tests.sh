#!/usr/bin/env bash
# Runs on the GPU machine over a carried build (scripts/devrun-pack.sh + tar): every GPU test binary, then
# compute-sanitizer memcheck, racecheck and synccheck on the engine suites. Logs go to $OUT (or ./out).
# Usage (from the repository root there): scripts/device/gpu-tests.sh .devrun/pack/final.tar.xz
set -uo pipefail
pack="$1"
out="${OUT:-$PWD/out}"
mkdir -p "$out" /tmp/st && tar -C /tmp/st -xJf "$pack" && cd /tmp/st/final || exit 1
export LD_LIBRARY_PATH=.
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$out/gpu.txt"
status=0
for t in swarm_gpu_tests swarm_gpu_cuda_tests tracker_gpu_tests; do
    [ -x "$t" ] || continue
    ./"$t" --gtest_brief=1 >"$out/$t.log" 2>&1 || status=1
    echo "$t: $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/$t.log" | tr '\n' ' ')"
done
# The sanitizers slow kernels 10-100x: the long convergence cases (PSO and the bees thesis functions) are left
# out, and so is DeviceBench, whose instrumented kernel cannot be compared with the uninstrumented copy engine;
# every other case runs.
filter='-*ConvergesOnBenchmarks*:Nine/*:*Scene*:DeviceBench*'
for tool in memcheck racecheck synccheck; do
    for t in swarm_gpu_tests swarm_gpu_cuda_tests; do
        compute-sanitizer --tool "$tool" --error-exitcode 9 ./"$t" --gtest_filter="$filter" --gtest_brief=1 \
            >"$out/$t.$tool.log" 2>&1 || status=1
        echo "$t $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)' "$out/$t.$tool.log" | tr '\n' ' ')"
    done
done
exit $status
