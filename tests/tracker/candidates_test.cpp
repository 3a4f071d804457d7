// Candidate regions and their swarm jobs: painted discs and triangles of a sign's size are found where they are,
// with their colour, touching pairs one by one; grey texture, tiny specks and long bars are not; a region's job
// box contains the pose that projects the model onto it.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "candidate_jobs.h"
#include "candidates.h"
#include "tracker/eval.h"
#include "tracker/model.h"
#include "tracker/pose.h"

namespace tracker {
namespace {

cv::Mat grey_frame() {
    cv::Mat f(240, 320, CV_8UC3, cv::Scalar(110, 115, 120));
    cv::randn(f, cv::Scalar(110, 115, 120), cv::Scalar(6, 6, 6));
    return f;
}

const Candidate* near(const std::vector<Candidate>& cs, cv::Point centre, int size, ColourClass colour) {
    for (const auto& c : cs) {
        const cv::Point cc(c.box.x + c.box.width / 2, c.box.y + c.box.height / 2);
        if (c.colour == colour && cv::norm(cc - centre) < 0.3 * size && c.box.width > 0.7 * size &&
            c.box.width < 1.4 * size) {
            return &c;
        }
    }
    return nullptr;
}

TEST(Candidates, FindsRedRingAndBlueDiscWhereTheyAre) {
    cv::Mat f = grey_frame();
    cv::circle(f, {80, 100}, 12, cv::Scalar(40, 40, 200), cv::FILLED);  // red ring ...
    cv::circle(f, {80, 100}, 8, cv::Scalar(240, 240, 240), cv::FILLED); // ... round a white disc
    cv::circle(f, {220, 140}, 15, cv::Scalar(200, 90, 20), cv::FILLED); // blue disc
    CandidateOptions o;
    const auto cs = find_candidates(f, o);
    EXPECT_NE(near(cs, {80, 100}, 25, ColourClass::Red), nullptr);
    EXPECT_NE(near(cs, {220, 140}, 31, ColourClass::Blue), nullptr);
    for (const auto& c : cs) {
        EXPECT_GE(c.score, 0.f);
        EXPECT_LE(c.score, 1.f);
    }
}

TEST(Candidates, IgnoresGreyTextureSpecksAndBars) {
    cv::Mat f = grey_frame();
    cv::circle(f, {60, 60}, 2, cv::Scalar(40, 40, 200), cv::FILLED);          // a speck below min_side_px
    cv::rectangle(f, {150, 100}, {300, 110}, cv::Scalar(40, 40, 200), cv::FILLED); // a long red bar
    CandidateOptions o;
    for (const auto& c : find_candidates(f, o)) {
        EXPECT_GE(std::min(c.box.width, c.box.height), o.min_side_px);
        EXPECT_LE(std::max(c.box.width, c.box.height), 2 * std::min(c.box.width, c.box.height));
    }
}

// Signs mounted one above the other whose rims touch make one tall region of paint; each sign must still be a
// candidate of its own size (so must two side by side).
TEST(Candidates, SplitsTouchingSignsIntoOneCandidateEach) {
    // Fainter noise than grey_frame's: at its level the pair's region takes in a few noise pixels around it.
    cv::Mat f(240, 320, CV_8UC3);
    cv::RNG rng(3);
    rng.fill(f, cv::RNG::NORMAL, cv::Scalar(110, 115, 120), cv::Scalar(3, 3, 3));
    for (const cv::Point c : {cv::Point(80, 70), cv::Point(80, 94), cv::Point(200, 160), cv::Point(224, 160)}) {
        cv::circle(f, c, 12, cv::Scalar(40, 40, 200), cv::FILLED);
        cv::circle(f, c, 8, cv::Scalar(240, 240, 240), cv::FILLED);
    }
    const auto cs = find_candidates(f, CandidateOptions{});
    for (const cv::Point c : {cv::Point(80, 70), cv::Point(80, 94), cv::Point(200, 160), cv::Point(224, 160)}) {
        EXPECT_NE(near(cs, c, 25, ColourClass::Red), nullptr) << c;
    }
}

// A grey frame with a small sign at (92, 100): a rim of `rim` about an interior of `interior`, the rim touching clutter
// of its own colour on its right (a brick wall beside it). Whether a red candidate region frames the sign.
bool finds_sign_beside_clutter(const cv::Scalar& rim, const cv::Scalar& interior) {
    cv::Mat f = grey_frame();
    cv::rectangle(f, {99, 93}, {160, 107}, rim, cv::FILLED);
    cv::circle(f, {92, 100}, 7, rim, cv::FILLED);
    cv::circle(f, {92, 100}, 5, interior, cv::FILLED);
    const cv::Rect2f sign(85, 93, 15, 15);
    const auto cs = find_candidates(f, CandidateOptions{});
    return std::any_of(cs.begin(), cs.end(), [&](const Candidate& c) {
        return c.colour == ColourClass::Red && region_frames_sign(cv::Rect2f(c.box), sign);
    });
}

// A small sign whose thin red ring touches red clutter: ring and clutter are one region, far too long for a sign, so
// only the white disc inside, a hole in the paint, says where the sign is.
TEST(Candidates, FindsTheSmallSignAroundAHoleInRedClutter) {
    EXPECT_TRUE(finds_sign_beside_clutter(cv::Scalar(40, 40, 200), cv::Scalar(240, 240, 240)));
}

// A small sign in haze or dusk: its rim is faint, pink on grey. Its interior, grey in the haze, is a hole in the paint
// all the same, though the band about it holds only a little more paint than its middle: with this rim, between 0.1
// and 0.25 of the paint map's range more.
TEST(Candidates, FindsTheSignAroundAHoleInAFaintRim) {
    EXPECT_TRUE(finds_sign_beside_clutter(cv::Scalar(100, 105, 150), cv::Scalar(170, 170, 170)));
}

// A grey frame with a sign at (160, 120) whose rim paint the dusk took: a `rim` border about a lighter grey face,
// both painted in neither sign colour; `triangle`: a danger sign (apex up), else a disc. Whether a candidate region
// frames it, with the face regions on or off.
bool finds_paintless_sign(bool triangle, bool faces) {
    cv::Mat f(240, 320, CV_8UC3);
    cv::RNG rng(5);
    rng.fill(f, cv::RNG::NORMAL, cv::Scalar(60, 62, 64), cv::Scalar(3, 3, 3));
    const cv::Scalar rim(82, 80, 84), face(165, 165, 165);
    cv::Rect2f sign;
    if (triangle) {
        const auto shape = [](double side) {
            const double h = side * std::sqrt(3.0) / 2;
            // apex up, its centroid at (160, 120)
            return std::vector<cv::Point>{{160, cvRound(120 - 2 * h / 3)}, {cvRound(160 + side / 2), cvRound(120 + h / 3)},
                                          {cvRound(160 - side / 2), cvRound(120 + h / 3)}};
        };
        const auto outer = shape(30), inner = shape(19);
        cv::fillConvexPoly(f, outer, rim, cv::LINE_AA);
        cv::fillConvexPoly(f, inner, face, cv::LINE_AA);
        sign = cv::Rect2f(cv::boundingRect(outer));
    } else {
        cv::circle(f, {160, 120}, 14, rim, cv::FILLED, cv::LINE_AA);
        cv::circle(f, {160, 120}, 9, face, cv::FILLED, cv::LINE_AA);
        sign = cv::Rect2f(146, 106, 29, 29);
    }
    CandidateOptions o;
    o.faces = faces;
    o.max_candidates = 5000; // every region: without a ranker, a face in a paintless rim ranks by its (nil) paint
    const auto cs = find_candidates(f, o);
    return std::any_of(cs.begin(), cs.end(), [&](const Candidate& c) {
        return c.colour == ColourClass::Red && region_frames_sign(cv::Rect2f(c.box), sign);
    });
}

// At dusk a danger sign's rim is dark grey, no paint, and only its white face says where the sign is.
TEST(Candidates, FindsADuskDangerSignByItsFace) {
    EXPECT_TRUE(finds_paintless_sign(true, true));
    EXPECT_FALSE(finds_paintless_sign(true, false));
}

// Round bright things (headlights, hubs, windows) are everywhere: a round face alone is no candidate.
TEST(Candidates, LeavesRoundFacesWithoutPaintAlone) {
    EXPECT_FALSE(finds_paintless_sign(false, true));
}

// A danger sign on a post above a speed limit, at dusk: the disc's red ring is clear, the triangle's rim grey. The
// square standing on the disc, 1.5 times its width, frames the triangle, and only with `above`.
bool finds_the_sign_above_a_disc(bool above) {
    cv::Mat f(240, 320, CV_8UC3);
    cv::RNG rng(6);
    rng.fill(f, cv::RNG::NORMAL, cv::Scalar(60, 62, 64), cv::Scalar(3, 3, 3));
    cv::circle(f, {160, 150}, 10, cv::Scalar(40, 40, 200), cv::FILLED, cv::LINE_AA);
    cv::circle(f, {160, 150}, 7, cv::Scalar(230, 230, 230), cv::FILLED, cv::LINE_AA);
    const std::vector<cv::Point> outer{{160, 114}, {175, 140}, {145, 140}}, inner{{160, 121}, {170, 137}, {150, 137}};
    cv::fillConvexPoly(f, outer, cv::Scalar(82, 80, 84), cv::LINE_AA);
    cv::fillConvexPoly(f, inner, cv::Scalar(165, 165, 165), cv::LINE_AA);
    const cv::Rect2f sign(cv::boundingRect(outer));
    CandidateOptions o;
    o.above = above;
    o.max_candidates = 5000;
    const auto cs = find_candidates(f, o);
    return std::any_of(cs.begin(), cs.end(), [&](const Candidate& c) {
        return c.colour == ColourClass::Red && region_frames_sign(cv::Rect2f(c.box), sign);
    });
}

TEST(Candidates, ProposesTheSignMountedAboveADisc) {
    EXPECT_TRUE(finds_the_sign_above_a_disc(true));
    EXPECT_FALSE(finds_the_sign_above_a_disc(false));
}

TEST(Candidates, KeepsAtMostTheBestScored) {
    cv::Mat f = grey_frame();
    for (int i = 0; i < 6; ++i) {
        cv::circle(f, {30 + 50 * i, 120}, 10, cv::Scalar(40, 40, 60 + 30 * i), cv::FILLED); // redder to the right
    }
    CandidateOptions o;
    o.max_candidates = 3;
    const auto cs = find_candidates(f, o);
    ASSERT_LE(cs.size(), 3u);
    for (std::size_t i = 1; i < cs.size(); ++i) {
        EXPECT_GE(cs[i - 1].score, cs[i].score);
    }
    o.max_candidates = 0;
    EXPECT_TRUE(find_candidates(f, o).empty());
}

// The merge as its contract says it, comparing every pair.
std::vector<Candidate> merged_by_all_pairs(std::vector<Candidate> found, double iou) {
    std::sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) { return a.box.area() > b.box.area(); });
    std::vector<Candidate> kept;
    for (const auto& c : found) {
        auto same = std::find_if(kept.begin(), kept.end(), [&](const Candidate& k) {
            return box_iou(cv::Rect2f(k.box), cv::Rect2f(c.box)) > iou;
        });
        if (same == kept.end()) {
            kept.push_back(c);
        } else {
            same->score = std::max(same->score, c.score);
        }
    }
    return kept;
}

