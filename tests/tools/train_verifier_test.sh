#!/usr/bin/env bash
# tools/train_verifier --detections: a missing or malformed detections file stops it with one line naming the
# file (and the line), exit 2, and no verifier written; a jitter scale out of range and SVM parameters under 0 are
# refused too. And the ranker's report gives each sign category's share scored as a sign, so a category the
# boundary gives away shows; --mirror learns each real image's signs twice, as they are and flipped left to right.
set -u
bin="$1"
source "$(dirname "$0")/labelled_folder.sh"

# expect_rejected WHAT DETECTIONS_FILE PATTERN: exit 2, one line matching PATTERN, no verifier written.
expect_rejected() {
    local what="$1" file="$2" pattern="$3" out rc
    out=$("$bin" --data "$dir/data" --synthetic-frames 0 --train verifier --out "$dir/v.yml.gz" \
          --detections "$file" 2>&1)
    rc=$?
    [ "$rc" -eq 2 ] || fail "$what: exit $rc, expected 2: $out"
    grep -q "$pattern" <<<"$out" || fail "$what: the error does not name '$pattern': $out"
    [ "$(wc -l <<<"$out")" -eq 1 ] || fail "$what: more than one line: $out"
    [ ! -e "$dir/v.yml.gz" ] || fail "$what: a verifier was written"
}

expect_rejected "missing detections file" "$dir/missing.jsonl" "missing.jsonl"
echo "not json" >"$dir/bad.jsonl"
expect_rejected "malformed detections file" "$dir/bad.jsonl" "bad.jsonl:1"
# A jitter scale out of its range: refused before any training, nothing written.
out=$("$bin" --data "$dir/data" --synthetic-frames 0 --train verifier --out "$dir/v.yml.gz" --jitter-smallest 1.5 2>&1) &&
    fail "--jitter-smallest 1.5 accepted: $out"
grep -q -- "--jitter-smallest" <<<"$out" || fail "the error does not name --jitter-smallest: $out"
[ ! -e "$dir/v.yml.gz" ] || fail "--jitter-smallest 1.5: a verifier was written"
# The SVMs' parameters at or under 0 (or not numbers): refused as the command line is read, naming the option, before
# any image is read; nothing written.
for bad in "--c 0" "--gamma -0.5" "--positive-weight 0" "--ranker-c -1" "--c abc"; do
    out=$("$bin" --data "$dir/data" --synthetic-frames 24 --out "$dir/v.yml.gz" --ranker-out "$dir/r.yml.gz" $bad 2>&1) &&
        fail "$bad accepted: $out"
    grep -q -- "${bad%% *}: must be a number above 0" <<<"$out" || fail "$bad: the error does not name the option: $out"
    [ ! -e "$dir/v.yml.gz" ] && [ ! -e "$dir/r.yml.gz" ] || fail "$bad: a model was written"
done
# The ranker from rendered frames alone (no image in the folder): a line per category, and the categories' signs
# add up to the report's total.
out=$("$bin" --data "$dir/data" --synthetic-frames 24 --train ranker --ranker-out "$dir/r.yml.gz" 2>&1) ||
    fail "ranker training failed: $out"
[ -e "$dir/r.yml.gz" ] || fail "no ranker written: $out"
sum=0
for category in prohibitory danger mandatory give-way stop "other sign"; do
    line=$(grep -E "^  $category +([0-9.]+ % of [1-9][0-9]*|no signs)$" <<<"$out") ||
        fail "no ranker line for $category: $out"
    n=$(sed -nE 's/.* of ([0-9]+)$/\1/p' <<<"$line")
    sum=$((sum + ${n:-0}))
done
total=$(sed -nE 's/^ranker, training set: signs scored above 0: [0-9.]+ % of ([0-9]+);.*/\1/p' <<<"$out")
[ -n "$total" ] && [ "$total" -gt 0 ] && [ "$sum" -eq "$total" ] ||
    fail "the categories' signs ($sum) are not the total (${total:-none}): $out"
# --mirror: a real image holding one red disc off the frame's centre and an unlabelled blue square (a text PPM from
# awk, which OpenCV reads; the square gives the SVM its non-sign class); the flipped frame's mirrored label frames the
# flipped disc, so the ranker counts twice the prohibitory samples (the label box and the regions that frame it) it
# counts without the flip.
mkdir -p "$dir/real/images"
echo "00000.jpg;20;30;60;70;1;prohibitory" >"$dir/real/labels.csv"
awk 'BEGIN {
    w = 200; h = 120; cx = 40; cy = 50; r = 20
    print "P3", w, h, 255
    for (y = 0; y < h; ++y) {
        for (x = 0; x < w; ++x) {
            d = sqrt((x - cx + 0.5) ^ 2 + (y - cy + 0.5) ^ 2)
            if (d <= r) print (d >= r * 0.8 ? "200 30 30" : "235 235 235")
            else print (x >= 140 && x < 170 && y >= 40 && y < 70 ? "20 60 190" : "90 110 90")
        }
    }
}' >"$dir/real/images/00000.ppm"
prohibitory_samples() {
    local out
    out=$("$bin" --data "$dir/real" --synthetic-frames 0 --train ranker --ranker-out "$dir/r.yml.gz" "$@" 2>&1) ||
        fail "ranker training $*: $out"
    sed -nE 's/^  prohibitory +[0-9.]+ % of ([0-9]+)$/\1/p' <<<"$out"
}
plain=$(prohibitory_samples)
flipped=$(prohibitory_samples --mirror)
[ -n "$plain" ] && [ "$plain" -gt 0 ] || fail "no prohibitory samples from the real image: '$plain'"
[ "$flipped" = $((2 * plain)) ] || fail "--mirror: $flipped prohibitory samples, expected twice $plain"
echo "ok"
