// How tracks end (track_update.h, prune_tracks): after the verifier's refusals (TrackingSettings::verifier_refusals)
// unless it vouched for the track before; and which are reported on a frame the verifier refuses them (reported).
#include <gtest/gtest.h>

#include "track_update.h"

namespace tracker {
namespace {

// A confirmed track with a square outline at (x, y), on the image, matched this frame.
Track track_at(float x, float y, int refusals, bool vouched) {
    Track t;
    t.id = 1;
    t.pose = {0, 0, 20, 0, 0, 0};
    t.hits = 10;
    t.box = cv::Rect2f(x, y, 30, 30);
    t.outline = {{x, y}, {x + 30, y}, {x + 30, y + 30}, {x, y + 30}};
    t.refusals = refusals;
    t.vouched = vouched;
    return t;
}

std::size_t kept(std::vector<Track> tracks, int verifier_refusals) {
    TrackerSettings s;
    s.tracking.verifier_refusals = verifier_refusals;
    prune_tracks(tracks, s, cv::Rect2f(0, 0, 640, 360));
    return tracks.size();
}

TEST(TrackRefusals, AnUnvouchedTrackEndsAtTheRefusalCount) {
    EXPECT_EQ(kept({track_at(10, 10, 2, false)}, 3), 1u);
    EXPECT_EQ(kept({track_at(10, 10, 3, false)}, 3), 0u);
    EXPECT_EQ(kept({track_at(10, 10, 3, false), track_at(200, 10, 0, false)}, 3), 1u);
}

TEST(TrackRefusals, AVouchedTrackOutlivesAnyRefusals) {
    // An occluder in front of a sign the verifier read as one for frames on end.
    EXPECT_EQ(kept({track_at(10, 10, 12, true)}, 3), 1u);
}

TEST(TrackRefusals, ZeroTurnsTheRuleOff) { EXPECT_EQ(kept({track_at(10, 10, 50, false)}, 0), 1u); }

bool reported_with(const Track& t, int verifier_refusals) {
    TrackerSettings s;
    s.tracking.verifier_refusals = verifier_refusals;
    return reported(t, s);
}

TEST(TrackReport, AnUnvouchedTrackIsNotReportedOnAFrameTheVerifierRefusesIt) {
    EXPECT_TRUE(reported_with(track_at(10, 10, 0, false), 3));
    EXPECT_FALSE(reported_with(track_at(10, 10, 1, false), 3)); // kept (prune_tracks) until the third refusal
    EXPECT_FALSE(reported_with(track_at(10, 10, 2, false), 3));
}

TEST(TrackReport, AVouchedTrackIsReportedWhateverTheVerifierReadsNow) {
    EXPECT_TRUE(reported_with(track_at(10, 10, 4, true), 3)); // an occluder passing in front of a sign
}

TEST(TrackReport, OnlyConfirmedTracksMatchedThisFrame) {
    Track unconfirmed = track_at(10, 10, 0, false);
    unconfirmed.id = -1;
    Track coasting = track_at(10, 10, 0, true);
    coasting.missed = 1;
    EXPECT_FALSE(reported_with(unconfirmed, 3));
    EXPECT_FALSE(reported_with(coasting, 3));
}

TEST(TrackReport, WithoutTheRereadingsEveryMatchedTrackIsReported) {
    EXPECT_TRUE(reported_with(track_at(10, 10, 1, false), 0));
}

TEST(TrackReport, AFitOfPointSevenOrMoreIsReportedWhateverTheVerifierReadsNow) {
    Track sure = track_at(10, 10, 1, false);
    sure.fitness = 0.7;
    Track clutter = sure;
    clutter.fitness = 0.65; // the foliage of the real-appearance scene fits at 0.60-0.67
    EXPECT_TRUE(reported_with(sure, 3));
    EXPECT_FALSE(reported_with(clutter, 3));
}

TEST(TrackReport, OnByDefaultAndOffWithHideRefusedFalse) {
    EXPECT_FALSE(reported(track_at(10, 10, 2, false), TrackerSettings{}));
    TrackerSettings off;
    off.tracking.hide_refused = false;
    EXPECT_TRUE(reported(track_at(10, 10, 2, false), off));
}

} // namespace
} // namespace tracker
