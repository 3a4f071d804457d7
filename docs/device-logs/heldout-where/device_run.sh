#!/usr/bin/env bash
# ho.sh PART: the held-out ranker and verifier (even frames) on the odd frames' PART, GPU.
set -uo pipefail
part=$1
R=$PWD
cd .devrun && tar xJf r/b.tar.xz && tar xf $part.tar
export LD_LIBRARY_PATH=$PWD/b:$PWD/t SWARMTRACK_ASSETS=$R/assets
echo "{\"verifier\": \"$PWD/r/ho_signs.yml.gz\", \"candidate_ranker\": \"$PWD/r/ho_regions.yml.gz\"}" > ho.json
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
b/swarmtrack-bench bench --suite real --data $part --backend cuda --config ho.json --predictions $OUT/${part}_ho.jsonl > $OUT/real_cuda_${part}_ho.txt 2>&1
echo "$part rc=$? $SECONDS s"
grep -h "any sign\|^| GPU\|^| CUDA" $OUT/real_cuda_${part}_ho.txt | head -4
