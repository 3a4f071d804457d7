#pragma once
// CPU preprocessing: per-pixel colour-class likelihoods and the sign-colour gradient (formulas shared with
// the CUDA kernel through common/colour_math.h).
#include <algorithm>
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
// Throws std::invalid_argument for an empty or non-BGR8 frame. cover_hue: FitnessSettings::cover_hue.
void preprocess_cpu(const cv::Mat& bgr, ClassMaps& out, float cover_hue = math::k_cover_every_hue);

// Bilinear sampler over host maps, pixel centres at integer coordinates (cv::projectPoints' convention).
// Inline because the CPU search calls it once per model point per particle. `gradient` may be null when the
// fitness does not use it (FitnessWeights::uses_gradient); the sample's gradient is then 0, as the GPU
// sampler leaves it unfetched.
struct HostSampler {
    const cv::Mat* classes;
    const cv::Mat* gradient;
    bool operator()(float u, float v, math::Sample& s) const {
        const int w = classes->cols, h = classes->rows;
        if (!(u >= 0.f && v >= 0.f && u <= static_cast<float>(w - 1) && v <= static_cast<float>(h - 1))) {
            return false;
        }
        const int x0 = std::min(static_cast<int>(u), w - 2 < 0 ? 0 : w - 2);
        const int y0 = std::min(static_cast<int>(v), h - 2 < 0 ? 0 : h - 2);
        const int dx = std::min(x0 + 1, w - 1) - x0, y1 = std::min(y0 + 1, h - 1);
        const float fx = u - static_cast<float>(x0), fy = v - static_cast<float>(y0);
        const float w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy;
        const auto* c0 = classes->ptr<cv::Vec4b>(y0) + x0;
        const auto* c1 = classes->ptr<cv::Vec4b>(y1) + x0;
        for (int k = 0; k < 4; ++k) {
            s.c[k] = (w00 * c0[0][k] + w10 * c0[dx][k] + w01 * c1[0][k] + w11 * c1[dx][k]) * (1.f / 255.f);
        }
        if (gradient == nullptr) {
            s.gx = s.gy = 0.f;
            return true;
        }
        const auto* g0 = gradient->ptr<cv::Vec2f>(y0) + x0;
        const auto* g1 = gradient->ptr<cv::Vec2f>(y1) + x0;
        s.gx = w00 * g0[0][0] + w10 * g0[dx][0] + w01 * g1[0][0] + w11 * g1[dx][0];
        s.gy = w00 * g0[0][1] + w10 * g0[dx][1] + w01 * g1[0][1] + w11 * g1[dx][1];
        return true;
    }
};

} // namespace tracker
