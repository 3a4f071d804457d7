// --suite seeds: every seed experiment runs the paper's own strategy and the engine's best (`auto`) on the
// GPU, and the CPU reference (cpu-serial, and cpu-parallel where the paper had an OpenMP column) in the same
// process. Full-size CPU runs would take hours, so the CPU runs a prefix of the iterations sized to a fixed
// work budget and is scaled per iteration; such cells say "extrapolated from N it".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "bench/bench_seeds.h"
#include "bench/bench_suites.h"
#include "swarm/errors.h"

#if defined(SWARM_HAVE_CUDA)
#include "swarm/device_bench.h"
#endif
#include "bench/bench_bees.h"

namespace app {
namespace {

using seeds::Experiment;

std::string num(double v, int digits = 4) { return std::isnan(v) ? "-" : format_double(v, digits); }

// The experiment's CPU reference on a prefix of its iterations (bench_common.h).
CpuFigure measure_cpu(swarm::Strategy s, const Experiment& e, double budget) {
    return measure_cpu_prefix(s, e.problem, e.params, budget);
}

double error_of(const Experiment& e, const swarm::Result& r) {
    return e.problem.known_optimum ? std::fabs(r.best().best_fitness - *e.problem.known_optimum) : seeds::k_none;
}

} // namespace

BenchReport run_seeds_suite(const BenchOptions& o) {
    const auto backend = parse_backend_option(o.engine.backend);
    if (o.runs < 1) throw swarm::ValidationError("runs", "must be at least 1 (got " + std::to_string(o.runs) + ")");
    const bool gpu = backend != swarm::Backend::Cpu && swarm::cuda_device_present();
    if (backend == swarm::Backend::Cuda && !gpu) {
        throw swarm::UnavailableError("--backend cuda: no CUDA device is visible; use --backend cpu or auto");
    }
    const double budget = o.quick ? 2e5 : 2e7; // CPU particle-dimension updates per measurement

    BenchReport report;
    report.table = Table({"experiment", "setting", "strategy", "role", "iterations", "ms", "cpu-serial ms", "cpu basis",
                          "speed-up", "best", "error", "figure", "paper ms", "paper cpu ms", "paper speed-up",
                          "paper error", "paper hardware"});
    std::map<std::string, std::string> skipped; // strategy -> reason, reported once
    double d2d_gbs = seeds::k_none;
#if defined(SWARM_HAVE_CUDA)
    if (gpu) {
        d2d_gbs = swarm::measure_device_copy_bandwidth(o.quick ? (std::size_t(64) << 20) : (std::size_t(1) << 30), 10);
        report.notes.push_back("device-to-device cudaMemcpy bandwidth (read + write): " + num(d2d_gbs) + " GB/s");
        // The bandwidth target's traffic (100,000 x 100) with no arithmetic; a few milliseconds even when quick.
        const double stream_gbs = swarm::measure_stream_update_bandwidth(10000000, 10);
        report.notes.push_back("the row update's traffic alone (read x, v, p; write x, v; no random numbers): " +
                               num(stream_gbs) + " GB/s at 20 B = " + num(100 * stream_gbs / d2d_gbs, 3) +
                               "% of the copy bandwidth (gpu-elementwise's ceiling)");
    }
#endif

    for (const Experiment& e : seeds::experiments(o.quick)) {
        const std::string its = std::to_string(e.params.iterations);
        std::fprintf(stderr, "seeds: %s, %s\n", e.id.c_str(), e.setting.c_str()); // progress
        const CpuFigure serial = measure_cpu(swarm::Strategy::CpuSerial, e, budget);
        report.table.add({e.id, e.setting, "cpu-serial", "reference", its, num(serial.ms), num(serial.ms),
                          cpu_basis(serial, e.params.iterations), "1", "-", "-", "-", num(e.paper_cpu_ms), num(e.paper_cpu_ms),
                          "-", "-", e.hardware});
        if (e.cpu_parallel) {
            const CpuFigure par = measure_cpu(swarm::Strategy::CpuParallel, e, budget * 4);
            report.table.add({e.id, e.setting, "cpu-parallel", "reference (" + par.run.device + ")", its, num(par.ms),
                              num(serial.ms), cpu_basis(par, e.params.iterations), num(serial.ms / par.ms, 3), "-", "-",
                              "-", "-", "-", "-", "-", e.hardware});
        }
        if (!gpu) continue;

        std::vector<std::pair<swarm::Strategy, std::string>> todo;
        for (const auto& c : e.cells) todo.emplace_back(c.strategy, "paper");
        std::string note;
        const auto best = swarm::resolve_strategy(swarm::Strategy::Auto, backend, e.problem, e.params, &note);
        todo.emplace_back(best, "auto");
        for (const auto& [s, role] : todo) {
            const auto avail = swarm::availability(s);
            if (!avail.available) {
                skipped[std::string(swarm::to_string(s))] = avail.reason;
                continue;
            }
            seeds::PaperFigure paper;
            for (const auto& c : e.cells) {
                if (c.strategy == s && role == "paper") paper = c.paper;
            }
            auto opt = swarm::create_optimizer(s);
            const swarm::Result r = time_device(*opt, e.problem, e.params, o.runs);
            std::fprintf(stderr, "  %s (%s): %.4g ms, best %.6g\n", std::string(swarm::to_string(s)).c_str(),
                         role.c_str(), r.device_ms, r.best().best_fitness);
            std::string figure = "-";
            if (e.problem.function == swarm::Function::EasomND) {
                figure = "|f| = " + num(std::fabs(r.best().best_fitness), 3) + " (the paper's error measure)";
            }
            if (e.bandwidth) {
                // 20 bytes per particle-dimension per iteration: read x, v, pbest; write x, v (pbest writes on
                // improvement are extra and not counted, so the bandwidth is a lower bound).
                const double bytes = 20.0 * e.params.swarms * e.params.particles * e.problem.dims * e.params.iterations;
                const double gbs = bytes / (r.device_ms * 1e6);
                figure = s == swarm::Strategy::GpuElementwise
                             ? num(gbs) + " GB/s at 20 B/elem/it" + (std::isnan(d2d_gbs) ? "" : " = " + num(100 * gbs / d2d_gbs, 3) + "% of D2D")
                             : "-";
            }
            report.table.add({e.id, e.setting, std::string(swarm::to_string(s)), role, std::to_string(r.iterations),
                              num(r.device_ms), num(serial.ms), cpu_basis(serial, e.params.iterations),
                              num(serial.ms / r.device_ms, 3), num(r.best().best_fitness, 6), num(error_of(e, r), 3),
                              figure, num(paper.gpu_ms), num(paper.cpu_ms), num(paper.speedup, 3), num(paper.error, 3),
                              e.hardware});
        }
    }
    if (!gpu) {
        report.notes.push_back("GPU strategies skipped: " + std::string(backend == swarm::Backend::Cpu
                                                                            ? "--backend cpu"
                                                                            : "no CUDA device is visible"));
    }
    for (const auto& [s, why] : skipped) {
        report.notes.push_back("skipped " + s + ": " + why);
    }
    report.notes.push_back("GPU ms are device time (CUDA events around the iterations; set-up excluded, as cuPSO "
                           "timed); speed-up = cpu-serial ms / GPU ms. cuPSO's cubic is Eq. 3 as printed, maximised "
                           "(optimum 900,000 per dimension at x = 100). FastPSO's Easom error is |f - (-1)|; the "
                           "paper's 0.00 is plausibly |f|. Paper figures are from other hardware (last column).");
    report.sections.emplace_back("004 CUBA: Bees Algorithm, Tables 4-11 to 4-13", run_bees_seed_suite(o));
    return report;
}

} // namespace app
