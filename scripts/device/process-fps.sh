#!/usr/bin/env bash
# The end-to-end `process` fps on the GPU machine, in two back-to-back device calls (pack first with
# scripts/device/pack-process.sh; the halves do not fit one call's carry):
#   call 1, carry .devrun/procA.tar.xz:  bash scripts/device/process-fps.sh stage .devrun/procA.tar.xz
#   call 2, carry .devrun/procB.tar.xz:  bash scripts/device/process-fps.sh run .devrun/procB.tar.xz
# The staged half lives in .devrun/proc-stage (ignored, so kept while the machine stays warm). `run` renders
# a 1280x720 clip of the easy scene once with `swarmtrack synth` (as docs/benchmarks-app.md does on the
# 2-core machine), then times `swarmtrack process` of that video file with the cuda backend and then the cpu
# backend (the CPU reference in the same call), decode and encode included, and prints both summaries.
set -uo pipefail
mode="$1" pack="$2"
root="$(cd "$(dirname "$0")/../.." && pwd)"
stage="$root/.devrun/proc-stage"
mkdir -p "$stage" && tar -C "$stage" -xJf "$pack" || exit 1
echo "process-fps: staged $(ls "$stage/proc" | wc -l) files"
[ "$mode" = run ] || exit 0
[ -x "$stage/proc/swarmtrack" ] || { echo "process-fps: the first half is missing (machine not warm any more?): stage it again" >&2; exit 3; }
cd "$stage/proc" || exit 1
export LD_LIBRARY_PATH=. SWARMTRACK_ASSETS="$root/assets"
out="${OUT:-/tmp}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/clip720 && ./swarmtrack synth --scene easy --frames 300 --seed 1 --out /tmp/clip720 >"$out/synth.log" 2>&1 ||
    { tail -3 "$out/synth.log"; exit 1; }
clip=$(ls /tmp/clip720/*.avi | head -1)
for backend in cuda cpu; do
    frames=300
    [ "$backend" = cpu ] && frames=60 # the CPU tracker is a few frames/s at 1280x720 even on 16 threads
    t0=$SECONDS
    ./swarmtrack process "$clip" --frames "$frames" --backend "$backend" \
        --out "/tmp/proc-$backend" --force >"$out/process-$backend.log" 2>&1
    echo "== $backend rc=$? ($frames frames, $((SECONDS - t0)) s)"
    grep -E "fps|error" "$out/process-$backend.log" | tail -3
    cp "/tmp/proc-$backend/summary.json" "$out/summary-$backend.json" 2>/dev/null && head -c 1500 "$out/summary-$backend.json"
    echo
done
