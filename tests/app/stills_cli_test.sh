#!/usr/bin/env bash
# `process --stills` and `eval --labels` through the real binary, on small images made here: each image's frame
# record names its file, images keep their own size, and eval scores CSV and COCO labels against them; bad
# input gives one error line and exit 2. Usage: stills_cli_test.sh PATH/TO/swarmtrack
set -uo pipefail
bin="$1"
source "$(dirname "$0")/../cli_checks.sh"
expect() { # name, file, pattern
    if ! grep -q -- "$3" "$2"; then echo "FAIL $1: '$3' not in $2:"; cat "$2"; fail=1; fi
}
ppm() { # file, width, height, grey level (octal byte)
    { printf 'P6\n%d %d\n255\n' "$2" "$3"; head -c $(($2 * $3 * 3)) /dev/zero | tr '\0' "\\$4"; } >"$1"
}
echo '{"generations": 20, "particles": 16}' >"$tmp/light.json"
mkdir -p "$tmp/stills"
ppm "$tmp/stills/a.ppm" 160 120 200
ppm "$tmp/stills/b.ppm" 200 100 100
ppm "$tmp/stills/c.ppm" 160 120 50

check "process --stills" 0 "$bin" process "$tmp/stills" --stills --out "$tmp/out1" --no-video --backend cpu -q --config "$tmp/light.json"
jsonl="$tmp/out1/detections.jsonl"
expect "first still named" "$jsonl" '"file":"a.ppm","frame":0'
expect "second still named" "$jsonl" '"file":"b.ppm","frame":1'
expect "second still at its own size" "$jsonl" '"frame":1,"height":100'
expect "third still named" "$jsonl" '"file":"c.ppm","frame":2'
expect "summary says stills" "$tmp/out1/summary.json" '"stills": true'

# Labels on a and c (one of a kind without a model); the grey images hold no sign, so every label is a miss.
printf 'a;10;10;29;29;14;stop\nc;40;40;59;59;38;mandatory\nc;80;40;99;59;17;noentry\n' >"$tmp/labels.csv"
check "eval --labels csv" 0 "$bin" eval --labels "$tmp/labels.csv" --pred "$jsonl" --json "$tmp/eval.json"
expect "eval counts" "$tmp/out" "3 images, .* 2 labelled signs of modelled categories, 1 don't-care"
expect "eval any-sign row" "$tmp/out" "| any sign"
expect "eval confusion" "$tmp/out" "confusion"
expect "eval json" "$tmp/eval.json" '"any_sign"'
expect "eval box fit" "$tmp/out" "box fit of the matched predictions"
expect "eval json box fit" "$tmp/eval.json" '"box_fit"'
cat >"$tmp/coco.json" <<'JSON'
{"images": [{"id": 1, "file_name": "a.ppm", "width": 160, "height": 120}],
 "categories": [{"id": 3, "name": "give-way"}],
 "annotations": [{"id": 1, "image_id": 1, "category_id": 3, "bbox": [10, 10, 20, 20]}]}
JSON
check "eval --labels coco" 0 "$bin" eval --labels "$tmp/coco.json" --pred "$jsonl"
expect "coco counts" "$tmp/out" "1 labelled signs of modelled categories"

# Bad input.
check "--stills on a file" 2 "$bin" process "$tmp/stills/a.ppm" --stills --out "$tmp/out2" --backend cpu -q
one_line_error "--stills on a file" "needs a folder"
printf 'a;10;10;29\n' >"$tmp/short.csv"
check "malformed csv" 2 "$bin" eval --labels "$tmp/short.csv" --pred "$jsonl"
one_line_error "malformed csv" "short.csv:1: expected 7 fields"
check "eval without gt or labels" 2 "$bin" eval --pred "$jsonl"
one_line_error "eval without gt or labels" "either --gt"
printf '{"type":"frame","frame":0,"width":160,"height":120,"detections":0}\n' >"$tmp/video.jsonl"
check "labels against video predictions" 2 "$bin" eval --labels "$tmp/labels.csv" --pred "$tmp/video.jsonl"
one_line_error "labels against video predictions" "--stills"
check "bench real without data" 2 "$bin" bench --suite real --data "$tmp/nowhere" --backend cpu
one_line_error "bench real without data" "no such folder"
check "bench real without labels" 2 "$bin" bench --suite real --data "$tmp/stills" --backend cpu
one_line_error "bench real without labels" "--labels FILE"
mkdir -p "$tmp/empty"
check "bench real without images" 2 "$bin" bench --suite real --data "$tmp/empty" --labels "$tmp/labels.csv" --backend cpu
one_line_error "bench real without images" "no images"
check "bench real predictions into no folder" 2 "$bin" bench --suite real --data "$tmp/stills" --labels "$tmp/labels.csv" --backend cpu --predictions "$tmp/nowhere/p.jsonl"
one_line_error "bench real predictions into no folder" "nowhere/p.jsonl: cannot write"
# The real suite on the stills made here, with their CSV labels; its predictions score the same through eval.
check "bench real on stills" 0 "$bin" bench --suite real --data "$tmp/stills" --labels "$tmp/labels.csv" --backend cpu --config "$tmp/light.json" --frames 2 --json "$tmp/real.json" --predictions "$tmp/real.jsonl"
expect "bench real table" "$tmp/out" "| any sign"
expect "bench real timing" "$tmp/out" "time per frame"
expect "bench real json" "$tmp/real.json" '"median_frame"'
expect "bench real predictions name their images" "$tmp/real.jsonl" '"file":"a.ppm"'
grep '| any sign' "$tmp/out" >"$tmp/bench_row"
# GTSDB as published: the images and gt.txt (no category; the class id gives it) in one folder, found without --labels.
mkdir -p "$tmp/gtsdb"
cp "$tmp/stills/a.ppm" "$tmp/stills/c.ppm" "$tmp/gtsdb/"
printf 'a.ppm;10;10;29;29;14\nc.ppm;40;40;59;59;38\nc.ppm;80;40;99;59;17\n' >"$tmp/gtsdb/gt.txt"
check "bench real on a GTSDB folder" 0 "$bin" bench --suite real --data "$tmp/gtsdb" --backend cpu --config "$tmp/light.json"
expect "gt.txt found" "$tmp/out" "labels $tmp/gtsdb/gt.txt"
expect "gt.txt categories from class ids" "$tmp/out" "2 labelled signs of modelled categories, 1 don't-care"
printf 'a.ppm;10;10;29;29;99\n' >"$tmp/gtsdb/gt.txt"
check "gt.txt with an unknown class" 2 "$bin" bench --suite real --data "$tmp/gtsdb" --backend cpu --config "$tmp/light.json"
one_line_error "gt.txt with an unknown class" "gt.txt:1: class_id 99 is not in the sign class list"
check "eval of the bench's predictions" 0 "$bin" eval --labels "$tmp/labels.csv" --pred "$tmp/real.jsonl"
grep -qF "$(cat "$tmp/bench_row")" "$tmp/out" || { echo "FAIL: eval of the bench's predictions differs from the bench's row"; fail=1; }
exit $fail
