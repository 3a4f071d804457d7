// The candidate ranker: its score is the sign side of a linear SVM (the sign convention checked against OpenCV's
// own decision), the shipped ranker puts a drawn sign above a solid disc of sign paint and ranks a cluttered
// frame's regions so the sign is among the first, and a file that is no ranker is one clear error.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>
#include <opencv2/ml.hpp>

#include "candidates.h"
#include "scenes/synthetic.h"
#include "test_files.h"
#include "tracker/eval.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/region_ranker.h"
#include "tracker/verifier.h"

namespace tracker {
namespace {

cv::Mat leafy_backdrop(unsigned seed) {
    cv::Mat f(360, 640, CV_8UC3);
    cv::theRNG().state = seed;
    cv::randn(f, cv::Scalar(60, 80, 90), cv::Scalar(25, 25, 25));
    cv::GaussianBlur(f, f, cv::Size(3, 3), 0);
    return f;
}

// Solid blobs of red and blue paint, as autumn leaves, brake lights and boards give a real frame.
void add_clutter(cv::Mat& f, int count) {
    cv::RNG rng(7);
    // One draw per statement: the order in which a call's arguments are evaluated is the compiler's choice, and
    // g++ and clang draw the same numbers into different places.
    for (int i = 0; i < count; ++i) {
        const int x = rng.uniform(10, f.cols - 10);
        const int y = rng.uniform(10, f.rows - 10);
        const cv::Scalar paint = rng.uniform(0, 3) == 0 ? cv::Scalar(170, 70, 20) : cv::Scalar(30, 30, 190);
        const int width = rng.uniform(4, 14);
        const int height = rng.uniform(4, 14);
        const int angle = rng.uniform(0, 180);
        cv::ellipse(f, cv::Point(x, y), cv::Size(width, height), angle, 0, 360, paint, cv::FILLED);
    }
}

TEST(RegionRanker, ScoreIsTheSignSideOfTheSvmDecision) {
    const int n = SignVerifier::feature_length();
    cv::Mat x(40, n, CV_32F);
    std::vector<int> y;
    cv::RNG rng(3);
    rng.fill(x, cv::RNG::UNIFORM, 0.f, 0.2f);
    for (int i = 0; i < x.rows; ++i) {
        y.push_back(i % 2);
        x.at<float>(i, 0) += i % 2 ? 1.f : 0.f; // signs have a large first feature
    }
    auto svm = cv::ml::SVM::create();
    svm->setKernel(cv::ml::SVM::LINEAR);
    svm->train(cv::ml::TrainData::create(x, cv::ml::ROW_SAMPLE, cv::Mat(y, true)));
    const RegionRanker ranker(*svm);
    for (int i = 0; i < x.rows; ++i) {
        const float s = ranker.score_features(x.row(i));
        EXPECT_EQ(s > 0.f, y[static_cast<std::size_t>(i)] == 1) << i << ": " << s;
        EXPECT_NEAR(s, -svm->predict(x.row(i), cv::noArray(), cv::ml::StatModel::RAW_OUTPUT), 1e-3);
    }
}

TEST(RegionRanker, ShippedRankerPutsASignAboveASolidDisc) {
    const auto ranker = RegionRanker::load(default_ranker_path());
    const auto models = load_sign_models("", {Category::Prohibitory, Category::Danger});
    const Camera cam = Camera::from_fov(640, 360, 60);
    for (const auto& m : models) {
        cv::Mat f = leafy_backdrop(11);
        Pose p;
        p.z = 14;
        p.x = -1.5;
        render_sign(f, cam, m, p);
        const cv::Rect2f sign = bounding_box(project_points(cam, p, m.outline));
        const cv::Rect2f disc(sign.x + 150, sign.y, sign.width, sign.height);
        cv::circle(f, (disc.tl() + disc.br()) * 0.5f, static_cast<int>(disc.width / 2), cv::Scalar(30, 30, 190),
                   cv::FILLED, cv::LINE_AA);
        EXPECT_GT(ranker->score(f, sign), 0.f) << to_string(m.category);
        EXPECT_GT(ranker->score(f, sign), ranker->score(f, disc)) << to_string(m.category);
    }
}

TEST(RegionRanker, ScoresOfManyBoxesAreEachBoxsScore) {
    const auto ranker = RegionRanker::load(default_ranker_path());
    cv::Mat f = leafy_backdrop(3);
    add_clutter(f, 40);
    std::vector<cv::Rect2f> boxes;
    for (int i = 0; i < 30; ++i) {
        boxes.emplace_back(static_cast<float>(21 * i % 600), static_cast<float>(13 * i % 330), 6.f + i, 6.f + i);
    }
    const std::vector<float> many = ranker->scores(f, boxes);
    ASSERT_EQ(many.size(), boxes.size());
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        EXPECT_NEAR(many[i], ranker->score(f, boxes[i]), 1e-4) << "box " << i;
    }
}

TEST(RegionRanker, RanksASignAmongTheFirstRegionsOfAClutteredFrame) {
    const auto ranker = RegionRanker::load(default_ranker_path());
    const auto models = load_sign_models("", {Category::Prohibitory});
    const Camera cam = Camera::from_fov(640, 360, 60);
    cv::Mat f = leafy_backdrop(5);
    add_clutter(f, 150);
    Pose p;
    p.z = 16;
    p.x = 2;
    render_sign(f, cam, models[0], p);
    const cv::Rect2f sign = bounding_box(project_points(cam, p, models[0].outline));
    CandidateOptions o;
    o.max_candidates = 1000;
    const auto by_paint = find_candidates(f, o);
    o.ranker = ranker.get();
    const auto ranked = find_candidates(f, o);
    auto rank_of = [&](const std::vector<Candidate>& cs) {
        for (std::size_t i = 0; i < cs.size(); ++i) {
            if (box_iou(cv::Rect2f(cs[i].box), sign) > 0.6) {
                return static_cast<int>(i);
            }
        }
        return -1;
    };
    const int paint_rank = rank_of(by_paint), ranker_rank = rank_of(ranked);
    ASSERT_GE(paint_rank, 0) << "the sign is a candidate region";
    EXPECT_GT(paint_rank, 10) << "by paint alone the clutter outranks the sign (the case the ranker is for)";
    EXPECT_GE(ranker_rank, 0);
    // The tracker searches the first candidate_regions (60 by default): the ranker must lift the sign from far
    // behind the clutter into the first third of them.
    EXPECT_LT(ranker_rank, 20) << "of " << ranked.size() << " regions (by paint alone: " << paint_rank << ")";
}

TEST(RegionRanker, AFileThatIsNoRankerIsOneClearError) {
    const std::string path = test::write_temp("not_a_ranker.yml", "%YAML:1.0\n---\nanswer: 42\n");
    const std::string e = test::error_of<std::runtime_error>([&] { RegionRanker::load(path); });
    EXPECT_NE(e.find(path), std::string::npos) << e;
    EXPECT_NE(e.find("train_verifier"), std::string::npos) << e;
    // The verifier is an SVM too, but not a linear two-class one.
    EXPECT_NE(test::error_of<std::runtime_error>([] { RegionRanker::load(default_verifier_path()); })
                  .find("not a candidate ranker"),
              std::string::npos);
    EXPECT_NE(test::error_of<std::runtime_error>([] { RegionRanker::load(testing::TempDir() + "missing.yml.gz"); })
                  .find("not found"),
              std::string::npos);
}

} // namespace
} // namespace tracker
