// Paint coverage (common/colour_math.h): at a blurred edge of red paint on a dark background the red likelihood
// follows how much of the pixel the paint covers, instead of staying at 1 for a faint trace of red (which made
// signs look a pixel larger at night and biased their depth). With FitnessSettings::cover_hue under 180 the paint is
// measured against paint of its own hue: a fainter red rim beside a saturated yellow face is fully red.
#include <gtest/gtest.h>

#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "preprocess.h"

namespace tracker {
namespace {

TEST(PaintCoverage, RedLikelihoodFollowsCoverageAcrossABlurredEdge) {
    cv::Mat frame(40, 60, CV_8UC3, cv::Scalar(12, 12, 12)); // a dark background
    frame(cv::Rect(0, 0, 30, 40)).setTo(cv::Scalar(40, 40, 200)); // sign red on the left half
    cv::GaussianBlur(frame, frame, cv::Size(), 1.2);
    ClassMaps maps;
    preprocess_cpu(frame, maps);
    const int y = 20;
    const auto chroma = [&](int x) {
        const auto p = frame.at<cv::Vec3b>(y, x);
        return static_cast<double>(std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}));
    };
    const double full = chroma(10);
    EXPECT_GT(maps.classes.at<cv::Vec4b>(y, 10)[0], 240) << "inside the paint: red";
    EXPECT_LT(maps.classes.at<cv::Vec4b>(y, 50)[0], 10) << "far outside: not red";
    int partial = 0;
    for (int x = 25; x < 36; ++x) {
        const double cover = chroma(x) / full;
        if (cover < 0.1 || cover > 0.8) {
            continue;
        }
        ++partial;
        const double red = maps.classes.at<cv::Vec4b>(y, x)[0] / 255.0;
        EXPECT_NEAR(red, std::min(1.0, cover / 0.85), 0.15) << "x " << x << ", paint covers " << cover;
    }
    EXPECT_GE(partial, 2) << "the blur leaves partly covered pixels to check";
}

TEST(PaintCoverage, CoverHueLeavesARimBesideAYellowFaceFull) {
    cv::Mat frame(40, 60, CV_8UC3, cv::Scalar(20, 210, 230)); // a saturated yellow face (chroma 210)
    frame(cv::Rect(20, 0, 3, 40)).setTo(cv::Scalar(70, 70, 180)); // a 3 px red rim, chroma 110, beside it
    frame(cv::Rect(40, 0, 20, 40)).setTo(cv::Scalar(200, 200, 200)); // and a white area
    frame(cv::Rect(50, 0, 3, 40)).setTo(cv::Scalar(70, 70, 180));    // with the same rim on it
    const int y = 20;
    ClassMaps every_hue, own_hue;
    preprocess_cpu(frame, every_hue); // the default, 180: the yellow's chroma is the rim's maximum
    preprocess_cpu(frame, own_hue, 28.f);
    const int on_white = own_hue.classes.at<cv::Vec4b>(y, 51)[0];
    EXPECT_GT(on_white, 240) << "the rim on white: red";
    EXPECT_EQ(every_hue.classes.at<cv::Vec4b>(y, 51)[0], on_white) << "on white the window changes nothing";
    EXPECT_GE(own_hue.classes.at<cv::Vec4b>(y, 21)[0], on_white - 2) << "beside yellow, 28 degrees: as red";
    EXPECT_LT(every_hue.classes.at<cv::Vec4b>(y, 21)[0], 0.8 * on_white) << "beside yellow, every hue: less red";
    // A blurred edge keeps its coverage: its hue is its paint's.
    cv::Mat blurred;
    cv::GaussianBlur(frame, blurred, cv::Size(), 1.2);
    ClassMaps b_every, b_own;
    preprocess_cpu(blurred, b_every);
    preprocess_cpu(blurred, b_own, 28.f);
    EXPECT_NEAR(b_own.classes.at<cv::Vec4b>(y, 53)[0], b_every.classes.at<cv::Vec4b>(y, 53)[0], 3)
        << "the rim's blurred edge on white";
}

} // namespace
} // namespace tracker