TEST(Candidates, MergesOverlapsAsComparingEveryPair) {
    cv::RNG rng(21);
    std::vector<Candidate> found;
    for (int i = 0; i < 600; ++i) {
        // Clusters of near-duplicates (a ring's nested regions) and lone regions, 2 to 200 px, some at the origin.
        const int x = i % 3 == 0 ? rng.uniform(0, 40) : rng.uniform(0, 800);
        const int y = i % 3 == 0 ? rng.uniform(0, 40) : rng.uniform(0, 460);
        const int w = rng.uniform(2, i % 10 == 0 ? 200 : 30);
        const int h = std::max(2, w + rng.uniform(-3, 4));
        found.push_back({cv::Rect(x, y, w, h), i % 2 ? ColourClass::Red : ColourClass::Blue, rng.uniform(0.f, 1.f)});
    }
    for (double iou : {0.5, 0.8}) {
        const auto expected = merged_by_all_pairs(found, iou);
        const auto merged = merge_overlaps(found, iou);
        ASSERT_EQ(merged.size(), expected.size()) << "iou " << iou;
        EXPECT_LT(merged.size(), found.size()) << "the clusters merge";
        for (std::size_t i = 0; i < merged.size(); ++i) {
            EXPECT_EQ(merged[i].box, expected[i].box) << i;
            EXPECT_EQ(merged[i].score, expected[i].score) << i;
        }
    }
    EXPECT_TRUE(merge_overlaps({}, 0.5).empty());
}

