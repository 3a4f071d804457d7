#!/bin/bash
# scene.sh: the real-appearance scene drawn from every third dev frame, the defaults and cover_hue 28 (H200).
mkdir -p /tmp/b && xz -dc .devrun/r/bench.tar.xz | tar -C /tmp/b -xf -
P=/tmp/b/b; export LD_LIBRARY_PATH=$P SWARMTRACK_ASSETS=$PWD/assets
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
$P/swarmtrack-bench bench --suite scenes --scene real --data .devrun/third --backend cuda > $OUT/scene_real_third_h200_default.txt 2>&1; echo "rc=$?"
$P/swarmtrack-bench bench --suite scenes --scene real --data .devrun/third --backend cuda --config .devrun/r/hue28.json > $OUT/scene_real_third_h200_cover_hue_28.txt 2>&1; echo "rc=$?"
grep -hE '^\| real' $OUT/scene_real_third_h200_*.txt | cut -c1-120
