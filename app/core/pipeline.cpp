#include "core/pipeline.h"

#include <chrono>
#include <cstdio>
#include <stdexcept>


#include "swarm/errors.h"
#include "swarm/optimizer.h"

namespace app {
namespace {
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }
} // namespace

// `auto` without a device runs on the CPU; the warning comes once everything else has been checked.
static bool fall_back_to_cpu(tracker::TrackerSettings& s) {
    if (s.engine.backend != swarm::Backend::Auto || swarm::cuda_device_present()) return false;
    s.engine.backend = swarm::Backend::Cpu;
    return true;
}

Pipeline::Pipeline(std::unique_ptr<FrameSource> source, const tracker::TrackerSettings& settings)
    : m_source(std::move(source)), m_settings(settings), m_camera(make_camera(settings, m_source->size())),
      m_tracker() {
    const bool fell_back = fall_back_to_cpu(m_settings);
    m_tracker = tracker::create_tracker(m_settings, m_camera);
    if (fell_back) std::fprintf(stderr, "swarmtrack: warning: no CUDA device is visible; using the CPU backend\n");
}

bool Pipeline::step(Step& out) {
    const auto t0 = Clock::now();
    if (!m_source->read(out.frame)) return false;
    out.timing = {};
    out.timing[Stage::Capture] = ms_since(t0);
    if (m_stills) {
        // Stills may differ in size and aspect ratio; the tracker only rescales a camera of the same aspect.
        const cv::Size size = out.frame.bgr.size();
        if (size.width != m_camera.width || size.height != m_camera.height) {
            m_camera = make_camera(m_settings, size);
            m_tracker = tracker::create_tracker(m_settings, m_camera);
        }
        m_tracker->reset();
    }
    out.result = m_tracker->process(out.frame.bgr);
    if (m_stills) {
        out.result.frame = out.frame.index;
        for (auto& d : out.result.detections) d.frame = out.frame.index;
    }
    out.timing.set_tracker(out.result.timing);
    return true;
}

Step Pipeline::reprocess(const Frame& frame) {
    Step out;
    out.frame = frame;
    out.result = m_tracker->process(frame.bgr);
    out.timing.set_tracker(out.result.timing);
    return out;
}

void Pipeline::apply(const tracker::TrackerSettings& next) {
    tracker::TrackerSettings s = next;
    if (s.engine.backend != m_settings.engine.backend || s.camera.camera_file != m_settings.camera.camera_file ||
        s.camera.horizontal_fov_deg != m_settings.camera.horizontal_fov_deg ||
        s.signs.models_dir != m_settings.signs.models_dir) {
        check_backend(s);
        fall_back_to_cpu(s);
        tracker::Camera camera = make_camera(s, m_source->size());
        m_tracker = tracker::create_tracker(s, camera); // throws before anything is replaced
        m_camera = camera;
    } else {
        m_tracker->update_settings(s);
    }
    m_settings = s;
}

} // namespace app
