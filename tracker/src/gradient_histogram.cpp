#include "gradient_histogram.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace tracker {
namespace {

constexpr int k_side = k_histogram_window;
constexpr int k_pixels = k_side * k_side;
constexpr int k_cell = 8, k_block = 16, k_stride = 8, k_bins = 9;
constexpr int k_blocks = (k_side - k_block) / k_stride + 1; // along each axis
constexpr int k_block_length = 4 * k_bins;
constexpr float k_clip = 0.2f;                              // L2-Hys
constexpr float k_first_norm_floor = 0.1f * k_block_length; // the descriptor's floor under the first L2 norm
constexpr float k_second_norm_floor = 1e-3f;
static_assert(k_blocks * k_blocks * k_block_length == k_histogram_length);

// A pixel's weight towards cell c (0 or 1) of its block along one axis, at block coordinate t: the block's
// Gaussian (sigma a quarter of the block's side) times the linear share between the two cell centres, all of it
// to the nearer cell outside them. The 2-D weight is the product of the two axes'.
using AxisWeights = std::array<std::array<float, k_block>, 2>;
const AxisWeights& axis_weights() {
    static const AxisWeights w = [] {
        AxisWeights a{};
        const float sigma = k_block / 4.f, falloff = 1.f / (2.f * sigma * sigma);
        for (int c = 0; c < 2; ++c) {
            for (int t = 0; t < k_block; ++t) {
                const float d = t - 0.5f * k_block, cell_pos = (t + 0.5f) / k_cell - 0.5f;
                a[c][t] = std::exp(-d * d * falloff) * std::max(0.f, 1.f - std::abs(cell_pos - c));
            }
        }
        return a;
    }();
    return w;
}

// Each pixel's gradient as two votes: `low` to bin `bin_low` and `high` to the next bin (orientation mod pi,
// bins centred on (k + 0.5) pi / 9), shared linearly by the angle's distance to the two centres.
struct Votes {
    std::array<float, k_pixels> low, high;
    std::array<unsigned char, k_pixels> bin_low, bin_high;
};

// Central differences, the border reflected about its edge pixel (OpenCV's BORDER_REFLECT_101).
void gradients(const cv::Mat& grey, Votes& v) {
    std::array<float, k_pixels> dx, dy;
    for (int y = 0; y < k_side; ++y) {
        const unsigned char* row = grey.ptr<unsigned char>(y);
        const unsigned char* up = grey.ptr<unsigned char>(y == 0 ? 1 : y - 1);
        const unsigned char* down = grey.ptr<unsigned char>(y == k_side - 1 ? k_side - 2 : y + 1);
        for (int x = 0; x < k_side; ++x) {
            const int left = x == 0 ? 1 : x - 1, right = x == k_side - 1 ? k_side - 2 : x + 1;
            dx[y * k_side + x] = static_cast<float>(row[right]) - static_cast<float>(row[left]);
            dy[y * k_side + x] = static_cast<float>(down[x]) - static_cast<float>(up[x]);
        }
    }
    cv::Mat magnitude(1, k_pixels, CV_32F, v.low.data()), angle(1, k_pixels, CV_32F, v.high.data());
    cv::cartToPolar(cv::Mat(1, k_pixels, CV_32F, dx.data()), cv::Mat(1, k_pixels, CV_32F, dy.data()), magnitude, angle);
    const float bins_per_radian = k_bins / static_cast<float>(CV_PI);
    for (int p = 0; p < k_pixels; ++p) {
        const float position = v.high[p] * bins_per_radian - 0.5f;
        int bin = cvFloor(position);
        const float share = position - static_cast<float>(bin), m = v.low[p];
        bin = bin < 0 ? bin + k_bins : (bin >= k_bins ? bin - k_bins : bin);
        v.low[p] = m * (1.f - share);
        v.high[p] = m * share;
        v.bin_low[p] = static_cast<unsigned char>(bin);
        v.bin_high[p] = static_cast<unsigned char>(bin + 1 < k_bins ? bin + 1 : 0);
    }
}

// The block weights are separable: the votes are summed along each row of a block column first (per cell
// column), then the rows' sums down each block (per cell row).
using RowSums = std::array<std::array<std::array<std::array<float, k_bins>, 2>, k_side>, k_blocks>;

void sum_rows(const Votes& v, RowSums& rows) {
    const AxisWeights& w = axis_weights();
    for (int bx = 0; bx < k_blocks; ++bx) {
        for (int y = 0; y < k_side; ++y) {
            auto& sums = rows[bx][y];
            for (auto& cell : sums) {
                cell.fill(0.f);
            }
            const int row = y * k_side + bx * k_stride;
            for (int c = 0; c < 2; ++c) {
                // A cell's weights are zero beyond the other cell's centre.
                for (int t = c * k_cell / 2; t < k_block - (1 - c) * k_cell / 2; ++t) {
                    const int p = row + t;
                    sums[c][v.bin_low[p]] += w[c][t] * v.low[p];
                    sums[c][v.bin_high[p]] += w[c][t] * v.high[p];
                }
            }
        }
    }
}

void normalise_block(float* h) {
    float sum = 0;
    for (int k = 0; k < k_block_length; ++k) {
        sum += h[k] * h[k];
    }
    const float first = 1.f / (std::sqrt(sum) + k_first_norm_floor);
    sum = 0;
    for (int k = 0; k < k_block_length; ++k) {
        h[k] = std::min(h[k] * first, k_clip);
        sum += h[k] * h[k];
    }
    const float second = 1.f / (std::sqrt(sum) + k_second_norm_floor);
    for (int k = 0; k < k_block_length; ++k) {
        h[k] *= second;
    }
}

// Blocks column-major, and within a block its cells column-major, as HOGDescriptor lays them out.
void block_histogram(const RowSums& rows, int bx, int by, float* h) {
    const AxisWeights& w = axis_weights();
    std::fill(h, h + k_block_length, 0.f);
    for (int cx = 0; cx < 2; ++cx) {
        for (int cy = 0; cy < 2; ++cy) {
            float* cell = h + (cx * 2 + cy) * k_bins;
            for (int t = 0; t < k_block; ++t) {
                const auto& sums = rows[bx][by * k_stride + t][cx];
                for (int b = 0; b < k_bins; ++b) {
                    cell[b] += w[cy][t] * sums[b];
                }
            }
        }
    }
    normalise_block(h);
}

} // namespace

void gradient_histogram(const cv::Mat& grey, float* out) {
    CV_Assert(grey.type() == CV_8UC1 && grey.rows == k_side && grey.cols == k_side);
    Votes votes;
    gradients(grey, votes);
    RowSums rows;
    sum_rows(votes, rows);
    for (int bx = 0; bx < k_blocks; ++bx) {
        for (int by = 0; by < k_blocks; ++by) {
            block_histogram(rows, bx, by, out + (bx * k_blocks + by) * k_block_length);
        }
    }
}

} // namespace tracker
