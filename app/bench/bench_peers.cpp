// --suite peers: the engine against peers on the same machine in the same run (docs/benchmarks.md, "Peers").
// Each workload runs `auto` and the strategies the comparison is about on the GPU (device time), cpu-serial as
// the CPU reference, and the PyTorch PSO of app/bench/peers/pso_torch.py (CUDA events, the same parameters);
// the ratio column is the peer's time over each row's. cuPSO's own code has no licence, so it is not run here:
// its published and measured figures are in docs/benchmarks.md.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench/bench_peers_torch.h"
#include "bench/bench_suites.h"
#include "swarm/errors.h"

#if defined(SWARM_HAVE_CUDA)
#include "swarm/device_bench.h"
#endif

namespace app {
namespace {

using swarm::Function;
using swarm::Strategy;

struct Workload {
    std::string name, setting;
    swarm::Problem problem;
    swarm::Params params;
    std::vector<Strategy> named; // besides auto: the designs the comparison is about
    bool bandwidth = false;      // report GB/s against the device-to-device copy rate
};

// cuPSO's experiment (w = 1, c1 = c2 = 2, |v| <= the whole range), as bench --suite seeds runs it.
swarm::Params cupso_params(int particles, long long iterations, swarm::Update update, swarm::Precision precision) {
    swarm::Params p;
    p.particles = particles;
    p.iterations = iterations;
    p.w = 1.0;
    p.c1 = p.c2 = 2.0;
    p.v_max_fraction = 1.0;
    p.update = update;
    p.precision = precision;
    return p;
}

std::vector<Workload> workloads(bool quick) {
    std::vector<Workload> out;
    const long long cubic_iterations = quick ? 2000 : 100000;
    for (const int n : {32, 1024}) {
        const std::string size = "1-D cubic, " + std::to_string(n) + " particles";
        out.push_back({size, "asynchronous, fp32, cuPSO's w c vmax", swarm::Problem::benchmark(Function::Cubic, 1),
                       cupso_params(n, cubic_iterations, swarm::Update::Asynchronous, swarm::Precision::FP32),
                       {Strategy::GpuFused}});
        out.push_back({size, "synchronous, fp64, cuPSO's w c vmax", swarm::Problem::benchmark(Function::Cubic, 1),
                       cupso_params(n, cubic_iterations, swarm::Update::Synchronous, swarm::Precision::FP64),
                       {Strategy::GpuQueueLock, Strategy::GpuReduction, Strategy::GpuFused}});
    }
    const auto sphere = [&](int n, int d, long long t, bool bandwidth) {
        swarm::Params p; // the engine's defaults: Clerc's constants, |v| <= half the range, fp32
        p.particles = n;
        p.iterations = t;
        Workload w{"Sphere " + std::to_string(n) + " x " + std::to_string(d) + " x " + std::to_string(t),
                   "synchronous, fp32, engine defaults", swarm::Problem::benchmark(Function::Sphere, d), p,
                   {Strategy::GpuElementwise}, bandwidth};
        out.push_back(std::move(w));
    };
    if (quick) {
        sphere(500, 50, 50, false);
        sphere(10000, 100, 5, true);
    } else {
        sphere(5000, 200, 2000, false);
        sphere(100000, 100, 200, true);
    }
    return out;
}

std::string num(double v, int digits = 4) { return std::isnan(v) ? "-" : format_double(v, digits); }

std::string update_name(const swarm::Params& p) {
    return p.update == swarm::Update::Asynchronous ? "asynchronous" : "synchronous";
}

// 20 bytes per particle-dimension per iteration at fp32 (40 at fp64): read x, v, pbest; write x, v.
double gbs(const Workload& w, double ms) {
    const double elem = w.params.precision == swarm::Precision::FP64 ? 40.0 : 20.0;
    return elem * w.params.swarms * w.params.particles * w.problem.dims * w.params.iterations / (ms * 1e6);
}

} // namespace

BenchReport run_peers_suite(const BenchOptions& o) {
    const auto backend = parse_backend_option(o.engine.backend);
    if (o.runs < 1) throw swarm::ValidationError("runs", "must be at least 1 (got " + std::to_string(o.runs) + ")");
    const bool gpu = backend != swarm::Backend::Cpu && swarm::cuda_device_present();
    if (backend == swarm::Backend::Cuda && !gpu) {
        throw swarm::UnavailableError("--backend cuda: no CUDA device is visible; use --backend cpu or auto");
    }
    TorchPeer peer(o.peer_python, o.peer_script); // a named script that is missing fails here, before any run
    if (backend == swarm::Backend::Cpu) {
        peer.disable("--backend cpu (the peer runs on the GPU)");
    } else {
        peer.probe();
    }
    const double budget = o.quick ? 2e5 : 2e7;    // CPU particle-dimension updates per reference

    BenchReport report;
    report.table = Table({"workload", "setting", "runner", "role", "ms", "basis", "best", "PyTorch / this", "figure"});
    double copy_gbs = std::nan("");
#if defined(SWARM_HAVE_CUDA)
    if (gpu) {
        copy_gbs = swarm::measure_device_copy_bandwidth(o.quick ? (std::size_t(64) << 20) : (std::size_t(1) << 30), 10);
        report.notes.push_back("device-to-device cudaMemcpy rate (read + write), same run: " + num(copy_gbs) + " GB/s");
    }
#endif
    if (!peer.usable()) report.notes.push_back("PyTorch peer skipped: " + peer.reason());
    std::map<std::string, std::string> skipped; // strategy -> reason, reported once
    nlohmann::json peer_json = nlohmann::json::array();

    for (const Workload& w : workloads(o.quick)) {
        std::fprintf(stderr, "peers: %s, %s\n", w.name.c_str(), w.setting.c_str()); // progress
        swarm::Params params = w.params;
        params.seed = o.engine.seed;
        const std::string its = std::to_string(params.iterations);

        // The peer first, so every row of the workload can carry the ratio.
        TorchPeerRun pr;
        const bool had_peer = peer.usable();
        if (had_peer) {
            pr = peer.run(w.problem, params, o.runs);
            if (!pr.ok) {
                report.notes.push_back("PyTorch peer, " + w.name + " (" + w.setting + "): " + pr.error);
            } else {
                std::fprintf(stderr, "  pytorch-pso: %.4g ms, best %.6g\n", pr.ms, pr.best);
            }
        }
        auto ratio = [&](double ms) { return pr.ok && ms > 0 ? num(pr.ms / ms, 3) : std::string("-"); };
        auto bandwidth = [&](double ms) {
            if (!w.bandwidth) return std::string("-");
            const double g = gbs(w, ms);
            return num(g) + " GB/s" + (std::isnan(copy_gbs) ? "" : " = " + num(100 * g / copy_gbs, 3) + "% of copy");
        };

        const CpuFigure serial = measure_cpu_prefix(Strategy::CpuSerial, w.problem, params, budget);
        report.table.add({w.name, w.setting, "cpu-serial", "CPU reference (" + update_name(params) + ")",
                          num(serial.ms), "wall, " + cpu_basis(serial, params.iterations),
                          num(serial.run.best().best_fitness, 7), ratio(serial.ms), "-"});

        if (gpu) {
            std::string note;
            const Strategy picked = swarm::resolve_strategy(Strategy::Auto, backend, w.problem, params, &note);
            std::vector<std::pair<Strategy, std::string>> todo{{picked, "auto"}};
            for (const Strategy s : w.named) {
                if (s != picked) todo.emplace_back(s, "named");
            }
            struct Row {
                std::string strategy, role;
                double ms;
            };
            std::vector<Row> rows;
            for (const auto& [s, role] : todo) {
                const std::string name(swarm::to_string(s));
                const auto avail = swarm::availability(s);
                if (!avail.available) {
                    skipped[name] = avail.reason;
                    continue;
                }
                auto opt = swarm::create_optimizer(s);
                swarm::Result r;
                try {
                    r = time_device(*opt, w.problem, params, o.runs);
                } catch (const swarm::ValidationError& e) { // a named design that does not take this shape
                    report.notes.push_back(name + " skipped for " + w.name + " (" + w.setting + "): " + e.what());
                    continue;
                }
                std::fprintf(stderr, "  %s (%s): %.4g ms, best %.6g\n", name.c_str(), role.c_str(), r.device_ms,
                             r.best().best_fitness);
                rows.push_back({name, role, r.device_ms});
                report.table.add({w.name, w.setting, name, role == "auto" ? "auto" : "named", num(r.device_ms),
                                  "device", num(r.best().best_fitness, 7), ratio(r.device_ms), bandwidth(r.device_ms)});
            }
            // Is auto's pick the fastest strategy measured here? (The bar: within 5 %.)
            if (!rows.empty() && rows.front().role == "auto") {
                const auto fastest = std::min_element(rows.begin(), rows.end(),
                                                      [](const Row& a, const Row& b) { return a.ms < b.ms; });
                const double over = 100.0 * (rows.front().ms / fastest->ms - 1.0);
                report.notes.push_back(w.name + " (" + w.setting + "): auto picked " + rows.front().strategy +
                                       (fastest == rows.begin() ? ", the fastest measured"
                                                                : ", " + num(over, 3) + " % slower than " +
                                                                      fastest->strategy));
            }
        }
        if (pr.ok) {
            report.table.add({w.name, w.setting, "pytorch-pso",
                              "peer (synchronous; torch " + pr.torch + " on " + pr.device + ")", num(pr.ms),
                              "device (CUDA events)", num(pr.best, 7), "1", bandwidth(pr.ms)});
            peer_json.push_back({{"workload", w.name},
                                 {"setting", w.setting},
                                 {"ms", pr.ms},
                                 {"best", pr.best},
                                 {"torch", pr.torch},
                                 {"device", pr.device}});
        }
        if (had_peer && !peer.usable()) report.notes.push_back("PyTorch peer skipped from here on: " + peer.reason());
    }
    if (!gpu) {
        report.notes.push_back("GPU strategies skipped: " + std::string(backend == swarm::Backend::Cpu
                                                                            ? "--backend cpu"
                                                                            : "no CUDA device is visible"));
    }
    for (const auto& [s, why] : skipped) {
        report.notes.push_back("skipped " + s + ": " + why);
    }
    report.notes.push_back(
        "GPU ms are device time with set-up excluded (median of --runs; one run when it takes over 200 ms); "
        "cpu-serial is host wall time of a prefix of the iterations scaled to the whole when it says so. PyTorch / "
        "this: the peer's ms over the row's (above 1: the row is faster). The PyTorch peer "
        "(app/bench/peers/pso_torch.py) is synchronous in every workload. GB/s count 20 bytes per "
        "particle-dimension per iteration (read x, v, pbest; write x, v; 40 at fp64).");
    report.json_extra = {{"peer_script", peer.script()}, {"pytorch", peer_json}};
    if (!std::isnan(copy_gbs)) report.json_extra["copy_gbs"] = copy_gbs;
    return report;
}

} // namespace app
