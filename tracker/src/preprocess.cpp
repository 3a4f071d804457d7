#include "preprocess.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "common/colour_math.h"

namespace tracker {

float mean_max_channel(const cv::Mat& bgr) {
    double sum = 0;
    for (int y = 0; y < bgr.rows; ++y) {
        const auto* p = bgr.ptr<cv::Vec3b>(y);
        long long row = 0;
        for (int x = 0; x < bgr.cols; ++x) {
            row += std::max(p[x][0], std::max(p[x][1], p[x][2]));
        }
        sum += static_cast<double>(row);
    }
    return static_cast<float>(sum / (static_cast<double>(bgr.rows) * bgr.cols));
}

long long exposure_grid(const cv::Mat& bgr, std::vector<float>& smoothed, int& gw, int& gh) {
    gw = math::exposure_tiles(bgr.cols);
    gh = math::exposure_tiles(bgr.rows);
    std::vector<float> means(static_cast<std::size_t>(gw) * gh);
    long long total = 0;
    for (int j = 0; j < gh; ++j) {
        const int y0 = math::exposure_tile_begin(j), y1 = math::exposure_tile_end(j, gh, bgr.rows);
        for (int i = 0; i < gw; ++i) {
            const int x0 = math::exposure_tile_begin(i), x1 = math::exposure_tile_end(i, gw, bgr.cols);
            long long sum = 0;
            for (int y = y0; y < y1; ++y) {
                const auto* p = bgr.ptr<cv::Vec3b>(y);
                for (int x = x0; x < x1; ++x) {
                    sum += std::max(p[x][0], std::max(p[x][1], p[x][2]));
                }
            }
            total += sum;
            // float / float, as the CUDA kernel divides its (exact) integer sum
            means[static_cast<std::size_t>(j) * gw + i] =
                static_cast<float>(sum) / static_cast<float>((y1 - y0) * (x1 - x0));
        }
    }
    smoothed.resize(means.size());
    for (int j = 0; j < gh; ++j) {
        for (int i = 0; i < gw; ++i) {
            smoothed[static_cast<std::size_t>(j) * gw + i] = math::exposure_smoothed(means.data(), gw, gh, i, j);
        }
    }
    return total;
}

cv::Mat exposure_gains(const cv::Mat& bgr) {
    std::vector<float> grid;
    int gw = 0, gh = 0;
    const long long total = exposure_grid(bgr, grid, gw, gh);
    const float mean = static_cast<float>(static_cast<double>(total) / static_cast<double>(bgr.total()));
    cv::Mat gains(bgr.size(), CV_32F);
    for (int y = 0; y < bgr.rows; ++y) {
        auto* g = gains.ptr<float>(y);
        for (int x = 0; x < bgr.cols; ++x) {
            g[x] = math::exposure_gain(grid.data(), gw, gh, x, y, mean);
        }
    }
    return gains;
}

// The largest chroma within k_cover_radius pixels (clipped at the frame) among the pixels of a hue within
// `cover_hue` degrees of each pixel's own (common/colour_math.h, paint coverage).
static cv::Mat same_paint_maximum(const cv::Mat& chroma, const cv::Mat& hue, float cover_hue) {
    const int w = chroma.cols, h = chroma.rows, r = math::k_cover_radius;
    cv::Mat local_max(h, w, CV_32F);
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; ++y) {
        auto* lm = local_max.ptr<float>(y);
        const float* own = hue.ptr<float>(y);
        for (int x = 0; x < w; ++x) {
            float m = 0.f;
            for (int yy = std::max(y - r, 0); yy <= std::min(y + r, h - 1); ++yy) {
                const float* c = chroma.ptr<float>(yy);
                const float* hu = hue.ptr<float>(yy);
                for (int xx = std::max(x - r, 0); xx <= std::min(x + r, w - 1); ++xx) {
                    if (c[xx] > m && math::same_paint(own[x], hu[xx], cover_hue)) m = c[xx];
                }
            }
            lm[x] = m;
        }
    }
    return local_max;
}

