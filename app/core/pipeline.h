#pragma once
// One iteration of the app's loop, shared by `track` (GUI and --headless) and `process`: take a frame
// from the source, run the tracker on it, and time every stage.
#include <memory>
#include <string>

#include "core/timing.h"
#include "core/tracker_setup.h"
#include "sources/frame_source.h"
#include "tracker/tracker.h"

namespace app {

struct Step {
    Frame frame;
    tracker::FrameResult result;
    FrameTiming timing; // capture .. readback filled; render and frame_ms are the caller's
};

class Pipeline {
public:
    Pipeline(std::unique_ptr<FrameSource> source, const tracker::TrackerSettings& settings);
    bool step(Step& out);                 // false at the end of the source
    // Stills: every frame is an image of its own. The tracker is reset before each one (no track, prediction or
    // frame count carries over, and each image is searched with the seeds of a first frame), and the result
    // is numbered by the frame's position in the source.
    void set_stills(bool stills) { m_stills = stills; }
    bool stills() const { return m_stills; }
    Step reprocess(const Frame& frame);   // run the tracker again on a frame already read (paused tuning)
    // Live tuning. A new backend or camera needs a new tracker (tracks restart); the rest is updated in place.
    // The tracker validates the settings; when it refuses them nothing is replaced.
    void apply(const tracker::TrackerSettings& settings);
    const tracker::TrackerSettings& settings() const { return m_settings; }
    FrameSource& source() { return *m_source; }
    const FrameSource& source() const { return *m_source; }
    tracker::Tracker& tracker() { return *m_tracker; }
    const tracker::Camera& camera() const { return m_camera; }

private:
    std::unique_ptr<FrameSource> m_source;
    tracker::TrackerSettings m_settings;
    tracker::Camera m_camera;
    std::unique_ptr<tracker::Tracker> m_tracker;
    bool m_stills = false;
};

} // namespace app
