// The CPU backend's auto search sizes: 40 candidate swarms, and detection swarms at half of `generations`
// (SearchSettings::detection_generations); tracking swarms keep `generations`. A GPU keeps 64 swarms at nine tenths
// of the count (tests/tracker/gpu/gpu_search_defaults_test.cpp; scenes_gpu_test.cpp runs its defaults).
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "first_frame_swarms.h"
#include "test_files.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

TrackerSettings on_cpu(int detection_generations) {
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cpu;
    s.search.detection_generations = detection_generations;
    return s;
}

TEST(CpuSearchDefaults, AutoDetectionGenerationsAreHalfOfGenerations) {
    EXPECT_EQ(SearchSettings{}.detection_generations, 0);
    int n_auto = 0, n_half = 0, n_full = 0;
    const auto auto_bests = test::first_frame_bests(on_cpu(0), n_auto);
    const auto half_bests = test::first_frame_bests(on_cpu(SearchSettings{}.generations / 2), n_half);
    const auto full_bests = test::first_frame_bests(on_cpu(SearchSettings{}.generations), n_full);
    ASSERT_FALSE(auto_bests.empty());
    EXPECT_EQ(auto_bests, half_bests) << "auto runs the same search as half the generations set explicitly";
    EXPECT_NE(auto_bests, full_bests) << "and not the full count";
}

TEST(CpuSearchDefaults, FortyCandidateSwarmsBesideTheTiles) {
    int swarms_run = 0;
    test::first_frame_bests(on_cpu(0), swarms_run);
    // 2 x 1 tiles of one swarm per category (5) beside the candidate swarms; the crowded frame's regions, each
    // paired with every model of its colour, are well over 40 jobs of the base models and over 2 (a sixteenth) of
    // the mandatory roundabout variant's, whose swarms come on top.
    EXPECT_EQ(swarms_run, 2 * 1 * 5 + 40 + 40 / 16);
}

TEST(CpuSearchDefaults, ANegativeValueIsRefusedByName) {
    TrackerSettings s;
    s.search.detection_generations = -1;
    const std::string e = test::error_of<std::invalid_argument>([&] { s.validate(); });
    EXPECT_NE(e.find("detection_generations"), std::string::npos)
        << "a negative detection_generations was accepted: '" << e << "'";
}

} // namespace
} // namespace tracker
