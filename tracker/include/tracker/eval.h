#pragma once
// Scoring predictions against ground truth: per-frame greedy matching by box IoU within a category.
// A truth that is mostly hidden or tiny is "don't care": matching it is neither a hit nor a false alarm,
// missing it is not a miss. Rotation error of prohibitory rings is the angle between normals (a ring's
// roll about its normal is not observable).
#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "tracker/io.h"
#include "tracker/labels.h"

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
// match_frame with its choices spelled out. by_fitness: predictions are taken in falling fitness, each to the
// free truth it overlaps best (the PASCAL VOC / COCO protocol, where the ranking is the detector's confidence);
// otherwise pairs are taken in falling IoU. any_category: a prediction may match a truth of another category.
struct MatchOptions {
    double min_iou = 0.5;
    cv::Rect2f image = cv::Rect2f(0, 0, 1e9f, 1e9f);
    bool by_fitness = false;
    bool any_category = false;
};
std::vector<int> match_frame(const std::vector<const GroundTruth*>& truth, const std::vector<const Detection*>& pred,
                             const MatchOptions& options);
double median(std::vector<double> v); // NaN when empty
double box_iou(const cv::Rect2f& a, const cv::Rect2f& b);

// The tracker's accuracy bars: recall, precision >= 98 %, median centre <= 1.5 px, depth <= 3 %, rotation <= 3 deg.
struct AccuracyBars {
    double recall = 0.98, precision = 0.98, centre_px = 1.5, depth_pct = 3.0, rotation_deg = 3.0;
};
// Empty when every bar is met, else one line per failed bar.
std::vector<std::string> failed_bars(const EvalCounts& c, const AccuracyBars& bars = {});

// Scoring stills against box labels of real footage (tracker/labels.h). Per image, predictions are matched
// one-to-one, best fitness first, to labels of their own category at box IoU >= match_iou. Labels of signs the
// tracker has no model for (no entry, priority, ...) are don't-care: missing them is no miss, and they excuse no
// prediction: a prediction that is not matched to a label of its own category is a false positive of its
// category even where it lies on such a sign (counted apart as fp_unmodelled, so the cost of those signs shows).
struct RealEvalSettings {
    double match_iou = 0.5;
};

struct RealCounts {
    long long labels = 0, tp = 0, fp = 0;
    long long fp_unmodelled = 0; // of fp: on a sign of a category without a model
    double ap = 0;               // average precision over the fitness ranking; NaN without labels
    double recall() const { return labels > 0 ? static_cast<double>(tp) / static_cast<double>(labels) : 1.0; }
    double precision() const { return tp + fp > 0 ? static_cast<double>(tp) / static_cast<double>(tp + fp) : 1.0; }
};

// Labels (of modelled categories) whose box width lies in [min_px, max_px): how many, how many a prediction of
// their category matched, and how many a prediction of any modelled category matched (the any-sign matching).
struct SizeBucket {
    double min_px = 0, max_px = 0;
    long long labels = 0, found = 0, found_any = 0;
};

// How the boxes of matched predictions sit on their labels: each one's width and height over the label's, its
// centre's offset in label widths / heights (+ right, down) and its IoU. A size or offset common to a category
// is the fitted pose's bias, which sends a small sign under the IoU threshold long before a large one.
struct BoxFit {
    std::vector<double> width_ratio, height_ratio, dx, dy, iou;
    std::vector<double> small_width_ratio; // of labels under k_small_sign_px wide
    static constexpr double k_small_sign_px = 20.0;
};

struct RealEvalReport {
    std::array<RealCounts, k_category_count> per_category;
    std::array<BoxFit, k_category_count> box_fit; // of each category's matched predictions
    RealCounts any; // category-agnostic matching among the modelled categories
    std::vector<SizeBucket> sizes;
    // confusion[true][predicted]: for each label of a modelled category, the category of the best-fitness
    // prediction overlapping it at match_iou (any category); column k_category_count: none did (missed).
    std::array<std::array<long long, k_category_count + 1>, k_category_count> confusion{};
    long long images = 0;             // frames of the predictions (each names its image)
    long long predictions = 0;
    long long dont_care = 0;          // labels of categories without a model, on the images scored
    long long labels_not_scored = 0;  // labels of images the predictions do not cover (not processed)

    // Sign classes (tracker/sign_classes.h) of the predictions matched to a label of their category whose class
    // the label file gives: per category, per true class, and the class confusion (mistakes and unknowns).
    struct ClassTally {
        long long matched = 0, right = 0, unknown = 0;
        double accuracy() const { return matched > 0 ? static_cast<double>(right) / static_cast<double>(matched) : 0.0; }
    };
    std::array<ClassTally, k_category_count> class_per_category{};
    ClassTally class_all;
    std::map<int, ClassTally> class_per_class;              // by the label's class
    std::map<std::pair<int, int>, long long> class_confusion; // (label's class, predicted class or -1), mistakes only
};

// Label width buckets of the report: <15, 15-20, 20-25, 25-30, 30-40, 40-80, >=80 px.
std::vector<SizeBucket> default_size_buckets();
// Throws std::runtime_error when a prediction frame names no image file (not written by `process --stills`).
RealEvalReport evaluate_labels(const LabelSet& labels, const PredictionFile& pred, const RealEvalSettings& s = {});
// All-point interpolated average precision (PASCAL VOC 2010+): the area under the precision / recall curve whose
// precision at each recall is the best precision at that recall or beyond. `ranked`: each prediction's
// (score, is a true positive); `positives`: the labels it could find. NaN when positives is 0.
double average_precision(std::vector<std::pair<double, bool>> ranked, long long positives);

} // namespace tracker
