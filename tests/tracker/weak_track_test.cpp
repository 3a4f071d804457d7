// A track whose pose has drifted off its sign (here: the sign jumps nearer, out of the track's depth box) has a
// weak fit; it does not hide its region from its own model's detection swarms, and the detection that finds
// the sign again re-places the track, which keeps its id. Without that the track's own mask hid the sign until
// the track ended (max_missed frames) and the sign came back under a new id.
#include <gtest/gtest.h>

#include "render.h"
#include "scenes/synthetic.h"
#include "tracker/eval.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

cv::Mat frame_with(const Camera& cam, const SignModel& m, const Pose& p) {
    cv::Mat frame(cam.height, cam.width, CV_8UC3);
    render::road_background(frame, cam, 3.0, 5);
    render_sign(frame, cam, m, p);
    return frame;
}

TEST(WeakTrack, DetectionRePlacesADriftedTrackAndKeepsItsId) {
    const Camera cam = Camera::from_fov(640, 360, 60);
    const auto models = load_sign_models("", {Category::Stop});
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cpu;
    s.signs.categories = {Category::Stop};
    auto tr = create_tracker(s, cam);
    const Pose far{1.2, -0.4, 16.0, 0, 0, 0};
    const cv::Mat before = frame_with(cam, models[0], far);
    int id = -1;
    for (int f = 0; f < 4; ++f) {
        const FrameResult r = tr->process(before);
        ASSERT_EQ(r.detections.size(), 1u) << "frame " << f;
        id = r.detections[0].track_id;
    }
    // The sign jumps to 55 % of its depth along the same line of sight: 80 % larger, far out of the track's box.
    const Pose near{far.x * 0.55, far.y * 0.55, far.z * 0.55, 0, 0, 0};
    const cv::Mat after = frame_with(cam, models[0], near);
    const cv::Rect2f truth = bounding_box(project_points(cam, near, models[0].outline));
    bool found = false;
    for (int f = 0; f < 2 && !found; ++f) {
        for (const auto& d : tr->process(after).detections) {
            found |= d.track_id == id && box_iou(d.box, truth) > 0.5;
        }
    }
    EXPECT_TRUE(found) << "the track is re-placed on the sign within two frames and keeps id " << id;
}

} // namespace
} // namespace tracker
