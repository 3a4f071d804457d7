#!/usr/bin/env bash
# tools/train_verifier --detections: a missing or malformed detections file stops it with one line naming the
# file (and the line), exit 2, and no verifier written.
set -u
bin="$1"
fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/data/images"
echo "00000.jpg;10;10;40;40;1;prohibitory" >"$dir/data/labels.csv"

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
echo "ok"
