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
    // Under the sun's light (the shade reading of colour_math.h reads such a rim too, the balance alone must).
    const float unbalanced = math::classify_under(125, 80, 130, maps.mean_value).red;
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
    EXPECT_LT(math::classify_under(200, 40, 200, mean).red, 0.05f) << "magenta (hue 300)";
    // The shade reading (colour_math.h) takes a magenta for a red lit by the sky alone: partly red, no more.
    EXPECT_LT(math::classify(200, 40, 200, mean).red, 0.5f) << "magenta (hue 300) in the shade reading";
    EXPECT_GT(math::classify(70, 40, 200, mean).red, 0.9f) << "crimson (hue 349)";
    EXPECT_LT(math::classify(20, 160, 220, mean).red, 0.05f) << "orange (hue 42)";
}

// A sign in the shade, lit by the sky alone (the rim's colour that of a real one, 00067 of the GTSDB dev frames): its
// rim reads magenta and its white pale blue under the sun's light; the shade reading gives red and white back.
TEST(ShadeReading, ASignInTheShadeReadsRedRimAndWhiteDisc) {
    const float mean = 100;
    EXPECT_LT(math::classify_under(95, 67, 98, mean).red, 0.1f) << "the rim under the sun's light";
    EXPECT_GT(math::classify(95, 67, 98, mean).red, 0.8f) << "the rim in the shade";
    EXPECT_LT(math::classify_under(230, 175, 165, mean).white, 0.1f) << "the disc under the sun's light";
    EXPECT_GT(math::classify(230, 175, 165, mean).white, 0.8f) << "the disc in the shade";
    // What the shade reading must not turn: grey into red, blue paint into white.
    EXPECT_LT(math::classify(100, 100, 100, mean).red, 0.05f) << "grey";
    EXPECT_LT(math::classify(200, 100, 30, mean).white, 0.05f) << "blue paint";
    EXPECT_GT(math::classify(200, 100, 30, mean).blue, 0.9f) << "blue paint";
    // The candidate pass' paint map reads the shade too, and a grey stays unpainted there.
    cv::Mat frame(40, 80, CV_8UC3, cv::Scalar(100, 100, 100)), red, blue;
    frame(cv::Rect(40, 0, 40, 40)).setTo(cv::Scalar(95, 67, 98));
    paint_maps(frame, red, blue);
    EXPECT_EQ(red.at<std::uint8_t>(20, 10), 0) << "grey";
    EXPECT_GT(red.at<std::uint8_t>(20, 60), 40) << "the shaded rim";
}

} // namespace
} // namespace tracker
