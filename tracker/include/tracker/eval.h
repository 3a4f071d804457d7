#pragma once
// Scoring predictions against ground truth: per-frame greedy matching by box IoU within a category.
// A truth that is mostly hidden or tiny is "don't care": matching it is neither a hit nor a false alarm,
// missing it is not a miss. Rotation error of prohibitory rings is the angle between normals (a ring's
// roll about its normal is not observable).
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "tracker/io.h"

namespace tracker {

struct EvalSettings {
    double match_iou = 0.5;    // a prediction matches a truth box of its category above this IoU
    double min_visible = 0.6;  // truths less visible than this are don't-care
    double min_size_px = 14;   // truths whose box is smaller (max of width, height) are don't-care
    // Whether a truth counts (a hit or a miss) rather than being don't-care.
    bool counts(const GroundTruth& g) const {
        return g.visible >= min_visible && std::max(g.box.width, g.box.height) >= min_size_px;
    }
};

struct EvalCounts {
    long long tp = 0, fp = 0, fn = 0;
    std::vector<double> iou, centre_px, depth_pct, rotation_deg; // per true positive
    std::vector<double> depth_bias_pct; // signed: + when the sign is placed farther than it is (per true positive)
    double precision() const { return tp + fp > 0 ? static_cast<double>(tp) / static_cast<double>(tp + fp) : 1.0; }
    double recall() const { return tp + fn > 0 ? static_cast<double>(tp) / static_cast<double>(tp + fn) : 1.0; }
};

struct EvalReport {
    EvalCounts all;
    std::array<EvalCounts, k_category_count> per_category;
    long long frames = 0;        // frames in the ground truth
    long long timed_frames = 0;  // prediction frames carrying timing
    StageTiming mean_timing;
    double median_total_ms = 0;
};

EvalReport evaluate(const TruthFile& truth, const PredictionFile& pred, const EvalSettings& s = {});
// One frame's matching as `evaluate` does it: pairs of one category whose box IoU (the prediction's box clipped to
// `image`) is at least `min_iou`, taken best first, each truth and prediction used once. For each truth, the index
// of its prediction, or -1.
std::vector<int> match_frame(const std::vector<const GroundTruth*>& truth, const std::vector<const Detection*>& pred,
                             double min_iou, const cv::Rect2f& image = cv::Rect2f(0, 0, 1e9f, 1e9f));
double median(std::vector<double> v); // NaN when empty
double box_iou(const cv::Rect2f& a, const cv::Rect2f& b);

// The accuracy bars: recall, precision >= 98 %, median centre <= 1.5 px, depth <= 3 %, rotation <= 3 deg.
struct AccuracyBars {
    double recall = 0.98, precision = 0.98, centre_px = 1.5, depth_pct = 3.0, rotation_deg = 3.0;
};
// Empty when every bar is met, else one line per failed bar.
std::vector<std::string> failed_bars(const EvalCounts& c, const AccuracyBars& bars = {});

} // namespace tracker
