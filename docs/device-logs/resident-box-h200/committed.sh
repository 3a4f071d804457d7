#!/bin/bash
# f1.sh: the committed build: swarm GPU tests, a short before/after on FastPSO's shape, then the peers suite twice.
mkdir -p /tmp/r && xz -dc .devrun/f1.tar.xz | tar -C /tmp/r -xf -
P=/tmp/r/f1; export LD_LIBRARY_PATH=$P
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
SECONDS=0
$P/swarm_gpu_tests > $OUT/swarm_gpu_tests.txt 2>&1; echo "swarm_gpu_tests rc=$? $SECONDS s"; tail -2 $OUT/swarm_gpu_tests.txt
for rep in 1 2 3; do for b in swarmtrack-bench; do
  $P/$b bench --suite functions --strategy gpu-elementwise --runs 5 --function sphere --dims 200 --particles 5000 --iters 2000 2>&1 | grep -E '^\| gpu' | awk -F'|' -v l=$b '{print l, $8}'
done; done | tee $OUT/ab_sphere.txt
for k in 1 2; do
  timeout 250 $P/swarmtrack-bench bench --suite peers --peer-script "$PWD/app/bench/peers/pso_torch.py" --json $OUT/peers$k.json > $OUT/peers$k.log 2>&1; echo "peers$k rc=$? $SECONDS s"
  grep -E "Sphere" $OUT/peers$k.log | grep -E "gpu-elementwise|pytorch" | awk -F'|' '{print $2, $4, $6, $9, $10}'
done
