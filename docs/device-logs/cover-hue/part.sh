#!/bin/bash
# part.sh PART: the real suite on the GPU over .devrun/PART (predictions kept for swarmtrack eval).
mkdir -p /tmp/b && xz -dc .devrun/r/bench.tar.xz | tar -C /tmp/b -xf -
P=/tmp/b/b; export LD_LIBRARY_PATH=$P SWARMTRACK_ASSETS=$PWD/assets
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
$P/swarmtrack-bench bench --suite real --data .devrun/$1 --backend cuda --predictions $OUT/pred_$1.jsonl > $OUT/real_cuda_h200_$1.txt 2>&1; echo "rc=$?"
grep -E "^\| (any sign|prohibitory|danger|mandatory|give-way|stop) " $OUT/real_cuda_h200_$1.txt | head -6; grep -E "^\| NVIDIA" $OUT/real_cuda_h200_$1.txt
