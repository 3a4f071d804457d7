// The seeds' experiments and their reported figures (docs/seed-notes.md §1.7, §2.7-2.8, §3.3, §4.5).
// `quick` keeps the structure and shrinks every size so the suite runs in seconds on a CPU.
#include <algorithm>
#include <cmath>

#include "bench/bench_seeds.h"

namespace app::seeds {
namespace {

using swarm::Function;
using swarm::Strategy;

const char* const k_cupso_hw = "GTX 1080 Ti; Xeon E3-1275 v5 (fp64)";
const char* const k_fastpso_hw = "Tesla V100; 2x Xeon E5-2640v4";
const char* const k_cpso_hw = "RTX 3080 Laptop; Ryzen 9 5900HX (fp32)";
const char* const k_sync_hw = "GeForce 8800GT; Core2 Duo 1.86 GHz (fp32)";
const char* const k_ring_hw = "GTX260 / FX5800 / 8800GT; Core i7 2.67 GHz (fp32)";

swarm::Params base(int swarms, int particles, long long iterations, swarm::Precision precision) {
    swarm::Params p;
    p.swarms = swarms;
    p.particles = particles;
    p.iterations = iterations;
    p.precision = precision;
    return p;
}

// cuPSO: w = 1, c1 = c2 = 2, |v| <= 200 (the whole range), fp64, the cubic of Eq. 3 maximised.
swarm::Params cupso(int particles, long long iterations) {
    auto p = base(1, particles, iterations, swarm::Precision::FP64);
    p.w = 1.0;
    p.c1 = p.c2 = 2.0;
    p.v_max_fraction = 1.0;
    return p;
}

void add_cupso(std::vector<Experiment>& out, bool quick) {
    // Table 3 (all four designs) and Table 4 (queue-lock), 1-D, 100,000 iterations; seconds -> ms.
    struct Row {
        int n;
        double cpu, red, unr, que, lock;
    };
    const Row t3[] = {{32, 0.100, 0.413, 0.394, 0.368, 0.216},   {64, 0.187, 0.419, 0.402, 0.368, 0.219},
                      {128, 0.385, 0.447, 0.408, 0.371, 0.220},  {256, 0.825, 0.455, 0.419, 0.371, 0.222},
                      {512, 1.503, 0.467, 0.422, 0.391, 0.223},  {1024, 3.042, 0.491, 0.439, 0.394, 0.227},
                      {2048, 6.277, 0.508, 0.451, 0.409, 0.230}};
    const Row t4[] = {{4096, 12.410, k_none, k_none, k_none, 0.265},  {8192, 23.850, k_none, k_none, k_none, 0.316},
                      {16384, 47.355, k_none, k_none, k_none, 0.417}, {32768, 94.629, k_none, k_none, k_none, 0.643},
                      {65536, 200.536, k_none, k_none, k_none, 1.026}, {131072, 378.671, k_none, k_none, k_none, 2.759}};
    const long long iters = quick ? 200 : 100000;
    auto add = [&](const Row& r, const char* id) {
        if (quick && r.n != 32 && r.n != 1024 && r.n != 8192) return;
        Experiment e{id, "1-D cubic, " + std::to_string(r.n) + " particles", k_cupso_hw,
                     swarm::Problem::benchmark(Function::Cubic, 1), cupso(r.n, iters), {}, r.cpu * 1e3};
        const double ms[] = {r.red, r.unr, r.que, r.lock};
        const Strategy st[] = {Strategy::GpuReduction, Strategy::GpuUnrolled, Strategy::GpuQueue, Strategy::GpuQueueLock};
        for (int k = 0; k < 4; ++k) {
            if (!std::isnan(ms[k])) e.cells.push_back({st[k], {ms[k] * 1e3, r.cpu * 1e3, r.cpu / ms[k], k_none}});
        }
        out.push_back(std::move(e));
    };
    for (const auto& r : t3) add(r, "cuPSO T3");
    for (const auto& r : t4) add(r, "cuPSO T4");

    // Table 5: 120-D, Queue versus CPU, iterations vary per row.
    struct Row5 {
        int n;
        long long it;
        double cpu, queue;
    };
    const Row5 t5[] = {{128, 5000, 2.392, 0.487},   {256, 4000, 3.543, 0.384},    {512, 3000, 5.305, 0.288},
                       {1024, 2000, 7.078, 0.225},  {2048, 2000, 14.214, 0.255},  {4096, 1500, 21.593, 0.220},
                       {8192, 1000, 29.494, 0.191}, {16384, 1000, 59.125, 0.294}, {32768, 1000, 128.349, 0.570},
                       {65536, 1000, 237.933, 1.169}, {131072, 800, 379.820, 1.744}};
    for (const auto& r : t5) {
        if (quick && r.n != 128 && r.n != 4096) continue;
        Experiment e{"cuPSO T5", "120-D cubic, " + std::to_string(r.n) + " particles", k_cupso_hw,
                     swarm::Problem::benchmark(Function::Cubic, 120), cupso(r.n, quick ? 10 : r.it), {}, r.cpu * 1e3};
        e.cells.push_back({Strategy::GpuQueue, {r.queue * 1e3, r.cpu * 1e3, r.cpu / r.queue, k_none}});
        out.push_back(std::move(e));
    }
}

void add_fastpso(std::vector<Experiment>& out, bool quick) {
    // Tables 1-2: 5000 x 200 x 2000, w = 0.9, c1 = c2 = 2; FastPSO GPU and fastpso-seq/omp seconds, error.
    // |v| <= 10% of the range in both parameter sets: with the engine's default 50% the gbest swarm stalls
    // far from the optimum (Sphere 200-D: error ~105 instead of ~0.02 on the CPU reference, 300 particles).
    struct Row {
        Function f;
        double gpu, seq, omp, error;
    };
    const Row rows[] = {{Function::Sphere, 0.67, 11.56, 8.74, 23.62},
                        {Function::Griewank, 0.66, 13.78, 9.58, 0.71},
                        {Function::EasomND, 0.87, 33.91, 24.71, 0.00}};
    const int n = quick ? 200 : 5000, d = quick ? 64 : 200;
    const long long it = quick ? 20 : 2000;
    for (const auto& r : rows) {
        // The paper's coefficients, then the engine's defaults (Clerc) at the same budget.
        for (const bool paper_params : {true, false}) {
            auto p = base(1, n, it, swarm::Precision::FP32);
            p.v_max_fraction = 0.1; // FastPSO leaves the clamp (Eq. 5) to the user: 10% of the range
            if (paper_params) {
                p.w = 0.9;
                p.c1 = p.c2 = 2.0;
            }
            Experiment e{"FastPSO T1/T2",
                         std::string(swarm::info(r.f).name) + " " + std::to_string(d) + "-D, " +
                             (paper_params ? "w=0.9 c=2 (paper)" : "w=0.7298 c=1.49618 (engine default)"),
                         k_fastpso_hw, swarm::Problem::benchmark(r.f, d), p, {}, r.seq * 1e3};
            e.cells.push_back({Strategy::GpuElementwise, {r.gpu * 1e3, r.seq * 1e3, r.seq / r.gpu, r.error}});
            e.cpu_parallel = true;
            e.bandwidth = r.f == Function::Sphere;
            out.push_back(std::move(e));
        }
    }
    // The bandwidth target: 100,000 particles x 100 dims (no paper figure).
    Experiment e{"FastPSO bandwidth", quick ? "Sphere 100-D, 10,000 particles" : "Sphere 100-D, 100,000 particles",
                 k_fastpso_hw, swarm::Problem::benchmark(Function::Sphere, 100),
                 base(1, quick ? 10000 : 100000, quick ? 5 : 300, swarm::Precision::FP32), {}, k_none};
    e.cells.push_back({Strategy::GpuElementwise, {}});
    e.bandwidth = true;
    out.push_back(std::move(e));
}

void add_cpso(std::vector<Experiment>& out, bool quick) {
    // Table VI: 2-D Euclidean, 100,000 iterations, w = 1, c1 = c2 = 2, no velocity clamp; ms.
    struct Row {
        int n;
        double cpu, gpu, speedup;
    };
    const Row rows[] = {{32, 335.90, 5422.33, 0.1},      {64, 634.30, 5537, 0.1},          {128, 1259.30, 5752.33, 0.2},
                        {256, 2735.10, 5824, 0.5},       {512, 5489.90, 5829.67, 0.9},     {1024, 11496.10, 5841.33, 2.0},
                        {2048, 24865.50, 5864, 4.2},     {4096, 46369.80, 5988, 7.7},      {8192, 102598, 6221, 16.5},
                        {16384, 200503, 6869.67, 29.2},  {32768, 398791, 13180.33, 30.3},  {65536, 793711, 21431, 37.0}};
    for (const auto& r : rows) {
        if (quick && r.n != 32 && r.n != 4096) continue;
        auto p = base(1, r.n, quick ? 200 : 100000, swarm::Precision::FP32);
        p.w = 1.0;
        p.c1 = p.c2 = 2.0;
        p.v_max_fraction = 0.0;
        Experiment e{"CPSO T6", "2-D Euclidean, " + std::to_string(r.n) + " particles", k_cpso_hw,
                     swarm::Problem::benchmark(Function::Euclidean, 2), p, {}, r.cpu};
        e.cells.push_back({Strategy::GpuReduction, {r.gpu, r.cpu, r.speedup, k_none}});
        out.push_back(std::move(e));
    }
}

swarm::Params mussi(int swarms, long long iterations, swarm::Topology topology) {
    auto p = base(swarms, 32, iterations, swarm::Precision::FP32);
    p.w = 0.729844;
    p.c1 = p.c2 = 1.49618;
    p.topology = topology;
    return p;
}

void add_mussi(std::vector<Experiment>& out, bool quick) {
    // SyncPSO Fig. 3c: swarms of 32, Rastrigin 5-D, 10,000 generations; only 112 swarms has a number.
    for (const int s : {1, 14, 28, 56, 112}) {
        if (quick && s != 1 && s != 14) continue;
        Experiment e{"Mussi SyncPSO", "Rastrigin 5-D, " + std::to_string(s) + " x 32 particles", k_sync_hw,
                     swarm::Problem::benchmark(Function::Rastrigin, 5),
                     mussi(s, quick ? 100 : 10000, swarm::Topology::Global), {}, k_none};
        e.cells.push_back({Strategy::GpuSync, {s == 112 ? 120.0 : k_none, k_none, k_none, k_none}});
        out.push_back(std::move(e));
    }
    // RingPSO Figs. 4-6: one swarm of 32, 10,000 generations, D = 2..128 (plots only: no numbers).
    for (const auto f : {Function::Sphere, Function::Rastrigin, Function::Rosenbrock}) {
        for (const int d : {2, 4, 8, 16, 32, 64, 128}) {
            if (quick && d != 2 && d != 128) continue;
            Experiment e{"Mussi RingPSO", std::string(swarm::info(f).name) + " " + std::to_string(d) + "-D, 32 particles",
                         k_ring_hw, swarm::Problem::benchmark(f, d), mussi(1, quick ? 100 : 10000, swarm::Topology::Ring),
                         {}, k_none};
            e.cells.push_back({Strategy::GpuRing3k, {}});
            e.cells.push_back({Strategy::GpuRing2k, {}});
            out.push_back(std::move(e));
        }
    }
    // Table 2: RingPSO against the literature (function unstated; Sphere here), GTX260 times.
    struct Row {
        int n, d;
        long long g;
        double ms;
    };
    for (const auto r : {Row{416, 50, 2000, 105.0}, Row{1024, 100, 100000, 15680.0}}) {
        auto p = mussi(1, quick ? 20 : r.g, swarm::Topology::Ring);
        p.particles = r.n;
        Experiment e{"Mussi RingPSO T2", "Sphere " + std::to_string(r.d) + "-D, " + std::to_string(r.n) + " particles",
                     "GTX260 AMP2", swarm::Problem::benchmark(Function::Sphere, r.d), p, {}, k_none};
        e.cells.push_back({Strategy::GpuRing2k, {r.ms, k_none, k_none, k_none}});
        out.push_back(std::move(e));
    }
}

} // namespace

std::vector<Experiment> experiments(bool quick) {
    std::vector<Experiment> out;
    add_cupso(out, quick);
    add_fastpso(out, quick);
    add_cpso(out, quick);
    add_mussi(out, quick);
    return out;
}

} // namespace app::seeds
