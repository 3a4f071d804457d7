// Frustum::min_sign_px: the far depth reaches the smallest sign model at that many pixels, whatever the frame
// size and focal length; small signs are a matter of pixels, and metres follow from a guessed field of view.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render.h"
#include "scenes/synthetic.h"
#include "test_files.h"
#include "tracker/eval.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

std::vector<SignModel> all_models() {
    return load_sign_models("", {Category::Prohibitory, Category::Danger, Category::Mandatory, Category::GiveWay,
                                 Category::Stop});
}

TEST(SignReach, TheSmallestModelSetsTheFarDepth) {
    const auto models = all_models();
    double smallest = 1e9;
    for (const auto& m : models) {
        smallest = std::min(smallest, m.size_m());
    }
    EXPECT_NEAR(smallest, 0.7, 1e-6); // the prohibitory and mandatory discs
    const Frustum f;
    // 816 and GTSDB's 1,360 px across at the default 60 degrees: a 0.7 m sign is 14 px wide at 35 and 59 m,
    // nearer than z_max.
    EXPECT_DOUBLE_EQ(reaching_small_signs(f, Camera::from_fov(816, 480, 60), models).z_max, 60.0);
    EXPECT_DOUBLE_EQ(reaching_small_signs(f, Camera::from_fov(1360, 800, 60), models).z_max, 60.0);
    // Twice the dev frames' width at the same guess: 14 px is at 71 m.
    const Camera wide = Camera::from_fov(1632, 960, 60);
    EXPECT_NEAR(reaching_small_signs(f, wide, models).z_max, wide.fx * 0.7 / 14.0, 1e-4);
    EXPECT_NEAR(reaching_small_signs(f, wide, models).z_max, 70.7, 0.1);
    Frustum metres_only;
    metres_only.min_sign_px = 0;
    EXPECT_DOUBLE_EQ(reaching_small_signs(metres_only, wide, models).z_max, 60.0);
}

TEST(SignReach, AMalformedValueIsRefusedByName) {
    TrackerSettings s;
    s.frustum.min_sign_px = -1;
    const std::string e = test::error_of<std::invalid_argument>([&] { s.validate(); });
    EXPECT_NE(e.find("min_sign_px"), std::string::npos) << "a negative min_sign_px was accepted: '" << e << "'";
}

// A camera with a narrow field of view (a longer lens, or a guess that does not fit the camera): a 16 px
// prohibitory sign is at 101 m, beyond z_max, so far that a fit at z_max is too large to overlap it by half.
// Found with the default reach (116 m here); out of every swarm's box without it.
TEST(SignReach, ASmallSignBeyondZMaxIsFound) {
    const Camera cam = Camera::from_fov(816, 480, 20);
    const auto models = load_sign_models("", {Category::Prohibitory});
    const double z = cam.fx * models[0].size_m() / 16.0;
    ASSERT_GT(z, 60.0 / std::sqrt(0.5));
    const Pose p{-3.0, -1.5, z, 0, 0, 0};
    cv::Mat frame(cam.height, cam.width, CV_8UC3);
    render::road_background(frame, cam, 3.0, 5);
    render_sign(frame, cam, models[0], p);
    const cv::Rect2f truth = bounding_box(project_points(cam, p, models[0].outline));
    ASSERT_NEAR(truth.width, 16.0, 1.0);

    auto found_with = [&](double min_sign_px) {
        TrackerSettings s;
        s.engine.backend = swarm::Backend::Cpu;
        s.signs.categories = {Category::Prohibitory};
        s.camera.horizontal_fov_deg = 20;
        s.frustum.min_sign_px = min_sign_px;
        auto tr = create_tracker(s, cam);
        for (const auto& d : tr->process(frame).detections) {
            if (box_iou(d.box, truth) > 0.5) {
                return true;
            }
        }
        return false;
    };
    EXPECT_TRUE(found_with(Frustum{}.min_sign_px)) << "the default reach finds the 16 px sign at " << z << " m";
    EXPECT_FALSE(found_with(0.0)) << "without it the sign is beyond z_max and no swarm reaches it";
}

} // namespace
} // namespace tracker
