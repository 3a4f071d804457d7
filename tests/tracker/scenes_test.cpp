// Detection and tracking on short versions of every shipped scene, CPU backend, scored with `evaluate`.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>

#include "tracker/eval.h"
#include "tracker/synthetic.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

struct SceneRun {
    EvalReport report;
    double ms_per_frame = 0;
};

SceneRun run_scene(const std::string& name, int frames, int w, int h) {
    auto scene = create_scene(name, w, h, 11);
    TrackerSettings s;
    s.backend = "cpu";
    auto tracker = create_tracker(s, scene->camera());
    TruthFile truth;
    PredictionFile pred;
    double total = 0;
    for (int f = 0; f < frames; ++f) {
        SceneFrame sf = scene->next();
        truth.frames[f] = FrameRecord{f, w, h, 0, {}, false};
        truth.truth.insert(truth.truth.end(), sf.truth.begin(), sf.truth.end());
        const auto t0 = std::chrono::steady_clock::now();
        FrameResult r = tracker->process(sf.bgr);
        total += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        pred.frames[f] = FrameRecord{f, w, h, static_cast<int>(r.detections.size()), r.timing, true};
        pred.detections.insert(pred.detections.end(), r.detections.begin(), r.detections.end());
    }
    return {evaluate(truth, pred), total / frames};
}

class SceneTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SceneTest, MeetsAccuracyBars) {
    const char* env = std::getenv("TRACKER_SCENE_FRAMES");
    const int frames = env ? std::atoi(env) : 80;
    const SceneRun run = run_scene(GetParam(), frames, 640, 360);
    const auto& c = run.report.all;
    std::printf("[ scene %s ] %d frames 640x360 CPU: tp %lld fp %lld fn %lld precision %.3f recall %.3f "
                "centre %.2f px depth %.2f %% rotation %.2f deg; %.1f ms/frame (preprocess %.1f, search %.1f)\n",
                GetParam().c_str(), frames, c.tp, c.fp, c.fn, c.precision(), c.recall(), median(c.centre_px),
                median(c.depth_pct), median(c.rotation_deg), run.ms_per_frame, run.report.mean_timing.preprocess_ms,
                run.report.mean_timing.search_ms);
    EXPECT_GT(c.tp, 20) << "too few signs to judge";
    for (const auto& f : failed_bars(c)) {
        ADD_FAILURE() << GetParam() << ": " << f;
    }
}

INSTANTIATE_TEST_SUITE_P(Shipped, SceneTest, ::testing::Values("easy", "noisy", "crowded", "night"));

} // namespace
} // namespace tracker
