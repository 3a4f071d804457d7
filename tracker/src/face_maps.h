#pragma once
// Face maps of detections and label boxes (tracker/src/common/rectify_math.h) and the CPU rectification of many of
// them, shared by the class labeller, the GPU path's tests and tools/train_classes.
#include <vector>

#include <opencv2/core.hpp>

#include "common/rectify_math.h"
#include "tracker/camera.h"
#include "tracker/model.h"
#include "tracker/types.h"

namespace tracker {

// The model outline's sign-plane bounding rectangle at `pose`, with taps enough for the sign's size.
math::FaceMap face_map_for(const Camera& camera, const SignModel& model, const Pose& pose);
// An image box seen face on.
math::FaceMap face_map_for_box(const cv::Rect2f& box);
// One k_face_side square CV_8U face per map from a BGR8 frame.
void rectify_faces_cpu(const cv::Mat& bgr, const std::vector<math::FaceMap>& maps, std::vector<cv::Mat>& faces);

} // namespace tracker
