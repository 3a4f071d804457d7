// The GPU's auto search size (label: gpu): detection swarms at nine tenths of `generations`
// (SearchSettings::detection_generations); tracking swarms keep `generations`.
#include <vector>

#include <gtest/gtest.h>

#include "../first_frame_swarms.h"
#include "swarm/optimizer.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

// Every swarm's best fitness on the crowded scene's first frame, searched on the GPU.
std::vector<double> swarm_bests_on_gpu(int detection_generations) {
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cuda;
    s.search.detection_generations = detection_generations;
    int swarms_run = 0;
    return test::first_frame_bests(s, swarms_run);
}

TEST(GpuSearchDefaults, AutoDetectionGenerationsAreNineTenthsOfGenerations) {
    if (!swarm::cuda_device_present()) {
        GTEST_SKIP() << "no CUDA device";
    }
    const int generations = SearchSettings{}.generations;
    const auto auto_bests = swarm_bests_on_gpu(0);
    const auto nine_tenths = swarm_bests_on_gpu(generations * 9 / 10);
    const auto full = swarm_bests_on_gpu(generations);
    ASSERT_FALSE(auto_bests.empty());
    EXPECT_EQ(auto_bests, nine_tenths) << "auto runs the same search as nine tenths of the generations set explicitly";
    EXPECT_NE(auto_bests, full) << "and not the full count";
}

} // namespace
} // namespace tracker
