#include "bench/bench_bees.h"

#include <algorithm>
#include <string>
#include <vector>

#include "swarm/bees_presets.h"
#include "swarm/errors.h"

namespace app {
namespace {

// Table 4-12 (ms to converge) and 4-13 (cycles): BA on the Athlon II, CUBA on the GTX 460.
struct ThesisFigures {
    swarm::Function f;
    double ba_ms, cuba_ms;
    int ba_cycles, cuba_cycles;
};
constexpr ThesisFigures k_thesis[] = {
    {swarm::Function::Ackley, 273, 6.05, 90, 31},          {swarm::Function::Easom, 70, 5.27, 44, 31},
    {swarm::Function::GoldsteinPrice, 92, 5.01, 49, 24},   {swarm::Function::MartinGaddy, 76, 3.27, 50, 7},
    {swarm::Function::SchafferF6, 231, 6.32, 55, 33},      {swarm::Function::Schwefel, 279, 4.90, 141, 34},
    {swarm::Function::Sphere, 389, 15.79, 158, 42},        {swarm::Function::GriewankShifted, 2520, 48.02, 1487, 49},
    {swarm::Function::Rosenbrock, 5595, 432.98, 4456, 94},
};

const ThesisFigures& thesis(swarm::Function f) {
    for (const auto& t : k_thesis) {
        if (t.f == f) {
            return t;
        }
    }
    throw swarm::Error("no thesis figures for " + std::string(swarm::info(f).name));
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

std::vector<swarm::Strategy> bees_strategies(const std::string& spec) {
    std::vector<swarm::Strategy> out;
    for (const auto s : parse_strategies(spec)) {
        if (swarm::is_bees(s)) {
            out.push_back(s);
        } else if (spec != "all") {
            throw swarm::ValidationError("strategy", "the bees suite runs cpu-bees and gpu-bees (got '" +
                                                         std::string(swarm::to_string(s)) + "')");
        }
    }
    return out;
}

std::vector<swarm::Function> bees_functions(const std::string& spec) {
    const auto& nine = swarm::thesis_bees_functions();
    if (spec == "all") {
        return nine;
    }
    const auto f = swarm::parse_function(spec);
    if (!f || std::find(nine.begin(), nine.end(), *f) == nine.end()) {
        std::string names;
        for (const auto g : nine) {
            names += (names.empty() ? "" : ", ") + std::string(swarm::info(g).name);
        }
        throw swarm::ValidationError("function", "the bees suite runs 004's nine functions: " + names + " or all (got '" +
                                                     spec + "')");
    }
    return {*f};
}

std::string shape(const swarm::BeesSetup& s, swarm::Strategy st) {
    const auto& b = s.bees;
    std::string out = std::to_string(s.params.swarms) + " x " + std::to_string(s.params.particles) +
                      ", m=" + std::to_string(b.selected) + ", nep=" + std::to_string(b.elite_recruits);
    if (st == swarm::Strategy::CpuBees) {
        out += ", e=" + std::to_string(b.elite) + ", nsp=" + std::to_string(b.other_recruits) +
               ", stlim=" + std::to_string(b.stlim);
    } else {
        out += ", " + std::to_string(b.colonies_per_block) + "/block";
    }
    return out;
}

} // namespace

BenchReport run_bees_seed_suite(const BenchOptions& o) {
    const auto strategies = bees_strategies(o.engine.strategy);
    const auto functions = bees_functions(o.function);
    const int runs = o.quick ? 10 : 50;

    BenchReport report;
    report.table = Table({"function", "dims", "strategy", "colonies x bees, settings", "success", "median ms",
                          "median cycles", "thesis ms", "thesis cycles", "target ms", "met", "device"});
    std::vector<std::unique_ptr<swarm::Optimizer>> optimizers;
    std::vector<swarm::Strategy> usable;
    for (const auto s : strategies) {
        const auto a = swarm::availability(s);
        if (!a.available) {
            if (o.engine.strategy != "all") {
                throw swarm::UnavailableError(std::string(swarm::to_string(s)) + ": " + a.reason);
            }
            report.notes.push_back("skipped " + std::string(swarm::to_string(s)) + ": " + a.reason);
            continue;
        }
        usable.push_back(s);
        optimizers.push_back(swarm::create_optimizer(s));
    }
    for (const auto f : functions) {
        const ThesisFigures& th = thesis(f);
        for (std::size_t i = 0; i < usable.size(); ++i) {
            const swarm::Strategy s = usable[i];
            const bool gpu = s == swarm::Strategy::GpuBees;
            swarm::BeesSetup setup = swarm::thesis_bees_setup(f, s);
            apply_engine_options(o.engine, setup.params);
            if (gpu && o.bees_colonies > 0) {
                setup.params.swarms = o.bees_colonies; // a sweep over colonies (Table 4-10 layout per block kept)
            }
            if (gpu && o.bees_nep > 0) {
                setup.bees.elite_recruits = o.bees_nep;
            }
            optimizers[i]->set_bees_params(setup.bees);
            int converged = 0;
            std::vector<double> ms, cycles;
            std::string device;
            for (int r = 0; r < runs; ++r) {
                setup.params.seed = o.engine.seed + static_cast<unsigned long long>(r);
                const swarm::Result res = optimizers[i]->run(setup.problem, setup.params);
                device = res.device;
                if (res.stop_reason == "target error") {
                    ++converged;
                    ms.push_back(res.wall_ms);
                    cycles.push_back(static_cast<double>(res.iterations));
                }
            }
            const double target = gpu ? th.cuba_ms / 10.0 : 0.0;
            const double med = median(ms);
            const bool met = converged == runs && med <= target;
            report.table.add({std::string(swarm::info(f).name), std::to_string(setup.problem.dims),
                              std::string(swarm::to_string(s)), shape(setup, s),
                              std::to_string(converged) + "/" + std::to_string(runs),
                              converged ? format_double(med, 4) : "x", converged ? format_double(median(cycles), 4) : "x",
                              format_double(gpu ? th.cuba_ms : th.ba_ms, 4),
                              std::to_string(gpu ? th.cuba_cycles : th.ba_cycles),
                              gpu ? "<= " + format_double(target, 3) : "-", gpu ? (met ? "yes" : "no") : "-", device});
        }
    }
    report.notes.push_back("Runs stop at |f - f*| <= 0.001 or 5000 cycles; success = converged runs; median ms and "
                           "cycles over the converged runs (host wall time of Optimizer::run, memory cached).");
    report.notes.push_back("Thesis figures (004, Tables 4-12/4-13): BA on an AMD Athlon II X4 3.0 GHz, CUBA on a GeForce "
                           "GTX 460, timed end to end including cudaMalloc and copies. Target for gpu-bees: 100% "
                           "success and at most a tenth of the thesis' CUBA time.");
    return report;
}

} // namespace app
