#!/usr/bin/env bash
# The held-out check as run on the development machine, 2026-11-28 (README "For a held-out check"): split the
# labelled frames by parity of their sorted index (train_verifier --holdout-odd's split), train the ranker and the
# verifier on the even ones (the verifier with the tracker's finds on the even frames), score the odd ones.
set -uo pipefail
cd /work/main
D=$(realpath ../shared/data/gtsdb-dev); H=/tmp/ho
export SWARMTRACK_ASSETS=/work/main/assets
python3 - <<'PY'
import os
D=os.path.realpath('../shared/data/gtsdb-dev'); H='/tmp/ho'
rows=[l for l in open(D+'/labels.csv') if l.strip()]
stems=sorted({l.split(';')[0] for l in rows})
odd={s for i,s in enumerate(stems) if i%2==1}
files={os.path.splitext(f)[0]:f for f in os.listdir(D+'/images')}
for part in ('even','odd'):
    os.makedirs(f'{H}/{part}/images',exist_ok=True)
    keep=[s for s in stems if (s in odd)==(part=='odd')]
    for s in keep:
        dst=f'{H}/{part}/images/{files[s]}'
        if not os.path.exists(dst): os.symlink(f'{D}/images/{files[s]}',dst)
    open(f'{H}/{part}/labels.csv','w').write(''.join(l for l in rows if (l.split(';')[0] in odd)==(part=='odd')))
    print(part,len(keep))
PY
s=$(date +%s)
build/tools/train_verifier --data $D --holdout-odd --out $H/v0.yml.gz --ranker-out $H/regions.yml.gz > $H/train1.log 2>&1; echo "train1 rc=$? $(( $(date +%s)-s ))s"
echo "{\"verifier\": \"none\", \"classes\": \"none\", \"candidate_ranker\": \"$H/regions.yml.gz\"}" > $H/nover.json
build/app/swarmtrack process $H/even/images --stills --no-video --backend cpu --config $H/nover.json --out $H/finds > $H/finds.log 2>&1; echo "finds rc=$? $(( $(date +%s)-s ))s"
build/tools/train_verifier --data $D --train verifier --holdout-odd --detections $H/finds/detections.jsonl --scene-finds 60 --out $H/signs.yml.gz > $H/train2.log 2>&1; echo "train2 rc=$? $(( $(date +%s)-s ))s"
echo "{\"verifier\": \"$H/signs.yml.gz\", \"candidate_ranker\": \"$H/regions.yml.gz\"}" > $H/held.json
build/app/swarmtrack-bench bench --suite real --data $H/odd --backend cpu --config $H/held.json > $H/held_odd.txt 2>&1; echo "held rc=$? $(( $(date +%s)-s ))s"
build/app/swarmtrack-bench bench --suite real --data $H/odd --backend cpu > $H/shipped_odd.txt 2>&1; echo "shipped rc=$? $(( $(date +%s)-s ))s"
