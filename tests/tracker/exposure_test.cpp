// Local exposure (common/colour_math.h): a sign in the shade of a bright frame is brightened to the frame's
// exposure before it is classified, so its dull red ring reads as red and its grey disc as white; lit parts of
// the frame are left as they were.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "common/colour_math.h"
#include "preprocess.h"

namespace tracker {
namespace {

// A bright frame (sky-like grey) whose left third is in deep shade, with a shaded sign in the shade: a ring of
// dull red (chroma 12) around a grey-white disc.
cv::Mat shaded_sign_frame(cv::Point& centre) {
    cv::Mat frame(160, 288, CV_8UC3, cv::Scalar(180, 180, 180));
    frame(cv::Rect(0, 0, 96, 160)).setTo(cv::Scalar(28, 30, 30));
    centre = {48, 80};
    cv::circle(frame, centre, 14, cv::Scalar(14, 14, 26), cv::FILLED); // dull red ring
    cv::circle(frame, centre, 10, cv::Scalar(58, 58, 60), cv::FILLED); // grey-white disc
    return frame;
}

TEST(FrameExposure, ChromaFloorFollowsADarkerFrameOnly) {
    EXPECT_FLOAT_EQ(math::frame_exposure(200.f), 1.f);
    EXPECT_FLOAT_EQ(math::frame_exposure(math::k_ordinary_mean), 1.f);
    EXPECT_FLOAT_EQ(math::frame_exposure(0.5f * math::k_ordinary_mean), 0.5f);
    EXPECT_FLOAT_EQ(math::frame_exposure(5.f), math::k_min_exposure);
    // A faint rim, chroma 10 at saturation 0.25 (the shade reading turns it orange): under the chroma floor of an
    // ordinary frame, over a half-exposed one's.
    const float faint_red_at_ordinary = math::classify(30, 32, 40, math::k_ordinary_mean).red;
    const float faint_red_when_dark = math::classify(30, 32, 40, 0.5f * math::k_ordinary_mean).red;
    EXPECT_LT(faint_red_at_ordinary, 0.5f * faint_red_when_dark);
    EXPECT_GT(faint_red_when_dark, 0.4f);
}

TEST(LocalExposure, UniformFrameKeepsGainOne) {
    const cv::Mat frame(96, 130, CV_8UC3, cv::Scalar(90, 100, 110));
    std::vector<float> grid;
    int gw = 0, gh = 0;
    exposure_grid(frame, grid, gw, gh);
    EXPECT_EQ(gw, 130 / math::k_exposure_tile);
    EXPECT_EQ(gh, 96 / math::k_exposure_tile);
    const float mean = mean_max_channel(frame);
    for (int y = 0; y < frame.rows; y += 7) {
        for (int x = 0; x < frame.cols; x += 5) {
            EXPECT_FLOAT_EQ(math::exposure_gain(grid.data(), gw, gh, x, y, mean), 1.f);
        }
    }
}

TEST(LocalExposure, ShadeIsBrightenedUpToTheCapAndLightIsNot) {
    cv::Point c;
    const cv::Mat frame = shaded_sign_frame(c);
    std::vector<float> grid;
    int gw = 0, gh = 0;
    exposure_grid(frame, grid, gw, gh);
    const float mean = mean_max_channel(frame);
    EXPECT_GT(math::exposure_gain(grid.data(), gw, gh, 20, 20, mean), 3.f) << "deep shade";
    EXPECT_LE(math::exposure_gain(grid.data(), gw, gh, 20, 20, mean), math::k_exposure_max_gain);
    EXPECT_FLOAT_EQ(math::exposure_gain(grid.data(), gw, gh, 250, 80, mean), 1.f) << "the lit part";
    // A frame that is not a multiple of the tile: the last tiles take the remainder, the gain stays finite.
    cv::Mat odd;
    cv::resize(frame, odd, cv::Size(301, 171));
    exposure_grid(odd, grid, gw, gh);
    EXPECT_EQ(gw, 301 / math::k_exposure_tile);
    for (int x = 0; x < odd.cols; x += 3) {
        const float g = math::exposure_gain(grid.data(), gw, gh, x, odd.rows - 1, mean_max_channel(odd));
        EXPECT_TRUE(g >= 1.f && g <= math::k_exposure_max_gain) << x;
    }
}

TEST(LocalExposure, ShadedSignReadsAsRedRingAndWhiteDisc) {
    cv::Point c;
    const cv::Mat frame = shaded_sign_frame(c);
    const float mean = mean_max_channel(frame);
    // Without the exposure gain the ring is too dull for red and the disc too dark for white (under the sun's
    // light: the shade reading of colour_math.h reads the dull ring as partly red, the gain alone must).
    const auto px = [&](int x, int y) { return frame.at<cv::Vec3b>(y, x); };
    const cv::Vec3b ring = px(c.x + 12, c.y), disc = px(c.x, c.y);
    EXPECT_LT(math::classify_under(ring[0], ring[1], ring[2], mean).red, 0.3f);
    EXPECT_LT(math::classify(disc[0], disc[1], disc[2], mean).white, 0.3f);
    ClassMaps maps;
    preprocess_cpu(frame, maps);
    EXPECT_FLOAT_EQ(maps.mean_value, mean) << "the mean from the exposure tiles' total";
    EXPECT_GT(maps.classes.at<cv::Vec4b>(c.y, c.x + 12)[0], 200) << "ring: red";
    EXPECT_GT(maps.classes.at<cv::Vec4b>(c.y, c.x)[2], 200) << "disc: white";
    EXPECT_LT(maps.classes.at<cv::Vec4b>(c.y, c.x)[0], 30) << "disc: not red";
    EXPECT_LT(maps.classes.at<cv::Vec4b>(20, 20)[2], 30) << "the shade itself is not white";
    EXPECT_LT(maps.classes.at<cv::Vec4b>(80, 250)[0], 10) << "the lit grey is not red";
}

} // namespace
} // namespace tracker
