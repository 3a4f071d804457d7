// What a frame's detections change in the tracks (track_admission.h): parts of a sign against the whole sign.
#include <gtest/gtest.h>

#include "track_admission.h"

namespace tracker {
namespace {

// A find of `category` whose outline is the square box at (x, y) of side `side`, at depth `z`.
Track find(Category category, float x, float y, float side, double fitness, double z = 10.0) {
    Track t;
    t.category = category;
    t.model = static_cast<int>(category);
    t.pose = {x, y, z, 0, 0, 0};
    t.fitness = fitness;
    t.peak_fitness = fitness;
    t.box = cv::Rect2f(x, y, side, side);
    t.outline = {{x, y}, {x + side, y}, {x + side, y + side}, {x, y + side}};
    return t;
}

// asked: the number of detections the verifier was asked about; batches: each batch's size, in order.
std::vector<Track> admit(std::vector<Track> fresh, std::vector<Track> tracks = {}, int* asked = nullptr,
                         std::vector<std::size_t>* batches = nullptr) {
    admit_detections(
        std::move(fresh), tracks, 0.3,
        [asked, batches](const std::vector<const Track*>& finds) {
            if (asked != nullptr) {
                *asked += static_cast<int>(finds.size());
            }
            if (batches != nullptr) {
                batches->push_back(finds.size());
            }
            return std::vector<bool>(finds.size(), true);
        },
        [](Track& t) { t.box = cv::Rect2f(static_cast<float>(t.pose[0]), static_cast<float>(t.pose[1]), 40, 40); });
    return tracks;
}

TEST(TrackAdmission, APartInsideALargerFindThatFitsNearlyAsWellIsDropped) {
    // A danger sign 40 px wide and a triangle fitted to one of its corners, 16 px, fitting a little better.
    const auto tracks = admit({find(Category::Danger, 100, 100, 16, 0.70), find(Category::Danger, 96, 96, 40, 0.62)});
    ASSERT_EQ(tracks.size(), 1u);
    EXPECT_FLOAT_EQ(tracks[0].box.width, 40.f);
}

TEST(TrackAdmission, AWholeSignFittingUpToAFifthWorseThanItsPartIsTheSign) {
    // A blue disc's pictogram fitted as a small disc at 0.73 and the whole, partly occluded sign at 0.57.
    const auto tracks =
        admit({find(Category::Mandatory, 100, 100, 15, 0.73), find(Category::Mandatory, 95, 95, 28, 0.57)});
    ASSERT_EQ(tracks.size(), 1u);
    EXPECT_FLOAT_EQ(tracks[0].box.width, 28.f);
}

TEST(TrackAdmission, AFarWorseLargerFindDoesNotTakeThePartsPlace) {
    // The larger find fits 0.3 worse: it is the duplicate, the smaller find stays (as before parts were known).
    const auto tracks = admit({find(Category::Danger, 100, 100, 16, 0.70), find(Category::Danger, 96, 96, 40, 0.40)});
    ASSERT_EQ(tracks.size(), 1u);
    EXPECT_FLOAT_EQ(tracks[0].box.width, 16.f);
}

TEST(TrackAdmission, ASmallSignOfAnotherCategoryOrBesideTheLargeOneIsNoPart) {
    const auto other = admit({find(Category::Mandatory, 100, 100, 16, 0.70), find(Category::Danger, 96, 96, 40, 0.62)});
    EXPECT_EQ(other.size(), 1u); // same_sign: the smaller lies inside the larger, the better fit is kept
    EXPECT_EQ(other[0].category, Category::Mandatory);
    const auto beside = admit({find(Category::Danger, 140, 100, 16, 0.70), find(Category::Danger, 96, 96, 40, 0.62)});
    EXPECT_EQ(beside.size(), 2u);
}

TEST(TrackAdmission, ATrackOfAPartMovesToTheWholeSignAndKeepsItsId) {
    Track part = find(Category::Danger, 100, 100, 16, 0.70);
    part.id = 7;
    int asked = 0;
    const auto tracks = admit({find(Category::Danger, 96, 96, 40, 0.65, 8.0)}, {part}, &asked);
    ASSERT_EQ(tracks.size(), 1u);
    EXPECT_EQ(tracks[0].id, 7);
    EXPECT_DOUBLE_EQ(tracks[0].pose[2], 8.0);
    EXPECT_FLOAT_EQ(tracks[0].box.width, 40.f);
    EXPECT_EQ(asked, 1);
}

TEST(TrackAdmission, TheVerifierIsAskedAboutNewSignsInOneBatch) {
    // Three new signs and a detection of a tracked sign's model on it that changes nothing: one batch of three.
    const Track tracked = find(Category::Danger, 100, 100, 40, 0.9);
    int asked = 0;
    std::vector<std::size_t> batches;
    const auto tracks = admit({find(Category::Danger, 101, 99, 40, 0.7), find(Category::Danger, 300, 100, 40, 0.6),
                               find(Category::Mandatory, 500, 100, 40, 0.8), find(Category::Stop, 700, 100, 40, 0.5)},
                              {tracked}, &asked, &batches);
    EXPECT_EQ(tracks.size(), 4u);
    EXPECT_EQ(asked, 3);
    EXPECT_EQ(batches, (std::vector<std::size_t>{3}));
}

TEST(TrackAdmission, ASignTheVerifierTurnsAwayStartsNoTrack) {
    std::vector<Track> tracks;
    admit_detections(
        {find(Category::Danger, 100, 100, 40, 0.7), find(Category::Mandatory, 300, 100, 40, 0.6)}, tracks, 0.3,
        [](const std::vector<const Track*>& finds) {
            std::vector<bool> ok;
            for (const Track* t : finds) {
                ok.push_back(t->category == Category::Mandatory);
            }
            return ok;
        },
        [](Track&) {});
    ASSERT_EQ(tracks.size(), 1u);
    EXPECT_EQ(tracks[0].category, Category::Mandatory);
}

TEST(TrackAdmission, LikelyVerifiedAreTheFindsNoTrackOfTheirModelCovers) {
    const std::vector<Track> tracks = {find(Category::Danger, 100, 100, 40, 0.7)};
    const std::vector<Track> fresh = {find(Category::Danger, 101, 99, 40, 0.72),    // the track's sign again
                                      find(Category::Mandatory, 100, 100, 40, 0.8), // another model on it
                                      find(Category::Danger, 300, 100, 40, 0.6)};   // a new sign
    EXPECT_EQ(likely_verified(fresh, tracks, 0.3), (std::vector<std::size_t>{1, 2}));
    EXPECT_EQ(likely_verified(fresh, {}, 0.3), (std::vector<std::size_t>{0, 1, 2}));
}

} // namespace
} // namespace tracker
