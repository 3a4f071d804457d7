#pragma once
// The verifier's shape feature: a histogram of oriented gradients of a 32 x 32 grey crop, laid out and
// normalised as OpenCV's HOGDescriptor computes it for a 32 x 32 window, 16 x 16 blocks at a stride of 8, 8 x 8
// cells and 9 unsigned orientation bins (Gaussian block weights of sigma 4, L2-Hys at 0.2), so the trained
// verifier and ranker read the same numbers. The candidate ranker scores about two thousand regions a frame, and
// the library's per-call set-up (gradient buffers, block tables) made the histogram the largest part of the
// host's candidate pass; this form computes one window with fixed tables and separable block weights.
#include <opencv2/core.hpp>

namespace tracker {

constexpr int k_histogram_window = 32;     // crop side, pixels
constexpr int k_histogram_length = 9 * 36; // 3 x 3 blocks of 2 x 2 cells of 9 bins

// grey: CV_8UC1, k_histogram_window square; out: k_histogram_length floats.
void gradient_histogram(const cv::Mat& grey, float* out);

} // namespace tracker
