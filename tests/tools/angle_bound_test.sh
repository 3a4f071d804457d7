#!/usr/bin/env bash
# tools/angle_bound: a short scan prints every estimator's row; bad arguments fail with a one-line reason.
set -u
bin="$1"
fail() { echo "FAIL: $*"; exit 1; }

out=$("$bin" --scene easy --frames 40 --width 640 --height 360 --prior-yaw 6 --prior-pitch 3 2>&1) || fail "short scan exited $?: $out"
for row in "counted sign frames" "^zero " "^frame " "^causal size\^4 m0.97 " "^posterior tau 0.010 " "^two-sided size\^4 "; do
    grep -qE "$row" <<<"$out" || fail "no row '$row' in: $out"
done
# The zero estimator's median is a real angle error (the scene's first sign is turned a few degrees).
zero=$(awk '/^zero /{print $2}' <<<"$out")
awk -v z="$zero" 'BEGIN{exit !(z > 0.5 && z < 20)}' || fail "zero estimator median '$zero' out of range"

err=$("$bin" --scene nope 2>&1) && fail "unknown scene accepted"
[ "$(wc -l <<<"$err")" -eq 1 ] || fail "unknown scene: not one line: $err"
grep -q "scene 'nope' is unknown; choose one of easy, noisy, crowded, night" <<<"$err" || fail "unknown scene message: $err"

"$bin" --frames -3 >/dev/null 2>&1 && fail "negative --frames accepted"
"$bin" --width 10 >/dev/null 2>&1 && fail "--width 10 accepted"
echo "angle_bound CLI: ok"
