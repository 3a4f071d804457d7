// evaluate() and match_frame(): matching by box IoU within a category, best first, don't-cares, and the depth
// error both as |error| and signed bias.
#include <gtest/gtest.h>

#include "tracker/eval.h"

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

// A truth or a detection (both have these fields) of category `c` with box `box`, 10 m away.
template <typename Boxed>
Boxed boxed(Category c, cv::Rect2f box) {
    Boxed b;
    b.category = c;
    b.box = box;
    b.pose.z = 10.0;
    return b;
}
GroundTruth truth_at(Category c, cv::Rect2f box) { return boxed<GroundTruth>(c, box); }
Detection detection_at(Category c, cv::Rect2f box) { return boxed<Detection>(c, box); }

TEST(Eval, MatchFrameTakesTheBestOverlapFirstWithinACategory) {
    // Two truths side by side. The first prediction overlaps both above 0.5 (truth 0: 0.54, truth 1: 0.67); the
    // second overlaps truth 0 best (0.90). Best first: truth 0 -> prediction 1, truth 1 -> prediction 0 (taking
    // predictions in order would give truth 0 the first one and leave truth 1 unmatched). A prediction of
    // another category on truth 0's box matches nothing.
    const GroundTruth a = truth_at(Category::Danger, {100, 100, 40, 40}), b = truth_at(Category::Danger, {120, 100, 40, 40});
    const Detection near_b = detection_at(Category::Danger, {112, 100, 40, 40});
    const Detection on_a = detection_at(Category::Danger, {98, 100, 40, 40});
    const Detection other = detection_at(Category::Stop, {100, 100, 40, 40});
    const auto m = match_frame({&a, &b}, {&near_b, &on_a, &other}, 0.5);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0], 1);
    EXPECT_EQ(m[1], 0);
    EXPECT_NEAR(box_iou(a.box, near_b.box), 28.0 / 52.0, 1e-6);

    // One prediction, two truths it overlaps: used once, by the better overlap.
    const auto once = match_frame({&a, &b}, {&near_b}, 0.5);
    EXPECT_EQ(once[0], -1);
    EXPECT_EQ(once[1], 0);

    // Clipped to the image, the part of a prediction's box hanging over the edge does not count against it
    // (IoU 0.5 unclipped, 1 clipped).
    const GroundTruth edge = truth_at(Category::Mandatory, {600, 100, 40, 40});
    const Detection over = detection_at(Category::Mandatory, {600, 100, 80, 40});
    EXPECT_EQ(match_frame({&edge}, {&over}, 0.6)[0], -1);
    EXPECT_EQ(match_frame({&edge}, {&over}, 0.6, cv::Rect2f(0, 0, 640, 360))[0], 0);
}

TEST(Eval, CountsHitsMissesAndFalseAlarmsButNotDontCares) {
    TruthFile truth;
    PredictionFile pred;
    truth.frames[0] = FrameRecord{0, 640, 360, 0, {}, false};
    pred.frames[0] = FrameRecord{0, 640, 360, 3, {}, false};
    GroundTruth hit = truth_at(Category::Danger, {100, 100, 40, 40}), missed = truth_at(Category::Stop, {300, 100, 40, 40});
    GroundTruth tiny = truth_at(Category::Danger, {400, 100, 10, 10}); // under 14 px: don't care
    for (auto* g : {&hit, &missed, &tiny}) {
        g->visible = 1.0;
        truth.truth.push_back(*g);
    }
    pred.detections = {detection_at(Category::Danger, {101, 100, 40, 40}), detection_at(Category::Danger, {400, 100, 10, 10}),
                       detection_at(Category::Mandatory, {500, 100, 40, 40})};
    const EvalReport rep = evaluate(truth, pred);
    EXPECT_EQ(rep.all.tp, 1); // the tiny sign's match is neither a hit nor a false alarm
    EXPECT_EQ(rep.all.fn, 1);
    EXPECT_EQ(rep.all.fp, 1);
    ASSERT_EQ(rep.all.iou.size(), 1u);
    EXPECT_NEAR(rep.all.iou[0], 39.0 * 40.0 / (2 * 1600.0 - 39.0 * 40.0), 1e-6);
    EXPECT_NEAR(rep.all.centre_px[0], 1.0, 1e-6);
}

} // namespace
} // namespace tracker
