#include "core/tracker_setup.h"

#include <stdexcept>

#include "swarm/errors.h"
#include "swarm/optimizer.h"

namespace app {

tracker::TrackerSettings resolve_settings(const std::string& config_file, const std::string& backend_override) {
    tracker::TrackerSettings s = config_file.empty() ? tracker::TrackerSettings{} : tracker::TrackerSettings::load(config_file);
    if (!backend_override.empty()) {
        if (backend_override != "cpu" && backend_override != "cuda" && backend_override != "auto") {
            throw std::invalid_argument("--backend " + backend_override + ": must be cpu, cuda or auto");
        }
        s.backend = backend_override;
    }
    s.validate();
    check_backend(s);
    return s;
}

void check_backend(const tracker::TrackerSettings& s) {
    if (s.backend == "cuda" && !swarm::cuda_device_present()) {
        throw swarm::UnavailableError("--backend cuda: no CUDA device is visible; use --backend cpu or auto");
    }
}

tracker::Camera make_camera(const tracker::TrackerSettings& settings, cv::Size frame_size) {
    if (settings.camera_file.empty()) {
        return tracker::Camera::from_fov(frame_size.width, frame_size.height, settings.horizontal_fov_deg);
    }
    tracker::Camera c = tracker::Camera::load(settings.camera_file); // throws "FILE: field 'F': reason"
    if (c.width != frame_size.width || c.height != frame_size.height) {
        try {
            c = c.scaled_to(frame_size.width, frame_size.height); // throws when the aspect ratio differs
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("camera_file " + settings.camera_file + ": " + e.what());
        }
    }
    return c;
}

} // namespace app
