#pragma once
// Drawing helpers of the synthetic scenes: procedural road backgrounds, sign colours, distractors.
#include <opencv2/core.hpp>

#include "tracker/camera.h"
#include "tracker/pose.h"
#include "tracker/types.h"

namespace tracker::render {

// Paint colour of a sign layer (BGR).
cv::Scalar paint(ColourClass c);

// A road seen from a vehicle: sky, horizon, road with lane marks that move with `travelled` metres,
// verges, and roadside blocks placed deterministically from `seed`.
void road_background(cv::Mat& bgr, const Camera& cam, double travelled, unsigned long long seed);

// Fraction of the polygon's area (pixels) covered by `mask` (CV_8U, nonzero = hidden) or outside the image.
double hidden_fraction(const std::vector<cv::Point2f>& polygon, const cv::Mat& mask);

// Where a sign stands when it appears, as seen from the vehicle (camera frame, metres and degrees): `side` metres
// 3 to 5.5 across (+1 right, -1 left), 0.9 to 1.9 m up, 34 to 46 m ahead, turned within +-12 deg yaw and +-4 deg
// pitch and roll. Six draws from `rng`, in the order of the pose's fields.
Pose roadside_sign_pose(cv::RNG& rng, double side);

// Polygon to fillPoly's fixed-point form (4 fractional bits).
std::vector<cv::Point> fixed_point(const std::vector<cv::Point2f>& pts);
constexpr int k_shift = 4;

} // namespace tracker::render
