#!/bin/bash
# g1.sh: the streaming flat tiles with a swarm's box in registers (after) against the build before it, alternating; then peers.
mkdir -p /tmp/r && xz -dc .devrun/g1.tar.xz | tar -C /tmp/r -xf -
P=/tmp/r/g1; export LD_LIBRARY_PATH=$P
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
run() { local label=$1 exe=$2; shift 2
  $P/$exe bench --suite functions --strategy gpu-elementwise --runs 5 "$@" 2>&1 \
    | grep -E '^\| gpu' | awk -F'|' -v l="$label" '{printf "%-7s %-10s %5s %16s %6s dev_ms %9s best %s\n", l, $3, $4, $5, $6, $8, $10}'
}
shapes=(
 "--function sphere --dims 100 --particles 100000 --iters 200"
 "--function rastrigin --dims 100 --particles 100000 --iters 200"
 "--function griewank --dims 36 --particles 200000 --iters 200"
 "--function sphere --dims 12 --particles 400000 --iters 200"
 "--function sphere --dims 200 --particles 5000 --iters 2000"
 "--function sphere --dims 100 --particles 1000 --iters 1000"
)
SECONDS=0
for sh in "${shapes[@]}"; do for rep in 1 2 3; do
  run before swarmtrack-bench-before $sh; run after swarmtrack-bench $sh
done; done | tee $OUT/ab.txt
echo "ab took $SECONDS s"
timeout 250 $P/swarmtrack-bench bench --suite peers --peer-script "$PWD/app/bench/peers/pso_torch.py" --json $OUT/peers.json > $OUT/peers.log 2>&1; echo "peers rc=$? $SECONDS s"
grep -E "Sphere" $OUT/peers.log | grep -E "gpu-elementwise|pytorch" | awk -F'|' '{print $2, $4, $6, $9, $10}'
