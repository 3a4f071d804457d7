#!/bin/bash
# HEAD's swarmtrack-bench (before), the clamped loop moving two groups at a time where the terms are polynomial (P), P with the draws walking pointers (P2),
# alternating; then P's GPU test suites, memcheck on the elementwise tests, its SASS of the resident Sphere kernel and the peers suite.
mkdir -p /tmp/r && xz -dc .devrun/r/a.tar.xz | tar -C /tmp/r -xf -
P=/tmp/r/a; export LD_LIBRARY_PATH=$P
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
run() { # label exe args...
  local label=$1 exe=$2; shift 2
  $P/$exe bench --suite functions --strategy gpu-elementwise --runs 5 "$@" 2>&1 \
    | grep -E '^\| gpu' | awk -F'|' -v l="$label" '{printf "%-7s %-10s %5s %16s %6s dev_ms %9s best %s\n", l, $3, $4, $5, $6, $8, $10}'
}
shapes=(
 "--function sphere --dims 200 --particles 5000 --iters 2000"
 "--function rastrigin --dims 200 --particles 5000 --iters 2000"
 "--function griewank --dims 200 --particles 5000 --iters 2000"
 "--function sphere --dims 100 --particles 100000 --iters 200"
 "--function sphere --dims 98 --particles 5000 --iters 2000"
 "--function sphere --dims 100 --particles 1000 --iters 1000"
 "--function sphere --dims 64 --particles 3000 --iters 1000"
 "--function sphere --dims 100 --particles 2000 --iters 1000 --precision fp64"
 "--function sphere --dims 200 --particles 5000 --iters 2000 --boundary random"
 "--function rastrigin --dims 100 --particles 3000 --iters 1000 --boundary reflect"
 "--function griewank --dims 36 --particles 200000 --iters 100"
 "--function sphere --dims 4 --particles 5000 --iters 2000"
 "--function ackley --dims 300 --particles 2000 --iters 1000"
)
SECONDS=0
for sh in "${shapes[@]}"; do
  for rep in 1 2; do
    run before swarmtrack-bench-before $sh
    run P swarmtrack-bench-P $sh
    run P2 swarmtrack-bench-P2 $sh
  done
done | tee $OUT/ab.txt
echo "ab took $SECONDS s"
K=_ZN5swarm3gpu2ew29elementwise_persistent_kernelILNS_8FunctionE0EfLNS1_7StagingE4ELb0EEEvNS1_4ViewIT0_EENS1_14PersistentArgsE
cuobjdump -sass -fun $K $P/swarmtrack-bench-P > $OUT/sass_P.txt 2>&1
cd $P
./swarm_gpu_tests-P --gtest_brief=1 > $OUT/swarm_gpu_tests.log 2>&1; echo "swarm_gpu_tests rc=$?"; tail -3 $OUT/swarm_gpu_tests.log
./swarm_gpu_cuda_tests-P --gtest_brief=1 > $OUT/swarm_gpu_cuda_tests.log 2>&1; echo "swarm_gpu_cuda_tests rc=$?"; tail -3 $OUT/swarm_gpu_cuda_tests.log
timeout 200 compute-sanitizer --tool memcheck ./swarm_gpu_tests-P --gtest_filter='Elementwise.*:*gpu_elementwise*' > $OUT/memcheck_elementwise.log 2>&1; echo "memcheck rc=$?"; tail -3 $OUT/memcheck_elementwise.log
cd - >/dev/null
python3 -c 'import torch; print("torch", torch.__version__)' | tee $OUT/torch.txt
timeout 300 $P/swarmtrack-bench-P bench --suite peers --peer-script "$PWD/app/bench/peers/pso_torch.py" --json $OUT/peers.json > $OUT/peers.log 2>&1; echo "peers rc=$?"
grep -E "^\|" $OUT/peers.log | head -40
