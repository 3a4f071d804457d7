#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/bench_common.h"
#include "output.h"

namespace app {

struct BenchOptions {
    std::string suite = "functions";
    std::string function = "all";
    int particles = 64;
    int dims = 0;
    long long iterations = 1000;
    int swarms = 1;
    int runs = 3;
    bool quick = false;
    long long frames = 0;         // soak: frames to track (0: 10,000)
    int width = 640, height = 360; // soak: synthetic frame size
    int generations = 0;          // soak: PSO generations per frame (0: the tracker's default)
    int bees_colonies = 0;        // bees suite, gpu-bees: colonies per run instead of the preset's (0: preset)
    int bees_nep = 0;             // bees suite, gpu-bees: recruits per selected site instead of the preset's (0: preset)
    std::string config;           // scenes: tracker settings file (empty: defaults)
    std::string scene = "all";    // scenes: one shipped scene or all
    std::string data, labels;     // real: folder of labelled images; labels file (empty: found in data)
    double match_iou = 0.5;       // real: box IoU a match needs
    std::string predictions;      // real: also write the detections here (JSON lines, as `process --stills`)
    double blur = 0;              // real: each image blurred by a Gaussian of this sigma (px) first (0: not)
    int resave_quality = 0;       // real: then saved once more as JPEG at this quality and decoded (0: not)
    std::string resave_chroma = "420"; // real: that save's chroma, "420" (subsampled again) or "444" (kept)
    std::string peer_script;      // peers: the PyTorch PSO script (empty: the shipped one)
    std::string peer_python = "python3"; // peers: the interpreter that runs it
    bool list = false;
    std::string json, csv;
    EngineOptions engine;
};

struct BenchReport {
    Table table{{}};
    std::vector<std::string> notes;
    bool failed = false;
    // The engine parameters every row shares (name, value), when the suite takes them from the options.
    std::vector<std::pair<std::string, std::string>> parameters;
    // Further experiments with their own columns, printed after the main table (title, report).
    std::vector<std::pair<std::string, BenchReport>> sections;
    nlohmann::json json_extra; // further fields of the --json output (null: none)
};

BenchReport run_functions_suite(const BenchOptions& o);
// The seed papers' experiments with their reported figures (bench_seeds.cpp); the Bees Algorithm
// experiment of 004 (bench_bees.cpp) comes as a section of its own.
BenchReport run_seeds_suite(const BenchOptions& o);
// The tracker per frame at 1280x720 (bench_tracker.cpp): GPU stage times and the CPU backend, scaling.
BenchReport run_tracker_suite(const BenchOptions& o);
// The tracker on the shipped scenes, full length at 1280x720, with a settings file: accuracy against the
// accuracy bars and time per frame (bench_scenes.cpp).
BenchReport run_scenes_suite(const BenchOptions& o);
// The tracker on a long synthetic stream: memory at start / after warm-up / end, time drift (bench_soak.cpp).
BenchReport run_soak_suite(const BenchOptions& o);
// Real stills with box labels (real_suite.cpp; swarmtrack-bench decodes JPEG only): time per frame and per
// stage, and the scoring of `eval --labels`.
BenchReport run_real_suite(const BenchOptions& o);
// The engine against peers in the same run: our strategies, the CPU reference and a PyTorch PSO on the issue's
// workloads, with ratios (bench_peers.cpp; the peer runs through bench_peers_torch.h).
BenchReport run_peers_suite(const BenchOptions& o);

} // namespace app
