// smooth_track_angles (tracker/smoothing.h): a forward and a backward pass of the online exponentially
// weighted mean, combined, per track.
#include "tracker/smoothing.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <map>

namespace tracker {
namespace {

// Weighted sums of one pass: sum of weights and of weight x angle, per angle.
struct Sums {
    double w = 0;
    std::array<double, 3> a{};

    void decay(double factor) {
        w *= factor;
        for (auto& v : a) v *= factor;
    }
    void add(const Detection& d) {
        w += d.angle_evidence;
        for (std::size_t k = 0; k < 3; ++k) a[k] += d.angle_evidence * d.measured_angles[k];
    }
};

void smooth_track(std::vector<Detection>& dets, std::vector<std::size_t>& idx, double memory, double prior) {
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return dets[a].frame < dets[b].frame; });
    const std::size_t n = idx.size();
    auto gap = [&](std::size_t j0, std::size_t j1) {
        return std::pow(memory, static_cast<double>(std::abs(dets[idx[j1]].frame - dets[idx[j0]].frame)));
    };
    double evidence = 0;
    for (std::size_t j : idx) evidence += dets[j].angle_evidence;
    if (!(evidence > 0)) return; // nothing measured: keep the online angles
    // forward[j]: frames 0..j, decayed to frame j; the backward pass gives frames j..n-1 decayed to frame j.
    std::vector<Sums> forward(n);
    for (std::size_t j = 0; j < n; ++j) {
        if (j > 0) {
            forward[j] = forward[j - 1];
            forward[j].decay(gap(j - 1, j));
        }
        forward[j].add(dets[idx[j]]);
    }
    Sums backward;
    for (std::size_t j = n; j-- > 0;) {
        if (j + 1 < n) backward.decay(gap(j, j + 1));
        backward.add(dets[idx[j]]);
        Detection& d = dets[idx[j]];
        // Both passes counted frame j itself once each.
        const double w = forward[j].w + backward.w - d.angle_evidence + prior;
        double* angles[3] = {&d.pose.yaw, &d.pose.pitch, &d.pose.roll};
        for (std::size_t k = 0; k < 3; ++k) {
            *angles[k] = (forward[j].a[k] + backward.a[k] - d.angle_evidence * d.measured_angles[k]) / w;
        }
    }
}

} // namespace

void smooth_track_angles(std::vector<Detection>& detections, const TrackerSettings& settings) {
    std::map<int, std::vector<std::size_t>> by_track;
    for (std::size_t i = 0; i < detections.size(); ++i) {
        if (detections[i].track_id >= 0) by_track[detections[i].track_id].push_back(i);
    }
    const double prior = settings.tracking.angle_prior_px * settings.tracking.angle_prior_px;
    for (auto& [id, idx] : by_track) {
        smooth_track(detections, idx, settings.tracking.angle_memory, prior);
    }
}

} // namespace tracker
