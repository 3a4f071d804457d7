// train_classes: builds the sign-class templates and machines (tracker/sign_classes.h) that the tracker ships in
// assets/classes/classifier.yml.gz, from the labelled signs of real frames (the GTSDB dev set's CSV: file;left;top;
// right;bottom;class_id;category), and measures how well they generalise.
//
// A labelled box is the sign's outer edge and nearly face on, so its face is the box resampled (rectify_box);
// each sign also gives jittered boxes (shifted and scaled by a few per cent), since a detection's pose never
// frames the face exactly. One RBF support-vector machine per category with two or more classes of at least
// --min-examples labelled signs; rarer classes are left out (their signs come out as another class or unknown).
//
// --folds K (default 10) measures held out: the frames are dealt into K folds and every sign is classified by
// machines trained without its fold, so never with its own frame's signs; --detections FILE (the JSON lines of
// `swarmtrack process IMAGES --stills`) scores the same held-out machines on the tracker's detections that match a
// label (its category, box IoU >= 0.5), rectified from their poses as the tracker does.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "cli_checks.h"
#include "face_maps.h"
#include "tracker/atomic_write.h"
#include "tracker/eval.h"
#include "tracker/io.h"
#include "tracker/labels.h"
#include "tracker/model.h"
#include "tracker/sign_classes.h"

namespace fs = std::filesystem;
using namespace tracker;

