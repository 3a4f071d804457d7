#!/usr/bin/env bash
# block-perf device check: tests, benches (this branch vs main's binary), sanitizers on the block kernels.
# Pack: scripts/devrun-pack.sh DEST build/tests/swarm_gpu_tests build/tests/swarm_gpu_cuda_tests build/app/swarmtrack-bench,
# plus main's swarmtrack-bench as swarmtrack-bench-main (the before figures) and this script; run it from DEST.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=.
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version,temperature.gpu --format=csv > $L/smi.txt 2>&1
./swarm_gpu_tests --gtest_brief=1 > $L/gpu_tests.txt 2>&1; echo "swarm_gpu_tests rc=$?" | tee -a $L/summary.txt
./swarm_gpu_cuda_tests --gtest_brief=1 > $L/cuda_tests.txt 2>&1; echo "swarm_gpu_cuda_tests rc=$?" | tee -a $L/summary.txt
for bin in ./swarmtrack-bench ./swarmtrack-bench-main; do
  B="$bin bench --suite functions --runs 10"
  $B --strategy gpu-fused,gpu-sync --function rastrigin --dims 5 --swarms 112 --particles 32 --iters 10000 > $L/A-$(basename $bin).txt 2>&1
  for n in 32 256 1024; do
    $B --strategy gpu-fused,gpu-sync --function cubic --dims 1 --particles $n --iters 100000 > $L/B$n-$(basename $bin).txt 2>&1
  done
done
./swarmtrack-bench bench --suite functions --runs 3 --strategy cpu-serial --function cubic --dims 1 --particles 32 --iters 100000 > $L/cpu-cubic32.txt 2>&1
./swarmtrack-bench bench --suite functions --runs 3 --strategy cpu-parallel --function rastrigin --dims 5 --swarms 112 --particles 32 --iters 10000 > $L/cpu-A.txt 2>&1
F='*BlockReg*:*GpuPso.FollowsCpuTrajectory/gpu_fused*:*GpuPso.FollowsCpuTrajectory/gpu_sync*'
timeout 150 compute-sanitizer --tool memcheck ./swarm_gpu_tests --gtest_brief=1 --gtest_filter="$F" > $L/memcheck.txt 2>&1; echo "memcheck rc=$?" | tee -a $L/summary.txt
timeout 150 compute-sanitizer --tool racecheck ./swarm_gpu_tests --gtest_brief=1 --gtest_filter="$F" > $L/racecheck.txt 2>&1; echo "racecheck rc=$?" | tee -a $L/summary.txt
tar czf $OUT/logs.tgz -C $OUT logs
cat $L/smi.txt
grep -hE "PASSED|FAILED|SKIPPED" $L/gpu_tests.txt $L/cuda_tests.txt | head -20
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $L/memcheck.txt $L/racecheck.txt | head
for f in $L/A-* $L/B*-* $L/cpu-*; do echo "== $(basename $f)"; grep -E "gpu-|cpu-" $f | head -4; done
