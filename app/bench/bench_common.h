#pragma once
// Pieces shared by the benchmark suites and the selftest: option parsing to engine types, timing of
// repeated runs, and the machine description printed beside every figure.
#include <string>
#include <utility>
#include <vector>

#include "swarm/optimizer.h"

namespace app {

struct EngineOptions {
    std::string strategy = "all";
    std::string backend = "auto";
    std::string precision = "fp32";
    std::string topology = "global";
    std::string update = "synchronous";
    std::string boundary = "clamp";
    double w = 0.7298, c1 = 1.49618, c2 = 1.49618;
    double v_max = 0.5;                          // fraction of each dimension's range
    std::string velocity_clamp = "per-dimension"; // per-dimension | off
    unsigned long long seed = 1;
};

// Strategies named by --strategy (a name, a comma list, or "all"); unknown names throw naming the option.
std::vector<swarm::Strategy> parse_strategies(const std::string& spec, bool include_bees = true);
swarm::Backend parse_backend_option(const std::string& name);
// Fills the engine-wide fields of Params from the options (w, c1, c2, topology, ...).
void apply_engine_options(const EngineOptions& o, swarm::Params& p);
// Every engine parameter of a run as name/value pairs (the bench JSON's "parameters", the CSV's columns).
std::vector<std::pair<std::string, std::string>> describe_params(const swarm::Params& p);

struct Timing {
    double median_ms = 0;        // host wall time of a run, median over runs
    double median_device_ms = 0; // GPU time from CUDA events (0 on the CPU)
    swarm::Result median_run;    // the run with the median wall time
};
// Runs `runs` times with seeds seed, seed+1, ...
Timing time_runs(swarm::Optimizer& opt, const swarm::Problem& problem, swarm::Params params, int runs);

// A GPU run's device time: one untimed warm-up of at most 64 iterations (module load, allocations, graph
// capture), then the run with the median device time of up to `runs` runs (one only when a run takes over
// 200 ms, which keeps the suites to minutes).
swarm::Result time_device(swarm::Optimizer& opt, const swarm::Problem& problem, const swarm::Params& params, int runs);

// A CPU strategy timed on a prefix of the iterations (at most `budget` particle-dimension updates) and scaled
// to the whole run, for references whose full run would take minutes to hours.
struct CpuFigure {
    double ms = 0;                   // full-run estimate (host wall time)
    long long measured_iterations = 0;
    swarm::Result run;
};
CpuFigure measure_cpu_prefix(swarm::Strategy s, const swarm::Problem& problem, const swarm::Params& params,
                             double budget);
// "measured", or "extrapolated from N it" when the prefix was shorter than `iterations`.
std::string cpu_basis(const CpuFigure& c, long long iterations);

std::string cpu_model();
std::string gpu_model(); // "none" when no device

} // namespace app