void preprocess_cpu(const cv::Mat& bgr, ClassMaps& out, float cover_hue) {
    if (bgr.empty() || bgr.type() != CV_8UC3) {
        throw std::invalid_argument("preprocess: frame must be a non-empty 8-bit BGR image (CV_8UC3)");
    }
    const int w = bgr.cols, h = bgr.rows;
    out.classes.create(h, w, CV_8UC4);
    out.gradient.create(h, w, CV_32FC2);
    // Chroma and its local maximum for the paint coverage (common/colour_math.h); dilate ignores pixels outside
    // the frame, as the CUDA kernel's clamped window does.
    // Hue only where the coverage's maximum is over the pixel's own hue (cover_hue under 180).
    const bool own_hue = cover_hue < math::k_cover_every_hue;
    cv::Mat chroma(h, w, CV_32F), hue(own_hue ? h : 0, own_hue ? w : 0, CV_32F), local_max;
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; ++y) {
        const auto* p = bgr.ptr<cv::Vec3b>(y);
        auto* ch = chroma.ptr<float>(y);
        for (int x = 0; x < w; ++x) {
            ch[x] = math::chroma_of(p[x][0], p[x][1], p[x][2]);
        }
        if (own_hue) {
            auto* hu = hue.ptr<float>(y);
            for (int x = 0; x < w; ++x) {
                hu[x] = math::hue_of(p[x][0], p[x][1], p[x][2]);
            }
        }
    }
    if (own_hue) {
        local_max = same_paint_maximum(chroma, hue, cover_hue);
    } else {
        const int side = 2 * math::k_cover_radius + 1;
        cv::dilate(chroma, local_max, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(side, side)));
    }
    std::vector<float> exposure;
    int gw = 0, gh = 0;
    // The tiles cover every pixel once: their total is the frame's, so the mean needs no second pass (the same
    // double division as mean_max_channel and the CUDA kernel).
    const long long total = exposure_grid(bgr, exposure, gw, gh);
    out.mean_value = static_cast<float>(static_cast<double>(total) / (static_cast<double>(w) * h));
    const cv::Scalar channel_sums = cv::sum(bgr); // exact: integer sums far below 2^53
    const math::ChannelGains balance =
        math::grey_world_gains(channel_sums[0], channel_sums[1], channel_sums[2], static_cast<double>(w) * h);
    cv::Mat sc(h, w, CV_32F);
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; ++y) {
        const auto* p = bgr.ptr<cv::Vec3b>(y);
        const float* ch = chroma.ptr<float>(y);
        const float* lm = local_max.ptr<float>(y);
        auto* c = out.classes.ptr<cv::Vec4b>(y);
        auto* s = sc.ptr<float>(y);
        for (int x = 0; x < w; ++x) {
            const float gain = math::exposure_gain(exposure.data(), gw, gh, x, y, out.mean_value);
            math::ClassLikelihood l = math::classify(gain * balance.b * p[x][0], gain * balance.g * p[x][1],
                                                     gain * balance.r * p[x][2], out.mean_value);
            math::apply_cover(l, ch[x], lm[x]);
            c[x] = cv::Vec4b(cv::saturate_cast<uchar>(l.red * 255.f), cv::saturate_cast<uchar>(l.blue * 255.f),
                             cv::saturate_cast<uchar>(l.white * 255.f), cv::saturate_cast<uchar>(l.yellow * 255.f));
            s[x] = math::sign_colour(l);
        }
    }
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; ++y) {
        const float* up = sc.ptr<float>(std::max(y - 1, 0));
        const float* mid = sc.ptr<float>(y);
        const float* dn = sc.ptr<float>(std::min(y + 1, h - 1));
        auto* g = out.gradient.ptr<cv::Vec2f>(y);
        for (int x = 0; x < w; ++x) {
            g[x] = cv::Vec2f(0.5f * (mid[std::min(x + 1, w - 1)] - mid[std::max(x - 1, 0)]), 0.5f * (dn[x] - up[x]));
        }
    }
}

} // namespace tracker
