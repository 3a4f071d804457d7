#!/usr/bin/env bash
# tools/train_verifier --detections: a missing or malformed detections file stops it with one line naming the
# file, exit 2, and no verifier written.
set -u
bin="$1"
fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/data/images"
echo "00000.jpg;10;10;40;40;1;prohibitory" >"$dir/data/labels.csv"

out=$("$bin" --data "$dir/data" --synthetic-frames 0 --train verifier --out "$dir/v.yml.gz" \
      --detections "$dir/missing.jsonl" 2>&1)
rc=$?
[ "$rc" -eq 2 ] || fail "missing detections file: exit $rc, expected 2: $out"
grep -q "missing.jsonl" <<<"$out" || fail "missing detections file: the error does not name it: $out"
[ "$(wc -l <<<"$out")" -eq 1 ] || fail "missing detections file: more than one line: $out"
[ ! -e "$dir/v.yml.gz" ] || fail "missing detections file: a verifier was written"

echo "not json" >"$dir/bad.jsonl"
out=$("$bin" --data "$dir/data" --synthetic-frames 0 --train verifier --out "$dir/v.yml.gz" \
      --detections "$dir/bad.jsonl" 2>&1)
rc=$?
[ "$rc" -eq 2 ] || fail "malformed detections file: exit $rc, expected 2: $out"
grep -q "bad.jsonl:1" <<<"$out" || fail "malformed detections file: the error does not name file and line: $out"
[ ! -e "$dir/v.yml.gz" ] || fail "malformed detections file: a verifier was written"
echo "ok"
