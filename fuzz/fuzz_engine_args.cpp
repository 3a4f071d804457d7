// Command-line values that reach the engine (bench/selftest options: --particles, --dims, --swarms,
// --iters, --w/--c1/--c2, --strategy, --topology, bounds, bees options ...). The input is "key=value"
// lines; each value is converted exactly as CLI11 converts the option (CLI::detail::lexical_cast), then
// goes through the same path as `swarmtrack bench`: apply_engine_options, Params/BeesParams/Problem
// validation, strategy resolution, and (when small enough to be quick) a real CPU run whose result must
// be finite inside the bounds.
#include <CLI/CLI.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_common.h"
#include "fuzz_common.h"
#include "swarm/errors.h"
#include "swarm/optimizer.h"

namespace {

struct Args {
    app::EngineOptions engine;
    std::string strategy = "cpu-serial", function = "sphere";
    int particles = 8, dims = 2, swarms = 1, ring_radius = 1;
    long long iters = 10, stall = 0;
    double target_error = std::nan("");
    std::vector<double> lower, upper;
    swarm::BeesParams bees;
};

template <typename T>
void convert(const std::string& key, const std::string& value, T& out) {
    if (!CLI::detail::lexical_cast(value, out)) {
        // CLI11 rejects the value before the engine sees it.
        throw std::invalid_argument("--" + key + ": cannot convert '" + value + "'");
    }
}

std::vector<double> list(const std::string& key, const std::string& value) {
    std::vector<double> out;
    std::stringstream ss(value);
    std::string item;
    while (std::getline(ss, item, ',')) {
        double v = 0;
        convert(key, item, v);
        out.push_back(v);
    }
    return out;
}

Args parse(const std::string& text) {
    Args a;
    std::stringstream ss(text);
    std::string line;
    while (std::getline(ss, line)) {
        const auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        const std::string k = line.substr(0, eq), v = line.substr(eq + 1);
        if (k == "strategy") a.strategy = v;
        else if (k == "function") a.function = v;
        else if (k == "backend") a.engine.backend = v;
        else if (k == "precision") a.engine.precision = v;
        else if (k == "topology") a.engine.topology = v;
        else if (k == "update") a.engine.update = v;
        else if (k == "boundary") a.engine.boundary = v;
        else if (k == "particles") convert(k, v, a.particles);
        else if (k == "dims") convert(k, v, a.dims);
        else if (k == "swarms") convert(k, v, a.swarms);
        else if (k == "iters") convert(k, v, a.iters);
        else if (k == "stall") convert(k, v, a.stall);
        else if (k == "ring-radius") convert(k, v, a.ring_radius);
        else if (k == "target-error") convert(k, v, a.target_error);
        else if (k == "w") convert(k, v, a.engine.w);
        else if (k == "c1") convert(k, v, a.engine.c1);
        else if (k == "c2") convert(k, v, a.engine.c2);
        else if (k == "v-max") convert(k, v, a.engine.v_max);
        else if (k == "seed") convert(k, v, a.engine.seed);
        else if (k == "lower") a.lower = list(k, v);
        else if (k == "upper") a.upper = list(k, v);
        else if (k == "bees-selected") convert(k, v, a.bees.selected);
        else if (k == "bees-elite") convert(k, v, a.bees.elite);
        else if (k == "bees-nep") convert(k, v, a.bees.elite_recruits);
        else if (k == "bees-nsp") convert(k, v, a.bees.other_recruits);
        else if (k == "bees-ngh") convert(k, v, a.bees.ngh);
        else if (k == "bees-shrink") convert(k, v, a.bees.shrink);
        else if (k == "bees-stlim") convert(k, v, a.bees.stlim);
    }
    return a;
}

void run(const Args& a) {
    swarm::Params p;
    app::apply_engine_options(a.engine, p);
    p.particles = a.particles;
    p.swarms = a.swarms;
    p.iterations = a.iters;
    p.ring_radius = a.ring_radius;
    p.stall_iterations = a.stall;
    p.target_error = a.target_error;
    p.validate();
    const auto f = swarm::parse_function(a.function);
    if (!f) throw swarm::ValidationError("function", "unknown function '" + a.function + "'");
    swarm::Problem problem = swarm::Problem::benchmark(*f, a.dims > 0 ? a.dims : swarm::info(*f).default_dims);
    if (!a.lower.empty()) problem.lower = a.lower;
    if (!a.upper.empty()) problem.upper = a.upper;
    problem.validate(p.swarms);
    const auto strategies = app::parse_strategies(a.strategy);
    const swarm::Backend backend = app::parse_backend_option(a.engine.backend);
    for (const auto requested : strategies) {
        const swarm::Strategy s = swarm::resolve_strategy(requested, backend, problem, p);
        if (swarm::is_bees(s)) a.bees.validate(p);
        // Only small runs: the point is the values, not the speed.
        const double work = static_cast<double>(p.swarms) * p.particles * problem.dims * static_cast<double>(p.iterations + 1) *
                            (swarm::is_bees(s) ? static_cast<double>(a.bees.elite_recruits + a.bees.other_recruits) : 1.0);
        if (swarm::is_gpu(s) || work > 2e5) continue;
        auto opt = swarm::create_optimizer(s);
        opt->set_bees_params(a.bees);
        const swarm::Result r = opt->run(problem, p);
        for (const auto& sw : r.swarms) {
            if (std::isnan(sw.best_fitness) || static_cast<int>(sw.best_position.size()) != problem.dims) {
                std::fprintf(stderr, "fuzz finding: %s returned fitness %g with %zu coordinates\n",
                             std::string(swarm::to_string(s)).c_str(), sw.best_fitness, sw.best_position.size());
                std::abort();
            }
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::expect_clean([&] { run(parse(text)); });
    return 0;
}
