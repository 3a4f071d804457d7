#!/usr/bin/env bash
# Quick start, step 1: install what is missing, build, and run the main job.
#   scripts/run.sh              the default main job
#   scripts/run.sh ARGS...      swarmtrack ARGS...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SWARMTRACK_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh" >&2

if [ $# -eq 0 ]; then
    # The default main job: the offline self-test on whatever backend this machine has.
    set -- selftest --backend auto
fi
exec "$build/app/swarmtrack" "$@"
