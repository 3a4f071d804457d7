#!/usr/bin/env bash
# tools/train_verifier --detections: a missing or malformed detections file stops it with one line naming the
# file (and the line), exit 2, and no verifier written; a jitter scale out of range and SVM parameters under 0 are
# refused too. And the ranker's report gives each sign category's share scored as a sign, so a category the
# boundary gives away shows.
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
# --finds-config without the re-save it is for, and a re-save quality out of range: refused, nothing written.
echo '{}' >"$dir/finds.json"
out=$("$bin" --data "$dir/data" --synthetic-frames 0 --out "$dir/v.yml.gz" --finds-config "$dir/finds.json" 2>&1)
rc=$?
[ "$rc" -eq 2 ] || fail "--finds-config without --resave-quality: exit $rc, expected 2: $out"
grep -q -- "--finds-config" <<<"$out" && [ "$(wc -l <<<"$out")" -eq 1 ] ||
    fail "--finds-config without --resave-quality: not one line naming it: $out"
out=$("$bin" --data "$dir/data" --synthetic-frames 0 --out "$dir/v.yml.gz" --resave-quality 101 2>&1) &&
    fail "--resave-quality 101 accepted: $out"
grep -q -- "--resave-quality" <<<"$out" || fail "the error does not name --resave-quality: $out"
[ ! -e "$dir/v.yml.gz" ] || fail "a verifier was written"
# --resave-quality learns from each training image's re-saved copy too: one image (a fixed noise frame holding a
# sign box of each verifier class) gives two images' samples, and with --detections the tracker's finds on the copy.
mkdir -p "$dir/one/images"
{ printf 'P6\n160 64\n255\n'; LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 160 * 64 * 3; i++) printf "%c", 1 + int(rand() * 255) }'; } \
    >"$dir/one/images/00000.ppm"
i=0
for category in prohibitory danger mandatory giveway stop priority; do
    echo "00000.ppm;$((2 + 24 * i));2;$((22 + 24 * i));22;1;$category" >>"$dir/one/labels.csv"
    i=$((i + 1))
done
samples() { sed -nE 's/.* and ([0-9]+) ranker samples$/\1/p' <<<"$1"; }
once=$("$bin" --data "$dir/one" --synthetic-frames 0 --train ranker --ranker-out "$dir/r1.yml.gz" 2>&1) ||
    fail "ranker on one image failed: $out"
twice=$("$bin" --data "$dir/one" --synthetic-frames 0 --train ranker --ranker-out "$dir/r2.yml.gz" --resave-quality 60 2>&1) ||
    fail "ranker with --resave-quality failed: $twice"
grep -q "1 real images (1 re-saved copies too)" <<<"$twice" || fail "no re-saved copy reported: $twice"
grep -q "1 real images (0 re-saved copies too)" <<<"$once" || fail "a copy reported without --resave-quality: $once"
[ "$(samples "$twice")" -gt "$(samples "$once")" ] ||
    fail "the copy added no ranker samples: $(samples "$once") and $(samples "$twice")"
echo '{"detections":0,"file":"00000.ppm","frame":0,"height":64,"type":"frame","width":160}' >"$dir/one/finds.jsonl"
finds() { sed -nE 's/.*samples \(([0-9]+) of them the tracker.s finds\).*/\1/p' <<<"$1"; }
for resave in "" "--resave-quality 60 --finds-config $dir/finds.json"; do
    out=$("$bin" --data "$dir/one" --synthetic-frames 0 --train verifier --out "$dir/v.yml.gz" \
          --detections "$dir/one/finds.jsonl" $resave 2>&1) || fail "verifier on one image ($resave) failed: $out"
    [ -e "$dir/v.yml.gz" ] || fail "no verifier written ($resave): $out"
    rm -f "$dir/v.yml.gz"
    if [ -z "$resave" ]; then
        [ "$(finds "$out")" = 0 ] || fail "finds without a copy, where the given file has none: $out"
    else
        [ "$(finds "$out")" -gt 0 ] || fail "no finds on the re-saved copy: $out"
    fi
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
echo "ok"
