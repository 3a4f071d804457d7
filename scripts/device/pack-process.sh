#!/usr/bin/env bash
# Packs build/app/swarmtrack (the full app: video I/O, GUI libraries) with every shared library a bare GPU
# machine lacks, for the end-to-end `process` fps there. Its video stack (FFmpeg, GStreamer, codecs)
# is ≈ 80 MB even xz-compressed, over one device call's 64 MiB carry, so the files go into two balanced
# archives, .devrun/procA.tar.xz and .devrun/procB.tar.xz, carried by two back-to-back calls of
# scripts/device/process-fps.sh (the first stages its half; ignored files survive while the machine is warm).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
bin=build/app/swarmtrack
[ -x "$bin" ] || { echo "pack-process: $bin not built; run scripts/build.sh first" >&2; exit 2; }
rm -rf .devrun/procA .devrun/procB && mkdir -p .devrun/procA/proc .devrun/procB/proc
# The C runtime and the GPU driver come with the machine; everything else goes.
ldd "$bin" | awk '/=> \//{print $3}' \
    | grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda)\.so' \
    | xargs -r du -Lb | sort -rn > .devrun/proc-libs.txt
a=0 b=0
while read -r size lib; do # largest first, each into the lighter half
    if [ "$a" -le "$b" ]; then cp -L "$lib" .devrun/procA/proc/; a=$((a + size)); else cp -L "$lib" .devrun/procB/proc/; b=$((b + size)); fi
done < .devrun/proc-libs.txt
cp "$bin" .devrun/procB/proc/ && strip .devrun/procB/proc/swarmtrack
cp -r assets shaders .devrun/procB/proc/ 2>/dev/null || true
for half in A B; do
    tar -C .devrun/proc$half -cf - proc | xz -T0 -6 > .devrun/proc$half.tar.xz
done
ls -la .devrun/procA.tar.xz .devrun/procB.tar.xz
for f in .devrun/procA.tar.xz .devrun/procB.tar.xz; do
    [ "$(stat -c %s "$f")" -lt $((60 * 1024 * 1024)) ] || { echo "pack-process: $f is over 60 MiB" >&2; exit 1; }
done
