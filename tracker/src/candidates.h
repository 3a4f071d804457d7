#pragma once
// Where signs can be: a cheap pass over the frame that finds regions of sign paint, so detection swarms start
// around them instead of spread over the whole frustum. A 20 px sign covers 0.1 % of a 816x480 frame, far too
// little for a swarm over the frustum to land on by chance; a region of red or blue paint of about a sign's
// size and shape is where a swarm should look.
#include <vector>

#include <opencv2/core.hpp>

#include "tracker/types.h"

namespace tracker {

class RegionRanker;

struct Candidate {
    cv::Rect box;          // pixels, the painted region's bounding box
    ColourClass colour;    // Red or Blue: which models it can be
    float score = 0;       // the ranking: the ranker's score, or without one the mean paint strength in [0, 1]
};

struct CandidateOptions {
    int max_candidates = 24; // the best-scored regions kept (0: none)
    int min_side_px = 6;     // smaller regions are noise, not signs
    double max_side_share = 0.4; // of the frame's height: larger regions are walls, boards, sky
    bool faces = false;          // also the signs about bright upright triangles (danger signs' faces)
    bool above = true;           // also the sign standing on each red sign-shaped region (a triangle over a disc)
    // Ranks the regions when set (tracker/region_ranker.h); it scores at most rank_pool regions, the ones of
    // strongest paint, which bounds a frame's time on the most cluttered frames.
    const RegionRanker* ranker = nullptr;
    int rank_pool = 3000;
};

// Paint strength maps in [0, 255]: how much redder (bluer) a pixel is than its other channels, relative to
// its brightness, after scaling the channels by `balance` (b, g, r; common/colour_math.h, grey_world_gains) and,
// where given, each pixel by its local exposure gain (`exposure`, CV_32F, the frame's size; preprocess.h).
// Unlike hue-and-saturation classes, the ratio keeps a shaded or faded sign's weak colour above its grey
// surroundings.
void paint_maps(const cv::Mat& bgr, cv::Mat& red, cv::Mat& blue, const cv::Vec3f& balance = cv::Vec3f(1, 1, 1),
                const cv::Mat& exposure = cv::Mat());

// The frame's grey-world white balance gains (b, g, r), as the colour classes use them.
cv::Vec3f frame_balance(const cv::Mat& bgr);

// Regions with their overlaps merged: largest first, a region overlapping a kept one by more than `iou` (the
// first kept one it does) folds into it, which takes the better score of the two; so of a ring's outer region and
// its disc the outer one stays.
std::vector<Candidate> merge_overlaps(std::vector<Candidate> found, double iou);

// The scale at which find_candidates looks for regions in a frame `cols` pixels across: 1 up to 832 px, above
// that the frame is shrunk to 832 px (the search's time grows faster than the pixel count on noisy frames, and a
// sign small enough to vanish at that width is too small to track).
double region_search_scale(int cols);

// Candidate regions, best first: maximally stable extremal regions of the paint maps (the ring, the disc or
// the border of a sign is a region that keeps its shape over a wide range of thresholds) and, with `faces`, the
// signs about the bright upright triangles of the brightness (a danger sign's white face where its rim lost its
// paint), with `above` the box where a sign mounted on each red sign-shaped region would be, filtered by size and
// aspect, overlaps merged, ranked by the ranker when there is one.
std::vector<Candidate> find_candidates(const cv::Mat& bgr, const CandidateOptions& options);

} // namespace tracker
