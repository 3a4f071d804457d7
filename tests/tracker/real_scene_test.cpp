// The scene of real sign appearances (scenes/synthetic.h, create_real_scene): exact, repeatable ground truth on
// real appearances, and the tracker finds them. Needs the dev set beside the checkout; skips without it.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <opencv2/imgcodecs.hpp>

#include "long_runs.h"
#include "scenes/scene_eval.h"
#include "scenes/synthetic.h"
#include "test_files.h"
#include "tracker/eval.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

std::string dev_set() {
    return (std::filesystem::path(SWARMTRACK_SOURCE_DIR) / ".." / "shared" / "data" / "gtsdb-dev").string();
}

cv::Mat read_image(const std::string& path) { return cv::imread(path, cv::IMREAD_COLOR); }

TEST(RealScene, SameSeedSameFramesAndTruthInsideTheImage) {
    if (!std::filesystem::is_directory(dev_set())) {
        GTEST_SKIP() << "no dev set at " << dev_set();
    }
    auto a = create_real_scene(dev_set(), 320, 180, 4, read_image);
    auto b = create_real_scene(dev_set(), 320, 180, 4, read_image);
    EXPECT_EQ(a->name(), "real");
    long long signs = 0;
    for (int f = 0; f < 40; ++f) {
        const SceneFrame fa = a->next(), fb = b->next();
        ASSERT_EQ(cv::norm(fa.bgr, fb.bgr, cv::NORM_INF), 0.0) << "frame " << f;
        ASSERT_EQ(fa.truth.size(), fb.truth.size());
        for (const auto& g : fa.truth) {
            EXPECT_GE(g.box.x, 0.f);
            EXPECT_LE(g.box.x + g.box.width, 320.f);
            EXPECT_GT(g.visible, 0.0);
            EXPECT_GT(g.pose.z, 0.0);
        }
        signs += static_cast<long long>(fa.truth.size());
    }
    EXPECT_GT(signs, 40) << "signs approach from the first frame on";
}

// 40 frames of tracking (the scene's first five signs), skipped with the other scene runs under the sanitizers.
TEST(RealScene, TheTrackerFindsTheRealAppearances) {
    if (!std::filesystem::is_directory(dev_set())) {
        GTEST_SKIP() << "no dev set at " << dev_set();
    }
    SKIP_WHERE_LONG_RUNS_ARE_OFF();
    auto scene = create_real_scene(dev_set(), 640, 360, 11, read_image);
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cpu;
    auto tracker = create_tracker(s, scene->camera());
    const SceneReports both = track_scene_both(*tracker, *scene, 40, s);
    const auto& c = both.online.all;
    std::printf("[ real scene, CPU, 40 frames 640x360 ] tp %lld fp %lld fn %lld precision %.3f recall %.3f\n", c.tp, c.fp,
                c.fn, c.precision(), c.recall());
    EXPECT_GE(c.recall(), 0.5);
    EXPECT_GE(c.precision(), 0.8);
}

TEST(RealScene, AFolderWithoutLabelsIsOneClearError) {
    const std::string e = test::error_of<std::invalid_argument>(
        [] { create_real_scene("/nonexistent/real-scene", 320, 180, 1, read_image); });
    EXPECT_NE(e.find("/nonexistent/real-scene"), std::string::npos) << e;
    EXPECT_NE(e.find("--data"), std::string::npos) << e;
}

} // namespace
} // namespace tracker
