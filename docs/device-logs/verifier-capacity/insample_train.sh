#!/usr/bin/env bash
# shipc.sh NAME [flags]: the README's verifier step on today's finds (/tmp/ship-mirror/finds, shipped ranker), in-sample, then CPU dev set.
set -uo pipefail
cd /work/main
name=$1; shift
D=$(realpath ../shared/data/gtsdb-dev); H=/tmp/ship-$name; mkdir -p $H
export SWARMTRACK_ASSETS=/work/main/assets
s=$(date +%s)
/tmp/xb/train_verifier --data $D --train verifier "$@" --detections /tmp/ship-mirror/finds/detections.jsonl --scene-finds 60 --out $H/signs.yml.gz > $H/train2.log 2>&1; echo "$name train2 rc=$? $(( $(date +%s)-s ))s"
