#!/usr/bin/env bash
# heldout.sh NAME [train_verifier flags...]: the README's held-out check with the given training flags; the odd
# frames scored as they are and mirrored.
set -uo pipefail
cd /work/main
name=$1; shift
D=$(realpath ../shared/data/gtsdb-dev); M=/tmp/mirror; H=/tmp/ho-$name; mkdir -p $H
export SWARMTRACK_ASSETS=/work/main/assets
python3 - "$D" "$M" <<'PY'
import os, sys
for src, dst in ((sys.argv[1], '/tmp/ho-split'), (sys.argv[2], '/tmp/ho-split-mirror')):
    rows=[l for l in open(src+'/labels.csv') if l.strip()]
    stems=sorted({l.split(';')[0] for l in rows})
    odd={s for i,s in enumerate(stems) if i%2==1}
    files={os.path.splitext(f)[0]:f for f in os.listdir(src+'/images')}
    for part in ('even','odd'):
        os.makedirs(f'{dst}/{part}/images',exist_ok=True)
        for s in stems:
            if (s in odd)==(part=='odd'):
                d=f'{dst}/{part}/images/{files[s]}'
                if not os.path.exists(d): os.symlink(f'{src}/images/{files[s]}',d)
        open(f'{dst}/{part}/labels.csv','w').write(''.join(l for l in rows if (l.split(';')[0] in odd)==(part=='odd')))
PY
S=/tmp/ho-split; SM=/tmp/ho-split-mirror
s=$(date +%s)
build/tools/train_verifier --data $D --holdout-odd "$@" --out $H/v0.yml.gz --ranker-out $H/regions.yml.gz > $H/train1.log 2>&1; echo "train1 rc=$? $(( $(date +%s)-s ))s"
echo "{\"verifier\": \"none\", \"classes\": \"none\", \"candidate_ranker\": \"$H/regions.yml.gz\"}" > $H/nover.json
build/app/swarmtrack process $S/even/images --stills --no-video --backend cpu --config $H/nover.json --out $H/finds > $H/finds.log 2>&1; echo "finds rc=$? $(( $(date +%s)-s ))s"
build/tools/train_verifier --data $D --train verifier --holdout-odd "$@" --detections $H/finds/detections.jsonl --scene-finds 60 --out $H/signs.yml.gz > $H/train2.log 2>&1; echo "train2 rc=$? $(( $(date +%s)-s ))s"
echo "{\"verifier\": \"$H/signs.yml.gz\", \"candidate_ranker\": \"$H/regions.yml.gz\"}" > $H/held.json
build/app/swarmtrack-bench bench --suite real --data $S/odd --backend cpu --config $H/held.json > $H/held_odd.txt 2>&1; echo "held rc=$? $(( $(date +%s)-s ))s"
build/app/swarmtrack-bench bench --suite real --data $SM/odd --backend cpu --config $H/held.json > $H/held_odd_mirrored.txt 2>&1; echo "held mirrored rc=$? $(( $(date +%s)-s ))s"
