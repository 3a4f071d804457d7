// `swarmtrack selftest`: every benchmark function on every available strategy must reach its known
// optimum within the tolerance listed here (docs/usage.md repeats the table). Exit 0 only if all pass.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "bench/bench_common.h"
#include "commands.h"
#include "output.h"
#include "swarm/errors.h"

namespace app {
namespace {

struct Case {
    swarm::Function function;
    int dims;
    int swarms;
    int particles;
    long long iterations;
    double tolerance; // |best - f*| must not exceed this
};

// Budgets are small enough for CI on two cores and large enough that every strategy converges with the
// fixed seed; several swarms are used on multimodal functions, where one swarm of a few dozen particles
// can settle in a local optimum.
const Case k_cases[] = {
    {swarm::Function::Sphere, 10, 1, 64, 1000, 1e-6},
    {swarm::Function::Rastrigin, 5, 8, 32, 1500, 1e-3},
    {swarm::Function::Rosenbrock, 4, 4, 64, 3000, 1e-2},
    {swarm::Function::Griewank, 10, 8, 64, 2000, 5e-2},
    {swarm::Function::GriewankShifted, 10, 8, 64, 2000, 5e-2},
    {swarm::Function::Ackley, 2, 1, 64, 500, 1e-4},
    {swarm::Function::Easom, 2, 8, 64, 500, 1e-4},
    {swarm::Function::EasomND, 2, 8, 64, 500, 1e-4},
    {swarm::Function::Schwefel, 2, 8, 64, 1000, 1e-3},
    {swarm::Function::SchafferF6, 2, 8, 64, 2000, 1e-3},
    {swarm::Function::GoldsteinPrice, 2, 1, 64, 500, 1e-4},
    {swarm::Function::MartinGaddy, 2, 1, 64, 500, 1e-6},
    {swarm::Function::Cubic, 1, 1, 32, 200, 1e-3},
    {swarm::Function::Euclidean, 2, 1, 64, 500, 1e-4},
};

int run_selftest(const std::string& backend_name, const std::string& strategy_spec, unsigned long long seed) {
    const auto backend = parse_backend_option(backend_name);
    if (backend == swarm::Backend::Cuda && !swarm::cuda_device_present()) {
        throw swarm::UnavailableError("--backend cuda: no CUDA device is visible; use --backend cpu or auto");
    }
    Table table({"strategy", "function", "dims", "swarms x particles", "iterations", "best", "error", "tolerance",
                 "ms", "result"});
    int failures = 0, passes = 0;
    std::vector<std::string> skipped;
    for (const auto s : parse_strategies(strategy_spec)) {
        if (backend == swarm::Backend::Cpu && swarm::is_gpu(s)) continue;
        if (backend == swarm::Backend::Cuda && !swarm::is_gpu(s)) continue;
        const auto avail = swarm::availability(s);
        if (!avail.available) {
            skipped.push_back(std::string(swarm::to_string(s)) + " (" + avail.reason + ")");
            continue;
        }
        auto opt = swarm::create_optimizer(s);
        for (const auto& c : k_cases) {
            const swarm::Problem problem = swarm::Problem::benchmark(c.function, c.dims);
            swarm::Params p;
            p.swarms = c.swarms;
            p.particles = c.particles;
            p.iterations = c.iterations;
            p.seed = seed;
            const swarm::Result r = opt->run(problem, p);
            const double err = std::fabs(r.best().best_fitness - *problem.known_optimum);
            const bool ok = err <= c.tolerance;
            (ok ? passes : failures) += 1;
            table.add({std::string(swarm::to_string(s)), std::string(swarm::info(c.function).name),
                       std::to_string(c.dims), std::to_string(c.swarms) + " x " + std::to_string(c.particles),
                       std::to_string(r.iterations), format_double(r.best().best_fitness, 8), format_double(err, 3),
                       format_double(c.tolerance, 2), format_double(r.wall_ms, 3), ok ? "pass" : "FAIL"});
        }
    }
    std::printf("# swarmtrack selftest (%s; GPU: %s; CPU: %s)\n\n%s\n", today_iso().c_str(), gpu_model().c_str(),
                cpu_model().c_str(), table.markdown().c_str());
    for (const auto& s : skipped) {
        std::printf("skipped %s\n", s.c_str());
    }
    std::printf("selftest: %d passed, %d failed\n", passes, failures);
    if (passes + failures == 0) {
        std::fprintf(stderr, "swarmtrack: error: no strategy could run on this backend\n");
        return exit_code::unavailable;
    }
    return failures == 0 ? exit_code::ok : exit_code::failed;
}

} // namespace

void register_selftest(CLI::App& root, int& rc) {
    auto* sub = root.add_subcommand("selftest", "Check every strategy converges on every benchmark function");
    auto backend = std::make_shared<std::string>("auto");
    auto strategy = std::make_shared<std::string>("all");
    auto seed = std::make_shared<unsigned long long>(1);
    sub->add_option("--backend", *backend, "cpu | cuda | auto")->capture_default_str();
    sub->add_option("--strategy", *strategy, "Strategy name, comma list or all")->capture_default_str();
    sub->add_option("--seed", *seed, "Seed")->capture_default_str();
    sub->callback([=, &rc] { rc = run_selftest(*backend, *strategy, *seed); });
}

} // namespace app
