#!/usr/bin/env bash
# `cmake --install` into a fresh prefix, then the installed binary runs from another folder with no
# SWARMTRACK_ASSETS: it finds its sign models and presets under PREFIX/share/swarmtrack, and --version says
# what it was built from. Usage: install_test.sh BUILD_DIR
set -uo pipefail
build="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || { echo "FAIL cmake --install"; exit 1; }
for f in bin/swarmtrack bin/swarmtrack-bench share/swarmtrack/signs/stop.json share/swarmtrack/presets/cpu-quick.json \
         share/swarmtrack/verifier/signs.yml.gz share/swarmtrack/classes/classes.json \
         share/swarmtrack/classes/classifier.yml.gz \
         share/swarmtrack/cameras/dashcam_1280x720.yaml share/swarmtrack/peers/pso_torch.py; do
    [ -e "$tmp/prefix/$f" ] || { echo "FAIL not installed: $f"; fail=1; }
done
mkdir -p "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1
unset SWARMTRACK_ASSETS
"$tmp/prefix/bin/swarmtrack" --version >"$tmp/version" || { echo "FAIL --version exit"; fail=1; }
for want in "^swarmtrack [0-9]" "^commit: " "^CUDA architectures: " "^GUI: " "^assets: $tmp/prefix/share/swarmtrack\$"; do
    grep -q "$want" "$tmp/version" || { echo "FAIL --version lacks '$want':"; cat "$tmp/version"; fail=1; }
done
"$tmp/prefix/bin/swarmtrack-bench" --version | grep -q "^swarmtrack-bench " || { echo "FAIL swarmtrack-bench --version"; fail=1; }
# The installed bench finds the PyTorch peer under PREFIX/share/swarmtrack/peers (a stand-in interpreter that
# records the script it is given and says it has no GPU).
printf '#!/bin/sh\n[ "$1" = -c ] && exit 0\necho "$1" >>"%s/peer-calls"\necho "pso_torch: no CUDA device" >&2\nexit 3\n' \
    "$tmp" >"$tmp/fake-python"
chmod +x "$tmp/fake-python"
"$tmp/prefix/bin/swarmtrack-bench" bench --suite peers --quick --runs 1 --peer-python "$tmp/fake-python" >/dev/null 2>&1
grep -qx "$tmp/prefix/share/swarmtrack/peers/pso_torch.py" "$tmp/peer-calls" 2>/dev/null ||
    { echo "FAIL the installed bench did not find its PyTorch peer:"; cat "$tmp/peer-calls"; fail=1; }
# A shipped preset by name, the sign models from the prefix: one tracked frame.
if "$tmp/prefix/bin/swarmtrack" process synthetic:easy --frames 1 --config cpu-quick --out "$tmp/out" -q 2>"$tmp/err"; then
    [ -s "$tmp/out/detections.jsonl" ] || { echo "FAIL no detections.jsonl from the installed binary"; fail=1; }
else
    echo "FAIL the installed binary could not process:"; cat "$tmp/err"; fail=1
fi
# A preset name that is not shipped: the error lists the ones that are.
"$tmp/prefix/bin/swarmtrack" process synthetic:easy --frames 1 --config no-such-preset --out "$tmp/out2" -q 2>"$tmp/err"
grep -q "cpu-quick" "$tmp/err" || { echo "FAIL unknown preset error does not list the shipped ones:"; cat "$tmp/err"; fail=1; }
# Without its share folder the installed binary says what is missing and how to fix it.
mv "$tmp/prefix/share" "$tmp/share-moved"
"$tmp/prefix/bin/swarmtrack" process synthetic:easy --frames 1 --out "$tmp/out3" -q 2>"$tmp/err"
grep -q "SWARMTRACK_ASSETS" "$tmp/err" || { echo "FAIL missing assets error:"; cat "$tmp/err"; fail=1; }
SWARMTRACK_ASSETS="$tmp/share-moved/swarmtrack" "$tmp/prefix/bin/swarmtrack" process synthetic:easy --frames 1 \
    --config cpu-quick --out "$tmp/out4" -q 2>"$tmp/err" || { echo "FAIL SWARMTRACK_ASSETS not honoured:"; cat "$tmp/err"; fail=1; }
[ "$fail" = 0 ] && echo "install test passed"
exit "$fail"
