#include "bench/bench_common.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "swarm/errors.h"

namespace app {

std::vector<swarm::Strategy> parse_strategies(const std::string& spec, bool include_bees) {
    std::vector<swarm::Strategy> out;
    if (spec == "all") {
        for (const auto s : swarm::all_strategies()) {
            if (include_bees || !swarm::is_bees(s)) {
                out.push_back(s);
            }
        }
        return out;
    }
    std::stringstream ss(spec);
    std::string name;
    while (std::getline(ss, name, ',')) {
        const auto s = swarm::parse_strategy(name);
        if (!s) {
            throw swarm::ValidationError("strategy", "unknown strategy '" + name +
                                                         "'; run 'swarmtrack bench --list-strategies' for the names");
        }
        out.push_back(*s);
    }
    return out;
}

swarm::Backend parse_backend_option(const std::string& name) {
    const auto b = swarm::parse_backend(name);
    if (!b) {
        throw swarm::ValidationError("backend", "must be cpu, cuda or auto (got '" + name + "')");
    }
    return *b;
}

void apply_engine_options(const EngineOptions& o, swarm::Params& p) {
    p.w = o.w;
    p.c1 = o.c1;
    p.c2 = o.c2;
    if (o.velocity_clamp == "per-dimension") p.v_max_fraction = o.v_max;
    else if (o.velocity_clamp == "off") p.v_max_fraction = 0.0;
    else throw swarm::ValidationError("velocity-clamp", "must be per-dimension or off (got '" + o.velocity_clamp + "')");
    p.seed = o.seed;
    if (o.precision == "fp32") p.precision = swarm::Precision::FP32;
    else if (o.precision == "fp64") p.precision = swarm::Precision::FP64;
    else throw swarm::ValidationError("precision", "must be fp32 or fp64 (got '" + o.precision + "')");
    if (o.topology == "global") p.topology = swarm::Topology::Global;
    else if (o.topology == "ring") p.topology = swarm::Topology::Ring;
    else throw swarm::ValidationError("topology", "must be global or ring (got '" + o.topology + "')");
    if (o.update == "synchronous") p.update = swarm::Update::Synchronous;
    else if (o.update == "asynchronous") p.update = swarm::Update::Asynchronous;
    else throw swarm::ValidationError("update", "must be synchronous or asynchronous (got '" + o.update + "')");
    if (o.boundary == "clamp") p.boundary = swarm::Boundary::Clamp;
    else if (o.boundary == "reflect") p.boundary = swarm::Boundary::Reflect;
    else if (o.boundary == "random") p.boundary = swarm::Boundary::Random;
    else throw swarm::ValidationError("boundary", "must be clamp, reflect or random (got '" + o.boundary + "')");
}

std::vector<std::pair<std::string, std::string>> describe_params(const swarm::Params& p) {
    auto num = [](double v) {
        std::ostringstream os;
        os.precision(15); // the values as the user wrote them (17 would show 0.9 as 0.90000000000000002)
        os << v;
        return os.str();
    };
    const bool ring = p.topology == swarm::Topology::Ring;
    return {{"w", num(p.w)},
            {"c1", num(p.c1)},
            {"c2", num(p.c2)},
            {"velocity_clamp", p.v_max_fraction > 0 ? "per-dimension" : "off"},
            {"vmax", num(p.v_max_fraction)},
            {"topology", ring ? "ring" : "global"},
            {"ring_radius", ring ? std::to_string(p.ring_radius) : "-"},
            {"update", p.update == swarm::Update::Synchronous ? "synchronous" : "asynchronous"},
            {"boundary", p.boundary == swarm::Boundary::Clamp     ? "clamp"
                         : p.boundary == swarm::Boundary::Reflect ? "reflect"
                                                                  : "random"},
            {"precision", p.precision == swarm::Precision::FP32 ? "fp32" : "fp64"},
            {"seed", std::to_string(p.seed)}};
}

Timing time_runs(swarm::Optimizer& opt, const swarm::Problem& problem, swarm::Params params, int runs) {
    std::vector<swarm::Result> all;
    const auto seed0 = params.seed;
    for (int r = 0; r < std::max(runs, 1); ++r) {
        params.seed = seed0 + static_cast<unsigned long long>(r);
        all.push_back(opt.run(problem, params));
    }
    std::vector<double> device;
    for (const auto& r : all) {
        device.push_back(r.device_ms);
    }
    std::sort(device.begin(), device.end());
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.wall_ms < b.wall_ms; });
    Timing t;
    t.median_ms = all[all.size() / 2].wall_ms;
    t.median_device_ms = device[device.size() / 2];
    t.median_run = std::move(all[all.size() / 2]);
    return t;
}

swarm::Result time_device(swarm::Optimizer& opt, const swarm::Problem& problem, const swarm::Params& params, int runs) {
    swarm::Params warm = params;
    warm.iterations = std::min<long long>(params.iterations, 64);
    opt.run(problem, warm);
    std::vector<swarm::Result> all;
    for (int r = 0; r < std::max(runs, 1); ++r) {
        all.push_back(opt.run(problem, params));
        if (all.back().device_ms > 200.0) break;
    }
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.device_ms < b.device_ms; });
    return all[all.size() / 2];
}

CpuFigure measure_cpu_prefix(swarm::Strategy s, const swarm::Problem& problem, const swarm::Params& params,
                             double budget) {
    swarm::Params p = params;
    const double per_iteration = static_cast<double>(p.swarms) * p.particles * problem.dims;
    p.iterations = std::clamp<long long>(static_cast<long long>(budget / per_iteration), 1, params.iterations);
    CpuFigure c;
    c.run = swarm::create_optimizer(s)->run(problem, p);
    c.measured_iterations = p.iterations;
    c.ms = c.run.wall_ms * static_cast<double>(params.iterations) / static_cast<double>(p.iterations);
    return c;
}

std::string cpu_basis(const CpuFigure& c, long long iterations) {
    return c.measured_iterations == iterations ? "measured"
                                               : "extrapolated from " + std::to_string(c.measured_iterations) + " it";
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    }
    return "unknown CPU";
}

std::string gpu_model() {
    const std::string name = swarm::cuda_device_name();
    return name.empty() ? "none" : name;
}

} // namespace app
