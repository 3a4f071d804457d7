#pragma once
// CPU preprocessing: per-pixel colour-class likelihoods and the sign-colour gradient (formulas shared with
// the CUDA kernel through common/colour_math.h).
#include <vector>

#include <opencv2/core.hpp>

#include "common/fitness_math.h"

namespace tracker {

struct ClassMaps {
    cv::Mat classes;        // CV_8UC4: red, blue, white, yellow likelihood * 255
    cv::Mat gradient;       // CV_32FC2: d(sign colour)/dx, d/dy per pixel
    float mean_value = 0;   // frame mean of max(b, g, r), the white reference
};

// Mean of max(b, g, r) over a BGR8 frame (every pixel).
float mean_max_channel(const cv::Mat& bgr);
// The frame's smoothed local-exposure grid (common/colour_math.h, "Local exposure"), gw x gh tiles, row-major.
// Returns the sum of max(b, g, r) over the whole frame (the tiles cover every pixel once).
long long exposure_grid(const cv::Mat& bgr, std::vector<float>& smoothed, int& gw, int& gh);
// Each pixel's local exposure gain (common/colour_math.h, "Local exposure"), CV_32F of the frame's size.
cv::Mat exposure_gains(const cv::Mat& bgr);
// Throws std::invalid_argument for an empty or non-BGR8 frame.
void preprocess_cpu(const cv::Mat& bgr, ClassMaps& out);

// Bilinear sampler over host maps, pixel centres at integer coordinates (cv::projectPoints' convention).
struct HostSampler {
    const cv::Mat* classes;
    const cv::Mat* gradient;
    bool operator()(float u, float v, math::Sample& s) const;
};

} // namespace tracker
