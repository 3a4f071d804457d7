// evaluate(): matching by box IoU within a category, and the depth error both as |error| and signed bias.
#include <gtest/gtest.h>

#include "tracker/eval.h"
#include "tracker/synthetic.h"

namespace tracker {
namespace {

TEST(Eval, DepthErrorAndSignedBias) {
    TruthFile truth;
    PredictionFile pred;
    const cv::Rect2f box(100, 100, 40, 40);
    for (long long f = 0; f < 2; ++f) {
        truth.frames[f] = FrameRecord{f, 640, 360, 0, {}, false};
        pred.frames[f] = FrameRecord{f, 640, 360, 1, {}, false};
        GroundTruth g;
        g.frame = f;
        g.category = Category::Stop;
        g.pose.z = 10.0;
        g.box = box;
        truth.truth.push_back(g);
        Detection d;
        d.frame = f;
        d.category = Category::Stop;
        d.pose.z = f == 0 ? 11.0 : 9.5; // 10 % too far, then 5 % too near
        d.box = box;
        pred.detections.push_back(d);
    }
    const EvalReport rep = evaluate(truth, pred);
    ASSERT_EQ(rep.all.tp, 2);
    ASSERT_EQ(rep.all.depth_pct.size(), 2u);
    ASSERT_EQ(rep.all.depth_bias_pct.size(), 2u);
    EXPECT_NEAR(rep.all.depth_pct[0], 10.0, 1e-9);
    EXPECT_NEAR(rep.all.depth_bias_pct[0], 10.0, 1e-9);
    EXPECT_NEAR(rep.all.depth_pct[1], 5.0, 1e-9);
    EXPECT_NEAR(rep.all.depth_bias_pct[1], -5.0, 1e-9);
}

} // namespace
} // namespace tracker
