#pragma once
// The swarms a tracker with these settings runs on the first frame of the easy scene (320x180, scene seed 3):
// with no tracks yet, every one is a detection swarm. Only the count is asked, so each swarm is as small and
// short as allowed; without `candidates` the candidate pass is off and the count is the tiles' alone.
#include <vector>

#include "scenes/synthetic.h"
#include "tracker/tracker.h"

namespace tracker::test {

inline int first_frame_swarms(TrackerSettings s, bool candidates = false) {
    if (!candidates) {
        s.search.candidate_regions = 0;
    }
    s.search.particles = 4;
    s.search.generations = 1;
    auto scene = create_scene("easy", 320, 180, 3);
    auto tr = create_tracker(s, scene->camera());
    return tr->process(scene->next().bgr).swarms_run;
}

// Every swarm's best fitness on the crowded scene's first frame (640x360, scene seed 5), with the swarms run in
// `swarms_run`: two settings that run the same search give the same list.
inline std::vector<double> first_frame_bests(TrackerSettings s, int& swarms_run) {
    s.keep_particles = true;
    auto scene = create_scene("crowded", 640, 360, 5);
    auto tr = create_tracker(s, scene->camera());
    const FrameResult r = tr->process(scene->next().bgr);
    swarms_run = r.swarms_run;
    std::vector<double> bests;
    for (const auto& v : r.swarms) {
        bests.push_back(v.best_fitness);
    }
    return bests;
}

} // namespace tracker::test
