// diagnose_real: where the labelled signs of a real data set are lost, stage by stage, so tuning goes where
// the misses are. For every labelled sign of a modelled category it asks, in the tracker's order:
//   region  - does any candidate region of the paint maps frame it (candidate_jobs' rule), before ranking?
//   ranked  - is such a region among the regions the tracker keeps (the ranker's first candidate_regions)?
//   oracle  - searched from its own label box (as if the candidate pass had framed it exactly), does the
//             pose fitness reach detect_threshold with a box of IoU >= 0.5? (the fitness' and search's limit)
//   raw     - does the tracker without a verifier report it (right category, IoU >= 0.5)?
//   final   - does the tracker as configured (verifier included) report it?
//   verify  - does the verifier accept the sign's own label box as its category?
// and prints the counts per category and per sign width, the signs the tracker misses by the first stage that loses
// them, and optionally one line per sign (--per-sign CSV, with that stage and each colour group's mean point value at
// the oracle's pose: which part of the sign the fitness finds wanting).
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include <CLI/CLI.hpp>
#include <opencv2/imgcodecs.hpp>

#include "candidate_jobs.h"
#include "candidates.h"
#include "cli_checks.h"
#include "search_runner.h"
#include "tracker/eval.h"
#include "tracker/labels.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/region_ranker.h"
#include "tracker/tracker.h"
#include "tracker/verifier.h"

namespace fs = std::filesystem;
using namespace tracker;

namespace {

struct SignFate {
    std::string image;
    Category category;
    float width;
    bool region = false, ranked = false, oracle = false, raw = false, final = false, verify = false;
    double oracle_fitness = 0, oracle_iou = 0, oracle_scale = 0; // scale: the fitted box's width over the label's
    std::vector<float> oracle_groups{}; // each colour group's mean point value at the oracle's pose (model order)
};

// The first stage, in the tracker's order, that loses a sign the tracker misses: no region frames it, the ranker
// leaves its regions out, the fit from its own label box fails, or the fit passes and the tracker still does not
// report it (its search or selection, the small-find rule or the verifier). "found" when the tracker reports it.
enum class LostAt { Found, Region, Ranking, Fitness, Search };
constexpr const char* k_lost_names[] = {"found", "region", "ranking", "fitness", "search"};
constexpr std::size_t k_lost_stages = std::size(k_lost_names);

LostAt lost_at(const SignFate& f) {
    if (f.final) {
        return LostAt::Found;
    }
    if (!f.region) {
        return LostAt::Region;
    }
    if (!f.ranked) {
        return LostAt::Ranking;
    }
    return f.oracle ? LostAt::Search : LostAt::Fitness;
}

bool found_by(const BoxLabel& l, const std::vector<Detection>& dets) {
    for (const auto& d : dets) {
        if (d.category == *l.category && box_iou(d.box, in_image_coordinates(l.box)) >= 0.5) {
            return true;
        }
    }
    return false;
}

bool framed(const BoxLabel& l, const std::vector<Candidate>& regions, ColourClass colour) {
    for (const auto& r : regions) {
        if (r.colour == colour && region_frames_sign(cv::Rect2f(r.box), l.box)) {
            return true;
        }
    }
    return false;
}

// The best pose the search finds for the sign's own category from its label box (the best of its models' fits).
void oracle_fit(const BoxLabel& l, const std::vector<SignModel>& models, const Camera& cam, const TrackerSettings& s,
                SearchRunner& runner, const SignEvaluator& host, SignFate& fate) {
    const auto own = [&](int m) { return models[static_cast<std::size_t>(m)].category == *l.category; };
    const SignModel* base = base_model(models, *l.category);
    if (base == nullptr) {
        return;
    }
    PoseSpace space;
    space.active = {true, true, true, false, false, false};
    const Frustum f = reaching_small_signs(s.frustum, cam, models);
    if (s.search.detect_rotation) {
        space.active = {true, true, true, f.yaw_range > 0, f.pitch_range > 0, f.roll_range > 0};
    }
    std::vector<double> lo, hi;
    frustum_bounds(f, cam, space, lo, hi);
    const Candidate c{cv::Rect(cvRound(l.box.x), cvRound(l.box.y), cvRound(l.box.width), cvRound(l.box.height)),
                      rim_colour(*base), 1.f};
    auto jobs = candidate_jobs({c}, models, cam, lo, hi, f.z_min, f.z_max);
    jobs.erase(std::remove_if(jobs.begin(), jobs.end(), [&](const SwarmJob& j) { return !own(j.target.model); }),
               jobs.end());
    if (jobs.empty()) {
        return;
    }
    StageTiming timing;
    const auto all = runner.run(space, jobs, {}, {}, 7, timing);
    const std::size_t best = static_cast<std::size_t>(
        std::max_element(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.fitness < b.fitness; }) -
        all.begin());
    const auto& out = all[best];
    const int model = jobs[best].target.model;
    const Pose p = space.from_vector(out.best.data());
    const cv::Rect2f box = bounding_box(project_points(cam, p, models[static_cast<std::size_t>(model)].outline));
    fate.oracle_fitness = out.fitness;
    fate.oracle_iou = box_iou(box, in_image_coordinates(l.box));
    fate.oracle_scale = box.width / std::max(l.box.width, 1.f);
    fate.oracle_groups = host.group_means(p, model);
    fate.oracle = fate.oracle_fitness >= s.fitness.detect_threshold && fate.oracle_iou >= 0.5;
}

