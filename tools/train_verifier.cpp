// train_verifier: trains the sign verifier (tracker/verifier.h) that the tracker ships in
// assets/verifier/signs.yml.gz, from labelled real frames (the GTSDB dev set's CSV or COCO labels) and from our
// own renderer's synthetic scenes.
//   positives: every labelled sign, as labelled and with a few jittered boxes (a detection's box is never exact,
//   and a small disc's fit runs small: --jitter-smallest);
//   negatives: candidate regions of sign paint (tracker/src/candidates.h) that overlap no label, the regions
//   the tracker's swarms actually start on, and plain discs, triangles and octagons of sign paint drawn into
//   rendered frames.
// It also trains the candidate ranker (tracker/region_ranker.h, assets/verifier/regions.yml.gz): a linear
// sign-or-not score on the same features, from the candidate regions the tracker ranks (positives: the regions
// that frame a labelled sign, and the labelled boxes; negatives: a sample of the regions away from every sign).
// --detections adds the tracker's own finds: `swarmtrack process DIR --stills` run with "verifier": "none" writes
// every pose the swarms fit above the detection threshold; those on no labelled sign are the verifier's hard
// negatives (the red lamps and leaves the fitness takes for signs), those on a sign of their category are
// positives framed as the tracker frames them.
// --mirror also learns from every image (real and rendered) flipped left to right, its labels and finds with it:
// each category's shape and colours are symmetric, so a mirrored sign is a sign of its category (a keep-left arrow
// for keep-right, a curve the other way), and where traffic keeps left those are the common ones; the gradient
// histograms the verifier and ranker read are not mirror-blind, so a German-only training turns them away.
// --holdout-odd trains on the even-numbered images only and reports the held-out accuracy on the odd ones, so a
// figure measured on the dev set can be measured on images the verifier has not seen.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include <CLI/CLI.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/ml.hpp>

#include "candidate_jobs.h"
#include "candidates.h"
#include "cli_checks.h"
#include "scenes/synthetic.h"
#include "tracker/atomic_write.h"
#include "tracker/eval.h"
#include "tracker/io.h"
#include "tracker/labels.h"
#include "tracker/region_ranker.h"
#include "tracker/tracker.h"
#include "tracker/verifier.h"

namespace fs = std::filesystem;
using namespace tracker;

