#!/usr/bin/env bash
# Quick start, step 2: install what is missing, build, and run the whole test suite.
# GPU tests carry the ctest label "gpu" and skip themselves when no device is present.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SWARMTRACK_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
