// candidate_interval: in a video the region search runs on the first frame and then on every interval-th frame;
// the frames between search around the last search's regions; a reset (each still) starts the count again.
// 0 is auto: 1 on the CPU backend (here), 2 on a GPU (tests/tracker/gpu/scenes_gpu_test.cpp).
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scenes/synthetic.h"
#include "test_files.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

// Small, short swarms and no tracks (a threshold above any fitness): every swarm of a frame is a detection swarm,
// the tiles' 5 x 2 x 1 on the CPU beside the candidate swarms.
TrackerSettings quick(int interval) {
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cpu;
    s.search.particles = 4;
    s.search.generations = 1;
    s.search.candidate_swarms = 7;
    s.search.candidate_interval = interval;
    s.fitness.detect_threshold = 1.5;
    return s;
}

struct Frames {
    std::vector<bool> searched;
    std::vector<int> swarms;
};

Frames run(Tracker& tr, SceneGenerator& scene, int frames) {
    Frames out;
    for (int f = 0; f < frames; ++f) {
        const FrameResult r = tr.process(scene.next().bgr);
        out.searched.push_back(r.regions_searched);
        out.swarms.push_back(r.swarms_run);
    }
    return out;
}

constexpr int k_tile_swarms = 5 * 2 * 1;

TEST(CandidateInterval, RegionsAreSearchedOnEveryIntervalthFrame) {
    auto scene = create_scene("easy", 320, 180, 3);
    auto tr = create_tracker(quick(3), scene->camera());
    const Frames f = run(*tr, *scene, 7);
    EXPECT_EQ(f.searched, (std::vector<bool>{true, false, false, true, false, false, true}));
    // The frames between still run candidate swarms, around the last search's regions.
    for (int swarms : f.swarms) {
        EXPECT_GT(swarms, k_tile_swarms);
    }
}

TEST(CandidateInterval, AResetStartsTheCountAgain) {
    auto scene = create_scene("easy", 320, 180, 3);
    auto tr = create_tracker(quick(3), scene->camera());
    run(*tr, *scene, 2);
    tr->reset();
    EXPECT_EQ(run(*tr, *scene, 2).searched, (std::vector<bool>{true, false}));
}

// Auto (0, the default) is every frame on the CPU backend; the GPU's every second frame is in
// tests/tracker/gpu/scenes_gpu_test.cpp.
TEST(CandidateInterval, AutoIsEveryFrameOnTheCpu) {
    EXPECT_EQ(SearchSettings{}.candidate_interval, 0);
    auto scene = create_scene("easy", 320, 180, 3);
    auto tr = create_tracker(quick(0), scene->camera());
    EXPECT_EQ(run(*tr, *scene, 3).searched, (std::vector<bool>{true, true, true}));
}

TEST(CandidateInterval, OneIsEveryFrame) {
    auto scene = create_scene("easy", 320, 180, 3);
    auto tr = create_tracker(quick(1), scene->camera());
    EXPECT_EQ(run(*tr, *scene, 3).searched, (std::vector<bool>{true, true, true}));
}

TEST(CandidateInterval, NothingIsSearchedWithTheCandidatePassOff) {
    TrackerSettings s = quick(2);
    s.search.candidate_regions = 0;
    auto scene = create_scene("easy", 320, 180, 3);
    auto tr = create_tracker(s, scene->camera());
    const Frames f = run(*tr, *scene, 2);
    EXPECT_EQ(f.searched, (std::vector<bool>{false, false}));
    EXPECT_EQ(f.swarms, (std::vector<int>{5 * 4 * 2, 5 * 4 * 2})); // the CPU's tiles without candidates
}

TEST(CandidateInterval, ANegativeIntervalIsRefusedByName) {
    TrackerSettings s;
    s.search.candidate_interval = -1;
    const std::string e = test::error_of<std::invalid_argument>([&] { s.validate(); });
    EXPECT_NE(e.find("candidate_interval"), std::string::npos) << "candidate_interval -1 was accepted: '" << e << "'";
}

} // namespace
} // namespace tracker