namespace {

// The jittered boxes of a labelled sign: as labelled, then shifted by `shift` of its size four ways, each at the
// two scales; the first `count` of them (the order spreads any prefix over shifts and scales).
std::vector<cv::Rect2f> jitters(const cv::Rect2f& b, int count, float shift, float lo, float hi) {
    std::vector<cv::Rect2f> out{b};
    const float moves[8][3] = {{-shift, 0.f, lo}, {shift, 0.f, hi}, {0.f, -shift, hi}, {0.f, shift, lo},
                               {-shift, 0.f, hi}, {shift, 0.f, lo}, {0.f, -shift, lo}, {0.f, shift, hi}};
    for (const auto& m : moves) {
        const float w = b.width * m[2], h = b.height * m[2];
        out.emplace_back(b.x + 0.5f * (b.width - w) + m[0] * b.width, b.y + 0.5f * (b.height - h) + m[1] * b.height, w, h);
    }
    out.resize(static_cast<std::size_t>(std::clamp(count, 1, 9)));
    return out;
}

struct Sign {
    std::string image;
    int fold = 0;
    int class_id = -1;
    Category category = Category::Prohibitory;
    cv::Rect2f box;
    std::vector<cv::Mat> faces; // [0]: as labelled, then the jittered boxes
};

bool is_speed_limit(int id) { return (id >= 0 && id <= 5) || id == 7 || id == 8; }

// Top-1 tallies per category, speed limits and per class, with the class confusion.
struct Score {
    std::map<std::string, std::pair<int, int>> groups; // name -> (right, total)
    std::map<int, std::pair<int, int>> classes;        // true class -> (right, total)
    std::map<std::pair<int, int>, int> confusion;      // (true, predicted) -> count, mistakes only
    int unknown = 0;
    std::vector<std::pair<double, bool>> answers; // (confidence, right) of the top class before the threshold
    void add(Category c, int truth, const ClassScores& a) {
        const int predicted = a.class_id;
        if (!a.scores.empty()) {
            int top = -1;
            double top_votes = -1;
            for (const auto& e : a.scores) {
                if (e.votes > top_votes) {
                    top_votes = e.votes;
                    top = e.class_id;
                }
            }
            answers.emplace_back(a.confidence, top == truth);
        }
        const bool ok = truth == predicted;
        for (const std::string& g : {std::string(to_string(c)), std::string("all modelled")}) {
            groups[g].first += ok;
            ++groups[g].second;
        }
        if (is_speed_limit(truth)) {
            groups["speed limits (0-5, 7, 8)"].first += ok;
            ++groups["speed limits (0-5, 7, 8)"].second;
        }
        if (c == Category::Prohibitory || c == Category::Danger || c == Category::Mandatory) {
            groups["prohibitory+danger+mandatory"].first += ok;
            ++groups["prohibitory+danger+mandatory"].second;
        }
        classes[truth].first += ok;
        ++classes[truth].second;
        if (!ok) ++confusion[{truth, predicted}];
        unknown += predicted < 0;
    }
    nlohmann::json json() const {
        nlohmann::json g = nlohmann::json::object(), k = nlohmann::json::object(), m = nlohmann::json::array();
        for (const auto& [n, v] : groups) g[n] = {{"right", v.first}, {"signs", v.second}, {"accuracy", v.second ? double(v.first) / v.second : 0.0}};
        for (const auto& [n, v] : classes) k[std::to_string(n)] = {{"right", v.first}, {"signs", v.second}};
        for (const auto& [p, n] : confusion) m.push_back({{"truth", p.first}, {"predicted", p.second}, {"count", n}});
        nlohmann::json t = nlohmann::json::array();
        for (const double th : thresholds()) {
            const auto [answered, right] = at(th);
            t.push_back({{"min_confidence", th}, {"answered", answered}, {"right", right}, {"of", answers.size()}});
        }
        return {{"groups", g}, {"classes", k}, {"mistakes", m}, {"unknown", unknown}, {"by_threshold", t}};
    }
    static std::vector<double> thresholds() { return {0.0, 0.5, 0.6, 0.7, 0.8, 0.9}; }
    std::pair<int, int> at(double th) const {
        int answered = 0, right = 0;
        for (const auto& [conf, ok] : answers) {
            if (conf >= th) {
                ++answered;
                right += ok;
            }
        }
        return {answered, right};
    }
    void print(const char* title, const SignClassifier& names) const {
        std::printf("\n%s\n%-32s %7s %7s %9s\n", title, "group", "right", "signs", "accuracy");
        for (const auto& [n, v] : groups) {
            std::printf("%-32s %7d %7d %8.1f%%\n", n.c_str(), v.first, v.second, v.second ? 100.0 * v.first / v.second : 0.0);
        }
        std::printf("unknown answers: %d\nconfidence threshold: answered, right of answered (signs with a machine)\n", unknown);
        for (const double th : thresholds()) {
            const auto [answered, right] = at(th);
            std::printf("  >= %.1f: %4d of %4zu answered, %5.1f%% of them right\n", th, answered, answers.size(),
                        answered ? 100.0 * right / answered : 0.0);
        }
        std::printf("per class (right / signs):");
        int col = 0;
        for (const auto& [n, v] : classes) std::printf("%s%2d: %d/%d", col++ % 8 ? "  " : "\n  ", n, v.first, v.second);
        std::printf("\nmost frequent mistakes (truth -> answer):\n");
        std::vector<std::pair<int, std::pair<int, int>>> worst;
        for (const auto& [p, n] : confusion) worst.push_back({n, p});
        std::sort(worst.rbegin(), worst.rend());
        for (std::size_t i = 0; i < worst.size() && i < 8; ++i) {
            std::printf("  %3d x  %s -> %s\n", worst[i].first, names.name(worst[i].second.first).c_str(),
                        names.name(worst[i].second.second).c_str());
        }
    }
};

struct Options {
    std::string data, labels, images, classes, out, detections, json_out, models_dir;
    int folds = 10, min_examples = 2, jitters = 9;
    double gamma = 0.5, c = 10.0, min_confidence = 0.0, fov = 60.0, mask_fraction = 0.7;
    double shift = 0.05, scale_lo = 0.85, scale_hi = 1.08;
    bool mean_templates = false;
};

// Machines for every category with two or more classes of at least min_examples signs, from the signs for which
// `use` is true (all their faces).
std::map<Category, CategoryMachine> train(const std::vector<Sign>& signs, const Options& o,
                                          const std::map<Category, FaceMask>& masks,
                                          const std::function<bool(const Sign&)>& use) {
    std::map<Category, CategoryMachine> out;
    for (int ci = 0; ci < k_category_count; ++ci) {
        const auto cat = static_cast<Category>(ci);
        std::map<int, int> count;
        for (const auto& s : signs) {
            if (s.category == cat && use(s)) ++count[s.class_id];
        }
        std::vector<cv::Mat> faces;
        std::vector<int> ids;
        std::set<int> kept;
        for (const auto& s : signs) {
            if (s.category != cat || !use(s) || count[s.class_id] < o.min_examples) continue;
            kept.insert(s.class_id);
            for (const auto& f : s.faces) {
                faces.push_back(f);
                ids.push_back(s.class_id);
            }
        }
        if (kept.size() >= 2) out.emplace(cat, train_category_machine(faces, ids, masks.at(cat), o.gamma, o.c));
    }
    return out;
}

int run(const Options& o) {
    const std::string labels_path = !o.labels.empty() ? o.labels : o.data + "/labels.csv";
    const std::string images_dir = !o.images.empty() ? o.images : o.data + "/images";
    const LabelSet set = read_labels(labels_path);
    const auto class_list = SignClassifier::load_class_list(o.classes.empty() ? default_classes_dir() + "/classes.json" : o.classes);
    std::map<int, SignClass> class_of;
    for (const auto& c : class_list) class_of[c.id] = c;

    // Folds: frames in sorted order dealt round-robin.
    std::map<std::string, int> fold_of;
    for (std::size_t i = 0; i < set.images.size(); ++i) fold_of[set.images[i]] = o.folds > 0 ? static_cast<int>(i) % o.folds : 0;

    std::vector<Sign> signs;
    std::map<std::string, std::vector<std::size_t>> by_image;
    for (const auto& l : set.labels) {
        const auto it = class_of.find(l.class_id);
        if (it == class_of.end() || !it->second.category) continue; // no class, or a sign the tracker has no model for
        by_image[l.image].push_back(signs.size());
        Sign s;
        s.image = l.image;
        s.fold = fold_of[l.image];
        s.class_id = l.class_id;
        s.category = *it->second.category;
        s.box = l.box;
        signs.push_back(std::move(s));
    }
    if (signs.empty()) throw std::runtime_error(labels_path + ": no labelled sign of a modelled category with a class id");
    std::map<std::string, std::string> file_of; // image key -> path
    for (const auto& e : fs::directory_iterator(images_dir)) file_of[image_key(e.path().filename().string())] = e.path().string();
    for (auto& [image, idx] : by_image) {
        const auto f = file_of.find(image);
        if (f == file_of.end()) throw std::runtime_error(images_dir + ": no image for label file entry '" + image + "'");
        const cv::Mat bgr = cv::imread(f->second, cv::IMREAD_COLOR);
        if (bgr.empty()) throw std::runtime_error(f->second + ": cannot decode the image");
        for (std::size_t i : idx) {
            std::vector<math::FaceMap> maps;
            for (const auto& b : jitters(signs[i].box, o.jitters, static_cast<float>(o.shift), static_cast<float>(o.scale_lo),
                                                    static_cast<float>(o.scale_hi))) maps.push_back(face_map_for_box(b));
            rectify_faces_cpu(bgr, maps, signs[i].faces);
        }
    }
    std::printf("%zu labelled signs of modelled categories with a class, %zu frames, %d face(s) each\n", signs.size(),
                by_image.size(), static_cast<int>(signs[0].faces.size()));

    nlohmann::json report = {{"signs", signs.size()}, {"frames", by_image.size()}, {"folds", o.folds},
                             {"gamma", o.gamma}, {"c", o.c}, {"min_examples", o.min_examples}, {"jitters", o.jitters}, {"jitter_shift", o.shift}, {"jitter_scales", {o.scale_lo, o.scale_hi}}, {"mask_fraction", o.mask_fraction},
                             {"min_confidence", o.min_confidence}};
    // Each category's compared disc, from its sign model's shape (face_mask_for).
    const auto models = load_sign_models(o.models_dir, {Category::Prohibitory, Category::Danger, Category::Mandatory,
                                                        Category::GiveWay, Category::Stop});
    std::map<Category, FaceMask> masks;
    for (const auto& m : models) masks[m.category] = face_mask_for(m, static_cast<float>(o.mask_fraction));
    const auto machines = train(signs, o, masks, [](const Sign&) { return true; });
    SignClassifier full(class_list, machines, o.min_confidence);
    for (const auto& [cat, m] : machines) {
        std::printf("%-12s %2zu classes, %4d templates, disc at (%.2f, %.2f) radius %.2f of the face\n",
                    std::string(to_string(cat)).c_str(), m.classes.size(), m.faces.rows, m.mask.cx, m.mask.cy, m.mask.radius);
    }

    if (o.folds > 1) {
        std::vector<std::unique_ptr<SignClassifier>> held(static_cast<std::size_t>(o.folds));
        for (int k = 0; k < o.folds; ++k) {
            held[static_cast<std::size_t>(k)] = std::make_unique<SignClassifier>(
                class_list, train(signs, o, masks, [k](const Sign& s) { return s.fold != k; }), o.min_confidence);
        }
        Score boxes;
        for (const auto& s : signs) {
            boxes.add(s.category, s.class_id, held[static_cast<std::size_t>(s.fold)]->classify(s.category, s.faces[0]));
        }
        boxes.print("held out (each frame's signs classified without its fold of frames), on the labelled boxes:", full);
        if (o.mean_templates) {
            // The baseline the machines replace: one mean template per class (the mean of its training signs' faces
            // as labelled, each normalised), the class of the highest normalised cross-correlation within the
            // category, on the same disc and folds.
            Score mean;
            for (const auto& s : signs) {
                const FaceMask& mask = masks.at(s.category);
                const cv::Mat q = face_vector(s.faces[0], mask);
                std::map<int, cv::Mat> sum;
                for (const auto& t : signs) {
                    if (t.category != s.category || t.fold == s.fold) continue;
                    cv::Mat& acc = sum[t.class_id];
                    if (acc.empty()) acc = cv::Mat::zeros(q.size(), CV_32F);
                    acc += face_vector(t.faces[0], mask);
                }
                ClassScores a;
                double best = -2;
                for (const auto& [id, acc] : sum) {
                    const double n = cv::norm(acc);
                    const double ncc = n > 0 ? q.dot(acc) / n : -1.0;
                    a.scores.push_back({id, 0.0, ncc});
                    if (ncc > best) {
                        best = ncc;
                        a.class_id = id;
                    }
                }
                for (auto& e : a.scores) e.votes = e.class_id == a.class_id ? 1.0 : 0.0;
                a.confidence = best;
                mean.add(s.category, s.class_id, a);
            }
            mean.print("baseline, held out the same way: one mean template per class, normalised cross-correlation:", full);
            report["held_out_boxes_mean_templates"] = mean.json();
        }
        report["held_out_boxes"] = boxes.json();

        if (!o.detections.empty()) {
            const PredictionFile pred = read_predictions(o.detections);
            Score dets;
            int matched = 0;
            for (const auto& [frame, rec] : pred.frames) {
                const std::string key = image_key(rec.file);
                const auto idx = by_image.find(key);
                if (rec.file.empty() || idx == by_image.end()) continue;
                const cv::Mat bgr = cv::imread(file_of[key], cv::IMREAD_COLOR);
                const Camera cam = Camera::from_fov(bgr.cols, bgr.rows, o.fov);
                std::set<std::size_t> taken;
                for (const auto& d : pred.detections) {
                    if (d.frame != frame) continue;
                    std::size_t best = 0;
                    double best_iou = 0.5;
                    bool found = false;
                    for (std::size_t i : idx->second) {
                        const double iou = box_iou(d.box, signs[i].box);
                        if (signs[i].category == d.category && !taken.count(i) && iou >= best_iou) {
                            best_iou = iou;
                            best = i;
                            found = true;
                        }
                    }
                    if (!found) continue;
                    taken.insert(best);
                    ++matched;
                    const cv::Mat face = rectify_face(bgr, cam, *base_model(models, d.category), d.pose);
                    const Sign& s = signs[best];
                    dets.add(s.category, s.class_id, held[static_cast<std::size_t>(s.fold)]->classify(s.category, face));
                }
            }
            dets.print("held out, on the tracker's detections matched to a label (category, IoU >= 0.5), rectified from "
                       "their poses:",
                       full);
            report["held_out_detections"] = dets.json();
            report["detections_file"] = o.detections;
        }
    }
    if (!o.out.empty()) {
        write_atomically(o.out, [&](const std::string& tmp) { SignClassifier::save_machines(tmp, machines, o.min_confidence); });
        std::printf("\nwrote %s (%lld bytes)\n", o.out.c_str(), static_cast<long long>(fs::file_size(o.out)));
    }
    if (!o.json_out.empty()) {
        write_atomically(o.json_out, [&](const std::string& tmp) {
            std::ofstream f(tmp);
            f << report.dump(1) << '\n';
            if (!f) throw std::runtime_error(o.json_out + ": cannot write");
        });
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app("train_classes: sign-class templates and machines from labelled frames (tracker/sign_classes.h)");
    Options o;
    app.add_option("--data", o.data, "folder with images/ and labels.csv (the GTSDB dev set's layout)");
    app.add_option("--labels", o.labels, "label CSV (file;left;top;right;bottom;class_id;category), instead of DATA/labels.csv");
    app.add_option("--images", o.images, "image folder, instead of DATA/images");
    app.add_option("--classes", o.classes, "class list (default: the shipped assets/classes/classes.json)");
    app.add_option("--out", o.out, "classifier file to write (e.g. assets/classes/classifier.yml.gz)");
    app.add_option("--folds", o.folds, "held-out measurement over this many folds of frames (0: none)")->check(CLI::Range(0, 1000));
    app.add_option("--detections", o.detections, "JSON lines of `swarmtrack process IMAGES --stills`: score the held-out "
                                                 "machines on its detections too");
    app.add_option("--fov", o.fov, "horizontal field of view the detections were tracked with (degrees)")->check(CLI::Range(1.0, 179.0));
    app.add_option("--models", o.models_dir, "sign model folder of the detections (default: the shipped one)");
    app.add_option("--jitters", o.jitters, "faces per labelled sign: as labelled plus jittered boxes (1-9)")->check(CLI::Range(1, 9));
    app.add_option("--jitter-shift", o.shift, "jittered boxes' shift, a fraction of the sign's size")->check(CLI::Range(0.0, 0.5));
    app.add_option("--jitter-scales", o.scale_lo, "the smaller jittered boxes' scale")->check(CLI::Range(0.5, 1.0));
    app.add_option("--jitter-scale-up", o.scale_hi, "the larger jittered boxes' scale")->check(CLI::Range(1.0, 2.0));
    app.add_option("--mask-fraction", o.mask_fraction, "compared disc: this fraction of the largest circle about the "
                                                       "sign's centre inside its outline")->check(CLI::Range(0.1, 1.0));
    app.add_option("--gamma", o.gamma, "RBF kernel width")->check(tools::above_zero());
    app.add_option("--c", o.c, "SVM soft-margin constant")->check(tools::above_zero());
    app.add_option("--min-examples", o.min_examples, "fewest labelled signs a class needs to be learnt")->check(CLI::Range(1, 1000));
    app.add_option("--min-confidence", o.min_confidence, "answers below this share of duels won are unknown")->check(CLI::Range(0.0, 1.0));
    app.add_option("--json", o.json_out, "write the measurements as JSON");
    app.add_flag("--mean-templates", o.mean_templates, "also score the baseline of one mean template per class (held out)");
    CLI11_PARSE(app, argc, argv);
    if (o.data.empty() && (o.labels.empty() || o.images.empty())) {
        std::fprintf(stderr, "train_classes: error: give --data DIR, or --labels FILE and --images DIR\n");
        return 2;
    }
    try {
        return run(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "train_classes: error: %s\n", e.what());
        return 2;
    }
}
