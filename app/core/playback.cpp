#include "core/playback.h"

namespace app {

bool PlaybackState::should_advance(bool live, double source_fps, std::chrono::steady_clock::time_point now) {
    if (seek_to >= 0) return true; // a seek shows the target frame even while paused
    if (paused) {
        if (!step_requested) return false;
        step_requested = false;
        return true;
    }
    if (live || speed <= 0.0f || source_fps <= 0.0) return true;
    const auto period = std::chrono::duration<double>(1.0 / (source_fps * speed));
    return now - m_last >= period;
}

} // namespace app
