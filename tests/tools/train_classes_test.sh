#!/usr/bin/env bash
# tools/train_classes: SVM parameters at or under 0 (or not numbers) are refused as the command line is read, naming
# the option, with a non-zero exit and no classifier written; a missing labels file is named in one line.
set -u
bin="$1"
source "$(dirname "$0")/labelled_folder.sh"

for bad in "--c 0" "--gamma -0.5" "--c abc" "--gamma 0"; do
    out=$("$bin" --data "$dir/data" --out "$dir/c.yml.gz" $bad 2>&1) && fail "$bad accepted: $out"
    grep -q -- "^${bad%% *}: must be a number above 0, not ${bad#* }$" <<<"$out" ||
        fail "$bad: the error does not name the option and the value: $out"
    [ ! -e "$dir/c.yml.gz" ] || fail "$bad: a classifier was written"
done
out=$("$bin" --data "$dir/missing" --out "$dir/c.yml.gz" 2>&1)
rc=$?
[ "$rc" -eq 2 ] || fail "missing data folder: exit $rc, expected 2: $out"
grep -q "$dir/missing/labels.csv" <<<"$out" || fail "the error does not name the labels file: $out"
[ "$(wc -l <<<"$out")" -eq 1 ] || fail "missing data folder: more than one line: $out"
[ ! -e "$dir/c.yml.gz" ] || fail "missing data folder: a classifier was written"
echo "ok"
