// angle_bound: how much the pose fitness tells about a sign's yaw and pitch, per sign size, at best.
//
// For every ground-truth sign of a synthetic scene (the ones the evaluation counts), the fitness is scanned
// over a yaw x pitch grid (the tracker's default +-30 x +-10 degrees, 1 x 2 degrees apart) with the position,
// depth and roll held at the truth: a perfect search of those angles, at a perfect position. Estimators over
// these profiles are scored as `eval` scores detections (median rotation error, per size class):
//   zero          every angle 0 (what an estimator without angle information scores)
//   frame         the best grid point of the frame's own profile
//   causal        the best grid point of the profiles summed over the track so far, frame weights size^k,
//                 older frames fading by `memory` a frame (what a live tracker could do with them)
//   posterior     the mean of exp(summed profile x (size / 40 px)^2 / tau) over the grid, older frames fading
//                 by 0.97, times a Gaussian prior at 0 (--prior-yaw / --prior-pitch sigmas; 0: flat)
//   two-sided     the best grid point of the whole track's profiles, future frames included (what offline
//                 smoothing can use)
// A live tracker measures at its own estimate of the position, with a finite search, so it does worse.
// `--at tracker` measures that: the CPU tracker runs over the scene alongside, and each counted sign it
// matches (as `eval` matches) is scanned at the tracker's position, depth and roll instead of the truth; the
// row `tracker` is the tracker's own angles there. `--refit-px` / `--refit-depth` make each angle cell's value
// its best (a profile likelihood) or, with `--marginal`, its mean likelihood over a 3x3x3 lattice of positions
// around that point, to see whether re-fitting the position per angle recovers what the truth's slice knows.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "preprocess.h"
#include "scenes/synthetic.h"
#include "sign_evaluator.h"
#include "tracker/eval.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/tracker.h"

