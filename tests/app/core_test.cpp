// The app's GUI-free core: timing statistics, playback pacing, overlay geometry, output sets, writers.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/annotate.h"
#include "core/detections_out.h"
#include "core/output_set.h"
#include "core/overlay_geometry.h"
#include "core/palette.h"
#include "core/playback.h"
#include "core/timing.h"

namespace app {
namespace {
namespace fs = std::filesystem;

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("swarmtrack-core-" + std::to_string(::getpid()) + "-" +
                                                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    TempDir() { fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
};

TEST(Timing, PercentileIsNearestRank) {
    EXPECT_EQ(percentile({}, 50), 0.0);
    EXPECT_EQ(percentile({5, 1, 3}, 50), 3.0);
    std::vector<double> v;
    for (int i = 1; i <= 100; ++i) v.push_back(i);
    EXPECT_EQ(percentile(v, 95), 95.0);
    EXPECT_EQ(percentile(v, 100), 100.0);
    EXPECT_EQ(percentile(v, 0), 1.0);
}

TEST(Timing, HistoryKeepsTheLastFramesOldestFirst) {
    TimingHistory h(3);
    for (int i = 1; i <= 5; ++i) {
        FrameTiming t;
        t[Stage::Search] = i;
        t.frame_ms = 10;
        h.push(t);
    }
    ASSERT_EQ(h.size(), 3u);
    EXPECT_EQ(h.series(Stage::Search), (std::vector<float>{3, 4, 5}));
    EXPECT_EQ(h.latest()[Stage::Search], 5);
    EXPECT_DOUBLE_EQ(h.fps(), 100.0);
}

TEST(Timing, TrackerStagesLandInTheirSlots) {
    tracker::StageTiming s;
    s.upload_ms = 1;
    s.preprocess_ms = 2;
    s.search_ms = 3;
    s.readback_ms = 4;
    s.candidates_ms = 5;
    s.classify_ms = 6;
    FrameTiming t;
    t.set_tracker(s);
    EXPECT_EQ(t[Stage::Upload], 1);
    EXPECT_EQ(t[Stage::Preprocess], 2);
    EXPECT_EQ(t[Stage::Search], 3);
    EXPECT_EQ(t[Stage::Readback], 4);
    EXPECT_EQ(t[Stage::Candidates], 5);
    EXPECT_EQ(t[Stage::Classes], 6);
    EXPECT_EQ(t[Stage::Capture], 0);
    EXPECT_EQ(to_string(Stage::Candidates), "candidates");
    EXPECT_EQ(to_string(Stage::Classes), "classes");
}

TEST(Playback, PausedAdvancesOnlyOnStepOrSeek) {
    PlaybackState p;
    const auto now = std::chrono::steady_clock::now();
    p.paused = true;
    EXPECT_FALSE(p.should_advance(false, 30, now));
    p.step_requested = true;
    EXPECT_TRUE(p.should_advance(false, 30, now));
    EXPECT_FALSE(p.step_requested);
    EXPECT_FALSE(p.should_advance(false, 30, now));
    p.seek_to = 10;
    EXPECT_TRUE(p.should_advance(false, 30, now));
}

TEST(Playback, FileSourcesArePacedBySpeedLiveOnesAreNot) {
    PlaybackState p;
    const auto t0 = std::chrono::steady_clock::now();
    p.mark_advanced(t0);
    EXPECT_FALSE(p.should_advance(false, 10, t0 + std::chrono::milliseconds(50)));
    EXPECT_TRUE(p.should_advance(false, 10, t0 + std::chrono::milliseconds(101)));
    p.speed = 2;
    EXPECT_TRUE(p.should_advance(false, 10, t0 + std::chrono::milliseconds(51)));
    p.speed = 0; // unpaced
    EXPECT_TRUE(p.should_advance(false, 10, t0));
    p.speed = 1;
    EXPECT_TRUE(p.should_advance(true, 10, t0)); // live: the source sets the pace
}

tracker::FrameResult sample_result() {
    tracker::FrameResult r;
    r.frame = 7;
    tracker::Detection d;
    d.frame = 7;
    d.track_id = 3;
    d.category = tracker::Category::Stop;
    d.fitness = 0.9;
    d.pose = {1, 2, 20, 0, 0, 0};
    d.outline = {{10, 10}, {20, 10}, {20, 20}, {10, 20}};
    d.box = {10, 10, 10, 10};
    r.detections.push_back(d);
    for (int s = 0; s < 8; ++s) {
        tracker::SwarmView v;
        v.swarm = s;
        v.particles.assign(64, cv::Point2f(float(s), float(s)));
        v.best = {0, 0, 10, 0, 0, 0};
        r.swarms.push_back(v);
    }
    return r;
}

TEST(Overlay, GeometryHasEveryParticleOutlineEdgeAndLabel) {
    const auto camera = tracker::Camera::from_fov(1280, 720, 60);
    OverlayGeometry g;
    build_overlay(sample_result(), camera, OverlayOptions{}, g);
    EXPECT_EQ(g.points.size(), 8u * 64u);
    EXPECT_EQ(g.lines.size(), 4u * 2u + 8u * 4u); // closed outline + a cross per swarm
    ASSERT_EQ(g.labels.size(), 1u);
    EXPECT_NE(g.labels[0].text.find("#3"), std::string::npos);
    const Rgb c = swarm_colour(2);
    EXPECT_FLOAT_EQ(g.points[2 * 64].r, c.r / 255.0f);
    // The best pose at the optical axis projects to the principal point.
    EXPECT_NEAR(g.lines[2].x, camera.cx, 1e-3); // crosses come first: horizontal arm, then vertical

    OverlayOptions off;
    off.particles = off.best_pose = off.labels = false;
    build_overlay(sample_result(), camera, off, g);
    EXPECT_TRUE(g.points.empty());
    EXPECT_EQ(g.lines.size(), 8u);
    EXPECT_TRUE(g.labels.empty());
}

TEST(Writers, MotRowsAreOneBasedWithBoxAndConfidence) {
    std::ostringstream os;
    write_mot(os, sample_result());
    EXPECT_EQ(os.str(), "8,3,10,10,10,10,0.9,1,2,20,-1\n"); // class unknown: -1 in the extra last column
    auto named = sample_result();
    named.detections[0].class_id = 3;
    named.detections[0].class_name = "speed limit 60";
    std::ostringstream with_class;
    write_mot(with_class, named);
    EXPECT_EQ(with_class.str(), "8,3,10,10,10,10,0.9,1,2,20,3\n");
}

TEST(Labels, NameTheClassWhenKnown) {
    auto d = sample_result().detections[0];
    EXPECT_EQ(detection_label(d).find("\xc2\xb7"), std::string::npos) << "no class part while it is unknown";
    d.class_id = 3;
    d.class_name = "speed limit 60";
    const std::string gui = detection_label(d), video = detection_label(d, true);
    EXPECT_EQ(gui.rfind(std::string(tracker::to_string(d.category)) + " \xc2\xb7 speed limit 60 #3 ", 0), 0u) << gui;
    EXPECT_EQ(video.rfind(std::string(tracker::to_string(d.category)) + " - speed limit 60 #3 ", 0), 0u) << video;
}

TEST(OutputSet, RenamesOnlyOnCommitAndCleansUpOtherwise) {
    TempDir tmp;
    const auto dir = (tmp.path / "out").string();
    {
        OutputSet set(dir, {"a.txt", "b.mp4"}, false);
        std::ofstream(set.temp_path("a.txt")) << "x";
        EXPECT_NE(set.temp_path("b.mp4").find(".mp4"), std::string::npos);
    }
    EXPECT_FALSE(fs::exists(dir)) << "an abandoned set removes its temporaries and the folder it created";
    {
        OutputSet set(dir, {"a.txt"}, false);
        std::ofstream(set.temp_path("a.txt")) << "x";
        set.commit();
    }
    EXPECT_TRUE(fs::exists(fs::path(dir) / "a.txt"));
    EXPECT_THROW(OutputSet(dir, {"a.txt"}, false), std::runtime_error);
    EXPECT_NO_THROW(OutputSet(dir, {"a.txt"}, true));
    EXPECT_TRUE(fs::exists(fs::path(dir) / "a.txt")) << "an abandoned --force run keeps the old output";
}

TEST(OutputSet, UncreatableFolderIsAnError) {
    TempDir tmp;
    std::ofstream(tmp.path / "file") << "x";
    try {
        OutputSet set((tmp.path / "file" / "sub").string(), {"a"}, false);
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("--out"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace app
