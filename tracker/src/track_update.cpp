#include "track_update.h"

#include <algorithm>

#include <opencv2/imgproc.hpp>

namespace tracker {
namespace {

// The alpha-beta filter's velocity gain for a position gain alpha (the critically damped choice).
double depth_beta(double alpha) { return alpha * alpha / (2.0 - alpha); }

// The verifier's refusal rules (ending and hiding a track) judge only tracks it has not vouched for, and only with
// verifier_refusals on: true when such a track's box read as no sign on at least `in_a_row` frames in a row.
bool refused_unvouched(const Track& t, const TrackerSettings& s, int in_a_row) {
    return s.tracking.verifier_refusals > 0 && !t.vouched && t.refusals >= in_a_row;
}

} // namespace

void apply_measurement(Track& t, const PoseVec& measured, double fitness, double width_px_at_1m,
                       const TrackerSettings& s) {
    const PoseVec before = t.pose;
    const PoseVec predicted = t.predicted();
    t.pose = measured;
    for (std::size_t k = 0; k < 2; ++k) {
        const double step = t.pose[k] - before[k];
        t.velocity[k] = t.hits <= 1 ? step : 0.5 * t.velocity[k] + 0.5 * step;
    }
    // Depth: a sign's size gives it only to a few per cent, but the vehicle's motion is smooth, so an
    // alpha-beta filter on (z, dz) follows the measurements with less noise than any one of them.
    // Its first measurements are combined as a least-squares line fit (the filter's gains start at 1
    // and fall to the steady-state gain), so a noisy first depth does not become a wrong velocity.
    // The detection's own depth (coarser, no angles) is not one of them.
    const int n = t.hits; // tracking measurements, this one included
    if (n <= 1) {
        t.velocity[2] = 0;
    } else {
        const double nn = static_cast<double>(n);
        const double alpha = std::max(s.tracking.depth_filter_gain, 2.0 * (2.0 * nn - 1.0) / (nn * (nn + 1.0)));
        const double beta = std::max(depth_beta(s.tracking.depth_filter_gain), 6.0 / (nn * (nn + 1.0)));
        const double r = t.pose[2] - predicted[2];
        t.pose[2] = predicted[2] + alpha * r;
        t.velocity[2] += beta * r;
    }
    // Driving straight, a sign's orientation in the camera frame stays put, and small frontal signs
    // show it only faintly: average the angle estimates over the track, each frame weighted by the
    // sign's area in pixels (a near sign's angles are far better determined than a far one's), with
    // older frames fading so a slowly turning view is still followed.
    const double size_px = width_px_at_1m / std::max(t.pose[2], 1e-3);
    const double wgt = size_px * size_px;
    t.angle_weight = s.tracking.angle_memory * t.angle_weight + wgt;
    const double a = wgt / t.angle_weight;
    t.measured_weight = wgt;
    for (std::size_t k = 3; k < 6; ++k) {
        t.measured_angles[k - 3] = t.pose[k];
        t.pose[k] = (1 - a) * before[k] + a * t.pose[k];
        t.velocity[k] = 0;
    }
    t.fitness = fitness;
    t.peak_fitness = std::max(t.peak_fitness, t.fitness);
    ++t.hits;
    t.missed = 0;
}

void coast(Track& t, double fitness) {
    t.pose = t.predicted();
    t.fitness = fitness;
    t.measured_weight = 0;
    ++t.missed;
}

bool same_sign(const Track& a, const Track& b, double duplicate_iou) {
    if ((a.box & b.box).area() <= 0.f) {
        return false;
    }
    std::vector<cv::Point2f> common;
    const double inter = std::max(0.f, cv::intersectConvexConvex(a.outline, b.outline, common, true));
    const double area_a = cv::contourArea(a.outline), area_b = cv::contourArea(b.outline);
    const double smaller = std::min(area_a, area_b);
    return inter > duplicate_iou * (area_a + area_b - inter) || (smaller > 0.0 && inter > 0.6 * smaller);
}

void prune_tracks(std::vector<Track>& tracks, const TrackerSettings& s, const cv::Rect2f& image) {
    tracks.erase(std::remove_if(tracks.begin(), tracks.end(),
                                [&](const Track& t) {
                                    return t.missed > s.tracking.max_missed || t.pose[2] < s.frustum.z_min ||
                                           refused_unvouched(t, s, s.tracking.verifier_refusals) ||
                                           (t.box & image).area() < 0.25f * t.box.area();
                                }),
                 tracks.end());
    std::stable_sort(tracks.begin(), tracks.end(), [](const Track& a, const Track& b) {
        if ((a.id >= 0) != (b.id >= 0)) {
            return a.id >= 0;
        }
        return a.hits != b.hits ? a.hits > b.hits : a.fitness > b.fitness;
    });
    std::vector<Track> kept;
    for (const auto& t : tracks) {
        const bool dup = std::any_of(kept.begin(), kept.end(),
                                     [&](const Track& k) { return same_sign(k, t, s.tracking.duplicate_iou); });
        if (!dup) {
            kept.push_back(t);
        }
    }
    tracks = std::move(kept);
}

// A fit this close to its model is a sign whatever one reading says (a young sign track with a neighbour or an occluder
// in its box); the clutter the verifier lets in at a first look fits just above track_threshold (0.60-0.67 on the
// real-appearance scene's foliage, docs/benchmarks.md).
constexpr double k_sure_fit = 0.7;

bool reported(const Track& t, const TrackerSettings& s) {
    const bool refused = s.tracking.hide_refused && refused_unvouched(t, s, 1) && t.fitness < k_sure_fit;
    return t.id >= 0 && t.missed == 0 && !refused;
}

} // namespace tracker