TEST(Candidates, PaintMapsSeeShadedRedAboveGrey) {
    // A sign's red in deep shade (35, 19, 19 as r, g, b) against grey of the same brightness.
    cv::Mat f(1, 2, CV_8UC3);
    f.at<cv::Vec3b>(0, 0) = cv::Vec3b(19, 19, 35);
    f.at<cv::Vec3b>(0, 1) = cv::Vec3b(30, 31, 30);
    cv::Mat red, blue;
    paint_maps(f, red, blue);
    EXPECT_GT(red.at<std::uint8_t>(0, 0), 3 * red.at<std::uint8_t>(0, 1) + 10);
    EXPECT_EQ(blue.at<std::uint8_t>(0, 0), 0);
}

TEST(CandidateJobs, BoxHoldsThePoseThatProjectsTheModelOntoTheRegion) {
    const auto models = load_sign_models("", {Category::Prohibitory, Category::Mandatory, Category::Danger});
    const Camera cam = Camera::from_fov(816, 480, 60);
    Pose truth;
    truth.x = 1.5;
    truth.y = -0.8;
    truth.z = 20;
    PoseSpace space;
    space.active = {true, true, true, false, false, false};
    std::vector<double> lo, hi;
    frustum_bounds(Frustum{}, cam, space, lo, hi);
    for (std::size_t m = 0; m < models.size(); ++m) {
        const cv::Rect2f box = bounding_box(project_points(cam, truth, models[m].outline));
        const Candidate region{cv::Rect(box), rim_colour(models[m]), 0.5f};
        const auto jobs = candidate_jobs({region}, models, cam, lo, hi, 5, 60);
        const std::size_t same_colour = static_cast<std::size_t>(
            std::count_if(models.begin(), models.end(), [&](const SignModel& k) { return rim_colour(k) == region.colour; }));
        ASSERT_EQ(jobs.size(), same_colour) << "one job per model of the region's colour";
        bool holds = false;
        for (const auto& j : jobs) {
            if (j.target.model != static_cast<int>(m)) {
                continue;
            }
            const std::vector<double> p = space.to_vector(truth);
            holds = true;
            for (std::size_t k = 0; k < 3; ++k) {
                holds = holds && p[k] >= j.lower[k] && p[k] <= j.upper[k];
            }
        }
        EXPECT_TRUE(holds) << to_string(models[m].category);
    }
}

