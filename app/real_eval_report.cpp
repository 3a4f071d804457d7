#include "real_eval_report.h"

#include <cmath>
#include <cstdio>
#include <map>

#include "tracker/sign_classes.h"

namespace app {
namespace {

std::string pct(double v) {
    if (std::isnan(v)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * v);
    return buf;
}

std::string bucket_name(const tracker::SizeBucket& b) {
    if (b.min_px <= 0) return "< " + format_double(b.max_px);
    if (b.max_px >= 1e8) return ">= " + format_double(b.min_px);
    return format_double(b.min_px) + "-" + format_double(b.max_px);
}

std::string category_name(int i) {
    return i < tracker::k_category_count ? std::string(tracker::to_string(static_cast<tracker::Category>(i))) : "missed";
}

nlohmann::json num(double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }

nlohmann::json counts_json(const tracker::RealCounts& c) {
    return {{"labels", c.labels},       {"tp", c.tp},
            {"fp", c.fp},               {"fn", c.labels - c.tp},
            {"recall", c.recall()},     {"precision", c.precision()},
            {"ap", num(c.ap)},          {"fp_on_unmodelled", c.fp_unmodelled}};
}

// Class names from the shipped class list (ids alone when it cannot be read: the scoring does not need it).
const std::map<int, std::string>& class_names() {
    static const std::map<int, std::string> names = [] {
        std::map<int, std::string> m;
        try {
            for (const auto& c : tracker::SignClassifier::load_class_list(tracker::default_classes_dir() + "/classes.json")) {
                m[c.id] = c.name;
            }
        } catch (const std::exception&) {
        }
        return m;
    }();
    return names;
}

std::string class_name(int id) {
    if (id < 0) return "unknown";
    const auto it = class_names().find(id);
    return it != class_names().end() ? it->second : "class " + std::to_string(id);
}

// The speed-limit classes (the class list's "speed limit N" entries) of the per-class tallies, summed.
tracker::RealEvalReport::ClassTally speed_limits(const tracker::RealEvalReport& r) {
    tracker::RealEvalReport::ClassTally t;
    for (const auto& [id, c] : r.class_per_class) {
        if (class_name(id).rfind("speed limit", 0) == 0) {
            t.matched += c.matched;
            t.right += c.right;
            t.unknown += c.unknown;
        }
    }
    return t;
}

// A median ratio as "0.93"; "-" when there is none.
std::string ratio(const std::vector<double>& v) {
    const double m = tracker::median(v);
    if (std::isnan(m)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", m);
    return buf;
}

// A median offset in percent of the label's size, signed.
std::string offset(const std::vector<double>& v) {
    const double m = tracker::median(v);
    if (std::isnan(m)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f %%", 100.0 * m);
    return buf;
}

nlohmann::json box_fit_json(const tracker::BoxFit& f) {
    return {{"matched", f.iou.size()},
            {"width_ratio", num(tracker::median(f.width_ratio))},
            {"width_ratio_small", num(tracker::median(f.small_width_ratio))},
            {"small_px", tracker::BoxFit::k_small_sign_px},
            {"height_ratio", num(tracker::median(f.height_ratio))},
            {"centre_dx", num(tracker::median(f.dx))},
            {"centre_dy", num(tracker::median(f.dy))},
            {"iou", num(tracker::median(f.iou))}};
}

nlohmann::json tally_json(const tracker::RealEvalReport::ClassTally& t) {
    return {{"matched", t.matched}, {"right", t.right}, {"unknown", t.unknown}, {"accuracy", t.matched > 0 ? nlohmann::json(t.accuracy()) : nlohmann::json(nullptr)}};
}

} // namespace

std::vector<std::pair<std::string, Table>> real_eval_tables(const tracker::RealEvalReport& r) {
    std::vector<std::pair<std::string, Table>> out;
    Table cat({"category", "labels", "tp", "fp", "fn", "recall", "precision", "AP", "fp on unmodelled"});
    auto row = [&](const std::string& name, const tracker::RealCounts& c) {
        cat.add({name, std::to_string(c.labels), std::to_string(c.tp), std::to_string(c.fp), std::to_string(c.labels - c.tp),
                 c.labels > 0 ? pct(c.recall()) : "-", c.tp + c.fp > 0 ? pct(c.precision()) : "-", pct(c.ap),
                 std::to_string(c.fp_unmodelled)});
    };
    for (int i = 0; i < tracker::k_category_count; ++i) row(category_name(i), r.per_category[static_cast<std::size_t>(i)]);
    row("any sign", r.any);
    out.emplace_back("per category", std::move(cat));

    Table sizes({"width px", "labels", "recall", "recall any category"});
    for (const auto& b : r.sizes) {
        sizes.add({bucket_name(b), std::to_string(b.labels),
                   b.labels ? pct(static_cast<double>(b.found) / static_cast<double>(b.labels)) : "-",
                   b.labels ? pct(static_cast<double>(b.found_any) / static_cast<double>(b.labels)) : "-"});
    }
    out.emplace_back("recall by sign width", std::move(sizes));

    Table fit({"category", "matched", "width / label", "under " + format_double(tracker::BoxFit::k_small_sign_px) + " px",
               "height / label", "centre x", "centre y", "IoU"});
    for (int i = 0; i < tracker::k_category_count; ++i) {
        const tracker::BoxFit& f = r.box_fit[static_cast<std::size_t>(i)];
        fit.add({category_name(i), std::to_string(f.iou.size()), ratio(f.width_ratio), ratio(f.small_width_ratio),
                 ratio(f.height_ratio), offset(f.dx), offset(f.dy), ratio(f.iou)});
    }
    out.emplace_back("box fit of the matched predictions (medians; centre: offset in label widths / heights, + right "
                     "and down)",
                     std::move(fit));

    std::vector<std::string> header{"true \\ predicted"};
    for (int i = 0; i <= tracker::k_category_count; ++i) header.push_back(category_name(i));
    Table conf(header);
    for (int t = 0; t < tracker::k_category_count; ++t) {
        std::vector<std::string> cells{category_name(t)};
        for (const auto n : r.confusion[static_cast<std::size_t>(t)]) cells.push_back(std::to_string(n));
        conf.add(cells);
    }
    out.emplace_back("confusion (best-fitness prediction on each sign)", std::move(conf));

    if (r.class_all.matched > 0) {
        Table cls({"signs", "matched", "right class", "unknown", "class accuracy"});
        auto crow = [&](const std::string& name, const tracker::RealEvalReport::ClassTally& t) {
            cls.add({name, std::to_string(t.matched), std::to_string(t.right), std::to_string(t.unknown),
                     t.matched > 0 ? pct(t.accuracy()) : "-"});
        };
        for (int i = 0; i < tracker::k_category_count; ++i) crow(category_name(i), r.class_per_category[static_cast<std::size_t>(i)]);
        crow("speed limits", speed_limits(r));
        crow("all", r.class_all);
        out.emplace_back("sign classes of the matched predictions (labels with a class)", std::move(cls));

        Table per({"class", "name", "matched", "right"});
        for (const auto& [id, t] : r.class_per_class) {
            per.add({std::to_string(id), class_name(id), std::to_string(t.matched), std::to_string(t.right)});
        }
        out.emplace_back("per class", std::move(per));

        Table mistakes({"true class", "predicted", "count"});
        for (const auto& [pair, n] : r.class_confusion) {
            mistakes.add({class_name(pair.first), class_name(pair.second), std::to_string(n)});
        }
        out.emplace_back("class confusion (mistakes and unknowns)", std::move(mistakes));
    }
    return out;
}

std::string real_eval_summary(const tracker::RealEvalReport& r, const tracker::RealEvalSettings& s) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%lld images, %lld predictions, %lld labelled signs of modelled categories, %lld don't-care (no model: "
                  "missing them is no miss, a prediction on one is a false positive); a match needs box IoU >= %.2f, "
                  "best fitness first; AP: all-point interpolated over the fitness ranking",
                  r.images, r.predictions, r.any.labels, r.dont_care, s.match_iou);
    std::string line = buf;
    if (r.labels_not_scored > 0) {
        line += "; " + std::to_string(r.labels_not_scored) + " labels are on images the predictions do not cover (not scored)";
    }
    return line;
}

nlohmann::json real_eval_json(const tracker::RealEvalReport& r, const tracker::RealEvalSettings& s) {
    nlohmann::json j;
    j["match_iou"] = s.match_iou;
    j["images"] = r.images;
    j["predictions"] = r.predictions;
    j["dont_care_labels"] = r.dont_care;
    j["labels_not_scored"] = r.labels_not_scored;
    for (int i = 0; i < tracker::k_category_count; ++i) {
        j["per_category"][category_name(i)] = counts_json(r.per_category[static_cast<std::size_t>(i)]);
    }
    j["any_sign"] = counts_json(r.any);
    j["recall_by_width"] = nlohmann::json::array();
    for (const auto& b : r.sizes) {
        j["recall_by_width"].push_back({{"min_px", b.min_px}, {"max_px", b.max_px >= 1e8 ? nlohmann::json(nullptr) : nlohmann::json(b.max_px)},
                                        {"labels", b.labels}, {"found", b.found}, {"found_any_category", b.found_any}});
    }
    for (int i = 0; i < tracker::k_category_count; ++i) {
        j["box_fit"][category_name(i)] = box_fit_json(r.box_fit[static_cast<std::size_t>(i)]);
    }
    for (int t = 0; t < tracker::k_category_count; ++t) {
        for (int p = 0; p <= tracker::k_category_count; ++p) {
            j["confusion"][category_name(t)][category_name(p)] = r.confusion[static_cast<std::size_t>(t)][static_cast<std::size_t>(p)];
        }
    }
    nlohmann::json cls;
    for (int i = 0; i < tracker::k_category_count; ++i) {
        cls["per_category"][category_name(i)] = tally_json(r.class_per_category[static_cast<std::size_t>(i)]);
    }
    cls["speed_limits"] = tally_json(speed_limits(r));
    cls["all"] = tally_json(r.class_all);
    cls["per_class"] = nlohmann::json::array();
    for (const auto& [id, t] : r.class_per_class) {
        nlohmann::json e = tally_json(t);
        e["class_id"] = id;
        e["name"] = class_name(id);
        cls["per_class"].push_back(e);
    }
    cls["confusion"] = nlohmann::json::array();
    for (const auto& [pair, n] : r.class_confusion) {
        cls["confusion"].push_back({{"true", pair.first}, {"predicted", pair.second}, {"count", n}});
    }
    j["classes"] = cls;
    return j;
}

} // namespace app
