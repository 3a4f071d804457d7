#!/usr/bin/env bash
# Runs on the GPU machine over a carried pack (scripts/devrun-pack.sh DEST build/app/swarmtrack-bench
# build/tests/swarm_gpu_tests build/tests/swarm_gpu_cuda_tests, plus the previous engine's swarmtrack-bench copied in
# as swarmtrack-bench-before; tar -cJf): the engine's GPU suites, then the launch-per-iteration designs
# (gpu-queue-lock, gpu-reduction, gpu-queue, gpu-unrolled) on cuPSO's 1-D cubic, fp64, at 32 / 1,024 particles and
# gpu-fused's asynchronous cubic at 32 / 256 / 1,024, each with the previous and this binary in the same run (131,072
# particles with this binary only: its before/after pair is in docs/benchmarks.md), then `bench --suite peers` with the
# PyTorch peer, memcheck on the changed paths, and where ncu runs, one profiled launch of gpu-queue-lock at 131,072
# particles and of gpu-fused's synchronous fp64 1,024-particle kernel. The first run took 142 s with a failing peer;
# the peer's six compilations add about 2-3 minutes.
# Usage (repository root there): scripts/device/peers-check.sh PACK
set -uo pipefail
source "$(dirname "$0")/check-lib.sh"
check_setup "$1" peers
repo="$OLDPWD"
python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)' 2>&1 | tail -1 | tee "$out/torch.txt"

step swarm_gpu ./swarm_gpu_tests --gtest_brief=1
step cuda_tests ./swarm_gpu_cuda_tests --gtest_brief=1

# cuPSO's experiment (w = 1, c = 2, |v| <= the range, fp64, 100,000 iterations) and the asynchronous target (the
# engine's defaults, fp32), before and after, alternating so that a drift of the clocks touches both alike.
cupso=(--function cubic --dims 1 --iters 100000 --precision fp64 --w 1 --c1 2 --c2 2 --vmax 1 --runs 3)
for n in 32 1024 131072; do
    for bin in before after; do
        [ "$n" = 131072 ] && [ "$bin" = before ] && continue
        exe=./swarmtrack-bench
        [ "$bin" = before ] && exe=./swarmtrack-bench-before
        LIMIT=90 step "lock_${n}_$bin" "$exe" bench --suite functions --particles "$n" "${cupso[@]}" \
            --strategy gpu-queue-lock,gpu-reduction,gpu-queue,gpu-unrolled --json "$out/lock_${n}_$bin.json"
        grep -E '^\| gpu' "$out/lock_${n}_$bin.log" | cut -d'|' -f2,5,7,8,10 | sed "s/^/$bin $n:/"
    done
done
for n in 32 256 1024; do
    for bin in before after; do
        exe=./swarmtrack-bench
        [ "$bin" = before ] && exe=./swarmtrack-bench-before
        step "async_${n}_$bin" "$exe" bench --suite functions --strategy gpu-fused --update asynchronous \
            --function cubic --dims 1 --particles "$n" --iters 100000 --runs 5 --json "$out/async_${n}_$bin.json"
        grep -E '^\| gpu' "$out/async_${n}_$bin.log" | cut -d'|' -f2,5,7,8,10 | sed "s/^/$bin $n:/"
    done
done

LIMIT=280 step peers ./swarmtrack-bench bench --suite peers --peer-script "$repo/app/bench/peers/pso_torch.py" \
    --json "$out/peers.json"
sed -n '/^# swarmtrack bench/,$p' "$out/peers.log"

LIMIT=90 step memcheck compute-sanitizer --tool memcheck --error-exitcode 9 ./swarm_gpu_tests --gtest_brief=1 \
    --gtest_filter='*UnwatchedRun*gpu_queue_lock*:*UnwatchedRun*gpu_reduction*:GpuAsync.EveryBoundary*:GpuAsync.OneParticle*'
# What bounds the two rows that missed: gpu-queue-lock at 131,072 particles (one launch of 128 x 1,024 threads per
# iteration) and the synchronous fp64 cubic at 1,024 particles (gpu-fused's block kernel, one SM). One launch each.
if command -v ncu >/dev/null; then
    ncu_sections=(--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats
        --section Occupancy --section MemoryWorkloadAnalysis)
    cubic1=(bench --suite functions --function cubic --dims 1 --precision fp64 --w 1 --c1 2 --c2 2 --vmax 1 --runs 1)
    LIMIT=60 step ncu_lock ncu "${ncu_sections[@]}" -k regex:queue_lock_kernel --launch-skip 200 --launch-count 1 \
        ./swarmtrack-bench "${cubic1[@]}" --strategy gpu-queue-lock --particles 131072 --iters 400
    LIMIT=60 step ncu_sync ncu "${ncu_sections[@]}" -k regex:block_swarm --launch-count 1 \
        ./swarmtrack-bench "${cubic1[@]}" --strategy gpu-fused --particles 1024 --iters 5000
    grep -E 'Duration|Issue Slots Busy|No Eligible|Stall|Compute \(SM\) Throughput|Memory Throughput|Registers Per' \
        "$out/ncu_lock.log" "$out/ncu_sync.log" | head -40
else
    echo "ncu: not on this machine"
fi
cp "$out/peers.json" "$final/" 2>/dev/null
tar -C "$out" -czf "$final/peers-logs.tgz" .
