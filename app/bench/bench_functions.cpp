// --suite functions: every strategy on every benchmark function, with the error to the known optimum.
#include <cmath>
#include <string>

#include "bench/bench_suites.h"
#include "swarm/errors.h"

namespace app {

std::vector<swarm::Function> parse_functions(const std::string& spec) {
    std::vector<swarm::Function> out;
    if (spec == "all") {
        for (const auto& f : swarm::all_functions()) {
            out.push_back(f.id);
        }
        return out;
    }
    const auto f = swarm::parse_function(spec);
    if (!f) {
        std::string names;
        for (const auto& fi : swarm::all_functions()) {
            names += (names.empty() ? "" : ", ") + std::string(fi.name);
        }
        throw swarm::ValidationError("function", "unknown function '" + spec + "'; one of: " + names + ", all");
    }
    out.push_back(*f);
    return out;
}

BenchReport run_functions_suite(const BenchOptions& o) {
    const auto strategies = parse_strategies(o.engine.strategy);
    const auto functions = parse_functions(o.function);
    const auto backend = parse_backend_option(o.engine.backend);
    if (o.dims < 0) throw swarm::ValidationError("dims", "must be >= 0 (0 means each function's default)");
    if (o.runs < 1) throw swarm::ValidationError("runs", "must be at least 1 (got " + std::to_string(o.runs) + ")");

    BenchReport report;
    swarm::Params shared; // the options' parameters, validated before any run
    apply_engine_options(o.engine, shared);
    shared.particles = o.particles;
    shared.swarms = o.swarms;
    shared.iterations = o.iterations;
    shared.validate();
    report.parameters = describe_params(shared);
    report.parameters.emplace_back("runs", std::to_string(o.runs));
    report.table = Table({"strategy", "function", "dims", "swarms x particles", "iterations", "time ms (median)",
                          "device ms", "evals/s", "best", "error", "device"});
    for (const auto s : strategies) {
        const auto avail = swarm::availability(s);
        if (!avail.available) {
            if (o.engine.strategy != "all") {
                // Explicitly asked for: follow the backend rules (auto falls back, cuda is an error).
                swarm::Problem probe = swarm::Problem::benchmark(functions.front(), o.dims > 0 ? o.dims : swarm::info(functions.front()).default_dims);
                swarm::Params pp;
                std::string note;
                const auto resolved = swarm::resolve_strategy(s, backend, probe, pp, &note);
                if (resolved == s) throw swarm::UnavailableError(std::string(swarm::to_string(s)) + ": " + avail.reason);
            }
            report.notes.push_back("skipped " + std::string(swarm::to_string(s)) + ": " + avail.reason);
            continue;
        }
        if (backend == swarm::Backend::Cpu && swarm::is_gpu(s)) continue;
        if (backend == swarm::Backend::Cuda && !swarm::is_gpu(s)) continue;
        auto opt = swarm::create_optimizer(s);
        for (const auto f : functions) {
            const auto& fi = swarm::info(f);
            const int dims = o.dims > 0 ? o.dims : fi.default_dims;
            if (fi.fixed_dims != 0 && dims != fi.fixed_dims) {
                if (o.function == "all") {
                    report.notes.push_back("skipped " + std::string(fi.name) + ": defined for " +
                                           std::to_string(fi.fixed_dims) + " dimensions only");
                    continue;
                }
            }
            const swarm::Problem problem = swarm::Problem::benchmark(f, dims);
            swarm::Params params;
            apply_engine_options(o.engine, params);
            params.particles = o.particles;
            params.swarms = o.swarms;
            params.iterations = o.iterations;
            const Timing t = time_runs(*opt, problem, params, o.runs);
            const auto& res = t.median_run;
            const double best = res.best().best_fitness;
            const double err = std::fabs(best - *problem.known_optimum);
            const double evals_per_s = res.evaluations / (t.median_ms / 1e3);
            report.table.add({std::string(swarm::to_string(s)), std::string(fi.name), std::to_string(dims),
                              std::to_string(params.swarms) + " x " + std::to_string(params.particles),
                              std::to_string(res.iterations), format_double(t.median_ms, 4),
                              t.median_device_ms > 0 ? format_double(t.median_device_ms, 4) : "-",
                              format_double(evals_per_s, 3), format_double(best, 6), format_double(err, 3), res.device});
        }
    }
    return report;
}

} // namespace app
