#!/usr/bin/env bash
# sweep.sh NAME [train_verifier flags...]: the held-out verifier (even frames' finds of /tmp/ho-base) with these flags, odd frames scored.
set -uo pipefail
cd /work/main
name=$1; shift
D=$(realpath ../shared/data/gtsdb-dev); B=/tmp/ho-base; H=/tmp/sw-$name; mkdir -p $H
export SWARMTRACK_ASSETS=/work/main/assets
s=$(date +%s)
/tmp/xb/train_verifier --data $D --train verifier --holdout-odd "$@" --detections $B/finds/detections.jsonl --scene-finds 60 --out $H/signs.yml.gz > $H/train2.log 2>&1; echo "$name train2 rc=$? $(( $(date +%s)-s ))s"
echo "{\"verifier\": \"$H/signs.yml.gz\", \"candidate_ranker\": \"$B/regions.yml.gz\"}" > $H/held.json
/tmp/xb/swarmtrack-bench bench --suite real --data /tmp/ho-split/odd --backend cpu --config $H/held.json > $H/held_odd.txt 2>&1; echo "$name held rc=$? $(( $(date +%s)-s ))s"
grep "any sign\|danger\|mandatory" $H/held_odd.txt | head -3
