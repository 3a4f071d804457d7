#!/bin/bash
# ab.sh: the clamped resident kernel with a swarm's box in registers (after) against the build before it, alternating; then peers.
mkdir -p /tmp/r && xz -dc .devrun/b1.tar.xz | tar -C /tmp/r -xf -
P=/tmp/r/b1; export LD_LIBRARY_PATH=$P
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
 "--function ackley --dims 300 --particles 3000 --iters 2000"
 "--function sphere --dims 100 --particles 100000 --iters 200"
 "--function sphere --dims 100 --particles 1000 --iters 1000"
 "--function sphere --dims 64 --particles 3000 --iters 1000"
 "--function sphere --dims 100 --particles 2000 --iters 1000 --precision fp64"
 "--function sphere --dims 4 --particles 5000 --iters 2000"
 "--function sphere --dims 200 --particles 5000 --iters 2000 --boundary random"
)
SECONDS=0
for sh in "${shapes[@]}"; do
  for rep in 1 2 3; do
    run before swarmtrack-bench-before $sh
    run after swarmtrack-bench $sh
  done
done | tee $OUT/ab.txt
echo "ab took $SECONDS s"
python3 -c 'import torch; print("torch", torch.__version__)' | tee $OUT/torch.txt
timeout 300 $P/swarmtrack-bench bench --suite peers --peer-script "$PWD/app/bench/peers/pso_torch.py" --json $OUT/peers.json > $OUT/peers.log 2>&1; echo "peers rc=$?"
grep -E "^\|" $OUT/peers.log | head -30
