#include "track_admission.h"

#include <algorithm>

#include "track_update.h"

namespace tracker {
namespace {

// How much better a detection's fitness must be than the track it would change.
constexpr double k_takeover_margin = 0.05;
// A part of a sign (a triangle fitted to a danger sign's red corner or beside its pictogram, a disc inside a
// ring) can fit its model as well as the whole sign does, or better: a find at least this much larger in area
// whose fit is at most k_part_margin worse explains the same paint, and is the sign. In video a blue disc's
// pictogram fits as a small disc 0.13-0.17 better than the whole, half-occluded or blurred sign, and its track held
// the part for dozens of frames at 0.1 (docs/benchmarks.md, "Parts of a sign in video").
constexpr float k_part_area_ratio = 1.5f;
constexpr double k_part_margin = 0.2;

// `part` lies inside `whole` (most of its box), of the same category, and `whole` is larger and fits nearly as well.
bool part_of(const Track& part, const Track& whole) {
    return part.category == whole.category && whole.box.area() > k_part_area_ratio * part.box.area() &&
           (part.box & whole.box).area() > 0.6f * part.box.area() && whole.fitness >= part.fitness - k_part_margin;
}

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
                      const VerifyFinds& verify, const std::function<void(Track&)>& place) {
    std::sort(fresh.begin(), fresh.end(), [](const Track& a, const Track& b) { return a.fitness > b.fitness; });
    // The verifier's answer per fresh detection, asked at most once (0 unasked, 1 yes, -1 no).
    std::vector<int> answer(fresh.size(), 0);
    const auto ask = [&](const std::vector<std::size_t>& which) {
        std::vector<const Track*> finds;
        for (std::size_t i : which) {
            finds.push_back(&fresh[i]);
        }
        const std::vector<bool> ok = verify(finds);
        for (std::size_t k = 0; k < which.size(); ++k) {
            answer[which[k]] = ok[k] ? 1 : -1;
        }
    };
    if (const auto likely = likely_verified(fresh, tracks, duplicate_iou); !likely.empty()) {
        ask(likely);
    }
    auto verified = [&](std::size_t i) {
        if (answer[i] == 0) {
            ask({i});
        }
        return answer[i] > 0;
    };
    for (std::size_t i = 0; i < fresh.size(); ++i) {
        const Track& t = fresh[i];
        bool is_part = false;
        for (std::size_t j = 0; j < fresh.size() && !is_part; ++j) {
            is_part = j != i && part_of(t, fresh[j]) && verified(j);
        }
        if (is_part) {
            continue; // its sign is admitted (or already tracked) as the larger find
        }
        auto overlap = std::find_if(tracks.begin(), tracks.end(),
                                    [&](const Track& k) { return same_sign(k, t, duplicate_iou); });
        if (overlap == tracks.end()) {
            if (verified(i)) {
                tracks.push_back(t);
            }
        } else if (overlap->model != t.model && t.fitness > overlap->fitness + k_takeover_margin && verified(i)) {
            take_over(*overlap, t);
        } else if (overlap->model == t.model &&
                   ((overlap->weak() && t.fitness > overlap->fitness + k_takeover_margin) || part_of(*overlap, t)) &&
                   verified(i)) {
            re_place(*overlap, t, place); // a track of a part of this sign grows to the whole sign too
        }
    }
}

std::vector<std::size_t> likely_verified(const std::vector<Track>& fresh, const std::vector<Track>& tracks,
                                         double duplicate_iou) {
    std::vector<std::size_t> asked;
    for (std::size_t i = 0; i < fresh.size(); ++i) {
        const bool covered = std::any_of(tracks.begin(), tracks.end(), [&](const Track& k) {
            return k.model == fresh[i].model && same_sign(k, fresh[i], duplicate_iou);
        });
        if (!covered) {
            asked.push_back(i);
        }
    }
    return asked;
}

} // namespace tracker
