// The shipped sign verifier: it passes rendered signs as their own category and rejects a plain background and
// a plain sign-coloured disc; on real dev-set frames (when ../shared/data is there) it passes labelled signs
// with their category; a file that is no verifier is one clear error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "scenes/synthetic.h"
#include "tracker/labels.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/verifier.h"

namespace tracker {
namespace {

cv::Mat backdrop() {
    cv::Mat f(360, 640, CV_8UC3);
    cv::randn(f, cv::Scalar(90, 110, 100), cv::Scalar(20, 20, 20));
    cv::GaussianBlur(f, f, cv::Size(5, 5), 0);
    return f;
}

TEST(Verifier, PassesRenderedSignsAsTheirCategory) {
    const auto verifier = SignVerifier::load(default_verifier_path());
    const auto models = load_sign_models("", {Category::Prohibitory, Category::Danger, Category::Mandatory,
                                              Category::GiveWay, Category::Stop});
    const Camera cam = Camera::from_fov(640, 360, 60);
    int right = 0;
    for (const auto& m : models) {
        cv::Mat f = backdrop();
        Pose p;
        p.z = 12;
        render_sign(f, cam, m, p);
        const cv::Rect2f box = bounding_box(project_points(cam, p, m.outline));
        const int cls = verifier->classify(f, box);
        right += cls == verifier_class(static_cast<int>(m.category));
        EXPECT_NE(cls, k_verifier_background) << to_string(m.category);
    }
    EXPECT_GE(right, 4) << "at most one of the five rendered categories confused";
}

TEST(Verifier, RejectsBackgroundAndAPlainDisc) {
    const auto verifier = SignVerifier::load(default_verifier_path());
    cv::Mat f = backdrop();
    EXPECT_EQ(verifier->classify(f, cv::Rect2f(300, 150, 40, 40)), k_verifier_background);
    cv::circle(f, {120, 120}, 20, cv::Scalar(40, 40, 210), cv::FILLED); // a red lamp, no white, no pictogram
    EXPECT_EQ(verifier->classify(f, cv::Rect2f(100, 100, 40, 40)), k_verifier_background);
}

TEST(Verifier, FeaturesHaveTheDeclaredLengthAtAnySizeAndAtTheBorder) {
    const cv::Mat f = backdrop();
    for (const cv::Rect2f box : {cv::Rect2f(10, 10, 12, 12), cv::Rect2f(600, 330, 80, 80), cv::Rect2f(-5, -5, 3, 3)}) {
        const cv::Mat x = SignVerifier::features(f, box);
        EXPECT_EQ(x.cols, SignVerifier::feature_length());
        EXPECT_EQ(x.rows, 1);
    }
}

TEST(Verifier, ManyBoxesHaveTheFeaturesOfOneAtATime) {
    cv::Mat f = backdrop();
    cv::circle(f, {200, 120}, 30, cv::Scalar(30, 30, 200), 6, cv::LINE_AA);
    cv::circle(f, {400, 200}, 18, cv::Scalar(180, 70, 20), cv::FILLED, cv::LINE_AA);
    const std::vector<cv::Rect2f> boxes = {{168, 88, 64, 64},  {380.5f, 181.2f, 39.f, 37.5f}, {0, 0, 14, 14},
                                           {620, 340, 40, 40}, {-5, -5, 3, 3},                {300, 150, 1, 1},
                                           {10, 200, 250, 150}};
    const cv::Mat many = SignVerifier::features(f, boxes);
    ASSERT_EQ(many.rows, static_cast<int>(boxes.size()));
    ASSERT_EQ(many.cols, SignVerifier::feature_length());
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const cv::Mat one = SignVerifier::features(f, boxes[i]);
        EXPECT_EQ(cv::norm(one, many.row(static_cast<int>(i)), cv::NORM_INF), 0.0) << "box " << i;
    }
    EXPECT_EQ(SignVerifier::features(f, std::vector<cv::Rect2f>{}).rows, 0);
}

TEST(Verifier, ManyBoxesAreClassifiedAsOneAtATime) {
    const auto verifier = SignVerifier::load(default_verifier_path());
    const auto models = load_sign_models("", {Category::Prohibitory, Category::Danger, Category::Mandatory});
    const Camera cam = Camera::from_fov(640, 360, 60);
    cv::Mat f = backdrop();
    std::vector<cv::Rect2f> boxes = {{300, 150, 40, 40}, {5, 300, 20, 20}};
    for (std::size_t i = 0; i < models.size(); ++i) {
        Pose p;
        p.z = 12;
        p.x = -2.5 + 2.5 * static_cast<double>(i);
        render_sign(f, cam, models[i], p);
        boxes.push_back(bounding_box(project_points(cam, p, models[i].outline)));
    }
    const std::vector<int> many = verifier->classify(f, boxes);
    ASSERT_EQ(many.size(), boxes.size());
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        EXPECT_EQ(many[i], verifier->classify(f, boxes[i])) << "box " << i;
    }
    EXPECT_NE(many.back(), k_verifier_background) << "a rendered sign among them";
    EXPECT_TRUE(verifier->classify(f, std::vector<cv::Rect2f>{}).empty());
}

TEST(Verifier, AFileThatIsNoVerifierIsOneClearError) {
    const std::string path = testing::TempDir() + "not_a_verifier.yml";
    std::ofstream(path) << "%YAML:1.0\n---\nanswer: 42\n";
    try {
        SignVerifier::load(path);
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("train_verifier"), std::string::npos);
    }
    try {
        SignVerifier::load(testing::TempDir() + "missing.yml.gz");
        FAIL() << "no error for a missing file";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("not found"), std::string::npos) << e.what();
    }
}

// The dev set's labelled signs (held in the training data; this checks the shipped file and the crop path, the
// held-out figures are tools/train_verifier --holdout-odd's).
TEST(Verifier, PassesLabelledRealSigns) {
    const std::filesystem::path data = std::filesystem::path(SWARMTRACK_SOURCE_DIR) / ".." / "shared" / "data" / "gtsdb-dev";
    if (!std::filesystem::exists(data / "labels.csv")) {
        GTEST_SKIP() << "no " << data.string() << " (the real dev set sits beside the checkout in ../shared/data)";
    }
    const auto verifier = SignVerifier::load(default_verifier_path());
    const LabelSet set = read_labels_csv((data / "labels.csv").string());
    int signs = 0, right = 0;
    for (const auto& l : set.labels) {
        if (!l.category || signs >= 120) {
            continue;
        }
        const cv::Mat bgr = cv::imread((data / "images" / (l.image + ".jpg")).string());
        ASSERT_FALSE(bgr.empty()) << l.image;
        ++signs;
        right += verifier->classify(bgr, l.box) == verifier_class(static_cast<int>(*l.category));
    }
    EXPECT_GE(right, static_cast<int>(0.9 * signs)) << right << " of " << signs;
}

} // namespace
} // namespace tracker
