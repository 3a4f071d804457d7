// The GUI end to end: `swarmtrack track synthetic` under Xvfb (Mesa llvmpipe) on the CPU backend renders
// a few frames (paced by the tracker, --fps 0, so the run is the same however loaded the machine is) and
// saves a screenshot; the picture must show the frame, particle points, a detection outline and the timing panel. Where each is drawn comes from the screenshot's layout JSON; what is
// there is checked from the pixels.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#ifndef SWARMTRACK_BIN
#error "SWARMTRACK_BIN must name the swarmtrack executable"
#endif

namespace {
namespace fs = std::filesystem;

bool have_xvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

cv::Rect rect_of(const nlohmann::json& j, cv::Size image) {
    cv::Rect r(static_cast<int>(j[0].get<double>()), static_cast<int>(j[1].get<double>()),
               static_cast<int>(j[2].get<double>()), static_cast<int>(j[3].get<double>()));
    return r & cv::Rect({0, 0}, image);
}

long long count_colour(const cv::Mat& bgr, cv::Vec3b colour) {
    cv::Mat mask;
    cv::inRange(bgr, cv::Scalar(colour[0], colour[1], colour[2]), cv::Scalar(colour[0], colour[1], colour[2]), mask);
    return cv::countNonZero(mask);
}

cv::Vec3b bgr_of(const nlohmann::json& rgb) {
    return {static_cast<uchar>(rgb[2].get<int>()), static_cast<uchar>(rgb[1].get<int>()), static_cast<uchar>(rgb[0].get<int>())};
}

class GuiScreenshot : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!have_xvfb()) return;
        s_dir = fs::temp_directory_path() / ("swarmtrack-gui-" + std::to_string(::getpid()));
        fs::create_directories(s_dir);
        s_png = (s_dir / "shot.png").string();
        const std::string cmd = "xvfb-run -a -s '-screen 0 1600x900x24' " + std::string(SWARMTRACK_BIN) +
                                " track synthetic --backend cpu --fps 0 --frames 12 --profile --screenshot " + s_png + " > " +
                                (s_dir / "log.txt").string() + " 2>&1";
        s_rc = std::system(cmd.c_str());
    }
    static void TearDownTestSuite() {
        if (!s_dir.empty()) fs::remove_all(s_dir);
    }
    void SetUp() override {
        if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
        std::ifstream log(s_dir / "log.txt");
        const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
        ASSERT_EQ(s_rc, 0) << text;
        m_image = cv::imread(s_png, cv::IMREAD_COLOR);
        ASSERT_FALSE(m_image.empty()) << "no screenshot: " << text;
        std::ifstream(s_png + ".json") >> m_layout;
        ASSERT_EQ(m_image.cols, m_layout["width"].get<int>());
        ASSERT_EQ(m_image.rows, m_layout["height"].get<int>());
        m_frame = m_image(rect_of(m_layout["frame_rect"], m_image.size()));
        ASSERT_GT(m_frame.total(), 10000u);
    }

    static inline fs::path s_dir;
    static inline std::string s_png;
    static inline int s_rc = -1;
    cv::Mat m_image, m_frame;
    nlohmann::json m_layout;
};

// --profile times the overlay draw exactly and reports it when the window closes.
TEST_F(GuiScreenshot, ProfileReportsTheOverlayTime) {
    std::ifstream log(s_dir / "log.txt");
    const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("overlay: "), std::string::npos) << text;
    EXPECT_NE(text.find(" ms median, "), std::string::npos) << text;
}

TEST_F(GuiScreenshot, FrameIsDrawn) {
    // The clear colour must not show through the frame rectangle, and the frame must have content.
    const long long clear = count_colour(m_frame, {26, 20, 20});
    EXPECT_LT(clear, static_cast<long long>(m_frame.total() / 100)) << "the frame texture is missing";
    cv::Scalar mean, stddev;
    cv::meanStdDev(m_frame, mean, stddev);
    EXPECT_GT(mean[0] + mean[1] + mean[2], 60.0);
    EXPECT_GT(stddev[0] + stddev[1] + stddev[2], 15.0) << "a uniform rectangle is not a frame";
}

TEST_F(GuiScreenshot, ParticlePointsAreDrawnInSwarmColours) {
    const long long drawn = m_layout["particles"].get<long long>();
    ASSERT_GT(drawn, 0) << "the tracker reported no particles";
    long long pixels = 0;
    int swarms_seen = 0;
    for (const auto& c : m_layout["swarm_colours"]) {
        const long long n = count_colour(m_frame, bgr_of(c));
        pixels += n;
        swarms_seen += n > 0 ? 1 : 0;
    }
    EXPECT_GE(pixels, std::min<long long>(drawn, 200)) << "points of " << drawn << " particles should cover pixels";
    EXPECT_GE(swarms_seen, 2);
}

TEST_F(GuiScreenshot, DetectionOutlineIsDrawn) {
    ASSERT_GT(m_layout["detections"].get<long long>(), 0) << "no detection in the rendered frame";
    const long long outline = count_colour(m_frame, bgr_of(m_layout["outline_colour"]));
    EXPECT_GE(outline, 30) << "a detection's outline should be a visible closed line";
}

TEST_F(GuiScreenshot, TimingPanelIsDrawn) {
    const cv::Mat panel = m_image(rect_of(m_layout["timing_rect"], m_image.size()));
    ASSERT_GT(panel.total(), 5000u);
    // The stacked stage plot's bars in the search stage's colour (exact, so anti-aliased text cannot match).
    const long long search_bars = count_colour(panel, {0x3C, 0x6E, 0xE6});
    EXPECT_GE(search_bars, 20) << "no bars of the search stage in the timing plot";
    cv::Mat grey;
    cv::cvtColor(panel, grey, cv::COLOR_BGR2GRAY);
    EXPECT_GT(cv::countNonZero(grey > 200), 50) << "no text in the timing panel";
}

} // namespace
