// swarmtrack-bench's JPEG decoder (app/decode/still_jpeg.cpp) against OpenCV's imread: the same pixels, so the
// real suite on a GPU machine scores the frames the full app scores.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "decode/still_image.h"

namespace {

std::string temp_file(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("swarmtrack_still_jpeg_" + name)).string();
}

cv::Mat textured_frame() {
    cv::Mat img(120, 200, CV_8UC3);
    cv::randu(img, cv::Scalar::all(0), cv::Scalar::all(255));
    cv::GaussianBlur(img, img, cv::Size(5, 5), 1.5);
    cv::circle(img, {60, 60}, 30, {30, 30, 220}, 6);
    cv::rectangle(img, {120, 20}, {180, 90}, {200, 90, 20}, cv::FILLED);
    return img;
}

} // namespace

TEST(StillJpeg, DecodesTheSamePixelsAsImread) {
    for (const bool progressive : {false, true}) {
        const std::string path = temp_file(progressive ? "progressive.jpg" : "baseline.jpg");
        ASSERT_TRUE(cv::imwrite(path, textured_frame(),
                                std::vector<int>{cv::IMWRITE_JPEG_QUALITY, 85, cv::IMWRITE_JPEG_PROGRESSIVE, progressive}));
        const cv::Mat ours = app::decode_still(path);
        const cv::Mat theirs = cv::imread(path, cv::IMREAD_COLOR);
        std::filesystem::remove(path);
        ASSERT_FALSE(ours.empty());
        ASSERT_EQ(ours.type(), CV_8UC3);
        ASSERT_EQ(ours.size(), theirs.size());
        EXPECT_EQ(cv::norm(ours, theirs, cv::NORM_INF), 0.0) << (progressive ? "progressive" : "baseline");
    }
}

TEST(StillJpeg, ResavesThePixelsOpenCvWouldSave) {
    // swarmtrack-bench's re-save (libjpeg) against OpenCV's imencode and imdecode, so the robustness figures of the
    // real suite on a GPU machine compare with the full app's; and a lower quality loses more.
    const cv::Mat frame = textured_frame();
    double previous_error = 0;
    for (const int quality : {95, 60, 20}) {
        const cv::Mat ours = app::resave_jpeg(frame, quality);
        std::vector<unsigned char> bytes;
        ASSERT_TRUE(cv::imencode(".jpg", frame, bytes, {cv::IMWRITE_JPEG_QUALITY, quality}));
        const cv::Mat theirs = cv::imdecode(bytes, cv::IMREAD_COLOR);
        ASSERT_EQ(ours.type(), CV_8UC3);
        ASSERT_EQ(ours.size(), frame.size());
        EXPECT_EQ(cv::norm(ours, theirs, cv::NORM_INF), 0.0) << "quality " << quality;
        const double error = cv::norm(ours, frame, cv::NORM_L2);
        EXPECT_GT(error, previous_error) << "quality " << quality;
        previous_error = error;
    }
    // A view into a larger image (rows not contiguous) saves as its own pixels.
    const cv::Mat wide = cv::repeat(frame, 1, 2);
    EXPECT_EQ(cv::norm(app::resave_jpeg(wide(cv::Rect(0, 0, frame.cols, frame.rows)), 60),
                       app::resave_jpeg(frame, 60), cv::NORM_INF),
              0.0);
}

TEST(StillJpeg, ResavesWithFullChromaWhenAsked) {
    // One-pixel stripes of red and green: 4:2:0 averages each pair of columns' chroma, 4:4:4 keeps each column's.
    cv::Mat frame(64, 64, CV_8UC3);
    for (int x = 0; x < frame.cols; ++x) {
        frame.col(x).setTo(x % 2 == 0 ? cv::Scalar(40, 40, 200) : cv::Scalar(40, 200, 40));
    }
    const double subsampled = cv::norm(app::resave_jpeg(frame, 95, app::JpegChroma::Subsampled), frame, cv::NORM_L2);
    const double full = cv::norm(app::resave_jpeg(frame, 95, app::JpegChroma::Full), frame, cv::NORM_L2);
    EXPECT_LT(full, 0.25 * subsampled) << "4:4:4 " << full << " against 4:2:0 " << subsampled;
    EXPECT_EQ(cv::norm(app::resave_jpeg(frame, 95), app::resave_jpeg(frame, 95, app::JpegChroma::Subsampled),
                       cv::NORM_INF),
              0.0)
        << "the default is 4:2:0, as OpenCV saves";
}

TEST(StillJpeg, AFrameLargerThanTheFirstBufferResavesWhole) {
    // A noisy 816x480 frame at quality 95 compresses to several times the destination's first 64 KiB, so the bytes
    // cross each growth of the buffer.
    cv::Mat frame(480, 816, CV_8UC3);
    cv::randu(frame, cv::Scalar::all(0), cv::Scalar::all(255));
    std::vector<unsigned char> bytes;
    ASSERT_TRUE(cv::imencode(".jpg", frame, bytes, {cv::IMWRITE_JPEG_QUALITY, 95}));
    ASSERT_GT(bytes.size(), 4u * 65536u) << "the frame must outgrow the first buffer";
    EXPECT_EQ(cv::norm(app::resave_jpeg(frame, 95), cv::imdecode(bytes, cv::IMREAD_COLOR), cv::NORM_INF), 0.0);
}

TEST(StillJpeg, AFrameLibjpegCannotSaveIsOneClearError) {
    const cv::Mat too_wide(1, 70000, CV_8UC3, cv::Scalar::all(128)); // JPEG's limit is 65,500 pixels a side
    try {
        app::resave_jpeg(too_wide, 90);
        FAIL() << "a 70000-pixel-wide frame was saved";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "cannot save a 70000x1 image as JPEG");
    }
}

TEST(StillJpeg, GreyscaleJpegComesOutAsBgr) {
    const std::string path = temp_file("grey.jpg");
    cv::Mat grey;
    cv::cvtColor(textured_frame(), grey, cv::COLOR_BGR2GRAY);
    ASSERT_TRUE(cv::imwrite(path, grey));
    const cv::Mat ours = app::decode_still(path);
    const cv::Mat theirs = cv::imread(path, cv::IMREAD_COLOR);
    std::filesystem::remove(path);
    ASSERT_EQ(ours.type(), CV_8UC3);
    EXPECT_EQ(cv::norm(ours, theirs, cv::NORM_INF), 0.0);
}

TEST(StillJpeg, WhatIsNotAJpegGivesAnEmptyImage) {
    EXPECT_TRUE(app::decode_still(temp_file("missing.jpg")).empty());
    const std::string png = temp_file("frame.png");
    ASSERT_TRUE(cv::imwrite(png, textured_frame()));
    EXPECT_TRUE(app::decode_still(png).empty());
    std::filesystem::remove(png);
    const std::string cut = temp_file("cut.jpg");
    std::vector<unsigned char> bytes;
    ASSERT_TRUE(cv::imencode(".jpg", textured_frame(), bytes));
    {
        std::ofstream f(cut, std::ios::binary);
        f.write(reinterpret_cast<const char*>(bytes.data()), 64); // the header alone, no scan data
    }
    EXPECT_TRUE(app::decode_still(cut).empty());
    std::filesystem::remove(cut);
}
