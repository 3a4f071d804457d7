#include "track_admission.h"

#include <algorithm>

#include "track_update.h"

namespace tracker {
namespace {

// How much better a detection's fitness must be than the track it would change.
constexpr double k_takeover_margin = 0.05;

// Another model explains this sign clearly better: the track changes category, keeps its id.
void take_over(Track& k, const Track& t) {
    k.model = t.model;
    k.category = t.category;
    k.pose = t.pose;
    k.velocity = {};
    k.fitness = t.fitness;
    k.peak_fitness = t.fitness; // the new model's fit starts its own history
    k.outline = t.outline;
    k.box = t.box;
}

// A weak track's own model finds its sign clearly better elsewhere (a different depth or position): the track
// moves there and restarts its motion; its id and its angle estimate stay.
void re_place(Track& k, const Track& t, const std::function<void(Track&)>& place) {
    for (std::size_t d = 0; d < 3; ++d) {
        k.pose[d] = t.pose[d];
    }
    k.velocity = {};
    k.fitness = t.fitness;
    k.missed = 0; // measured this frame after all
    place(k);
}

} // namespace

void admit_detections(std::vector<Track> fresh, std::vector<Track>& tracks, double duplicate_iou,
                      const std::function<bool(const Track&)>& verify, const std::function<void(Track&)>& place) {
    std::sort(fresh.begin(), fresh.end(), [](const Track& a, const Track& b) { return a.fitness > b.fitness; });
    for (const auto& t : fresh) {
        auto overlap = std::find_if(tracks.begin(), tracks.end(),
                                    [&](const Track& k) { return same_sign(k, t, duplicate_iou); });
        if (overlap == tracks.end()) {
            if (verify(t)) {
                tracks.push_back(t);
            }
        } else if (overlap->model != t.model && t.fitness > overlap->fitness + k_takeover_margin && verify(t)) {
            take_over(*overlap, t);
        } else if (overlap->model == t.model && overlap->weak() && t.fitness > overlap->fitness + k_takeover_margin &&
                   verify(t)) {
            re_place(*overlap, t, place);
        }
    }
}

} // namespace tracker