namespace {

using namespace tracker;

constexpr int k_yaw_half = 30;  // yaw grid -30 .. 30 degrees, 1 degree apart: the tracker's default yaw range
constexpr int k_pitch_half = 5; // pitch grid -10 .. 10 degrees, 2 degrees apart: the default pitch range
constexpr int k_yaws = 2 * k_yaw_half + 1, k_pitches = 2 * k_pitch_half + 1;

struct SignFrame {
    long long frame;
    int id;
    Category category;
    double size_px;
    Pose truth;
    Pose base;                  // where the profile was scanned: the truth, or the tracker's detection
    std::vector<float> profile; // k_pitches x k_yaws fitness values
};

Pose grid_pose(const Pose& base, std::size_t cell) {
    Pose p = base;
    p.yaw = static_cast<double>(static_cast<int>(cell % k_yaws) - k_yaw_half);
    p.pitch = 2.0 * static_cast<double>(static_cast<int>(cell / k_yaws) - k_pitch_half);
    return p;
}

double angle_error(const SignFrame& s, const Pose& estimate) {
    // As `eval` scores it: a ring's roll is not observable.
    return s.category == Category::Prohibitory ? normal_error_deg(s.truth, estimate) : rotation_error_deg(s.truth, estimate);
}

double best_cell_error(const SignFrame& s, const std::vector<double>& sum) {
    const auto best = static_cast<std::size_t>(std::max_element(sum.begin(), sum.end()) - sum.begin());
    return angle_error(s, grid_pose(s.base, best));
}

const std::vector<double> k_size_edges = {14, 20, 30, 40, 60, 100};

// Index of the size class (k_size_edges) a sign of this size falls in.
std::size_t size_class(double size_px) {
    std::size_t b = 0;
    while (b + 1 < k_size_edges.size() && size_px >= k_size_edges[b + 1]) ++b;
    return b;
}

using Tracks = std::map<int, std::vector<std::size_t>>; // sign id -> its frames' indices, in frame order

// Walks every track in frame order keeping `sum`, the profiles so far, each weighted by weight(sign frame) and
// faded by `memory` per frame of age; calls at(i, sum) once frame i is in.
template <typename Weight, typename At>
void causal_sums(const Tracks& tracks, const std::vector<SignFrame>& signs, double memory, Weight weight, At at) {
    for (const auto& [id, idx] : tracks) {
        std::vector<double> sum(k_yaws * k_pitches, 0.0);
        std::size_t previous = idx.front();
        for (std::size_t i : idx) {
            const double fade = std::pow(memory, static_cast<double>(signs[i].frame - signs[previous].frame));
            previous = i;
            const double w = weight(signs[i]);
            for (std::size_t c = 0; c < sum.size(); ++c) sum[c] = fade * sum[c] + w * signs[i].profile[c];
            at(i, sum);
        }
    }
}

void report(const std::string& name, const std::vector<SignFrame>& signs, const std::vector<double>& errors) {
    std::vector<std::vector<double>> by_size(k_size_edges.size());
    std::size_t within = 0;
    for (std::size_t i = 0; i < signs.size(); ++i) {
        by_size[size_class(signs[i].size_px)].push_back(errors[i]);
        within += errors[i] <= 3.0;
    }
    std::printf("%-22s %6.2f %7.2f", name.c_str(), median(errors), static_cast<double>(within) / static_cast<double>(errors.size()));
    for (const auto& v : by_size) {
        if (v.empty()) {
            std::printf(" %8s", "-");
        } else {
            std::printf(" %8.2f", median(v));
        }
    }
    std::printf("\n");
}

struct Options {
    std::string scene = "crowded";
    unsigned long long seed = 11;
    int width = 1280, height = 720;
    long long frames = 0;
    double prior_yaw = 0, prior_pitch = 0;
    std::string at = "truth"; // truth | tracker
    std::string config;       // tracker settings (--at tracker)
    double refit_px = 0;      // profile: each angle cell takes its best over a 3x3x3 position lattice this many
    double refit_depth_pct = 0; // pixels apart sideways and this many percent apart in depth (0: no lattice)
    bool marginal = false;      // the lattice is averaged (as likelihoods) instead of maximised
};

// A sign frame's weight in the posterior: its fitness counts (width / 40 px)^2 / tau in the log-likelihood.
double posterior_weight(double size_px, double tau) { return std::pow(size_px / 40.0, 2) / tau; }
constexpr double k_marginal_tau = 0.01; // --marginal integrates the lattice out at the tau 0.010 posterior's scale

// The positions around a scan point that --refit-px / --refit-depth add (3 x 3 x 3 when on).
struct Lattice {
    bool on;
    double side_m, depth_m; // steps in metres at the scan point's depth
    bool marginal;          // integrate the positions out instead of taking the best
};

// One angle cell's value: the fitness at `at`, or over the lattice around it its best (a profile likelihood) or
// its log-mean likelihood at the tau 0.010 posterior's scale for a sign this size (the position integrated out).
double cell_value(const SignEvaluator& evaluator, const Pose& at, int model, const Lattice& l, double size_px) {
    if (!l.on) return evaluator.score(at, model);
    std::array<double, 27> values{};
    std::size_t n = 0;
    for (int dz = -1; dz <= 1; ++dz) {
        for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
                Pose p = at;
                p.x += dx * l.side_m;
                p.y += dy * l.side_m;
                p.z += dz * l.depth_m;
                values[n++] = evaluator.score(p, model);
            }
        }
    }
    const double best = *std::max_element(values.begin(), values.end());
    if (!l.marginal) return best;
    const double k = posterior_weight(size_px, k_marginal_tau);
    double z = 0;
    for (double v : values) z += std::exp(k * (v - best));
    return best + std::log(z / static_cast<double>(values.size())) / k;
}

