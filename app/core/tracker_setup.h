#pragma once
// The settings and camera a command runs the tracker with; apart from the processing loop so that
// swarmtrack-bench (no frame sources, no video I/O) builds them the same way.
#include <string>

#include <opencv2/core.hpp>

#include "tracker/camera.h"
#include "tracker/tracker.h"

namespace app {

// The tracker settings a command runs with: the config file (if any, validated as it loads), then command-line
// overrides.
// Throws std::invalid_argument naming the key, or swarm::UnavailableError for `cuda` without a device.
tracker::TrackerSettings resolve_settings(const std::string& config_file, const std::string& backend_override);
// `cuda` without a device is an error (`auto` falls back to the CPU when the Pipeline starts).
void check_backend(const tracker::TrackerSettings& settings);

// Intrinsics from settings.camera_file (OpenCV YAML: camera_matrix, image_width, image_height; scaled to
// the frame size when the aspect ratio matches) or from the field of view and the frame size.
tracker::Camera make_camera(const tracker::TrackerSettings& settings, cv::Size frame_size);

} // namespace app
