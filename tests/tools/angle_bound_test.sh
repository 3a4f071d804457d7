#!/usr/bin/env bash
# tools/angle_bound: a short scan prints every estimator's row; bad arguments fail with a one-line reason.
set -u
bin="$1"
fail() { echo "FAIL: $*"; exit 1; }

out=$("$bin" --scene easy --frames 20 --width 640 --height 360 --prior-yaw 6 --prior-pitch 3 2>&1) || fail "short scan exited $?: $out"
for row in "counted sign frames" "^zero " "^frame " "^causal size\^4 m0.97 " "^posterior tau 0.010 " "^two-sided size\^4 "; do
    grep -qE "$row" <<<"$out" || fail "no row '$row' in: $out"
done
# The zero estimator's median is a real angle error (the scene's first sign is turned a few degrees).
zero=$(awk '/^zero /{print $2}' <<<"$out")
awk -v z="$zero" 'BEGIN{exit !(z > 0.5 && z < 20)}' || fail "zero estimator median '$zero' out of range"

# At the tracker's detections, with a refit lattice: the tracker row appears, and the scan counts only the
# signs the tracker matched (never more than the truth scan's).
truth_n=$(grep -oE '[0-9]+ counted sign frames' <<<"$out" | cut -d' ' -f1)
# The tracker searches at 20 generations with 2 candidate swarms (the defaults are 100 and 20; it still matches all
# of the easy scene's 20 sign frames): under the sanitizers every swarm counts.
light=$(mktemp)
trap 'rm -f "$light"' EXIT
echo '{"generations": 20, "candidate_swarms": 2}' >"$light"
for mode in "" "--marginal"; do
    at=$("$bin" --scene easy --frames 20 --width 640 --height 360 --at tracker --config "$light" --refit-px 1 --refit-depth 1 $mode 2>&1) ||
        fail "--at tracker $mode exited $?: $at"
    grep -q "scanned at the tracker's detections" <<<"$at" || fail "--at tracker $mode: no heading in: $at"
    grep -qE "^tracker " <<<"$at" || fail "--at tracker $mode: no tracker row in: $at"
    n=$(grep -oE '[0-9]+ counted sign frames' <<<"$at" | cut -d' ' -f1)
    [ "$n" -gt 0 ] && [ "$n" -le "$truth_n" ] || fail "--at tracker $mode: $n sign frames against $truth_n in the truth scan"
done

err=$("$bin" --marginal 2>&1) && fail "--marginal without a lattice accepted"
grep -q "give --refit-px or --refit-depth too" <<<"$err" || fail "--marginal message: $err"
err=$("$bin" --config /dev/null 2>&1) && fail "--config without --at tracker accepted"
grep -q "it needs --at tracker" <<<"$err" || fail "--config message: $err"
err=$("$bin" --at nowhere 2>&1) && fail "--at nowhere accepted"
[ "$(wc -l <<<"$err")" -eq 1 ] || fail "--at nowhere: not one line: $err"
grep -q -- "--at: nowhere not in {truth,tracker}" <<<"$err" || fail "--at nowhere message: $err"

err=$("$bin" --scene nope 2>&1) && fail "unknown scene accepted"
[ "$(wc -l <<<"$err")" -eq 1 ] || fail "unknown scene: not one line: $err"
grep -q "scene 'nope' is unknown; choose one of easy, noisy, crowded, night" <<<"$err" || fail "unknown scene message: $err"

"$bin" --frames -3 >/dev/null 2>&1 && fail "negative --frames accepted"
"$bin" --width 10 >/dev/null 2>&1 && fail "--width 10 accepted"
echo "angle_bound CLI: ok"
