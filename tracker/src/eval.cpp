#include "tracker/eval.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <stdexcept>

#include "tracker/pose.h"

namespace tracker {

double median(std::vector<double> v) {
    if (v.empty()) {
        return std::nan("");
    }
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    if (v.size() % 2 == 1) {
        return *mid;
    }
    return 0.5 * (*mid + *std::max_element(v.begin(), mid));
}

double box_iou(const cv::Rect2f& a, const cv::Rect2f& b) {
    const float inter = (a & b).area();
    const float uni = a.area() + b.area() - inter;
    return uni > 0.f ? static_cast<double>(inter / uni) : 0.0;
}

namespace {

cv::Point2f centre(const cv::Rect2f& r) { return {r.x + 0.5f * r.width, r.y + 0.5f * r.height}; }

void add_box_fit(const cv::Rect2f& truth, const cv::Rect2f& found, BoxFit& fit) {
    const double w = std::max(truth.width, 1e-6f), h = std::max(truth.height, 1e-6f);
    const cv::Point2f offset = centre(found) - centre(truth);
    fit.width_ratio.push_back(found.width / w);
    fit.height_ratio.push_back(found.height / h);
    fit.dx.push_back(offset.x / w);
    fit.dy.push_back(offset.y / h);
    fit.iou.push_back(box_iou(truth, found));
    if (truth.width < BoxFit::k_small_sign_px) {
        fit.small_width_ratio.push_back(found.width / w);
    }
}

void add(EvalCounts& to, const EvalCounts& from) {
    to.tp += from.tp;
    to.fp += from.fp;
    to.fn += from.fn;
    for (auto [dst, src] : {std::pair{&to.iou, &from.iou}, {&to.centre_px, &from.centre_px},
                            {&to.depth_pct, &from.depth_pct}, {&to.rotation_deg, &from.rotation_deg},
                            {&to.depth_bias_pct, &from.depth_bias_pct}}) {
        dst->insert(dst->end(), src->begin(), src->end());
    }
}

} // namespace

std::vector<int> match_frame(const std::vector<const GroundTruth*>& truth, const std::vector<const Detection*>& pred,
                             double min_iou, const cv::Rect2f& image) {
    MatchOptions o;
    o.min_iou = min_iou;
    o.image = image;
    return match_frame(truth, pred, o);
}

std::vector<int> match_frame(const std::vector<const GroundTruth*>& truth, const std::vector<const Detection*>& pred,
                             const MatchOptions& o) {
    struct Pair {
        double iou;
        std::size_t g, p;
    };
    std::vector<Pair> pairs;
    for (std::size_t gi = 0; gi < truth.size(); ++gi) {
        for (std::size_t pi = 0; pi < pred.size(); ++pi) {
            if (!o.any_category && truth[gi]->category != pred[pi]->category) {
                continue;
            }
            const double iou = box_iou(truth[gi]->box, pred[pi]->box & o.image);
            if (iou >= o.min_iou) {
                pairs.push_back({iou, gi, pi});
            }
        }
    }
    // Stable, so equal keys keep truth-then-prediction order and the matching does not depend on the sort.
    if (o.by_fitness) {
        std::stable_sort(pairs.begin(), pairs.end(), [&](const Pair& a, const Pair& b) {
            const double fa = pred[a.p]->fitness, fb = pred[b.p]->fitness;
            if (fa != fb) return fa > fb;
            if (a.p != b.p) return a.p < b.p;
            return a.iou > b.iou;
        });
    } else {
        std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.iou > b.iou; });
    }
    std::vector<int> of_truth(truth.size(), -1);
    std::vector<bool> used(pred.size(), false);
    for (const auto& pr : pairs) {
        if (of_truth[pr.g] >= 0 || used[pr.p]) {
            continue;
        }
        of_truth[pr.g] = static_cast<int>(pr.p);
        used[pr.p] = true;
    }
    return of_truth;
}

