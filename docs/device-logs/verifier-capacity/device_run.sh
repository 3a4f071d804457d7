#!/usr/bin/env bash
# run.sh PART | tests: verifiers r/<name>.yml.gz (VARIANTS, default "new"; "old" = shipped) on the GPU.
set -uo pipefail
part=$1
R=$PWD
cd .devrun && tar xJf r/b.tar.xz
export LD_LIBRARY_PATH=$PWD/b:$PWD/t SWARMTRACK_ASSETS=$R/assets
echo '{}' > old.json
for v in ${VARIANTS:-new}; do [ "$v" = old ] || echo "{\"verifier\": \"$PWD/r/$v.yml.gz\"}" > $v.json; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ "$part" = tests ]; then
  tar xJf t.tar.xz
  for v in ${VARIANTS:-new}; do
    b/swarmtrack-bench bench --suite scenes --backend cuda --config $v.json > $OUT/scenes_cuda_$v.txt 2>&1; echo "scenes $v $? $SECONDS s"
    [ "$v" = old ] && continue
    rm -rf /tmp/assets-new && cp -r $R/assets /tmp/assets-new && cp r/$v.yml.gz /tmp/assets-new/verifier/signs.yml.gz
    SWARMTRACK_ASSETS=/tmp/assets-new timeout 300 t/tracker_gpu_tests > $OUT/tracker_gpu_tests_$v.txt 2>&1; echo "gpu tests $v $? $SECONDS s"
    tail -3 $OUT/tracker_gpu_tests_$v.txt
  done
  grep -h "crowded\|easy\|noisy\|night" $OUT/scenes_cuda_*.txt | head -12
  exit 0
fi
tar xf $part.tar
for v in ${VARIANTS:-new}; do
  b/swarmtrack-bench bench --suite real --data $part --backend cuda --config $v.json --predictions $OUT/${part}_$v.jsonl > $OUT/real_cuda_${part}_$v.txt 2>&1
  echo "$part $v real done $SECONDS s"
done
grep -h "any sign" $OUT/real_cuda_*.txt | head -8