int run(const Options& o) {
    auto scene = create_scene(o.scene, o.width, o.height, o.seed);
    const long long frames = o.frames > 0 ? o.frames : scene->frame_count();
    const auto models = load_sign_models("", {Category::Prohibitory, Category::Danger, Category::Mandatory,
                                              Category::GiveWay, Category::Stop});
    const Camera camera = scene->camera();
    // The scans score with the tracker's fitness weights: the defaults, or --config's.
    TrackerSettings settings = o.config.empty() ? TrackerSettings{} : TrackerSettings::load(o.config);
    SignEvaluator evaluator(models, PoseSpace{}, camera, fitness_weights(settings));
    std::unique_ptr<Tracker> live;
    if (o.at == "tracker") {
        settings.engine.backend = swarm::Backend::Cpu;
        live = create_tracker(settings, camera);
    }
    const EvalSettings care; // the evaluation's don't-care rules
    ClassMaps maps;
    std::vector<SignFrame> signs;
    // --at tracker: the tracker's own angles, per sign frame; and with only its roll, or only its yaw and pitch,
    // put on the truth (which of them costs more).
    std::vector<double> tracker_errors, roll_errors, yaw_pitch_errors;
    const bool refit = o.refit_px > 0 || o.refit_depth_pct > 0;
    for (long long t = 0; t < frames; ++t) {
        const SceneFrame frame = scene->next();
        std::vector<int> matched(frame.truth.size(), -1);
        FrameResult result;
        if (live) {
            result = live->process(frame.bgr);
            std::vector<const GroundTruth*> truth;
            std::vector<const Detection*> detections;
            for (const auto& g : frame.truth) truth.push_back(&g);
            for (const auto& d : result.detections) detections.push_back(&d);
            const cv::Rect2f image(0, 0, static_cast<float>(frame.bgr.cols), static_cast<float>(frame.bgr.rows));
            matched = match_frame(truth, detections, care.match_iou, image);
        }
        preprocess_cpu(frame.bgr, maps);
        evaluator.set_host_maps(&maps);
        for (std::size_t gi = 0; gi < frame.truth.size(); ++gi) {
            const GroundTruth& g = frame.truth[gi];
            if (!care.counts(g)) continue;
            const double size = std::max(g.box.width, g.box.height);
            if (live && matched[gi] < 0) continue; // a miss: `eval` scores no rotation for it
            const int model = static_cast<int>(std::find_if(models.begin(), models.end(), [&](const SignModel& m) {
                                                   return m.category == g.category;
                                               }) - models.begin());
            const Pose base = live ? result.detections[static_cast<std::size_t>(matched[gi])].pose : g.pose;
            SignFrame s{t, g.id, g.category, size, g.pose, base, std::vector<float>(k_yaws * k_pitches)};
            if (live) {
                tracker_errors.push_back(angle_error(s, base));
                Pose roll_only = g.pose, yaw_pitch_only = base;
                roll_only.roll = base.roll;
                yaw_pitch_only.roll = g.pose.roll;
                roll_errors.push_back(angle_error(s, roll_only));
                yaw_pitch_errors.push_back(angle_error(s, yaw_pitch_only));
            }
            const Lattice lattice{refit, o.refit_px * base.z / camera.fx, o.refit_depth_pct / 100.0 * base.z, o.marginal};
            for (std::size_t c = 0; c < s.profile.size(); ++c) {
                s.profile[c] = static_cast<float>(cell_value(evaluator, grid_pose(base, c), model, lattice, size));
            }
            signs.push_back(std::move(s));
        }
    }
    if (signs.empty()) {
        std::fprintf(stderr, "angle_bound: scene '%s' has no counted sign in %lld frames; use more --frames\n",
                     o.scene.c_str(), frames);
        return 1;
    }

    std::printf("angle_bound: scene %s seed %llu, %dx%d, %lld frames, %zu counted sign frames, scanned at the %s",
                o.scene.c_str(), o.seed, o.width, o.height, frames, signs.size(),
                live ? "tracker's detections" : "true poses");
    if (refit) {
        std::printf(", each cell's %s over +-%g px, +-%g %% depth", o.marginal ? "mean likelihood" : "best", o.refit_px,
                    o.refit_depth_pct);
    }
    std::printf("\n");
    std::printf("%-22s %6s %7s", "estimator", "median", "<=3deg");
    for (std::size_t b = 0; b < k_size_edges.size(); ++b) {
        char label[32];
        if (b + 1 < k_size_edges.size()) {
            std::snprintf(label, sizeof label, "%g-%gpx", k_size_edges[b], k_size_edges[b + 1]);
        } else {
            std::snprintf(label, sizeof label, ">=%gpx", k_size_edges[b]);
        }
        std::printf(" %8s", label);
    }
    std::printf("\n");
    std::vector<std::size_t> counts(k_size_edges.size());
    for (const auto& s : signs) ++counts[size_class(s.size_px)];
    std::printf("%-22s %6s %7s", "(sign frames)", "", "");
    for (auto c : counts) std::printf(" %8zu", c);
    std::printf("\n");

    std::vector<double> errors(signs.size());
    for (std::size_t i = 0; i < signs.size(); ++i) {
        Pose zero = signs[i].base;
        zero.yaw = zero.pitch = 0;
        errors[i] = angle_error(signs[i], zero);
    }
    report("zero", signs, errors);
    if (live) {
        report("tracker", signs, tracker_errors);
        report("tracker roll only", signs, roll_errors);
        report("tracker yaw+pitch only", signs, yaw_pitch_errors);
    }
    for (std::size_t i = 0; i < signs.size(); ++i) {
        errors[i] = best_cell_error(signs[i], std::vector<double>(signs[i].profile.begin(), signs[i].profile.end()));
    }
    report("frame", signs, errors);

    // Tracks in frame order (signs[] is already in frame order).
    Tracks tracks;
    for (std::size_t i = 0; i < signs.size(); ++i) tracks[signs[i].id].push_back(i);
    for (const auto& [power, memory] : std::vector<std::pair<double, double>>{{0, 1.0}, {2, 0.97}, {4, 0.97}, {4, 1.0}}) {
        causal_sums(
            tracks, signs, memory, [power = power](const SignFrame& s) { return std::pow(s.size_px, power); },
            [&](std::size_t i, const std::vector<double>& sum) { errors[i] = best_cell_error(signs[i], sum); });
        char name[40];
        std::snprintf(name, sizeof name, "causal size^%g m%.2f", power, memory);
        report(name, signs, errors);
    }
    for (const double tau : {0.003, 0.01, 0.03}) {
        causal_sums(
            tracks, signs, 0.97, [tau](const SignFrame& s) { return posterior_weight(s.size_px, tau); },
            [&](std::size_t i, const std::vector<double>& sum) {
                const double top = *std::max_element(sum.begin(), sum.end());
                double z = 0, yaw = 0, pitch = 0;
                for (std::size_t c = 0; c < sum.size(); ++c) {
                    const Pose g = grid_pose(signs[i].base, c);
                    double log_prior = 0;
                    if (o.prior_yaw > 0) log_prior -= 0.5 * (g.yaw / o.prior_yaw) * (g.yaw / o.prior_yaw);
                    if (o.prior_pitch > 0) log_prior -= 0.5 * (g.pitch / o.prior_pitch) * (g.pitch / o.prior_pitch);
                    const double p = std::exp(sum[c] - top + log_prior);
                    z += p;
                    yaw += p * g.yaw;
                    pitch += p * g.pitch;
                }
                Pose estimate = signs[i].base;
                estimate.yaw = yaw / z;
                estimate.pitch = pitch / z;
                errors[i] = angle_error(signs[i], estimate);
            });
        char name[40];
        std::snprintf(name, sizeof name, "posterior tau %.3f", tau);
        report(name, signs, errors);
    }
    for (const auto& [id, idx] : tracks) {
        std::vector<double> sum(k_yaws * k_pitches, 0.0);
        for (std::size_t i : idx) {
            for (std::size_t c = 0; c < sum.size(); ++c) sum[c] += std::pow(signs[i].size_px, 4) * signs[i].profile[c];
        }
        for (std::size_t i : idx) errors[i] = best_cell_error(signs[i], sum);
    }
    report("two-sided size^4", signs, errors);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"angle_bound: the rotation error a perfect angle search at the true position reaches, per sign size"};
    Options o;
    app.add_option("--prior-yaw", o.prior_yaw, "posterior: Gaussian prior of this sigma on yaw (degrees; 0: flat)")->check(CLI::Range(0.0, 90.0));
    app.add_option("--prior-pitch", o.prior_pitch, "posterior: Gaussian prior of this sigma on pitch (degrees; 0: flat)")->check(CLI::Range(0.0, 90.0));
    app.add_option("--scene", o.scene, "synthetic scene name (easy, noisy, crowded, night)");
    app.add_option("--seed", o.seed, "scene seed (the GPU scene tests use 11)");
    app.add_option("--width", o.width, "frame width in pixels")->check(CLI::Range(64, 8192));
    app.add_option("--height", o.height, "frame height in pixels")->check(CLI::Range(48, 8192));
    app.add_option("--frames", o.frames, "frames to scan (0: the scene's full length)")->check(CLI::Range(0LL, 1000000LL));
    app.add_option("--at", o.at, "scan at the true poses (truth) or at the CPU tracker's matched detections (tracker)")
        ->check(CLI::IsMember({"truth", "tracker"}));
    app.add_option("--config", o.config, "--at tracker: tracker settings JSON (default: the defaults)")->check(CLI::ExistingFile);
    app.add_option("--refit-px", o.refit_px, "profile: each angle cell's best over a 3x3x3 position lattice this many pixels apart sideways")
        ->check(CLI::Range(0.0, 20.0));
    app.add_option("--refit-depth", o.refit_depth_pct, "profile: the lattice's depth step, percent of the depth")->check(CLI::Range(0.0, 20.0));
    app.add_flag("--marginal", o.marginal, "integrate the lattice out (likelihoods at the tau 0.010 scale, averaged) instead of taking its best");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e); // --help
        std::fprintf(stderr, "angle_bound: %s; see --help\n", e.what());
        return 2;
    }
    if (o.marginal && o.refit_px <= 0 && o.refit_depth_pct <= 0) {
        std::fprintf(stderr, "angle_bound: --marginal integrates over the refit lattice; give --refit-px or --refit-depth too\n");
        return 1;
    }
    if (!o.config.empty() && o.at != "tracker") {
        std::fprintf(stderr, "angle_bound: --config sets the tracker's settings; it needs --at tracker\n");
        return 1;
    }
    try {
        return run(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "angle_bound: %s\n", e.what());
        return 1;
    }
}