EvalReport evaluate(const TruthFile& truth, const PredictionFile& pred, const EvalSettings& s) {
    EvalReport rep;
    std::map<long long, std::vector<const GroundTruth*>> gt_by_frame;
    std::map<long long, std::vector<const Detection*>> pred_by_frame;
    for (const auto& g : truth.truth) {
        gt_by_frame[g.frame].push_back(&g);
    }
    for (const auto& d : pred.detections) {
        pred_by_frame[d.frame].push_back(&d);
    }
    std::vector<long long> frames;
    for (const auto& [f, rec] : truth.frames) {
        frames.push_back(f);
    }
    for (const auto& [f, v] : gt_by_frame) {
        if (!truth.frames.count(f)) {
            frames.push_back(f);
        }
    }
    std::sort(frames.begin(), frames.end());
    frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
    rep.frames = static_cast<long long>(frames.size());

    for (long long f : frames) {
        const auto& gts = gt_by_frame[f];
        const auto& preds = pred_by_frame[f];
        cv::Rect2f image(0, 0, 1e9f, 1e9f);
        if (auto it = truth.frames.find(f); it != truth.frames.end() && it->second.width > 0) {
            image = cv::Rect2f(0, 0, static_cast<float>(it->second.width), static_cast<float>(it->second.height));
        }
        const std::vector<int> matched = match_frame(gts, preds, s.match_iou, image);
        std::vector<bool> p_used(preds.size(), false);
        for (std::size_t gi = 0; gi < gts.size(); ++gi) {
            const GroundTruth& g = *gts[gi];
            if (matched[gi] < 0) {
                if (s.counts(g)) {
                    ++rep.per_category[static_cast<std::size_t>(g.category)].fn;
                }
                continue;
            }
            const Detection& d = *preds[static_cast<std::size_t>(matched[gi])];
            p_used[static_cast<std::size_t>(matched[gi])] = true;
            if (!s.counts(g)) {
                continue;
            }
            auto& c = rep.per_category[static_cast<std::size_t>(g.category)];
            ++c.tp;
            c.iou.push_back(box_iou(g.box, d.box & image));
            c.centre_px.push_back(cv::norm(centre(g.box) - centre(d.box & image)));
            c.depth_pct.push_back(100.0 * std::abs(d.pose.z - g.pose.z) / g.pose.z);
            c.depth_bias_pct.push_back(100.0 * (d.pose.z - g.pose.z) / g.pose.z);
            c.rotation_deg.push_back(g.category == Category::Prohibitory ? normal_error_deg(g.pose, d.pose)
                                                                         : rotation_error_deg(g.pose, d.pose));
        }
        for (std::size_t pi = 0; pi < preds.size(); ++pi) {
            if (!p_used[pi]) {
                ++rep.per_category[static_cast<std::size_t>(preds[pi]->category)].fp;
            }
        }
    }
    for (const auto& c : rep.per_category) {
        add(rep.all, c);
    }
    std::vector<double> totals;
    for (const auto& [f, rec] : pred.frames) {
        if (!rec.has_timing) {
            continue;
        }
        ++rep.timed_frames;
        rep.mean_timing.upload_ms += rec.timing.upload_ms;
        rep.mean_timing.preprocess_ms += rec.timing.preprocess_ms;
        rep.mean_timing.search_ms += rec.timing.search_ms;
        rep.mean_timing.readback_ms += rec.timing.readback_ms;
        rep.mean_timing.total_ms += rec.timing.total_ms;
        totals.push_back(rec.timing.total_ms);
    }
    if (rep.timed_frames > 0) {
        const double n = static_cast<double>(rep.timed_frames);
        rep.mean_timing.upload_ms /= n;
        rep.mean_timing.preprocess_ms /= n;
        rep.mean_timing.search_ms /= n;
        rep.mean_timing.readback_ms /= n;
        rep.mean_timing.total_ms /= n;
        rep.median_total_ms = median(totals);
    }
    return rep;
}

