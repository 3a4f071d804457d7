#!/usr/bin/env bash
# Quick start, step 1: install what is missing, build, and run the main job.
#   scripts/run.sh              the default main job
#   scripts/run.sh ARGS...      swarmtrack ARGS...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SWARMTRACK_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh" >&2

if [ $# -eq 0 ]; then
    # The default main job: live tracking of the built-in synthetic scene (no data needed). With a display
    # it opens the GUI; without one it runs the same loop headless for a bounded number of frames (100, so the
    # job ends within minutes on the CPU backend of a 2-core machine and in seconds on a GPU).
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        set -- track synthetic --backend auto
    else
        set -- track synthetic --backend auto --headless --frames 100
    fi
fi
exec "$build/app/swarmtrack" "$@"
