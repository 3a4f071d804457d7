#include "core/tracker_setup.h"

#include <stdexcept>

#include "swarm/errors.h"
#include "swarm/optimizer.h"

namespace app {

tracker::TrackerSettings resolve_settings(const std::string& config_file, const std::string& backend_override) {
    tracker::TrackerSettings s = config_file.empty() ? tracker::TrackerSettings{} : tracker::TrackerSettings::load(config_file);
    if (!backend_override.empty()) {
        const auto backend = swarm::parse_backend(backend_override);
        if (!backend) {
            throw std::invalid_argument("--backend " + backend_override + ": must be cpu, cuda or auto");
        }
        s.engine.backend = *backend;
    }
    check_backend(s); // load() validated the file; the tracker validates what reaches it
    return s;
}

void check_backend(const tracker::TrackerSettings& s) {
    if (s.engine.backend == swarm::Backend::Cuda && !swarm::cuda_device_present()) {
        throw swarm::UnavailableError("--backend cuda: no CUDA device is visible; use --backend cpu or auto");
    }
}

tracker::Camera make_camera(const tracker::TrackerSettings& settings, cv::Size frame_size) {
    const tracker::CameraSettings& camera = settings.camera;
    if (camera.camera_file.empty()) {
        return tracker::Camera::from_fov(frame_size.width, frame_size.height, camera.horizontal_fov_deg);
    }
    tracker::Camera c = tracker::Camera::load(camera.camera_file); // throws "FILE: field 'F': reason"
    if (c.width != frame_size.width || c.height != frame_size.height) {
        try {
            c = c.scaled_to(frame_size.width, frame_size.height); // throws when the aspect ratio differs
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("camera_file " + camera.camera_file + ": " + e.what());
        }
    }
    return c;
}

} // namespace app
