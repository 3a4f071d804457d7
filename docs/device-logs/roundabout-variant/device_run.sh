#!/usr/bin/env bash
# go.sh TASK...: tests (tracker GPU tests + scenes bench), qN (shipped assets, dev quarter), hN (held-out files, odd half)
set -uo pipefail
R=$PWD
cd .devrun && tar xJf r/b.tar.xz
export LD_LIBRARY_PATH=$PWD/b:$PWD/t SWARMTRACK_ASSETS=$R/assets
echo "{\"verifier\": \"$PWD/ho/ho_signs.yml.gz\", \"candidate_ranker\": \"$PWD/ho/ho_regions.yml.gz\"}" > ho.json
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for task in "$@"; do
  case $task in
    tests)
      tar xJf t.tar.xz
      timeout 400 t/tracker_gpu_tests > $OUT/tracker_gpu_tests.txt 2>&1; echo "gpu tests rc=$? $SECONDS s"; tail -3 $OUT/tracker_gpu_tests.txt
      b/swarmtrack-bench bench --suite scenes --backend cuda > $OUT/scenes_cuda.txt 2>&1; echo "scenes rc=$? $SECONDS s"
      grep -h "crowded\|easy\|noisy\|night" $OUT/scenes_cuda.txt | head -8 ;;
    q*)
      tar xf $task.tar
      b/swarmtrack-bench bench --suite real --data $task --backend cuda --predictions $OUT/${task}.jsonl > $OUT/real_cuda_${task}.txt 2>&1
      echo "$task rc=$? $SECONDS s"; grep -h "any sign\|^| GPU\|^| CUDA" $OUT/real_cuda_${task}.txt | head -3 ;;
    h*)
      tar xf $task.tar
      b/swarmtrack-bench bench --suite real --data $task --backend cuda --config ho.json --predictions $OUT/${task}_ho.jsonl > $OUT/real_cuda_${task}_ho.txt 2>&1
      echo "$task rc=$? $SECONDS s"; grep -h "any sign\|^| GPU\|^| CUDA" $OUT/real_cuda_${task}_ho.txt | head -3 ;;
  esac
done
