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
    # it opens the GUI; without one it runs the same loop headless for a bounded number of frames.
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        set -- track synthetic --backend auto
    else
        set -- track synthetic --backend auto --headless --frames 300
    fi
fi
exec "$build/app/swarmtrack" "$@"
