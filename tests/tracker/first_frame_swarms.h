#pragma once
// The swarms a tracker with these settings runs on the first frame of the easy scene (320x180, scene seed 3):
// with no tracks yet, every one is a detection swarm. Only the count is asked, so each swarm is as small and
// short as allowed; without `candidates` the candidate pass is off and the count is the tiles' alone.
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

} // namespace tracker::test
