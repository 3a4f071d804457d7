#pragma once
// --suite seeds: the seed papers' experiments (docs/seed-notes.md), each with the paper's own figures and
// hardware beside ours. bench_seeds_data.cpp holds the experiments; bench_seeds.cpp runs them.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "swarm/optimizer.h"

namespace app::seeds {

constexpr double k_none = std::numeric_limits<double>::quiet_NaN();

// What the paper reports for one strategy in one setting (NaN: not reported).
struct PaperFigure {
    double gpu_ms = k_none;
    double cpu_ms = k_none;
    double speedup = k_none;
    double error = k_none;
};

// A strategy to run in an experiment: the paper's own design, with its figures.
struct Cell {
    swarm::Strategy strategy;
    PaperFigure paper;
};

struct Experiment {
    std::string id;       // "cuPSO T3", "FastPSO T1/T2", ...
    std::string setting;  // what is varied, in words ("1-D cubic, 256 particles")
    std::string hardware; // the paper's machine
    swarm::Problem problem;
    swarm::Params params;
    std::vector<Cell> cells;  // the paper's strategies
    double paper_cpu_ms = k_none;
    bool cpu_parallel = false; // also measure cpu-parallel (the paper had an OpenMP column)
    bool bandwidth = false;    // report bytes moved per particle-dimension and the achieved bandwidth
};

std::vector<Experiment> experiments(bool quick);

} // namespace app::seeds
