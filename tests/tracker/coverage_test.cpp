// Paint coverage (common/colour_math.h): at a blurred edge of red paint on a dark background the red likelihood
// follows how much of the pixel the paint covers, instead of staying at 1 for a faint trace of red (which made
// signs look a pixel larger at night and biased their depth).
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

} // namespace
} // namespace tracker
