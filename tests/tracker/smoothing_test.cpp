// Offline angle smoothing (tracker/smoothing.h): the two-sided weighted mean of a track's measured angles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "tracker/smoothing.h"

namespace tracker {
namespace {

Detection measured(long long frame, int track, double yaw, double pitch, double roll, double weight) {
    Detection d;
    d.frame = frame;
    d.track_id = track;
    d.pose = Pose{1.0, -1.0, 20.0, 0.0, 0.0, 0.0}; // online angles: what a running average had not yet found
    d.box = cv::Rect2f(10.f, 20.f, 30.f, 30.f);
    d.measured_angles = {yaw, pitch, roll};
    d.angle_evidence = weight;
    return d;
}

// The formula by hand: two measurements 10 frames apart, memory 0.5, prior 0 at weight 100.
TEST(SmoothTrackAngles, TwoSidedWeightedMeanWithPrior) {
    TrackerSettings s;
    s.tracking.angle_memory = 0.5;
    s.tracking.angle_prior_px = 10;
    std::vector<Detection> d = {measured(0, 1, 4.0, 1.0, -2.0, 400.0), measured(10, 1, 10.0, 3.0, 2.0, 900.0)};
    smooth_track_angles(d, s);
    const double k = std::pow(0.5, 10);
    EXPECT_NEAR(d[0].pose.yaw, (400 * 4.0 + k * 900 * 10.0) / (400 + k * 900 + 100), 1e-12);
    EXPECT_NEAR(d[1].pose.yaw, (k * 400 * 4.0 + 900 * 10.0) / (k * 400 + 900 + 100), 1e-12);
    EXPECT_NEAR(d[1].pose.pitch, (k * 400 * 1.0 + 900 * 3.0) / (k * 400 + 900 + 100), 1e-12);
    EXPECT_NEAR(d[0].pose.roll, (400 * -2.0 + k * 900 * 2.0) / (400 + k * 900 + 100), 1e-12);
    // Only the angles change.
    EXPECT_EQ(d[0].pose.x, 1.0);
    EXPECT_EQ(d[0].pose.z, 20.0);
    EXPECT_EQ(d[0].box, cv::Rect2f(10.f, 20.f, 30.f, 30.f));
}

// A sign approaching with a constant yaw of 8 degrees: far frames measure it badly (a weak weight), near ones
// well. The early frames' smoothed yaw comes from the near frames, the way the online average cannot.
TEST(SmoothTrackAngles, EarlyFramesBorrowTheNearFramesEvidence) {
    TrackerSettings s; // angle_memory 0.97, angle_prior_px 60: the defaults
    std::vector<Detection> d;
    std::mt19937 rng(7);
    std::normal_distribution<double> unit(0.0, 1.0);
    for (int f = 0; f < 80; ++f) {
        const double size_px = 16.0 * 40.0 / (40.0 - 0.4 * f); // 16 -> 80 px
        const double noise = 60.0 / size_px;                   // degrees: 3.75 far, 0.75 near
        // One draw per statement: the order in which a call's arguments are evaluated is the compiler's.
        const double yaw = 8.0 + noise * unit(rng);
        const double pitch = noise * unit(rng);
        const double roll = 0.5 * noise * unit(rng);
        d.push_back(measured(f, 3, yaw, pitch, roll, size_px * size_px));
    }
    smooth_track_angles(d, s);
    for (int f = 0; f < 10; ++f) {
        EXPECT_NEAR(d[static_cast<std::size_t>(f)].pose.yaw, 8.0, 1.5) << "frame " << f;
    }
    EXPECT_NEAR(d.back().pose.yaw, 8.0, 1.0);
}

TEST(SmoothTrackAngles, LeavesUntrackedAndUnmeasuredDetectionsAlone) {
    TrackerSettings s;
    std::vector<Detection> d = {measured(0, -1, 9.0, 9.0, 9.0, 1000.0), measured(0, 2, 9.0, 9.0, 9.0, 0.0),
                                measured(1, 2, 9.0, 9.0, 9.0, 0.0)};
    d[1].pose.yaw = 3.0;
    smooth_track_angles(d, s);
    EXPECT_EQ(d[0].pose.yaw, 0.0); // no track: nothing to smooth over
    EXPECT_EQ(d[1].pose.yaw, 3.0); // a track without one measurement keeps its online angles
    EXPECT_EQ(d[2].pose.yaw, 0.0);
}

// Tracks are smoothed separately, and the input order does not matter.
TEST(SmoothTrackAngles, TracksAreIndependentAndOrderFree) {
    TrackerSettings s;
    std::vector<Detection> d;
    for (int f = 0; f < 20; ++f) {
        d.push_back(measured(f, 1, 5.0, 0.0, 0.0, 3600.0));
        d.push_back(measured(f, 2, -7.0, 0.0, 0.0, 3600.0));
    }
    std::vector<Detection> shuffled = d;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(3));
    smooth_track_angles(d, s);
    smooth_track_angles(shuffled, s);
    for (const auto& a : d) {
        EXPECT_NEAR(a.pose.yaw, a.track_id == 1 ? 5.0 : -7.0, 0.6); // the prior at 0 pulls a little
        const auto b = std::find_if(shuffled.begin(), shuffled.end(), [&](const Detection& x) {
            return x.frame == a.frame && x.track_id == a.track_id;
        });
        ASSERT_NE(b, shuffled.end());
        EXPECT_DOUBLE_EQ(b->pose.yaw, a.pose.yaw);
    }
}

} // namespace
} // namespace tracker
