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
    # it opens the GUI; without one it runs the same loop headless for a bounded number of frames (100: with
    # the default 4x2 detection tiles the CPU backend tracks about 0.6 frames/s at 1280x720 on 2 cores, so the
    # job ends in about 3 minutes there; a GPU does it in seconds).
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        set -- track synthetic --backend auto
    else
        set -- track synthetic --backend auto --headless --frames 100
    fi
fi
exec "$build/app/swarmtrack" "$@"
