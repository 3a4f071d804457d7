// Grey-world white balance and the red band (common/colour_math.h): at dusk the whole frame takes a blue cast and
// a sign's red rim turns magenta; balanced, it reads as red again, while magenta in a neutral frame does not.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "candidates.h"
#include "common/colour_math.h"
#include "preprocess.h"

namespace tracker {
namespace {

constexpr double k_pixels = 1000.0;

TEST(WhiteBalance, NeutralFrameKeepsGainsOne) {
    const auto g = math::grey_world_gains(120 * k_pixels, 120 * k_pixels, 120 * k_pixels, k_pixels);
    EXPECT_FLOAT_EQ(g.b, 1.f);
    EXPECT_FLOAT_EQ(g.g, 1.f);
    EXPECT_FLOAT_EQ(g.r, 1.f);
}

TEST(WhiteBalance, BlueCastIsEvenedOutWithinBounds) {
    // A dusk frame's means (b, g, r) = (138, 113, 100): blue is damped, red lifted.
    const auto dusk = math::grey_world_gains(138 * k_pixels, 113 * k_pixels, 100 * k_pixels, k_pixels);
    EXPECT_NEAR(dusk.b, 117.0 / 138.0, 1e-5);
    EXPECT_NEAR(dusk.g, 117.0 / 113.0, 1e-5);
    EXPECT_NEAR(dusk.r, 117.0 / 100.0, 1e-5);
    // A frame that really is mostly one colour is not pushed past the bounds.
    const auto red = math::grey_world_gains(20 * k_pixels, 20 * k_pixels, 200 * k_pixels, k_pixels);
    EXPECT_FLOAT_EQ(red.b, math::k_balance_max);
    EXPECT_FLOAT_EQ(red.r, math::k_balance_min);
    // A black channel counts as a mean of 1, not 0 (no division by zero, the gain stays bounded).
    const auto black = math::grey_world_gains(0, 0, 0, k_pixels);
    EXPECT_FLOAT_EQ(black.b, 1.f);
}

TEST(WhiteBalance, MagentaRimOfADuskFrameReadsRed) {
    const cv::Scalar dusk(138, 113, 100), rim(125, 80, 130), white(150, 140, 140);
    cv::Mat frame(120, 160, CV_8UC3, dusk);
    const cv::Point c(80, 60);
    cv::circle(frame, c, 16, rim, cv::FILLED);
    cv::circle(frame, c, 11, white, cv::FILLED);
    ClassMaps maps;
    preprocess_cpu(frame, maps);
    const float unbalanced = math::classify(125, 80, 130, maps.mean_value).red;
    EXPECT_LT(unbalanced, 0.1f) << "as the camera saw it the rim is magenta";
    EXPECT_GT(maps.classes.at<cv::Vec4b>(c.y, c.x + 14)[0], 200) << "balanced, the rim is red";
    EXPECT_LT(maps.classes.at<cv::Vec4b>(10, 10)[0], 10) << "the balanced background is not red";
    // The paint maps of the candidate pass take the same balance.
    cv::Mat red, blue;
    paint_maps(frame, red, blue);
    const int raw = red.at<std::uint8_t>(c.y, c.x + 14);
    paint_maps(frame, red, blue, frame_balance(frame));
    EXPECT_GT(red.at<std::uint8_t>(c.y, c.x + 14), raw + 40);
}

TEST(WhiteBalance, MagentaInANeutralFrameIsNotRed) {
    const float mean = 120;
    EXPECT_LT(math::classify(200, 40, 200, mean).red, 0.05f) << "magenta (hue 300)";
    EXPECT_GT(math::classify(70, 40, 200, mean).red, 0.9f) << "crimson (hue 349)";
    EXPECT_LT(math::classify(20, 160, 220, mean).red, 0.05f) << "orange (hue 42)";
}

} // namespace
} // namespace tracker
