// `swarmtrack eval`: precision, recall, box IoU, centre / depth / rotation error per category, time per frame,
// against synthetic ground truth (--gt); or, against box labels of real stills (--labels, CSV or COCO), recall,
// precision and average precision per category, recall by sign width and the confusion of categories.
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "output.h"
#include "real_eval_report.h"
#include "tracker/eval.h"

namespace app {
namespace {

struct EvalOptions {
    std::string gt, labels, pred, json_out;
    tracker::EvalSettings settings;
    bool require_bars = false;
};

nlohmann::json counts_json(const tracker::EvalCounts& c) {
    auto num = [](double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); };
    return {{"tp", c.tp}, {"fp", c.fp}, {"fn", c.fn}, {"precision", c.precision()}, {"recall", c.recall()},
            {"median_iou", num(tracker::median(c.iou))}, {"median_centre_px", num(tracker::median(c.centre_px))},
            {"median_depth_pct", num(tracker::median(c.depth_pct))},
            {"median_rotation_deg", num(tracker::median(c.rotation_deg))}};
}

void print_row(const char* name, const tracker::EvalCounts& c) {
    std::printf("%-12s %6lld %6lld %6lld %9.2f%% %8.2f%% %7.3f %9.2f %9.2f %9.2f\n", name, c.tp, c.fp, c.fn,
                100 * c.precision(), 100 * c.recall(), tracker::median(c.iou), tracker::median(c.centre_px),
                tracker::median(c.depth_pct), tracker::median(c.rotation_deg));
}

int run_labels_eval(const EvalOptions& o) {
    const tracker::LabelSet labels = tracker::read_labels(o.labels);
    const tracker::PredictionFile pred = tracker::read_predictions(o.pred);
    tracker::RealEvalSettings s;
    s.match_iou = o.settings.match_iou;
    const tracker::RealEvalReport r = tracker::evaluate_labels(labels, pred, s);
    std::printf("%s\n", real_eval_summary(r, s).c_str());
    for (const auto& [title, table] : real_eval_tables(r)) {
        std::printf("\n## %s\n\n%s", title.c_str(), table.markdown().c_str());
    }
    if (!o.json_out.empty()) {
        nlohmann::json j = real_eval_json(r, s);
        j["labels"] = o.labels;
        j["predictions_file"] = o.pred;
        tracker::AtomicTextWriter out(o.json_out);
        out.write_line(j.dump(1));
        out.commit();
    }
    return exit_code::ok;
}

int run_eval(const EvalOptions& o) {
    if (o.gt.empty() == o.labels.empty()) {
        throw std::runtime_error("eval: give either --gt (JSON lines from `swarmtrack synth`) or --labels (CSV or COCO box labels)");
    }
    if (!o.labels.empty()) {
        if (o.require_bars) throw std::runtime_error("--require-bars applies to --gt (synthetic ground truth), not --labels");
        return run_labels_eval(o);
    }
    const tracker::TruthFile gt = tracker::read_truth(o.gt);
    const tracker::PredictionFile pred = tracker::read_predictions(o.pred);
    const tracker::EvalReport r = tracker::evaluate(gt, pred, o.settings);
    std::printf("%lld frames; a match needs box IoU >= %.2f; truths under %.0f%% visible or %.0f px are don't-care\n",
                r.frames, o.settings.match_iou, 100 * o.settings.min_visible, o.settings.min_size_px);
    std::printf("%-12s %6s %6s %6s %10s %9s %7s %9s %9s %9s\n", "category", "tp", "fp", "fn", "precision", "recall",
                "IoU", "centre px", "depth %", "rot deg");
    for (int i = 0; i < tracker::k_category_count; ++i) {
        const auto& c = r.per_category[static_cast<std::size_t>(i)];
        if (c.tp + c.fp + c.fn > 0) {
            print_row(std::string(tracker::to_string(static_cast<tracker::Category>(i))).c_str(), c);
        }
    }
    print_row("all", r.all);
    std::printf("(IoU and errors are medians over true positives)\n");
    if (r.timed_frames > 0) {
        const auto& t = r.mean_timing;
        std::printf("time per frame: mean %.3f ms, median %.3f ms (upload %.3f, preprocess %.3f, search %.3f, "
                    "readback %.3f) over %lld frames\n",
                    t.total_ms, r.median_total_ms, t.upload_ms, t.preprocess_ms, t.search_ms, t.readback_ms,
                    r.timed_frames);
    }
    const auto failed = tracker::failed_bars(r.all);
    if (!o.json_out.empty()) {
        nlohmann::json j = {{"frames", r.frames}, {"all", counts_json(r.all)}, {"bars_met", failed.empty()}};
        for (int i = 0; i < tracker::k_category_count; ++i) {
            j["per_category"][std::string(tracker::to_string(static_cast<tracker::Category>(i)))] =
                counts_json(r.per_category[static_cast<std::size_t>(i)]);
        }
        if (r.timed_frames > 0) {
            j["time_ms"] = {{"mean_total", r.mean_timing.total_ms}, {"median_total", r.median_total_ms},
                            {"upload", r.mean_timing.upload_ms},    {"preprocess", r.mean_timing.preprocess_ms},
                            {"search", r.mean_timing.search_ms},    {"readback", r.mean_timing.readback_ms}};
        }
        tracker::AtomicTextWriter out(o.json_out);
        out.write_line(j.dump(1));
        out.commit();
    }
    for (const auto& f : failed) {
        std::printf("bar not met: %s\n", f.c_str());
    }
    return o.require_bars && !failed.empty() ? exit_code::failed : exit_code::ok;
}

} // namespace

void register_eval(CLI::App& root, int& rc) {
    auto opts = std::make_shared<EvalOptions>();
    auto* sub = root.add_subcommand("eval", "Score predictions (JSON lines) against ground truth (JSON lines) or box labels (CSV, COCO)");
    sub->add_option("--gt", opts->gt, "Ground truth written by `swarmtrack synth`");
    sub->add_option("--labels", opts->labels,
                    "Box labels of real stills: .csv (file;left;top;right;bottom;class_id;category) or COCO .json; the "
                    "predictions must come from `process DIR --stills`");
    sub->add_option("--pred", opts->pred, "Predictions written by `swarmtrack process`")->required();
    sub->add_option("--json", opts->json_out, "Also write the report as JSON here");
    sub->add_option("--match-iou", opts->settings.match_iou, "Box IoU needed for a match")
        ->check(CLI::Range(0.05, 1.0))->capture_default_str();
    sub->add_option("--min-visible", opts->settings.min_visible, "Truths less visible are don't-care")
        ->check(CLI::Range(0.0, 1.0))->capture_default_str();
    sub->add_option("--min-size", opts->settings.min_size_px, "Truths smaller (px) are don't-care")
        ->check(CLI::Range(0.0, 10000.0))->capture_default_str();
    sub->add_flag("--require-bars", opts->require_bars,
                  "Exit 1 unless recall/precision >= 98%, centre <= 1.5 px, depth <= 3%, rotation <= 3 deg");
    sub->callback([opts, &rc] { rc = run_eval(*opts); });
}

} // namespace app