double average_precision(std::vector<std::pair<double, bool>> ranked, long long positives) {
    if (positives <= 0) {
        return std::nan("");
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<double> rec{0.0}, prec{0.0};
    long long tp = 0, n = 0;
    for (const auto& [score, hit] : ranked) {
        ++n;
        tp += hit ? 1 : 0;
        rec.push_back(static_cast<double>(tp) / static_cast<double>(positives));
        prec.push_back(static_cast<double>(tp) / static_cast<double>(n));
    }
    rec.push_back(1.0);
    prec.push_back(0.0);
    for (std::size_t i = prec.size() - 1; i-- > 0;) {
        prec[i] = std::max(prec[i], prec[i + 1]);
    }
    double ap = 0;
    for (std::size_t i = 1; i < rec.size(); ++i) {
        ap += (rec[i] - rec[i - 1]) * prec[i];
    }
    return ap;
}

std::vector<SizeBucket> default_size_buckets() {
    const double edges[] = {0, 15, 20, 25, 30, 40, 80, 1e9};
    std::vector<SizeBucket> out;
    for (std::size_t i = 0; i + 1 < std::size(edges); ++i) {
        SizeBucket b;
        b.min_px = edges[i];
        b.max_px = edges[i + 1];
        out.push_back(b);
    }
    return out;
}

RealEvalReport evaluate_labels(const LabelSet& labels, const PredictionFile& pred, const RealEvalSettings& s) {
    RealEvalReport rep;
    rep.sizes = default_size_buckets();
    // The scored images: every prediction frame, by its image's key.
    std::map<std::string, const FrameRecord*> frame_of;
    for (const auto& [f, rec] : pred.frames) {
        if (rec.file.empty()) {
            throw std::runtime_error("predictions: frame " + std::to_string(f) +
                                     " names no image file; write them with `swarmtrack process DIR --stills`");
        }
        frame_of[image_key(rec.file)] = &rec;
    }
    std::map<long long, std::vector<const Detection*>> pred_by_frame;
    for (const auto& d : pred.detections) {
        pred_by_frame[d.frame].push_back(&d);
    }
    std::map<std::string, std::vector<GroundTruth>> modelled;
    std::map<std::string, std::vector<int>> label_class; // beside modelled: each label's class id (-1: none given)
    std::map<std::string, std::vector<cv::Rect2f>> dont_care;
    for (const auto& l : labels.labels) {
        if (!frame_of.count(l.image)) {
            ++rep.labels_not_scored;
        } else if (l.category) {
            GroundTruth g;
            g.category = *l.category;
            g.box = in_image_coordinates(l.box);
            modelled[l.image].push_back(g);
            label_class[l.image].push_back(l.class_id);
        } else {
            ++rep.dont_care;
            dont_care[l.image].push_back(in_image_coordinates(l.box));
        }
    }
    std::array<std::vector<std::pair<double, bool>>, k_category_count> ranked;
    std::vector<std::pair<double, bool>> ranked_any;
    for (const auto& [key, rec] : frame_of) {
        ++rep.images;
        const auto& preds = pred_by_frame[rec->frame];
        rep.predictions += static_cast<long long>(preds.size());
        std::vector<const GroundTruth*> gts;
        for (const auto& g : modelled[key]) {
            gts.push_back(&g);
        }
        MatchOptions mo;
        mo.min_iou = s.match_iou;
        mo.by_fitness = true;
        if (rec->width > 0 && rec->height > 0) {
            mo.image = cv::Rect2f(0, 0, static_cast<float>(rec->width), static_cast<float>(rec->height));
        }
        const std::vector<int> matched = match_frame(gts, preds, mo);
        mo.any_category = true;
        const std::vector<int> matched_any = match_frame(gts, preds, mo);

        std::vector<bool> hit(preds.size(), false), hit_any(preds.size(), false);
        for (std::size_t gi = 0; gi < gts.size(); ++gi) {
            const GroundTruth& g = *gts[gi];
            auto& c = rep.per_category[static_cast<std::size_t>(g.category)];
            ++c.labels;
            ++rep.any.labels;
            if (matched[gi] >= 0) {
                ++c.tp;
                hit[static_cast<std::size_t>(matched[gi])] = true;
                add_box_fit(g.box, preds[static_cast<std::size_t>(matched[gi])]->box & mo.image,
                            rep.box_fit[static_cast<std::size_t>(g.category)]);
                const int truth = label_class[key][gi];
                if (truth >= 0) {
                    const int said = preds[static_cast<std::size_t>(matched[gi])]->class_id;
                    for (auto* t : {&rep.class_per_category[static_cast<std::size_t>(g.category)], &rep.class_all,
                                    &rep.class_per_class[truth]}) {
                        ++t->matched;
                        t->right += said == truth ? 1 : 0;
                        t->unknown += said < 0 ? 1 : 0;
                    }
                    if (said != truth) {
                        ++rep.class_confusion[{truth, said}];
                    }
                }
            }
            if (matched_any[gi] >= 0) {
                ++rep.any.tp;
                hit_any[static_cast<std::size_t>(matched_any[gi])] = true;
            }
            for (auto& b : rep.sizes) {
                if (g.box.width >= b.min_px && g.box.width < b.max_px) {
                    ++b.labels;
                    b.found += matched[gi] >= 0 ? 1 : 0;
                    b.found_any += matched_any[gi] >= 0 ? 1 : 0;
                }
            }
            // Confusion: the best-fitness prediction on this sign, whatever its category and matches elsewhere.
            int best = -1;
            for (std::size_t pi = 0; pi < preds.size(); ++pi) {
                if (box_iou(g.box, preds[pi]->box & mo.image) >= s.match_iou &&
                    (best < 0 || preds[pi]->fitness > preds[static_cast<std::size_t>(best)]->fitness)) {
                    best = static_cast<int>(pi);
                }
            }
            auto& row = rep.confusion[static_cast<std::size_t>(g.category)];
            ++row[best < 0 ? k_category_count : static_cast<std::size_t>(preds[static_cast<std::size_t>(best)]->category)];
        }
        const auto& cares = dont_care[key];
        for (std::size_t pi = 0; pi < preds.size(); ++pi) {
            const Detection& d = *preds[pi];
            const bool on_unmodelled = std::any_of(cares.begin(), cares.end(), [&](const cv::Rect2f& b) {
                return box_iou(b, d.box & mo.image) >= s.match_iou;
            });
            auto& c = rep.per_category[static_cast<std::size_t>(d.category)];
            ranked[static_cast<std::size_t>(d.category)].emplace_back(d.fitness, hit[pi]);
            ranked_any.emplace_back(d.fitness, hit_any[pi]);
            if (!hit[pi]) {
                ++c.fp;
                c.fp_unmodelled += on_unmodelled ? 1 : 0;
            }
            if (!hit_any[pi]) {
                ++rep.any.fp;
                rep.any.fp_unmodelled += on_unmodelled ? 1 : 0;
            }
        }
    }
    for (int i = 0; i < k_category_count; ++i) {
        auto& c = rep.per_category[static_cast<std::size_t>(i)];
        c.ap = average_precision(ranked[static_cast<std::size_t>(i)], c.labels);
    }
    rep.any.ap = average_precision(ranked_any, rep.any.labels);
    return rep;
}

std::vector<std::string> failed_bars(const EvalCounts& c, const AccuracyBars& b) {
    std::vector<std::string> out;
    char line[160];
    auto check = [&](bool ok, const char* what, double value, const char* op, double bar) {
        if (!ok) {
            std::snprintf(line, sizeof line, "%s %.3f, needs %s %.3f", what, value, op, bar);
            out.emplace_back(line);
        }
    };
    // With no true positive precision and recall default to 1 and the medians are NaN: nothing was judged.
    check(c.tp > 0, "true positives", static_cast<double>(c.tp), ">", 0.0);
    check(c.recall() >= b.recall, "recall", c.recall(), ">=", b.recall);
    check(c.precision() >= b.precision, "precision", c.precision(), ">=", b.precision);
    const double ce = median(c.centre_px), de = median(c.depth_pct), re = median(c.rotation_deg);
    check(!(ce > b.centre_px), "median centre error px", ce, "<=", b.centre_px);
    check(!(de > b.depth_pct), "median depth error %", de, "<=", b.depth_pct);
    check(!(re > b.rotation_deg), "median rotation error deg", re, "<=", b.rotation_deg);
    return out;
}

} // namespace tracker
