#pragma once
// Draws the tracker's result onto a BGR frame (the process command's annotated video, GUI recordings).
#include <opencv2/core.hpp>

#include "tracker/camera.h"
#include "tracker/types.h"

namespace app {

struct OverlayOptions {
    bool outlines = true;
    bool labels = true;
    bool particles = true;
    bool best_pose = true;
    float point_size = 3.0f; // pixels
};

// Image position of a pose's centre, or false when it is behind the camera.
bool project_centre(const tracker::Camera& camera, const tracker::Pose& pose, cv::Point2f& out);

// "prohibitory · speed limit 60 #3 0.87" (no class when unknown, no id until the track is confirmed; `ascii`:
// " - " for the middle dot, for the video's ASCII-only font).
std::string detection_label(const tracker::Detection& d, bool ascii = false);

void annotate(cv::Mat& bgr, const tracker::FrameResult& result, const tracker::Camera& camera,
              const OverlayOptions& options = {});

} // namespace app