namespace {

using SignBoxes = std::vector<std::pair<cv::Rect2f, int>>; // a frame's sign boxes and their verifier classes

struct Samples {
    cv::Mat x;
    std::vector<int> y; // verifier classes (the ranker learns only sign or not from them)
    void add(const cv::Mat& bgr, const cv::Rect2f& box, int label) {
        x.push_back(SignVerifier::features(bgr, box));
        y.push_back(label);
    }
};

// A box moved by up to 8 % of its size and scaled by `smallest` to 1.12. The tracker's fits of small discs run
// smaller than their labels (fitted from the label's own box, a tenth of the dev set's mandatory and stop signs end
// under 0.8 of the label's width, prohibitory's under 0.86), so the positives reach down to 0.75: a verifier that
// never saw such boxes turns away the signs they frame (docs/benchmarks.md, "Real footage", "The verifier's jitter").
cv::Rect2f jitter(const cv::Rect2f& b, float smallest, std::mt19937& rng) {
    std::uniform_real_distribution<float> shift(-0.08f, 0.08f), scale(smallest, 1.12f);
    const float s = scale(rng), w = b.width * s, h = b.height * s;
    return {b.x + 0.5f * (b.width - w) + shift(rng) * b.width, b.y + 0.5f * (b.height - h) + shift(rng) * b.height, w,
            h};
}

int label_class(const std::optional<Category>& c) {
    return c ? verifier_class(static_cast<int>(*c)) : k_verifier_other_sign;
}

// Sign crops (as labelled and jittered) and candidate regions away from every sign, from one frame, for the
// verifier; the regions that frame a sign and a sample of those away from every sign, for the ranker.
void add_frame(const cv::Mat& bgr, const SignBoxes& signs, int negatives, int jitters, float jitter_smallest,
               int ranker_negatives, std::mt19937& rng, Samples& out, Samples& ranker) {
    for (const auto& [box, cls] : signs) {
        out.add(bgr, box, cls);
        ranker.add(bgr, box, cls);
        for (int j = 0; j < jitters; ++j) {
            out.add(bgr, jitter(box, jitter_smallest, rng), cls);
        }
    }
    CandidateOptions opt;
    opt.max_candidates = 2000;
    auto regions = find_candidates(bgr, opt);
    std::shuffle(regions.begin(), regions.end(), rng);
    int taken = 0, ranker_taken = 0;
    for (const auto& r : regions) {
        const cv::Rect2f box(r.box);
        bool near_sign = false;
        int framed = -1; // the class of a sign the region frames
        for (const auto& s : signs) {
            near_sign = near_sign || box_iou(box, s.first) > 0.2;
            if (framed < 0 && region_frames_sign(box, s.first)) {
                framed = s.second;
            }
        }
        if (framed >= 0) {
            ranker.add(bgr, box, framed);
        } else if (!near_sign && ranker_taken < ranker_negatives) {
            ranker.add(bgr, box, k_verifier_background);
            ++ranker_taken;
        }
        if (!near_sign && taken < negatives) {
            out.add(bgr, box, k_verifier_background);
            ++taken;
        }
    }
}

// Plain shapes of sign paint (a red lamp, a blue board, a red triangle with nothing inside): no sign, though
// they have a sign's colour and outline; the pose fitness's every-part rule and the verifier both reject them.
void add_plain_shapes(const cv::Mat& frame, int count, std::mt19937& rng, Samples& out) {
    std::uniform_int_distribution<int> size(12, 70), kind(0, 2), colour(0, 2);
    const cv::Scalar paints[3] = {cv::Scalar(40, 40, 200), cv::Scalar(190, 90, 20), cv::Scalar(30, 30, 140)};
    for (int i = 0; i < count; ++i) {
        cv::Mat f = frame.clone();
        const int s = size(rng);
        std::uniform_int_distribution<int> x(s, f.cols - 2 * s), y(s, f.rows - 2 * s);
        const int cx = x(rng); // one draw per statement: argument order is the compiler's
        const int cy = y(rng);
        const cv::Point c(cx, cy);
        const cv::Scalar paint = paints[colour(rng)];
        const int k = kind(rng);
        if (k == 0) {
            cv::circle(f, c, s / 2, paint, cv::FILLED, cv::LINE_AA);
        } else {
            const int n = k == 1 ? 3 : 8;
            std::vector<cv::Point> poly;
            for (int v = 0; v < n; ++v) {
                const double a = -CV_PI / 2 + 2 * CV_PI * v / n + (n == 8 ? CV_PI / 8 : 0);
                poly.emplace_back(c.x + cvRound(0.5 * s * std::cos(a)), c.y + cvRound(0.5 * s * std::sin(a)));
            }
            cv::fillConvexPoly(f, poly, paint, cv::LINE_AA);
        }
        out.add(f, cv::Rect2f(c.x - 0.5f * s, c.y - 0.5f * s, static_cast<float>(s), static_cast<float>(s)),
                k_verifier_background);
    }
}

// The tracker's detections on one image, by the labels: on no sign (IoU below 0.2 with every label, modelled
// or not) a negative; on a sign of the detection's category (IoU at least 0.5) a positive of that class.
int add_detections(const cv::Mat& bgr, const SignBoxes& signs, const std::vector<const Detection*>& found,
                   Samples& out) {
    int added = 0;
    for (const Detection* d : found) {
        double best = 0;
        int best_class = k_verifier_background;
        for (const auto& [box, cls] : signs) {
            const double iou = box_iou(d->box, box);
            if (iou > best) {
                best = iou;
                best_class = cls;
            }
        }
        if (best < 0.2) {
            out.add(bgr, d->box, k_verifier_background);
            ++added;
        } else if (best >= 0.5 && best_class == verifier_class(static_cast<int>(d->category))) {
            out.add(bgr, d->box, best_class);
            ++added;
        }
    }
    return added;
}

// add_detections reads a frame's finds through pointers, as found_on holds them.
std::vector<const Detection*> pointers_to(const std::vector<Detection>& detections) {
    std::vector<const Detection*> p;
    for (const auto& d : detections) {
        p.push_back(&d);
    }
    return p;
}

// A frame flipped left to right, with its sign boxes and the tracker's finds on it (mirrored too: the tracker's
// models are symmetric, so its finds on the flipped frame are close to its finds flipped).
struct FlippedFrame {
    cv::Mat bgr;
    SignBoxes signs;
    std::vector<Detection> found;
};

FlippedFrame flipped(const cv::Mat& bgr, const SignBoxes& signs, const std::vector<const Detection*>& found) {
    const auto mirror = [w = static_cast<float>(bgr.cols)](const cv::Rect2f& b) {
        return cv::Rect2f(w - b.x - b.width, b.y, b.width, b.height);
    };
    FlippedFrame f;
    cv::flip(bgr, f.bgr, 1);
    for (const auto& [box, cls] : signs) {
        f.signs.emplace_back(mirror(box), cls);
    }
    for (const Detection* d : found) {
        f.found.push_back(*d);
        f.found.back().box = mirror(d->box);
    }
    return f;
}

// One frame's samples (add_frame, and add_detections for the tracker's finds on it), and its mirror image's when
// `mirror` is set.
int add_image(const cv::Mat& bgr, const SignBoxes& signs, const std::vector<const Detection*>& found, bool mirror,
              int negatives, int jitters, float jitter_smallest, int ranker_negatives, std::mt19937& rng, Samples& out,
              Samples& ranker) {
    add_frame(bgr, signs, negatives, jitters, jitter_smallest, ranker_negatives, rng, out, ranker);
    int from_tracker = add_detections(bgr, signs, found, out);
    if (mirror) {
        const FlippedFrame f = flipped(bgr, signs, found);
        add_frame(f.bgr, f.signs, negatives, jitters, jitter_smallest, ranker_negatives, rng, out, ranker);
        from_tracker += add_detections(f.bgr, f.signs, pointers_to(f.found), out);
    }
    return from_tracker;
}

// The tracker's own finds on our rendered scenes, run as a user runs them (tracking on, no verifier), matched
// with the scenes' exact truth as add_detections matches real finds with labels. A far rendered sign is framed
// by the pose search, not by its truth box, and it is the first sighting of each sign that the verifier judges:
// without these crops a verifier taught on real finds turns away far rendered signs it never saw framed so.
int add_scene_finds(int frames, unsigned long long seed, bool mirror, Samples& out) {
    int added = 0;
    for (const auto& name : scene_names()) {
        auto scene = create_scene(name, 1280, 720, seed + 29);
        TrackerSettings settings;
        settings.engine.backend = swarm::Backend::Cpu;
        settings.signs.verifier = "none";
        settings.signs.classes = "none";
        settings.search.seed = seed;
        auto tracker = create_tracker(settings, scene->camera());
        for (int i = 0; i < frames; ++i) {
            const SceneFrame frame = scene->next();
            const FrameResult result = tracker->process(frame.bgr);
            if (i % 3 != 0) {
                continue; // consecutive frames are near copies
            }
            SignBoxes signs;
            for (const auto& t : frame.truth) {
                signs.emplace_back(t.box, verifier_class(static_cast<int>(t.category)));
            }
            const std::vector<const Detection*> found = pointers_to(result.detections);
            added += add_detections(frame.bgr, signs, found, out);
            if (mirror) {
                const FlippedFrame f = flipped(frame.bgr, signs, found);
                added += add_detections(f.bgr, f.signs, pointers_to(f.found), out);
            }
        }
    }
    return added;
}

// A failed run leaves no half-written model.
template <typename Model>
void save_model(const Model& model, const std::string& out) {
    fs::create_directories(fs::path(out).parent_path().empty() ? fs::path(".") : fs::path(out).parent_path());
    write_atomically(out, [&](const std::string& temp) { model.save(temp); });
}

std::string verifier_class_name(int cls) {
    return cls == k_verifier_other_sign
               ? "other sign"
               : std::string(to_string(static_cast<Category>(category_of_verifier_class(cls))));
}

// Share of a set's sign and non-sign samples that the ranker puts on the sign side, and of each class's signs: a
// rare category that the boundary gives away shows there, not in the total.
void report_ranker(const char* what, const RegionRanker& ranker, const Samples& set) {
    int signs = 0, background = 0, signs_up = 0, background_up = 0;
    std::array<int, k_verifier_classes> of_class{}, of_class_up{};
    for (int i = 0; i < set.x.rows; ++i) {
        const auto row = static_cast<std::size_t>(i);
        const bool up = ranker.score_features(set.x.row(i)) > 0.f;
        if (set.y[row] != k_verifier_background) {
            ++signs;
            signs_up += up;
            ++of_class[static_cast<std::size_t>(set.y[row])];
            of_class_up[static_cast<std::size_t>(set.y[row])] += up;
        } else {
            ++background;
            background_up += up;
        }
    }
    std::printf("ranker, %s: signs scored above 0: %.1f %% of %d; non-sign regions: %.2f %% of %d\n", what,
                100.0 * signs_up / std::max(1, signs), signs, 100.0 * background_up / std::max(1, background),
                background);
    for (int cls = 1; cls < k_verifier_classes; ++cls) {
        const int n = of_class[static_cast<std::size_t>(cls)], up = of_class_up[static_cast<std::size_t>(cls)];
        if (n == 0) {
            std::printf("  %-12s no signs\n", verifier_class_name(cls).c_str());
        } else {
            std::printf("  %-12s %5.1f %% of %d\n", verifier_class_name(cls).c_str(), 100.0 * up / n, n);
        }
    }
}

void train_ranker(const Samples& train, const Samples& held, double c, const std::string& out) {
    auto svm = cv::ml::SVM::create();
    svm->setType(cv::ml::SVM::C_SVC);
    svm->setKernel(cv::ml::SVM::LINEAR);
    svm->setC(c);
    // OpenCV's default of 1000 solver steps stops far from the optimum on tens of thousands of regions.
    svm->setTermCriteria(cv::TermCriteria(cv::TermCriteria::MAX_ITER + cv::TermCriteria::EPS, 200000, 1e-4));
    // Signs are a few per cent of the regions: weigh them up so the boundary does not give them away.
    std::vector<int> is_sign;
    for (int y : train.y) {
        is_sign.push_back(y != k_verifier_background ? 1 : 0);
    }
    const int signs = static_cast<int>(std::count(is_sign.begin(), is_sign.end(), 1));
    cv::Mat weights = (cv::Mat_<double>(1, 2) << 1.0, static_cast<double>(train.x.rows - signs) / std::max(1, signs));
    svm->setClassWeights(weights);
    svm->train(cv::ml::TrainData::create(train.x, cv::ml::ROW_SAMPLE, cv::Mat(is_sign, true)));
    const RegionRanker ranker(*svm);
    report_ranker("training set", ranker, train);
    if (held.x.rows > 0) {
        report_ranker("held-out odd images", ranker, held);
    }
    save_model(ranker, out);
    std::printf("train_verifier: candidate ranker -> %s\n", out.c_str());
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"train_verifier: trains the tracker's sign verifier from labelled frames and rendered scenes"};
    std::string data = "../shared/data/gtsdb-dev", labels_path, out = "assets/verifier/signs.yml.gz";
    std::string ranker_out = "assets/verifier/regions.yml.gz", which = "both", detections_path;
    int negatives = 30, jitters = 3, synthetic_frames = 120, ranker_negatives = 80, scene_finds = 0;
    double ranker_c = 0.1;
    bool holdout_odd = false, mirror = false;
    double c = 3.0, gamma = 0.05, positive_weight = 4.0;
    float jitter_smallest = 0.75f;
    unsigned seed = 1;
    app.add_option("--data", data, "Folder of labelled images (DIR/images/*, DIR/labels.csv)")->capture_default_str();
    app.add_option("--labels", labels_path, "Labels file (.csv or COCO .json); default DIR/labels.csv");
    app.add_option("--out", out, "Where to write the verifier (.yml.gz)")->capture_default_str();
    app.add_option("--ranker-out", ranker_out, "Where to write the candidate ranker (.yml.gz)")->capture_default_str();
    app.add_option("--train", which, "What to train: verifier, ranker or both")
        ->capture_default_str()
        ->check(CLI::IsMember({"verifier", "ranker", "both"}));
    app.add_option("--ranker-negatives", ranker_negatives, "Non-sign regions per image for the ranker")
        ->capture_default_str()
        ->check(CLI::Range(0, 5000));
    app.add_option("--ranker-c", ranker_c, "Linear SVM C of the ranker")
        ->capture_default_str()
        ->check(tools::above_zero());
    app.add_option("--negatives", negatives, "Non-sign regions per image")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000));
    app.add_option("--jitters", jitters, "Jittered copies of each sign box")
        ->capture_default_str()
        ->check(CLI::Range(0, 20));
    app.add_option("--jitter-smallest", jitter_smallest, "Smallest scale of a jittered sign box (the largest is 1.12)")
        ->capture_default_str()
        ->check(CLI::Range(0.5, 1.0));
    app.add_option("--synthetic-frames", synthetic_frames, "Rendered frames per synthetic scene")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    app.add_option("--detections", detections_path,
                   "detections.jsonl of `swarmtrack process DATA/images --stills` with \"verifier\": \"none\": the "
                   "tracker's finds on no sign are negatives, those on a sign of their category positives");
    app.add_option("--scene-finds", scene_finds,
                   "Frames per rendered scene to run the tracker over (no verifier), its finds as samples")
        ->capture_default_str()
        ->check(CLI::Range(0, 10000));
    app.add_flag("--mirror", mirror, "Also learn from each image flipped left to right (its labels and finds too)");
    app.add_flag("--holdout-odd", holdout_odd, "Train on even-numbered images, report accuracy on the odd ones");
    app.add_option("--c", c, "SVM C")->capture_default_str()->check(tools::above_zero());
    app.add_option("--gamma", gamma, "RBF kernel gamma")->capture_default_str()->check(tools::above_zero());
    app.add_option("--positive-weight", positive_weight, "Class weight of the sign classes")
        ->capture_default_str()
        ->check(tools::above_zero());
    app.add_option("--seed", seed, "Random seed")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        const fs::path images =
            fs::is_directory(fs::path(data) / "images") ? fs::path(data) / "images" : fs::path(data);
        const LabelSet set = read_labels(labels_path.empty() ? (fs::path(data) / "labels.csv").string() : labels_path);
        std::map<std::string, SignBoxes> by_image;
        for (const auto& l : set.labels) {
            by_image[l.image].emplace_back(l.box, label_class(l.category));
        }
        std::map<std::string, fs::path> files;
        for (const auto& e : fs::directory_iterator(images)) {
            files[image_key(e.path().filename().string())] = e.path();
        }
        // The tracker's finds by image key, when given.
        PredictionFile found;
        std::map<std::string, std::vector<const Detection*>> found_on;
        if (!detections_path.empty()) {
            found = read_predictions(detections_path);
            std::map<long long, std::string> key_of;
            for (const auto& [f, rec] : found.frames) {
                if (rec.file.empty()) {
                    throw std::runtime_error(detections_path + ": frame " + std::to_string(f) +
                                             " names no image; write it with `swarmtrack process DIR --stills`");
                }
                key_of[f] = image_key(rec.file);
            }
            for (const auto& d : found.detections) {
                found_on[key_of[d.frame]].push_back(&d);
            }
        }
        std::mt19937 rng(seed);
        const std::vector<const Detection*> none;
        Samples train, held, rank_train, rank_held;
        int from_tracker = 0;
        int index = 0, used = 0;
        for (const auto& key : set.images) {
            const bool odd = (index++ % 2) == 1;
            auto f = files.find(key);
            if (f == files.end()) {
                continue;
            }
            const cv::Mat bgr = cv::imread(f->second.string(), cv::IMREAD_COLOR);
            if (bgr.empty()) {
                std::fprintf(stderr, "train_verifier: %s does not decode; skipped\n", f->second.c_str());
                continue;
            }
            const bool hold = holdout_odd && odd;
            const auto d = found_on.find(key);
            const int n = add_image(bgr, by_image[key], d == found_on.end() ? none : d->second, mirror && !hold,
                                    negatives, hold ? 0 : jitters, jitter_smallest, ranker_negatives, rng,
                                    hold ? held : train, hold ? rank_held : rank_train);
            from_tracker += hold ? 0 : n;
            ++used;
        }
        // Our renderer's signs too, so that the verifier passes the synthetic scenes' signs (their exact-pose
        // checks) as well as real ones.
        int rendered = 0;
        for (const auto& name : scene_names()) {
            auto scene = create_scene(name, 1280, 720, seed + 17);
            for (int i = 0; i < synthetic_frames; ++i) {
                const SceneFrame frame = scene->next();
                if (i % 4 != 0) {
                    continue; // consecutive frames are near copies
                }
                SignBoxes signs;
                for (const auto& t : frame.truth) {
                    if (t.visible > 0.5 && t.box.width >= 8) {
                        signs.emplace_back(t.box, verifier_class(static_cast<int>(t.category)));
                    }
                }
                add_image(frame.bgr, signs, {}, mirror, negatives / 3, 1, jitter_smallest, ranker_negatives / 3, rng,
                          train, rank_train);
                add_plain_shapes(frame.bgr, 4, rng, train);
                ++rendered;
            }
        }
        if (scene_finds > 0 && which != "ranker") {
            from_tracker += add_scene_finds(scene_finds, seed, mirror, train);
        }
        std::printf("train_verifier: %d real images%s, %d rendered frames, %d verifier samples (%d of them the "
                    "tracker's finds) and %d ranker samples\n",
                    used, mirror ? " (each also mirrored, as the rendered frames)" : "", rendered, train.x.rows,
                    from_tracker, rank_train.x.rows);
        if (which != "verifier") {
            train_ranker(rank_train, rank_held, ranker_c, ranker_out);
        }
        if (which == "ranker") {
            return 0;
        }
        auto svm = cv::ml::SVM::create();
        svm->setType(cv::ml::SVM::C_SVC);
        svm->setKernel(cv::ml::SVM::RBF);
        svm->setC(c);
        svm->setGamma(gamma);
        cv::Mat weights(1, k_verifier_classes, CV_64F, cv::Scalar(positive_weight));
        weights.at<double>(0, k_verifier_background) = 1.0;
        svm->setClassWeights(weights);
        svm->train(cv::ml::TrainData::create(train.x, cv::ml::ROW_SAMPLE, cv::Mat(train.y, true)));
        if (holdout_odd && held.x.rows > 0) {
            int signs = 0, found = 0, right = 0, background = 0, false_alarm = 0;
            for (int i = 0; i < held.x.rows; ++i) {
                const int p = static_cast<int>(svm->predict(held.x.row(i)));
                if (held.y[static_cast<std::size_t>(i)] == k_verifier_background) {
                    ++background;
                    false_alarm += p != k_verifier_background;
                } else {
                    ++signs;
                    found += p != k_verifier_background;
                    right += p == held.y[static_cast<std::size_t>(i)];
                }
            }
            std::printf("held-out odd images: signs passed %.1f %%, right class %.1f %% (%d signs); "
                        "non-sign regions passed %.2f %% (%d)\n",
                        100.0 * found / std::max(1, signs), 100.0 * right / std::max(1, signs), signs,
                        100.0 * false_alarm / std::max(1, background), background);
        }
        save_model(*svm, out);
        std::printf("train_verifier: %d support vectors -> %s\n", svm->getSupportVectors().rows, out.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "train_verifier: error: %s\n", e.what());
        return 2;
    }
    return 0;
}
