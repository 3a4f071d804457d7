#pragma once
// Drawing helpers of the synthetic scenes: procedural road backgrounds, sign colours, distractors.
#include <opencv2/core.hpp>

#include "tracker/camera.h"
#include "tracker/types.h"

namespace tracker::render {

// Paint colour of a sign layer (BGR).
cv::Scalar paint(ColourClass c);

// A road seen from a vehicle: sky, horizon, road with lane marks that move with `travelled` metres,
// verges, and roadside blocks placed deterministically from `seed`.
void road_background(cv::Mat& bgr, const Camera& cam, double travelled, unsigned long long seed);

// Fraction of the polygon's area (pixels) covered by `mask` (CV_8U, nonzero = hidden) or outside the image.
double hidden_fraction(const std::vector<cv::Point2f>& polygon, const cv::Mat& mask);

// Polygon to fillPoly's fixed-point form (4 fractional bits).
std::vector<cv::Point> fixed_point(const std::vector<cv::Point2f>& pts);
constexpr int k_shift = 4;

} // namespace tracker::render
