#pragma once
// How far a model point lies from the nearest change of paint, for the fitness's blur allowance
// (FitnessSettings::paint_blur): a camera and a chroma-subsampled JPEG mix a thin rim with its neighbours
// over a pixel or so, so on a small sign a point a pixel from its paint's edge cannot read its full colour.
#include <vector>

#include <opencv2/core.hpp>

#include "tracker/model.h"

namespace tracker {

struct PaintReach {
    float near_m = 0.f; // to the nearest change of paint, metres
    float far_m = 0.f;  // to the nearest change on the far side (directions over 120 degrees from the nearest's)
};

// Reaches beyond this count as far: at the smallest sizes tracked (about 20 px a metre) it is ten pixels.
constexpr float k_far_reach_m = 0.5f;

// The paint at `p` (sign plane, metres) is the topmost layer's colour there, or the background outside every
// layer; the reaches are measured along 72 directions in the sign's plane to where that paint changes.
PaintReach paint_reach(const std::vector<ModelLayer>& layers, cv::Point2f p);

} // namespace tracker
