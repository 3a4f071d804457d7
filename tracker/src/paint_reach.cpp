#include "paint_reach.h"

#include <algorithm>
#include <cmath>

namespace tracker {
namespace {

constexpr int k_directions = 72;
constexpr int k_background = -1;

bool inside(const std::vector<cv::Point3f>& polygon, cv::Point2f p) {
    bool in = false;
    for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
        const cv::Point3f& a = polygon[i];
        const cv::Point3f& b = polygon[j];
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
            in = !in;
        }
    }
    return in;
}

int paint_at(const std::vector<ModelLayer>& layers, cv::Point2f p) {
    int paint = k_background;
    for (const auto& layer : layers) {
        if (inside(layer.polygon, p)) {
            paint = static_cast<int>(layer.colour);
        }
    }
    return paint;
}

// Distances along the ray p + t d (t > 0) at which it crosses a layer's boundary, ascending.
std::vector<float> crossings(const std::vector<ModelLayer>& layers, cv::Point2f p, cv::Point2f d) {
    std::vector<float> out;
    for (const auto& layer : layers) {
        const auto& poly = layer.polygon;
        for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
            const cv::Point2f a(poly[j].x, poly[j].y), e(poly[i].x - poly[j].x, poly[i].y - poly[j].y);
            const float denom = d.x * e.y - d.y * e.x;
            if (std::abs(denom) < 1e-12f) {
                continue; // parallel to the edge
            }
            const cv::Point2f ap = a - p;
            const float t = (ap.x * e.y - ap.y * e.x) / denom;
            const float s = (ap.x * d.y - ap.y * d.x) / denom;
            if (t > 0.f && s >= 0.f && s <= 1.f) {
                out.push_back(t);
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

float reach_along(const std::vector<ModelLayer>& layers, cv::Point2f p, cv::Point2f d, int own) {
    for (const float t : crossings(layers, p, d)) {
        if (t >= k_far_reach_m) {
            break;
        }
        if (paint_at(layers, p + (t + 1e-4f) * d) != own) {
            return t;
        }
    }
    return k_far_reach_m;
}

} // namespace

PaintReach paint_reach(const std::vector<ModelLayer>& layers, cv::Point2f p) {
    const int own = paint_at(layers, p);
    float reach[k_directions];
    int nearest = 0;
    for (int i = 0; i < k_directions; ++i) {
        const double a = 2.0 * M_PI * i / k_directions;
        reach[i] = reach_along(layers, p, {static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))}, own);
        nearest = reach[i] < reach[nearest] ? i : nearest;
    }
    PaintReach r{reach[nearest], k_far_reach_m};
    for (int i = 0; i < k_directions; ++i) {
        const int apart = std::abs(i - nearest);
        if (std::min(apart, k_directions - apart) * 3 > k_directions) { // over 120 degrees from the nearest
            r.far_m = std::min(r.far_m, reach[i]);
        }
    }
    return r;
}

} // namespace tracker
