// Detection tiles: detection_columns / detection_rows 0 = auto (6 x 3 on a GPU, 4 x 2 on the CPU backend);
// explicit values are used as given. A first frame has no tracks, so every swarm run is a detection swarm.
#include <gtest/gtest.h>

#include "tracker/synthetic.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

int first_frame_swarms(TrackerSettings s) {
    s.particles = 4;
    s.generations = 1;
    auto scene = create_scene("easy", 320, 180, 3);
    auto tr = create_tracker(s, scene->camera());
    return tr->process(scene->next().bgr).swarms_run;
}

TEST(DetectionTiles, AutoIsFourByTwoOnTheCpu) {
    TrackerSettings s;
    s.backend = "cpu";
    EXPECT_EQ(first_frame_swarms(s), 5 * 4 * 2); // five categories
}

TEST(DetectionTiles, ExplicitTilesAreUsedAsGiven) {
    TrackerSettings s;
    s.backend = "cpu";
    s.detection_columns = 3;
    s.detection_rows = 1;
    s.detection_swarms_per_category = 2;
    EXPECT_EQ(first_frame_swarms(s), 5 * 3 * 1 * 2);
    s.categories = {Category::Stop, Category::Danger};
    EXPECT_EQ(first_frame_swarms(s), 2 * 3 * 1 * 2);
}

} // namespace
} // namespace tracker
