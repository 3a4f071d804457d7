// Strategy-specific GPU tests for cuPSO's unrolled/queue/queue-lock designs (000) and FastPSO's
// element-wise strategy (001), beyond the shared suite in pso_gpu_test.cpp. Skipped without a device.
#include <gtest/gtest.h>

#include <cmath>

#include "swarm/optimizer.h"

#if defined(SWARM_HAVE_CUDA)
#include "swarm/cuda/memory.h"
#endif

using swarm::Strategy;

namespace {

bool usable(Strategy s) {
    return swarm::cuda_device_present() && swarm::availability(s).available;
}

// gpu-unrolled, gpu-queue and gpu-queue-lock run the same per-particle code as gpu-reduction and differ
// only in how the swarm best is found. A queue that dropped an improvement, or a lock that lost an update,
// would change the swarm best of some iteration; so the whole history must equal the reduction's bit for
// bit. Several blocks per swarm (5000 particles, 1024-thread blocks) make the lock contended.
class SameBestAsReduction : public testing::TestWithParam<Strategy> {};

TEST_P(SameBestAsReduction, EveryIterationEveryPrecision) {
    if (!usable(GetParam()) || !usable(Strategy::GpuReduction)) GTEST_SKIP() << "strategy or device unavailable";
    struct Case {
        swarm::Function f;
        int dims, swarms, particles, iterations;
    };
    const Case cases[] = {{swarm::Function::Cubic, 1, 3, 5000, 300},  // improvements are rare: short queues
                          {swarm::Function::Sphere, 20, 2, 5000, 100}, // improvements everywhere early on
                          {swarm::Function::Rastrigin, 3, 64, 33, 200}};
    for (const auto precision : {swarm::Precision::FP32, swarm::Precision::FP64}) {
        for (const auto& c : cases) {
            const auto problem = swarm::Problem::benchmark(c.f, c.dims);
            swarm::Params p;
            p.swarms = c.swarms;
            p.particles = c.particles;
            p.iterations = c.iterations;
            p.precision = precision;
            p.record_history = true;
            p.seed = 7;
            const auto ref = swarm::create_optimizer(Strategy::GpuReduction)->run(problem, p);
            const auto got = swarm::create_optimizer(GetParam())->run(problem, p);
            for (int s = 0; s < c.swarms; ++s) {
                ASSERT_EQ(got.swarms[s].history, ref.swarms[s].history) << swarm::info(c.f).name << " swarm " << s;
                EXPECT_EQ(got.swarms[s].best_position, ref.swarms[s].best_position);
            }
            // Without per-iteration copies (queue-lock then publishes only at the end) the answer is the same.
            p.record_history = false;
            const auto quiet = swarm::create_optimizer(GetParam())->run(problem, p);
            for (int s = 0; s < c.swarms; ++s) {
                EXPECT_EQ(quiet.swarms[s].best_fitness, ref.swarms[s].best_fitness);
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Cupso, SameBestAsReduction,
                         testing::Values(Strategy::GpuUnrolled, Strategy::GpuQueue, Strategy::GpuQueueLock),
                         [](const auto& info) {
                             std::string n(swarm::to_string(info.param));
                             for (auto& ch : n) ch = ch == '-' ? '_' : ch;
                             return n;
                         });

class Elementwise : public testing::Test {
protected:
    void SetUp() override {
        if (!usable(Strategy::GpuElementwise)) GTEST_SKIP() << "gpu-elementwise or device unavailable";
        m_opt = swarm::create_optimizer(Strategy::GpuElementwise);
    }
    std::unique_ptr<swarm::Optimizer> m_opt;
};

// fp64 trajectories against cpu-serial for FastPSO's functions and the gather path (Rosenbrock), with
// dimensions that are not multiples of 4 (padded rows) and rows wider than a warp's 128 dimensions.
TEST_F(Elementwise, Fp64FollowsCpuTrajectory) {
    struct Case {
        swarm::Function f;
        int dims;
    };
    for (const auto c : {Case{swarm::Function::Sphere, 200}, Case{swarm::Function::Griewank, 7},
                         Case{swarm::Function::EasomND, 4}, Case{swarm::Function::Rosenbrock, 33},
                         Case{swarm::Function::Ackley, 130}}) {
        const auto problem = swarm::Problem::benchmark(c.f, c.dims);
        swarm::Params p;
        p.swarms = 2;
        p.particles = 150;
        p.iterations = 40;
        p.precision = swarm::Precision::FP64;
        p.record_history = true;
        const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
        const auto gpu = m_opt->run(problem, p);
        for (int s = 0; s < p.swarms; ++s) {
            const auto& hc = cpu.swarms[s].history;
            const auto& hg = gpu.swarms[s].history;
            ASSERT_EQ(hg.size(), hc.size());
            for (std::size_t t = 0; t < hc.size(); ++t) {
                ASSERT_NEAR(hg[t], hc[t], 1e-7 * std::max(1.0, std::fabs(hc[t])))
                    << swarm::info(c.f).name << " swarm " << s << " iteration " << t + 1;
            }
        }
    }
}

// The graph-replayed path (no history) and the per-iteration path (history) run the same iterations.
TEST_F(Elementwise, GraphReplayEqualsPerIterationLaunches) {
    const auto problem = swarm::Problem::benchmark(swarm::Function::Sphere, 50);
    swarm::Params p;
    p.particles = 500;
    p.iterations = 101; // 3 graph chunks of 32 and 5 single launches
    const auto replayed = m_opt->run(problem, p);
    p.record_history = true;
    const auto stepped = m_opt->run(problem, p);
    EXPECT_EQ(replayed.iterations, 101);
    EXPECT_EQ(replayed.best().best_fitness, stepped.best().best_fitness);
    EXPECT_EQ(replayed.best().best_position, stepped.best().best_position);
    EXPECT_EQ(stepped.best().history.back(), stepped.best().best_fitness);
}

// A run without history is one cooperative launch (elementwise_persistent.cuh) whenever its blocks fit
// on the device; with history it is a launch per iteration. Both must give the same swarm best, bit for
// bit: many blocks per swarm with the swarm best moving nearly every iteration (the persistent kernel's
// copy/overwrite hand-off), several swarms, Random boundaries (lazily drawn), a padded row wider than a
// warp, the gather path, one particle, both precisions, rows staged through shared memory, and rows kept in
// shared memory for the whole run (ResidentTiles: every shape below whose state fits, e.g. FastPSO's 5,000 x 200
// in fp32, whose warps hold 2 or 3 rows as one short tile and draw each iteration's random numbers at the
// previous iteration's grid barrier).
TEST_F(Elementwise, OneLaunchRunEqualsPerIterationLaunches) {
    // The benchmark's box in every dimension of every swarm, or an interval of each dimension's own (the clamped
    // resident kernel that loads the bounds), or a box of each swarm's own (ResidentClampedBox, per swarm).
    enum class Bounds { Benchmark, PerDimension, PerSwarm };
    struct Case {
        swarm::Function f;
        int dims, swarms, particles, iterations;
        swarm::Boundary boundary;
        Bounds bounds = Bounds::Benchmark;
    };
    const Case cases[] = {{swarm::Function::Sphere, 20, 3, 5000, 150, swarm::Boundary::Clamp},
                          {swarm::Function::Rastrigin, 100, 2, 3000, 60, swarm::Boundary::Random},
                          {swarm::Function::Griewank, 513, 1, 300, 40, swarm::Boundary::Reflect},
                          {swarm::Function::Rosenbrock, 33, 4, 100, 50, swarm::Boundary::Clamp},
                          {swarm::Function::Sphere, 7, 5, 1, 30, swarm::Boundary::Clamp},
                          {swarm::Function::Sphere, 100, 3, 1001, 80, swarm::Boundary::Clamp},
                          {swarm::Function::Sphere, 200, 1, 5000, 40, swarm::Boundary::Random},
                          // The resident update's own loop for the Clamp rule (move_resident_tile), which at 32
                          // fitness lanes per row also sums the fitness terms: FastPSO's shape; 75 groups a row
                          // (a lane's three groups of one row, Griewank's per-dimension term); Ackley's second sum;
                          // 100 dims, 16 fitness lanes a row: the loop without the sums.
                          {swarm::Function::Sphere, 200, 1, 5000, 40, swarm::Boundary::Clamp},
                          {swarm::Function::Rastrigin, 100, 1, 5000, 30, swarm::Boundary::Clamp},
                          {swarm::Function::Griewank, 300, 1, 2000, 30, swarm::Boundary::Clamp},
                          {swarm::Function::Ackley, 136, 2, 3000, 30, swarm::Boundary::Clamp},
                          {swarm::Function::Sphere, 200, 1, 5000, 40, swarm::Boundary::Clamp, Bounds::PerDimension},
                          {swarm::Function::Griewank, 300, 2, 2000, 30, swarm::Boundary::Clamp, Bounds::PerDimension},
                          {swarm::Function::Sphere, 200, 2, 3000, 40, swarm::Boundary::Clamp, Bounds::PerSwarm},
                          // Resident with too little room left for the next iteration's draws (ten rows of
                          // 100 per warp on a 132-SM part): drawn in the row update, as the other forms do.
                          {swarm::Function::Sphere, 100, 1, 20000, 20, swarm::Boundary::Clamp},
                          // State larger than L2 (72 MB of fp32 x, v, p; 144 MB in fp64): the one-launch run
                          // walks the rows backward on odd iterations (TileWalk), the per-iteration launches
                          // always forward; on sm_90 it also stages fp32 rows through shared memory
                          // (elementwise_staging.cuh), here as flat tiles (elementwise_flat_tiles.cuh);
                          // 30,001 rows end in a tile of one row (five rows per warp tile); the second swarm
                          // starts mid-array.
                          {swarm::Function::Sphere, 100, 2, 30001, 12, swarm::Boundary::Clamp},
                          // Also larger than L2, staged as flat tiles (elementwise_flat_tiles.cuh) on sm_90:
                          // 5-row tiles with padding (98 dims), Random boundaries and the last tile one row;
                          // 7-row tiles at 36 dims with Griewank's per-dimension term; the gather path.
                          {swarm::Function::Rastrigin, 98, 1, 60001, 10, swarm::Boundary::Random},
                          {swarm::Function::Griewank, 36, 1, 200001, 10, swarm::Boundary::Reflect},
                          {swarm::Function::Rosenbrock, 100, 1, 60003, 10, swarm::Boundary::Clamp},
                          // The largest flat tile: 12 dims (3 groups) in tiles of 32 rows, two fitness passes.
                          {swarm::Function::Schwefel, 12, 1, 400003, 6, swarm::Boundary::Clamp},
                          // Staged rows whose segments fill every lane keep update_rows' layout: 8 rows of 32
                          // dims per tile (the last one row), 1 row of 256.
                          {swarm::Function::Sphere, 32, 1, 150001, 10, swarm::Boundary::Clamp},
                          {swarm::Function::Ackley, 256, 1, 20001, 8, swarm::Boundary::Reflect}};
    for (const auto precision : {swarm::Precision::FP32, swarm::Precision::FP64}) {
        for (const auto& c : cases) {
            auto problem = swarm::Problem::benchmark(c.f, c.dims);
            if (c.bounds == Bounds::PerDimension) {
                for (int d = 0; d < c.dims; ++d) {
                    problem.lower[d] *= 1.0 + 0.002 * d;
                    problem.upper[d] *= 1.0 + 0.001 * (c.dims - d);
                }
            } else if (c.bounds == Bounds::PerSwarm) {
                const auto lo = problem.lower, hi = problem.upper;
                problem.lower.clear();
                problem.upper.clear();
                for (int s = 0; s < c.swarms; ++s) {
                    for (int d = 0; d < c.dims; ++d) {
                        problem.lower.push_back(lo[d] * (1.0 + 0.5 * s));
                        problem.upper.push_back(hi[d] * (1.0 - 0.25 * s));
                    }
                }
            }
            swarm::Params p;
            p.swarms = c.swarms;
            p.particles = c.particles;
            p.iterations = c.iterations;
            p.boundary = c.boundary;
            p.precision = precision;
            p.seed = 5;
            const auto one = m_opt->run(problem, p);
            p.record_history = true;
            const auto stepped = m_opt->run(problem, p);
            for (int s = 0; s < c.swarms; ++s) {
                EXPECT_EQ(one.swarms[s].best_fitness, stepped.swarms[s].best_fitness)
                    << swarm::info(c.f).name << " D " << c.dims << " swarm " << s << " bounds "
                    << static_cast<int>(c.bounds);
                EXPECT_EQ(one.swarms[s].best_position, stepped.swarms[s].best_position)
                    << swarm::info(c.f).name << " D " << c.dims << " swarm " << s << " bounds "
                    << static_cast<int>(c.bounds);
            }
        }
    }
}

#if defined(SWARM_HAVE_CUDA)
// FastPSO's memory caching: once a shape has run, running it again (other seed too) asks the driver for
// no memory at all, neither for the strategy's state nor for the run frame.
TEST_F(Elementwise, SecondRunAllocatesNothing) {
    const auto problem = swarm::Problem::benchmark(swarm::Function::Griewank, 200);
    swarm::Params p;
    p.particles = 5000;
    p.iterations = 50;
    m_opt->run(problem, p);
    const std::size_t before = swarm::gpu::pool_driver_allocations();
    p.seed = 99;
    m_opt->run(problem, p);
    p.precision = swarm::Precision::FP32;
    m_opt->run(problem, p);
    EXPECT_EQ(swarm::gpu::pool_driver_allocations(), before);
}
#endif

// Quality at FastPSO's Table 2 budget is checked by the seeds benchmark; here a scaled-down run must
// still converge on the paper's three functions.
TEST_F(Elementwise, ConvergesOnFastPsoFunctions) {
    for (const auto f : {swarm::Function::Sphere, swarm::Function::Griewank, swarm::Function::EasomND}) {
        const bool griewank = f == swarm::Function::Griewank;
        const auto problem = swarm::Problem::benchmark(f, f == swarm::Function::EasomND ? 2 : griewank ? 10 : 20);
        swarm::Params p;
        p.swarms = 4;
        p.particles = 1000;
        p.iterations = 1500;
        const auto r = m_opt->run(problem, p);
        EXPECT_NEAR(r.best().best_fitness, *problem.known_optimum, griewank ? 5e-2 : 1e-3) << swarm::info(f).name;
    }
}

} // namespace
