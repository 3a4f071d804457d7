// A category's variant model finds the signs its base model cannot fit: a roundabout, whose ring of arrows lies where
// the mandatory model needs blue and whose blue centre is where it needs contrast, is found (as mandatory) with the
// shipped models and missed by the same tracker whose model folder lacks the variant, or whose variant asks for a
// fit no find reaches (find_floor).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "render.h"
#include "scenes/synthetic.h"
#include "tracker/eval.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

// Whether a tracker with these models finds the sign at `truth` as mandatory on a single frame.
bool finds_mandatory(const std::string& models_dir, const Camera& cam, const cv::Mat& frame, const cv::Rect2f& truth) {
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cpu;
    s.signs.categories = {Category::Mandatory};
    s.signs.models_dir = models_dir;
    auto tr = create_tracker(s, cam);
    const FrameResult r = tr->process(frame);
    return std::any_of(r.detections.begin(), r.detections.end(), [&](const Detection& d) {
        return d.category == Category::Mandatory && box_iou(d.box, truth) >= 0.5;
    });
}

TEST(ModelVariants, TheRoundaboutIsFoundByItsVariantAndMissedWithout) {
    namespace fs = std::filesystem;
    const Camera cam = Camera::from_fov(640, 360, 60);
    const auto models = load_sign_models("", {Category::Mandatory});
    const auto roundabout =
        std::find_if(models.begin(), models.end(), [](const SignModel& m) { return m.variant == "roundabout"; });
    ASSERT_NE(roundabout, models.end());
    const Pose at{1.1, -0.5, 15.0, 0, 0, 0};
    cv::Mat frame(cam.height, cam.width, CV_8UC3);
    render::road_background(frame, cam, 3.0, 5);
    render_sign(frame, cam, *roundabout, at);
    const cv::Rect2f truth = bounding_box(project_points(cam, at, roundabout->outline));
    ASSERT_GT(truth.width, 20.f);

    EXPECT_TRUE(finds_mandatory("", cam, frame, truth)) << "the shipped models, roundabout variant included";

    const fs::path dir = fs::path(::testing::TempDir()) / "models_variant_test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(default_models_dir())) {
        if (e.path().extension() == ".json" && load_sign_model(e.path().string()).variant.empty()) {
            fs::copy_file(e.path(), dir / e.path().filename());
        }
    }
    EXPECT_FALSE(finds_mandatory(dir.string(), cam, frame, truth)) << "the base mandatory model alone";

    nlohmann::json unreachable = nlohmann::json::parse(std::ifstream(roundabout->source));
    unreachable["find_floor"] = 0.99;
    std::ofstream(dir / "roundabout.json") << unreachable.dump();
    EXPECT_FALSE(finds_mandatory(dir.string(), cam, frame, truth)) << "the variant with a find floor of 0.99";
    fs::remove_all(dir);
}

} // namespace
} // namespace tracker