TEST(CandidateJobs, BestJobsAreTheHighestProbeFitness) {
    std::vector<SwarmOutcome> probe(5);
    const double f[5] = {0.2, 0.9, 0.5, 0.7, 0.1};
    for (int i = 0; i < 5; ++i) {
        probe[static_cast<std::size_t>(i)].fitness = f[i];
    }
    EXPECT_EQ(best_jobs(probe, {}, 3), (std::vector<std::size_t>{1, 3, 2}));
    EXPECT_EQ(best_jobs(probe, {}, 10).size(), 5u);
}

// A tail light's regions pair with every red model and outfit a sign's first guess; the sign's job still gets a
// slot, and the light's extra jobs come after every other place's.
TEST(CandidateJobs, BestJobsSpreadOverPlaces) {
    const cv::Rect2f light(100, 100, 20, 20), light_glow(98, 98, 24, 24), sign(300, 50, 30, 30);
    // job: 0-3 the light's region with models 0-3, 4 its glow's with model 0, 5 the sign with model 3.
    const std::vector<ProbePlace> places = {{light, 0}, {light, 1}, {light, 2}, {light, 3}, {light_glow, 0}, {sign, 3}};
    const double f[6] = {0.9, 0.85, 0.8, 0.75, 0.88, 0.6};
    std::vector<SwarmOutcome> probe(6);
    for (std::size_t i = 0; i < 6; ++i) {
        probe[i].fitness = f[i];
    }
    EXPECT_EQ(best_jobs(probe, {}, 3), (std::vector<std::size_t>{0, 4, 1})) << "by fitness alone the light takes all";
    EXPECT_EQ(best_jobs(probe, places, 3), (std::vector<std::size_t>{0, 1, 5}));
    EXPECT_EQ(best_jobs(probe, places, 6), (std::vector<std::size_t>{0, 1, 5, 4, 2, 3})) << "then the rest, by fitness";
}

// A whole sign around a part of it that probed better is another place, not the part's repeat: its job is not held
// back behind the other places' jobs as a second guess at the part would be.
TEST(CandidateJobs, AWholeSignAroundItsPartIsAnotherPlace) {
    const cv::Rect2f part(663, 209, 23, 23), whole(657, 207, 30, 30), lamp(100, 100, 20, 20);
    const cv::Rect2f part_again(664, 209, 23, 23);
    // job: 0 the part with model 2, 1 the whole sign with model 2, 2-3 the lamp with models 0 and 1.
    std::vector<ProbePlace> places = {{part, 2}, {whole, 2}, {lamp, 0}, {lamp, 1}};
    const double f[4] = {0.72, 0.71, 0.7, 0.69};
    std::vector<SwarmOutcome> probe(4);
    for (std::size_t i = 0; i < 4; ++i) {
        probe[i].fitness = f[i];
    }
    EXPECT_EQ(best_jobs(probe, places, 2), (std::vector<std::size_t>{0, 1}));
    places[1].box = part_again;
    EXPECT_EQ(best_jobs(probe, places, 2), (std::vector<std::size_t>{0, 2})) << "a second guess at the part waits";
}

