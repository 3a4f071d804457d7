// Two signs whose boxes overlap: a danger triangle standing behind and beside a give-way triangle (as bursts of
// signs in the crowded scene do). Most of the danger's box lies inside the give-way's, but their outlines barely
// overlap, so the tracker must report both (a box-based duplicate test took the danger for a part of the
// give-way and dropped it for as long as the boxes overlapped).
#include <gtest/gtest.h>

#include "render.h"
#include "scenes/synthetic.h"
#include "tracker/eval.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

TEST(OverlappingSigns, SignBehindAnotherIsTrackedToo) {
    const Camera cam = Camera::from_fov(640, 360, 60);
    const auto models = load_sign_models("", {Category::Danger, Category::GiveWay});
    const SignModel& danger = models[0].category == Category::Danger ? models[0] : models[1];
    const SignModel& give_way = models[0].category == Category::Danger ? models[1] : models[0];
    // The danger sign 7 m behind the give-way, 11 px right and 4 px down of it in the image.
    const Pose front{1.0, -0.5, 15.0, 0, 0, 0};
    const double u = cam.fx * front.x / front.z + 11, v = cam.fy * front.y / front.z + 4, z = 22.0;
    const Pose behind{u * z / cam.fx, v * z / cam.fy, z, 0, 0, 0};
    cv::Mat frame(cam.height, cam.width, CV_8UC3);
    render::road_background(frame, cam, 3.0, 5);
    render_sign(frame, cam, danger, behind); // farther first
    render_sign(frame, cam, give_way, front);
    const cv::Rect2f danger_box = bounding_box(project_points(cam, behind, danger.outline));
    const cv::Rect2f give_way_box = bounding_box(project_points(cam, front, give_way.outline));
    ASSERT_GT((danger_box & give_way_box).area(), 0.6f * danger_box.area()) << "the boxes overlap as in the scene";

    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cpu;
    s.signs.categories = {Category::Danger, Category::GiveWay};
    auto tr = create_tracker(s, cam);
    FrameResult last;
    for (int f = 0; f < 4; ++f) {
        last = tr->process(frame);
    }
    bool found_danger = false, found_give_way = false;
    for (const auto& d : last.detections) {
        found_danger |= d.category == Category::Danger && box_iou(d.box, danger_box) > 0.5;
        found_give_way |= d.category == Category::GiveWay && box_iou(d.box, give_way_box) > 0.5;
    }
    EXPECT_TRUE(found_give_way);
    EXPECT_TRUE(found_danger) << "the sign behind is reported too";
}

} // namespace
} // namespace tracker
