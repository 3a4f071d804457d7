#pragma once
#include <string>
#include <vector>

#include "bench_common.h"
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
    bool list = false;
    std::string json, csv;
    EngineOptions engine;
};

struct BenchReport {
    Table table{{}};
    std::vector<std::string> notes;
    bool failed = false;
};

BenchReport run_functions_suite(const BenchOptions& o);
// The seed papers' experiments with their reported figures (bench_seeds.cpp). A bees branch may add
// `void run_bees_seed_suite(const BenchOptions&, BenchReport&)` in bench_bees.h: the seeds suite calls it
// when that header exists.
BenchReport run_seeds_suite(const BenchOptions& o);
// The tracker on a long synthetic stream: memory at start / after warm-up / end, time drift (bench_soak.cpp).
BenchReport run_soak_suite(const BenchOptions& o);

} // namespace app