// Detections of a frame that match no label of their category (a label of an unmodelled category excuses none).
int false_finds(const std::vector<BoxLabel>& labels, const std::vector<Detection>& dets) {
    int wrong = 0;
    for (const auto& d : dets) {
        const bool right = std::any_of(labels.begin(), labels.end(), [&](const BoxLabel& l) {
            return l.category && *l.category == d.category && box_iou(d.box, in_image_coordinates(l.box)) >= 0.5;
        });
        wrong += right ? 0 : 1;
    }
    return wrong;
}

struct Tally {
    int n = 0, region = 0, ranked = 0, oracle = 0, raw = 0, final = 0, verify = 0;
    std::array<int, k_lost_stages> lost{}; // signs per lost_at (LostAt order)
    void add(const SignFate& f) {
        ++n;
        ++lost[static_cast<std::size_t>(lost_at(f))];
        region += f.region;
        ranked += f.ranked;
        oracle += f.oracle;
        raw += f.raw;
        final += f.final;
        verify += f.verify;
    }
};

void print_row(const std::string& name, const Tally& t) {
    const auto pct = [&](int k) { return t.n > 0 ? 100.0 * k / t.n : 0.0; };
    std::printf("| %-12s | %4d | %5.1f | %5.1f | %5.1f | %5.1f | %5.1f | %5.1f |\n", name.c_str(), t.n, pct(t.region),
                pct(t.ranked), pct(t.oracle), pct(t.raw), pct(t.final), pct(t.verify));
}

