#!/usr/bin/env bash
# Configures (once) and builds swarmtrack in build/ (Release, ninja). Used by run.sh and test.sh.
# SWARMTRACK_CUDA_ARCHS overrides the CUDA architectures (e.g. "90" for a faster build).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SWARMTRACK_BUILD_DIR:-$root/build}"

"$root/scripts/deps.sh"

args=(-G Ninja -DCMAKE_BUILD_TYPE=Release)
if [ -n "${SWARMTRACK_CUDA_ARCHS:-}" ]; then
    args+=("-DCMAKE_CUDA_ARCHITECTURES=${SWARMTRACK_CUDA_ARCHS}")
fi
if [ ! -f "$build/build.ninja" ] || [ -n "${SWARMTRACK_CUDA_ARCHS:-}" ]; then
    cmake -S "$root" -B "$build" "${args[@]}" "$@" >/dev/null
fi
cmake --build "$build" -- -j"$(nproc)"
