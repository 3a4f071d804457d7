#pragma once
// Playback state for the track loop: pause, single step, seek and speed for file sources. Live sources
// ignore pacing (they deliver frames at their own rate) and cannot seek. No GUI types: the panels edit
// this struct and the tests drive it directly.
#include <chrono>

namespace app {

struct PlaybackState {
    bool paused = false;
    bool step_requested = false;  // advance exactly one frame while paused
    long long seek_to = -1;       // >= 0: jump there before the next frame
    float speed = 1.0f;           // file sources: multiple of the source's frame rate; 0 = as fast as possible
    bool settings_dirty = false;  // parameters changed: re-run the tracker on the shown frame while paused

    // Whether the loop should take a new frame now. `source_fps` <= 0 means unpaced.
    bool should_advance(bool live, double source_fps, std::chrono::steady_clock::time_point now);
    void mark_advanced(std::chrono::steady_clock::time_point now) { m_last = now; }

private:
    std::chrono::steady_clock::time_point m_last{};
};

} // namespace app