// The signs the tracker misses, per category, by the first stage that loses them (Tally::lost).
void print_losses(const std::map<int, Tally>& by_cat, const Tally& all) {
    std::printf("\nmissed signs by the first stage that loses them\n");
    std::printf("| %-12s | %6s | %6s | %7s | %7s | %6s |\n", "signs", "missed", "region", "ranking", "fitness",
                "search");
    std::printf("|--------------|--------|--------|---------|---------|--------|\n");
    const auto row = [](const std::string& name, const Tally& t) {
        const auto& n = t.lost;
        std::printf("| %-12s | %6d | %6d | %7d | %7d | %6d |\n", name.c_str(), t.n - n[0], n[1], n[2], n[3], n[4]);
    };
    for (const auto& [c, t] : by_cat) {
        row(std::string(to_string(static_cast<Category>(c))), t);
    }
    row("any", all);
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"diagnose_real: where labelled real signs are lost, stage by stage"};
    std::string data = "../shared/data/gtsdb-dev", labels_path, config, per_sign;
    int frames = 0, every = 1;
    bool oracle_only = false;
    app.add_option("--data", data, "Folder with images/ and labels.csv")->capture_default_str();
    app.add_option("--labels", labels_path, "Labels (CSV or COCO JSON); default DATA/labels.csv");
    app.add_option("--config", config, "Tracker settings (JSON), as for swarmtrack");
    app.add_option("--frames", frames, "Only the first N images (0: all)");
    app.add_option("--every", every, "Only every K-th image")->check(tools::above_zero());
    app.add_option("--per-sign", per_sign, "Write one CSV line per sign here");
    app.add_flag("--oracle-only", oracle_only, "Only the regions and the fit from each label box (no tracker runs)");
    CLI11_PARSE(app, argc, argv);
    try {
        const LabelSet labels = read_labels(labels_path.empty() ? data + "/labels.csv" : labels_path);
        TrackerSettings settings = config.empty() ? TrackerSettings{} : TrackerSettings::load(config);
        settings.signs.classes = "none";
        TrackerSettings raw_settings = settings;
        raw_settings.signs.verifier = "none";
        const SignSettings& signs = settings.signs;
        const auto models = load_sign_models(signs.models_dir, signs.categories);
        const auto ranker =
            signs.candidate_ranker == "none"
                ? nullptr
                : RegionRanker::load(signs.candidate_ranker.empty() ? default_ranker_path() : signs.candidate_ranker);
        const auto verifier = SignVerifier::load(signs.verifier.empty() || signs.verifier == "none"
                                                     ? default_verifier_path()
                                                     : signs.verifier);
        std::map<std::string, std::vector<BoxLabel>> by_image;
        for (const auto& l : labels.labels) {
            by_image[l.image].push_back(l);
        }
        std::vector<SignFate> fates;
        int done = 0, index = 0;
        long long raw_found = 0, raw_false = 0, final_found = 0, final_false = 0;
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(data + "/images")) {
            files.push_back(entry.path());
        }
        std::sort(files.begin(), files.end());
        for (const auto& file : files) {
            if (index++ % every != 0) {
                continue;
            }
            if (frames > 0 && done >= frames) {
                break;
            }
            const auto it = by_image.find(image_key(file.string()));
            if (it == by_image.end()) {
                continue;
            }
            const cv::Mat bgr = cv::imread(file.string(), cv::IMREAD_COLOR);
            if (bgr.empty()) {
                throw std::runtime_error(file.string() + ": not an image");
            }
            ++done;
            const Camera cam = Camera::from_fov(bgr.cols, bgr.rows, settings.camera.horizontal_fov_deg);
            CandidateOptions all_opt;
            all_opt.max_candidates = 1 << 20;
            all_opt.rank_pool = 1 << 20;
            all_opt.faces = settings.search.face_regions;
            all_opt.above = settings.search.stacked_regions;
            const auto all_regions = find_candidates(bgr, all_opt);
            CandidateOptions kept_opt;
            kept_opt.max_candidates = settings.search.candidate_regions;
            kept_opt.ranker = ranker.get();
            kept_opt.faces = settings.search.face_regions;
            kept_opt.above = settings.search.stacked_regions;
            const auto kept_regions = find_candidates(bgr, kept_opt);
            std::vector<Detection> raw, final;
            if (!oracle_only) {
                raw = create_tracker(raw_settings, cam)->process(bgr).detections;
                final = create_tracker(settings, cam)->process(bgr).detections;
            }
            raw_found += static_cast<long long>(raw.size());
            raw_false += false_finds(it->second, raw);
            final_found += static_cast<long long>(final.size());
            final_false += false_finds(it->second, final);
            SearchRunner runner(models, cam, settings);
            StageTiming timing;
            runner.prepare(bgr, timing);
            // The group means are read on the host, whichever backend the runner searches on.
            ClassMaps maps;
            preprocess_cpu(bgr, maps, static_cast<float>(settings.fitness.cover_hue));
            SignEvaluator host(models, PoseSpace{}, cam, fitness_weights(settings));
            host.set_host_maps(&maps);
            runner.evaluator().set_weights(fitness_weights(settings));
            for (const auto& l : it->second) {
                if (!l.category) {
                    continue;
                }
                SignFate f{it->first, *l.category, l.box.width};
                const SignModel* base = base_model(models, *l.category);
                const ColourClass colour = base != nullptr ? rim_colour(*base) : ColourClass::Red;
                f.region = framed(l, all_regions, colour);
                f.ranked = framed(l, kept_regions, colour);
                oracle_fit(l, models, cam, settings, runner, host, f);
                f.raw = found_by(l, raw);
                f.final = found_by(l, final);
                f.verify = verifier->classify(bgr, l.box) == verifier_class(static_cast<int>(*l.category));
                fates.push_back(f);
            }
        }
        std::fprintf(stderr, "diagnose_real: %d images\n", done);
        std::printf("| %-12s | %4s | %5s | %5s | %5s | %5s | %5s | %5s |\n", "signs", "n", "regn%", "rank%", "orcl%",
                    "raw%", "final%", "verif%");
        std::printf("|--------------|------|-------|-------|-------|-------|-------|-------|\n");
        std::map<int, Tally> by_cat;
        std::map<int, Tally> by_width;
        Tally all;
        const int edges[] = {0, 15, 20, 25, 30, 40, 1000};
        for (const auto& f : fates) {
            by_cat[static_cast<int>(f.category)].add(f);
            all.add(f);
            for (int b = 0; b < 6; ++b) {
                if (f.width >= edges[b] && f.width < edges[b + 1]) {
                    by_width[b].add(f);
                }
            }
        }
        for (const auto& [c, t] : by_cat) {
            print_row(std::string(to_string(static_cast<Category>(c))), t);
        }
        print_row("any", all);
        for (const auto& [b, t] : by_width) {
            print_row(std::to_string(edges[b]) + "-" + std::to_string(edges[b + 1]) + " px", t);
        }
        if (!oracle_only) {
            print_losses(by_cat, all);
        }
        const auto precision = [](long long found, long long wrong) {
            return found > 0 ? 100.0 * static_cast<double>(found - wrong) / static_cast<double>(found) : 100.0;
        };
        std::printf("\nprecision: raw %.1f %% (%lld of %lld detections wrong), final %.1f %% (%lld of %lld)\n",
                    precision(raw_found, raw_false), raw_false, raw_found, precision(final_found, final_false),
                    final_false, final_found);
        if (!per_sign.empty()) {
            std::ofstream out(per_sign);
            out << "image,category,width,region,ranked,oracle,raw,final,verify,oracle_fitness,oracle_iou,oracle_scale,"
                   "oracle_groups,lost_at\n";
            for (const auto& f : fates) {
                out << f.image << ',' << to_string(f.category) << ',' << f.width << ',' << f.region << ',' << f.ranked
                    << ',' << f.oracle << ',' << f.raw << ',' << f.final << ',' << f.verify << ','
                    << f.oracle_fitness << ',' << f.oracle_iou << ',' << f.oracle_scale << ',';
                for (std::size_t g = 0; g < f.oracle_groups.size(); ++g) {
                    out << (g > 0 ? " " : "") << f.oracle_groups[g];
                }
                out << ',' << (oracle_only ? "" : k_lost_names[static_cast<int>(lost_at(f))]) << '\n';
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "diagnose_real: %s\n", e.what());
        return 2;
    }
    return 0;
}
