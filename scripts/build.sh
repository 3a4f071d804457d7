#!/usr/bin/env bash
# Configures (once) and builds swarmtrack in build/ (Release, ninja). Used by run.sh and test.sh.
# With no GPU architectures named, the first configure builds for this machine's GPU, or for the project's
# default list where there is none (cmake/CudaArchitectures.cmake). SWARMTRACK_CUDA_ARCHS names them
# (e.g. "90"); extra arguments go to cmake's configure step.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SWARMTRACK_BUILD_DIR:-$root/build}"

"$root/scripts/deps.sh"

args=(-G Ninja -DCMAKE_BUILD_TYPE=Release)
if [ -n "${SWARMTRACK_CUDA_ARCHS:-}" ]; then
    args+=("-DCMAKE_CUDA_ARCHITECTURES=${SWARMTRACK_CUDA_ARCHS}")
fi
if [ ! -f "$build/build.ninja" ] || [ -n "${SWARMTRACK_CUDA_ARCHS:-}" ] || [ $# -gt 0 ]; then
    cmake -S "$root" -B "$build" "${args[@]}" "$@" >/dev/null
fi
cmake --build "$build" -- -j"$(nproc)"
