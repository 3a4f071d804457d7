#pragma once
// The `track` loop's state and one iteration, shared by the GUI and --headless: pacing, pause/step/seek,
// live parameter changes, timing history and recording. The GUI adds drawing around tick().
#include <chrono>
#include <string>

#include "core/annotate.h"
#include "core/pipeline.h"
#include "core/playback.h"
#include "core/recorder.h"
#include "core/timing.h"

namespace app {

struct TrackOptions {
    std::string input = "synthetic";
    std::string config, backend;
    bool headless = false;
    long long frames = -1;       // stop after this many processed frames
    std::string screenshot;      // GUI: save a PNG of the window after `frames` frames, then exit
    double fps = 30;             // synthetic: live frame rate
    int width = 1280, height = 720; // synthetic frame size
    std::string record;          // start recording the annotated view to this file
    std::string preset = "swarmtrack-preset.json"; // the presets panel's default file
    bool profile = false;        // GUI: time the overlay draw exactly (glFinish around it)
    int window_width = 1600, window_height = 900;
};

class TrackSession {
public:
    explicit TrackSession(const TrackOptions& options);
    // Takes and processes a new frame when playback says so (or re-runs the shown one after a settings
    // change while paused). True when current() changed.
    bool tick();
    // Closes the iteration: records the render time, pushes the timing, writes the recording.
    void finish_frame(double render_ms);
    bool ended() const { return m_ended; }
    long long frames_done() const { return m_frames_done; }
    bool done() const { return m_ended || (m_options.frames > 0 && m_frames_done >= m_options.frames); }

    // The settings panel edits `edited`; apply() pushes them to the tracker, which validates them; on error the
    // old ones stay.
    tracker::TrackerSettings edited;
    std::string apply_edited(); // empty, or the one-line error
    // Live sources deliver frames on their own clock; playback pacing applies to file sources only.
    bool live() const { return m_pipeline.source().live(); }

    Pipeline& pipeline() { return m_pipeline; }
    PlaybackState& playback() { return m_playback; }
    OverlayOptions& overlay() { return m_overlay; }
    Recorder& recorder() { return m_recorder; }
    const TimingHistory& history() const { return m_history; }
    const Step& current() const { return m_current; }
    bool has_frame() const { return !m_current.frame.bgr.empty(); }
    const TrackOptions& options() const { return m_options; }

private:
    TrackOptions m_options;
    Pipeline m_pipeline;
    PlaybackState m_playback;
    OverlayOptions m_overlay;
    Recorder m_recorder;
    TimingHistory m_history;
    Step m_current;
    bool m_fresh = false; // current() changed this iteration
    bool m_ended = false;
    long long m_frames_done = 0;
    std::chrono::steady_clock::time_point m_last_finish;
};

// Opens the input for `track`: synthetic inputs run live at options.fps.
std::unique_ptr<FrameSource> open_track_source(const TrackOptions& options, unsigned long long seed);

} // namespace app
