#pragma once
#include <string>
#include <vector>

#include "swarm/strategy.h"

namespace swarm {

struct SwarmResult {
    std::vector<double> best_position;
    double best_fitness = 0.0;
    std::vector<double> history; // best fitness after each iteration (Params::record_history)
};

struct Result {
    std::vector<SwarmResult> swarms;
    int best_swarm = 0;                // index of the swarm holding the overall best
    long long iterations = 0;          // iterations run (fewer than asked when a stopping rule fired)
    long long evaluations = 0;         // fitness evaluations, initialisation included
    double wall_ms = 0.0;              // host wall time of the run, set-up excluded
    double device_ms = 0.0;            // GPU time from CUDA events (0 on the CPU)
    Strategy strategy = Strategy::CpuSerial;
    std::string device;                // "CPU (N threads)" or the CUDA device name
    std::string stop_reason;           // "iterations", "target error", "stall"

    const SwarmResult& best() const { return swarms.at(static_cast<std::size_t>(best_swarm)); }
};

} // namespace swarm