// A faded sign probes under the clutter about it; the verifier takes its probe box for its category, so it gets one
// of the reserved slots in place of the last clutter job kept, and a second confirmed guess at the same place and
// model does not take another.
TEST(CandidateJobs, ConfirmedJobsTakeTheReservedSlots) {
    const cv::Rect2f lamp(100, 100, 20, 20), wall(300, 100, 20, 20), hedge(500, 100, 20, 20);
    const cv::Rect2f sign(700, 100, 20, 20), sign_again(701, 100, 20, 20), board(100, 300, 20, 20);
    // job: 0-2 clutter, 3 the faded sign, 4 a second guess at it, 5 a confirmed board, 6 more clutter.
    const std::vector<ProbePlace> places = {{lamp, 0}, {wall, 0},       {hedge, 0}, {sign, 1},
                                            {sign_again, 1}, {board, 2}, {lamp, 1}};
    const double f[7] = {0.9, 0.8, 0.7, 0.3, 0.29, 0.2, 0.1};
    std::vector<SwarmOutcome> probe(7);
    for (std::size_t i = 0; i < 7; ++i) {
        probe[i].fitness = f[i];
    }
    const std::vector<bool> confirmed = {false, false, false, true, true, true, false};
    EXPECT_EQ(best_jobs(probe, places, 3, confirmed, 0), (std::vector<std::size_t>{0, 1, 2})) << "no reserve";
    EXPECT_EQ(best_jobs(probe, places, 3, confirmed, 1), (std::vector<std::size_t>{0, 1, 3}));
    EXPECT_EQ(best_jobs(probe, places, 3, confirmed, 2), (std::vector<std::size_t>{0, 5, 3}))
        << "the second guess at the sign is no other place";
    EXPECT_EQ(best_jobs(probe, places, 3, confirmed, 5), (std::vector<std::size_t>{0, 5, 3})) << "only confirmed jobs";
    EXPECT_EQ(best_jobs(probe, places, 4, confirmed, 2), (std::vector<std::size_t>{0, 1, 5, 3}))
        << "a confirmed job kept by fitness keeps its slot";
}

// A job the verifier let in is searched about its probe's place: each bound shrinks to the share of its width
// about the probe's best, and stays inside the job's box where the probe sat near its edge.
TEST(CandidateJobs, NarrowJobKeepsTheSearchAboutTheProbe) {
    SwarmJob job{{-0.2, 0.0, 10.0}, {0.2, 0.1, 20.0}, {1, true}, {}, {}};
    SwarmJob narrowed = job;
    narrow_job(narrowed, {0.0, 0.05, 15.0}, 0.25);
    EXPECT_NEAR(narrowed.lower[0], -0.05, 1e-12);
    EXPECT_NEAR(narrowed.upper[0], 0.05, 1e-12);
    EXPECT_NEAR(narrowed.lower[1], 0.0375, 1e-12);
    EXPECT_NEAR(narrowed.upper[1], 0.0625, 1e-12);
    EXPECT_NEAR(narrowed.lower[2], 13.75, 1e-12);
    EXPECT_NEAR(narrowed.upper[2], 16.25, 1e-12);
    SwarmJob at_edge = job;
    narrow_job(at_edge, {0.2, 0.0, 10.5}, 0.25);
    EXPECT_NEAR(at_edge.lower[0], 0.1, 1e-12) << "the box slides inside, its width kept";
    EXPECT_NEAR(at_edge.upper[0], 0.2, 1e-12);
    EXPECT_NEAR(at_edge.lower[2], 10.0, 1e-12);
    EXPECT_NEAR(at_edge.upper[2], 12.5, 1e-12);
    SwarmJob whole = job;
    narrow_job(whole, {0.1, 0.02, 12.0}, 1.0);
    EXPECT_EQ(whole.lower, job.lower) << "share 1: the whole job box";
    EXPECT_EQ(whole.upper, job.upper);
    const std::vector<double> centre = job_centre(job);
    ASSERT_EQ(centre.size(), 3u);
    EXPECT_NEAR(centre[0], 0.0, 1e-12);
    EXPECT_NEAR(centre[1], 0.05, 1e-12);
    EXPECT_NEAR(centre[2], 15.0, 1e-12) << "the region's pose: the middle of the job's bounds";
}

} // namespace
} // namespace tracker
