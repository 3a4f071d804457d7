#!/usr/bin/env bash
# tools/diagnose_real: a stride at or under 0 is refused as the command line is read, naming --every; a missing labels
# file is named in one line; each with a non-zero exit and no per-sign file written.
set -u
bin="$1"
source "$(dirname "$0")/labelled_folder.sh"

for bad in 0 -2 x; do
    out=$("$bin" --data "$dir/data" --every "$bad" --per-sign "$dir/per.csv" 2>&1) && fail "--every $bad accepted: $out"
    grep -q -- "^--every: must be a number above 0, not $bad$" <<<"$out" || fail "--every $bad: not named: $out"
    [ ! -e "$dir/per.csv" ] || fail "--every $bad: a per-sign file was written"
done
out=$("$bin" --data "$dir/missing" --per-sign "$dir/per.csv" 2>&1) && fail "a missing data folder accepted: $out"
grep -q "$dir/missing/labels.csv" <<<"$out" && [ "$(wc -l <<<"$out")" -eq 1 ] ||
    fail "the error is not one line naming the labels file: $out"
[ ! -e "$dir/per.csv" ] || fail "missing data folder: a per-sign file was written"
echo "ok"
