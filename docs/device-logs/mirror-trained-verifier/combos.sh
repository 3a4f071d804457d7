#!/usr/bin/env bash
cd /work/main
export SWARMTRACK_ASSETS=/work/main/assets
for combo in "mirror base" "base mirror"; do
  set -- $combo; r=$1; v=$2; H=/tmp/ho-r$r-v$v; mkdir -p $H
  echo "{\"verifier\": \"/tmp/ho-$v/signs.yml.gz\", \"candidate_ranker\": \"/tmp/ho-$r/regions.yml.gz\"}" > $H/held.json
  build/app/swarmtrack-bench bench --suite real --data /tmp/ho-split/odd --backend cpu --config $H/held.json > $H/held_odd.txt 2>&1
  build/app/swarmtrack-bench bench --suite real --data /tmp/ho-split-mirror/odd --backend cpu --config $H/held.json > $H/held_odd_mirrored.txt 2>&1
  echo "$combo done $(date)"
done
