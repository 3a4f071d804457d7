// Frame sources: ordering, decoding failures, truncated videos and one-line errors for bad inputs.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "sources/frame_source.h"
#include "sources/live_buffer.h"

namespace app {
namespace {
namespace fs = std::filesystem;

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("swarmtrack-src-" + std::to_string(::getpid()) + "-" +
                                                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    TempDir() { fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
};

cv::Mat numbered(int i, cv::Size size = {64, 48}) {
    return cv::Mat(size, CV_8UC3, cv::Scalar(i * 10, 255 - i * 10, 128));
}

std::string error_of(const std::string& spec) {
    try {
        open_source(spec);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

TEST(Sources, FolderReadsImagesInNameOrderAndSkipsBrokenOnes) {
    TempDir tmp;
    for (int i : {2, 0, 1}) cv::imwrite((tmp.path / ("f" + std::to_string(i) + ".png")).string(), numbered(i));
    std::ofstream(tmp.path / "f1b.png") << "not an image";
    std::ofstream(tmp.path / "notes.txt") << "ignored";
    auto src = open_source(tmp.path.string());
    EXPECT_EQ(src->frame_count(), 4);
    std::vector<int> blue;
    Frame f;
    while (src->read(f)) blue.push_back(f.bgr.at<cv::Vec3b>(0, 0)[0]);
    EXPECT_EQ(blue, (std::vector<int>{0, 10, 20}));
    EXPECT_EQ(src->skipped(), 1);
    ASSERT_TRUE(src->seek(3));
    ASSERT_TRUE(src->read(f));
    EXPECT_EQ(f.bgr.at<cv::Vec3b>(0, 0)[0], 20);
}

TEST(Sources, TruncatedVideoYieldsEveryDecodableFrameAndCountsTheRest) {
    TempDir tmp;
    const auto whole = (tmp.path / "clip.avi").string();
    {
        cv::VideoWriter w(whole, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 25, {160, 120});
        ASSERT_TRUE(w.isOpened());
        for (int i = 0; i < 40; ++i) w.write(numbered(i, {160, 120}));
    }
    const auto cut = (tmp.path / "cut.avi").string();
    {
        std::ifstream in(whole, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    }
    auto full = open_source(whole);
    long long n_full = 0;
    for (Frame f; full->read(f);) ++n_full;
    EXPECT_EQ(n_full, 40);
    EXPECT_EQ(full->skipped(), 0);

    auto src = open_source(cut);
    long long n = 0;
    for (Frame f; src->read(f);) ++n;
    EXPECT_GT(n, 5);
    EXPECT_LT(n, 40);
    EXPECT_EQ(n + src->skipped(), 40) << "every declared frame is either read or reported skipped";
}

TEST(Sources, BadInputsGiveOneLineErrorsNamingTheInput) {
    TempDir tmp;
    const auto text = (tmp.path / "notes.mp4").string();
    std::ofstream(text) << "hello";
    const auto empty_dir = (tmp.path / "empty").string();
    fs::create_directories(empty_dir);
    struct Case {
        std::string spec, must_contain;
    } cases[] = {
        {(tmp.path / "missing.mp4").string(), "no such file"},
        {text, "not a video"},
        {empty_dir, "no images"},
        {"camera:97", "/dev/video97 does not exist"},
        {"camera:x", "camera index"},
        {"synthetic:no-such-scene", "synthetic:no-such-scene"},
    };
    for (const auto& c : cases) {
        const std::string e = error_of(c.spec);
        EXPECT_NE(e.find(c.must_contain), std::string::npos) << c.spec << " -> " << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    }
}

// Inputs that open but cannot be tracked are refused at the input, with one line naming it.
TEST(Sources, UnusableInputsAreRefusedAtTheInput) {
    TempDir tmp;
    const auto tiny_dir = tmp.path / "tiny";
    fs::create_directories(tiny_dir);
    cv::imwrite((tiny_dir / "a.png").string(), numbered(1, {1, 1}));
    const auto small_video = (tmp.path / "small.avi").string();
    {
        cv::VideoWriter w(small_video, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 25, {8, 8});
        ASSERT_TRUE(w.isOpened());
        for (int i = 0; i < 5; ++i) w.write(numbered(i, {8, 8}));
    }
    const auto no_frames = (tmp.path / "none.avi").string();
    {
        cv::VideoWriter w(no_frames, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 25, {64, 48});
        ASSERT_TRUE(w.isOpened());
    }
    ASSERT_TRUE(fs::exists(no_frames));
    const auto broken_dir = tmp.path / "broken";
    fs::create_directories(broken_dir);
    std::ofstream(broken_dir / "a.png") << "not an image";
    std::ofstream(broken_dir / "b.jpg") << "nor this";
    struct Case {
        std::string spec, must_contain;
    } cases[] = {
        {tiny_dir.string(), "frames are 1x1, smaller than the tracker's minimum of 64x48"},
        {small_video, "frames are 8x8, smaller than the tracker's minimum of 64x48"},
        {no_frames, "none.avi"},
        {broken_dir.string(), "none of its images decodes"},
    };
    for (const auto& c : cases) {
        const std::string e = error_of(c.spec);
        EXPECT_NE(e.find(c.must_contain), std::string::npos) << c.spec << " -> " << e;
        EXPECT_NE(e.find(c.spec), std::string::npos) << "the error names the input: " << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    }
}

// Images of another size than the first are resized to it: the tracker sees one geometry.
TEST(Sources, FolderOfMixedSizesHandsOutTheFirstImagesSize) {
    TempDir tmp;
    cv::imwrite((tmp.path / "a.png").string(), numbered(0, {160, 120}));
    cv::imwrite((tmp.path / "b.png").string(), numbered(1, {64, 48}));
    cv::imwrite((tmp.path / "c.png").string(), numbered(2, {320, 100}));
    auto src = open_source(tmp.path.string());
    EXPECT_EQ(src->size(), cv::Size(160, 120));
    std::vector<int> blue;
    for (Frame f; src->read(f);) {
        EXPECT_EQ(f.bgr.size(), cv::Size(160, 120));
        blue.push_back(f.bgr.at<cv::Vec3b>(60, 80)[0]);
    }
    EXPECT_EQ(blue, (std::vector<int>{0, 10, 20}));
}

TEST(Sources, SyntheticOfflineHandsOutTheRequestedFrames) {
    SourceOptions o;
    o.synthetic_live = false;
    o.synthetic_frames = 5;
    o.synthetic_size = {320, 240};
    auto src = open_source("synthetic:easy", o);
    EXPECT_FALSE(src->live());
    EXPECT_EQ(src->frame_count(), 5);
    int n = 0;
    for (Frame f; src->read(f); ++n) {
        EXPECT_EQ(f.bgr.size(), cv::Size(320, 240));
        EXPECT_EQ(f.index, n);
    }
    EXPECT_EQ(n, 5);
}

TEST(Sources, SyntheticLiveKeepsOnlyTheNewestFrame) {
    SourceOptions o;
    o.synthetic_fps = 200;
    o.synthetic_size = {160, 120};
    auto src = open_source("synthetic", o);
    EXPECT_TRUE(src->live());
    Frame a, b;
    ASSERT_TRUE(src->read(a));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ASSERT_TRUE(src->read(b));
    EXPECT_GT(b.index, a.index + 1) << "a slow reader gets the newest frame";
    EXPECT_GT(src->dropped(), 0);
}

TEST(LatestFrame, CountsOverwrittenFramesAndEndsWhenClosed) {
    LatestFrame box;
    for (int i = 0; i < 3; ++i) {
        Frame f;
        f.index = i;
        box.put(f);
    }
    Frame out;
    ASSERT_TRUE(box.take(out));
    EXPECT_EQ(out.index, 2);
    EXPECT_EQ(box.dropped(), 2);
    box.close();
    EXPECT_FALSE(box.take(out));
}

} // namespace
} // namespace app
