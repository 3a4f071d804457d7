// Detection tiles: detection_columns / detection_rows 0 = auto (on the CPU backend 4 x 2, or 2 x 1 beside the
// candidate swarms; the GPU's are in tests/tracker/gpu/scenes_gpu_test.cpp); explicit values are used as given.
#include <gtest/gtest.h>

#include "first_frame_swarms.h"

namespace tracker {
namespace {

using test::first_frame_swarms;

TEST(DetectionTiles, AutoIsFourByTwoOnTheCpu) {
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cpu;
    EXPECT_EQ(first_frame_swarms(s), 5 * 4 * 2); // five categories
}

// With candidate regions the CPU's auto tiles shrink to 2 x 1, and the candidate swarms (at most candidate_swarms,
// one per region and model of its colour) come on top.
TEST(DetectionTiles, AutoIsTwoByOneBesideCandidatesOnTheCpu) {
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cpu;
    s.search.candidate_swarms = 7;
    const int swarms = first_frame_swarms(s, true);
    EXPECT_GT(swarms, 5 * 2 * 1) << "the easy scene's first frame has sign-coloured regions";
    EXPECT_LE(swarms, 5 * 2 * 1 + 7);
}

TEST(DetectionTiles, ExplicitTilesAreUsedAsGiven) {
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cpu;
    s.search.detection_columns = 3;
    s.search.detection_rows = 1;
    s.search.detection_swarms_per_category = 2;
    EXPECT_EQ(first_frame_swarms(s), 5 * 3 * 1 * 2);
    s.signs.categories = {Category::Stop, Category::Danger};
    EXPECT_EQ(first_frame_swarms(s), 2 * 3 * 1 * 2);
}

} // namespace
} // namespace tracker
