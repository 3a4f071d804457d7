#!/usr/bin/env bash
# run.sh PART | tests: the shipped verifier (old) against the mirror-trained one (new), GPU.
set -uo pipefail
part=$1
R=$PWD
cd .devrun && tar xJf r/b.tar.xz
export LD_LIBRARY_PATH=$PWD/b:$PWD/t SWARMTRACK_ASSETS=$R/assets
echo '{}' > old.json
echo "{\"verifier\": \"$PWD/r/new-signs.yml.gz\"}" > new.json
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ "$part" = tests ]; then
  tar xJf t.tar.xz
  rm -rf /tmp/assets-new && cp -r $R/assets /tmp/assets-new && cp r/new-signs.yml.gz /tmp/assets-new/verifier/signs.yml.gz
  for v in old new; do
    b/swarmtrack-bench bench --suite scenes --backend cuda --config $v.json > $OUT/scenes_cuda_$v.txt 2>&1; echo "scenes $v $? $SECONDS s"
  done
  SWARMTRACK_ASSETS=/tmp/assets-new timeout 300 t/tracker_gpu_tests > $OUT/tracker_gpu_tests_new_assets.txt 2>&1; echo "gpu tests $? $SECONDS s"
  tail -3 $OUT/tracker_gpu_tests_new_assets.txt
  grep -h "crowded\|easy\|noisy\|night" $OUT/scenes_cuda_*.txt | head -12
  exit 0
fi
tar xf $part.tar
for v in old new; do
  b/swarmtrack-bench bench --suite real --data $part --backend cuda --config $v.json --predictions $OUT/${part}_$v.jsonl > $OUT/real_cuda_${part}_$v.txt 2>&1
  b/swarmtrack-bench bench --suite real --data $part --backend cuda --config $v.json --resave-quality 92 --predictions $OUT/${part}_q92_$v.jsonl > $OUT/real_cuda_${part}_q92_$v.txt 2>&1
  echo "$part $v real done $SECONDS s"
done
grep -h "any sign" $OUT/real_cuda_*.txt | head -8
