// GPU PSO strategies against the CPU reference. Every case skips when no CUDA device is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "history_check.h"
#include "registry.h"
#include "swarm/errors.h"
#include "swarm/optimizer.h"

using swarm::Strategy;

namespace {

struct StrategyTraits {
    Strategy strategy;
    bool global;      // supports Topology::Global
    bool ring;        // supports Topology::Ring
    bool synchronous; // follows the synchronous reference trajectory exactly (up to rounding)
};

const StrategyTraits k_gpu[] = {
    {Strategy::GpuReduction, true, false, true}, {Strategy::GpuUnrolled, true, false, true},
    {Strategy::GpuQueue, true, false, true},     {Strategy::GpuQueueLock, true, false, true},
    {Strategy::GpuRing3k, false, true, true},    {Strategy::GpuRing2k, false, true, true},
    {Strategy::GpuFused, true, true, true},      {Strategy::GpuSync, true, true, true},
    {Strategy::GpuElementwise, true, false, true},
};

std::string name_of(const testing::TestParamInfo<StrategyTraits>& info) {
    std::string n(swarm::to_string(info.param.strategy));
    for (auto& c : n) {
        if (c == '-') c = '_';
    }
    return n;
}

class GpuPso : public testing::TestWithParam<StrategyTraits> {
protected:
    void SetUp() override {
        if (!swarm::cuda_device_present()) {
            GTEST_SKIP() << "no CUDA device";
        }
        const auto a = swarm::availability(GetParam().strategy);
        if (!a.available) {
            GTEST_SKIP() << a.reason;
        }
        m_opt = swarm::create_optimizer(GetParam().strategy);
    }
    swarm::Topology topology() const { return GetParam().global ? swarm::Topology::Global : swarm::Topology::Ring; }
    std::unique_ptr<swarm::Optimizer> m_opt;
};

// The GPU run draws the same keyed random numbers as cpu-serial, so the best fitness of every swarm must
// follow the same trajectory iteration by iteration (fp64; rounding differences only from FMA use).
TEST_P(GpuPso, FollowsCpuTrajectory) {
    if (!GetParam().synchronous) GTEST_SKIP() << "asynchronous strategy";
    for (const auto f : {swarm::Function::Sphere, swarm::Function::Rastrigin}) {
        const auto problem = swarm::Problem::benchmark(f, 5);
        const swarm::Params p = traced(3, 33, 60, topology(), 42);
        const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
        expect_same_history(m_opt->run(problem, p), cpu, 1e-7, std::string(swarm::info(f).name));
    }
}

// An unwatched run (no history, no early stop) takes a strategy's fast path: whole chunks of iterations replayed
// from a CUDA graph and the rest launched directly (gpu-reduction, gpu-queue-lock), or one persistent launch. It
// must still end where cpu-serial does (fp64, to rounding): two 32-iteration chunks and five more, one block
// per swarm and several, and a second run that replays the graph the first one captured.
TEST_P(GpuPso, UnwatchedRunEndsWhereTheCpuDoes) {
    if (!GetParam().synchronous) GTEST_SKIP() << "asynchronous strategy";
    for (const int particles : {1, 33, 1100}) { // 1,100: several blocks a swarm for the 1,024-thread queue-lock
        if (particles < 3 && !GetParam().global) continue; // a ring needs 2r+1 particles
        if (particles > 1024 && GetParam().strategy == Strategy::GpuSync) continue; // a block per swarm
        const auto problem = swarm::Problem::benchmark(swarm::Function::Rastrigin, 3);
        swarm::Params p;
        p.swarms = 3;
        p.particles = particles;
        p.iterations = 69;
        p.topology = topology();
        p.precision = swarm::Precision::FP64;
        p.seed = 11;
        const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
        for (int run = 0; run < 2; ++run) {
            const auto gpu = m_opt->run(problem, p);
            ASSERT_EQ(gpu.iterations, cpu.iterations);
            for (int s = 0; s < p.swarms; ++s) {
                const auto& g = gpu.swarms[s];
                const auto& c = cpu.swarms[s];
                EXPECT_NEAR(g.best_fitness, c.best_fitness, 1e-7 * std::max(1.0, std::fabs(c.best_fitness)))
                    << particles << " particles, swarm " << s << ", run " << run;
                for (std::size_t d = 0; d < c.best_position.size(); ++d) {
                    EXPECT_NEAR(g.best_position[d], c.best_position[d],
                                1e-6 * std::max(1.0, std::fabs(c.best_position[d])))
                        << particles << " particles, swarm " << s << ", dim " << d << ", run " << run;
                }
            }
        }
    }
}

TEST_P(GpuPso, ConvergesOnBenchmarks) {
    struct Case {
        swarm::Function f;
        int dims;
        double tolerance;
    };
    const Case cases[] = {{swarm::Function::Sphere, 10, 1e-4},  {swarm::Function::Rastrigin, 5, 1e-2},
                          {swarm::Function::Ackley, 2, 1e-3},   {swarm::Function::GoldsteinPrice, 2, 1e-3},
                          {swarm::Function::Cubic, 1, 1e-3},    {swarm::Function::Euclidean, 2, 1e-3},
                          {swarm::Function::MartinGaddy, 2, 1e-4}};
    for (const auto& c : cases) {
        const auto problem = swarm::Problem::benchmark(c.f, c.dims);
        swarm::Params p;
        p.swarms = 8;
        p.particles = 64;
        p.iterations = 1500;
        p.topology = topology();
        const auto r = m_opt->run(problem, p);
        EXPECT_NEAR(r.best().best_fitness, *problem.known_optimum, c.tolerance) << swarm::info(c.f).name;
    }
}

TEST_P(GpuPso, OddSizes) {
    struct Shape {
        int swarms, particles, dims;
    };
    for (const auto sh : {Shape{1, 1, 1}, Shape{1, 33, 1}, Shape{2, 33, 513}, Shape{1000, 7, 3}}) {
        if (sh.particles < 3 && !GetParam().global) continue; // a ring needs 2r+1 particles
        const auto problem = swarm::Problem::benchmark(swarm::Function::Sphere, sh.dims);
        swarm::Params p;
        p.swarms = sh.swarms;
        p.particles = sh.particles;
        p.iterations = 20;
        p.topology = topology();
        p.precision = swarm::Precision::FP64;
        const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
        const auto gpu = m_opt->run(problem, p);
        ASSERT_EQ(gpu.swarms.size(), static_cast<std::size_t>(sh.swarms));
        for (int s = 0; s < sh.swarms; ++s) {
            ASSERT_EQ(gpu.swarms[s].best_position.size(), static_cast<std::size_t>(sh.dims));
            if (GetParam().synchronous) {
                EXPECT_NEAR(gpu.swarms[s].best_fitness, cpu.swarms[s].best_fitness,
                            1e-6 * std::max(1.0, std::fabs(cpu.swarms[s].best_fitness)))
                    << sh.swarms << "x" << sh.particles << "x" << sh.dims << " swarm " << s;
            }
        }
    }
}

// A start box (Problem::init_lower, 40 % of each swarm): the GPU draws the same starting positions as
// cpu-serial, so the trajectories still agree; gpu-elementwise rejects the box.
TEST_P(GpuPso, StartBoxFollowsCpuTrajectory) {
    auto problem = swarm::Problem::benchmark(swarm::Function::Rastrigin, 5);
    problem.init_lower.assign(5, 1.0);
    problem.init_upper.assign(5, 1.5);
    problem.init_share = 0.4;
    const swarm::Params p = traced(3, 33, 40, topology(), 5);
    if (GetParam().strategy == Strategy::GpuElementwise) {
        EXPECT_THROW(m_opt->run(problem, p), swarm::ValidationError);
        return;
    }
    if (!GetParam().synchronous) GTEST_SKIP() << "asynchronous strategy";
    const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
    expect_same_history(m_opt->run(problem, p), cpu, 1e-7, "start box");
}

TEST_P(GpuPso, PerSwarmBounds) {
    // Two swarms, each confined to its own box that excludes the origin: each must end at its box's
    // corner nearest the origin.
    swarm::Problem problem = swarm::Problem::benchmark(swarm::Function::Sphere, 2);
    problem.lower = {1, 1, -5, -5};
    problem.upper = {3, 3, -2, -2};
    problem.known_optimum.reset();
    swarm::Params p;
    p.swarms = 2;
    p.particles = 32;
    p.iterations = 300;
    p.topology = topology();
    const auto r = m_opt->run(problem, p);
    EXPECT_NEAR(r.swarms[0].best_fitness, 2.0, 1e-4);
    EXPECT_NEAR(r.swarms[1].best_fitness, 8.0, 1e-4);
}

TEST_P(GpuPso, SameSeedSameResult) {
    const auto problem = swarm::Problem::benchmark(swarm::Function::Rastrigin, 4);
    swarm::Params p;
    p.swarms = 4;
    p.particles = 32;
    p.iterations = 200;
    p.topology = topology();
    const auto a = m_opt->run(problem, p);
    const auto b = m_opt->run(problem, p);
    for (int s = 0; s < p.swarms; ++s) {
        EXPECT_EQ(a.swarms[s].best_fitness, b.swarms[s].best_fitness);
        EXPECT_EQ(a.swarms[s].best_position, b.swarms[s].best_position);
    }
}

INSTANTIATE_TEST_SUITE_P(Strategies, GpuPso, testing::ValuesIn(k_gpu), name_of);

// A small ring swarm of many dimensions runs gpu-fused's cooperative GridPhases form (the move a thread per
// particle x 4 dims), which must still end where cpu-serial does: fp64, unwatched, 32 and 40 particles.
TEST(GpuFusedWideRing, SmallSwarmOfManyDimsEndsWhereTheCpuDoes) {
    if (!swarm::cuda_device_present()) GTEST_SKIP() << "no CUDA device";
    for (const int particles : {32, 40}) {
        const auto problem = swarm::Problem::benchmark(swarm::Function::Rosenbrock, 48);
        swarm::Params p;
        p.swarms = 2;
        p.particles = particles;
        p.iterations = 40;
        p.topology = swarm::Topology::Ring;
        p.precision = swarm::Precision::FP64;
        p.seed = 5;
        const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
        const auto gpu = swarm::create_optimizer(Strategy::GpuFused)->run(problem, p);
        for (int s = 0; s < p.swarms; ++s) {
            EXPECT_NEAR(gpu.swarms[s].best_fitness, cpu.swarms[s].best_fitness,
                        1e-7 * std::max(1.0, std::fabs(cpu.swarms[s].best_fitness)))
                << particles << " particles, swarm " << s;
        }
    }
}

// A few swarms of 256-2,048 particles in 1-4 dims run gpu-fused's cluster form on a device of compute capability
// 9.0 (each swarm spread over a thread-block cluster, the best exchanged in distributed shared memory); elsewhere
// the block or grid kernel. Either way the run follows cpu-serial: fp64, the whole history (the chunked, resumed
// launches) and an unwatched run's end, with swarm sizes that leave the last block part-empty (300 = 2 x 128 + 44
// in 128-thread blocks; 1,500 = 5 x 256 + 220 in 256-thread blocks, two entries a lane in the arg-min).
TEST(GpuFusedCluster, SwarmsOfHundredsOfParticlesFollowTheCpu) {
    if (!swarm::cuda_device_present()) GTEST_SKIP() << "no CUDA device";
    struct Shape {
        swarm::Function f;
        int dims, particles;
    };
    for (const Shape sh : {Shape{swarm::Function::Cubic, 1, 1024}, Shape{swarm::Function::Rastrigin, 3, 300},
                           Shape{swarm::Function::Sphere, 4, 512}, Shape{swarm::Function::Cubic, 1, 2048},
                           Shape{swarm::Function::Rastrigin, 2, 1500}}) {
        const auto problem = swarm::Problem::benchmark(sh.f, sh.dims);
        const std::string what = std::string(swarm::info(sh.f).name) + " " + std::to_string(sh.particles);
        const swarm::Params traced_p = traced(2, sh.particles, 150, swarm::Topology::Global, 3);
        const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, traced_p);
        expect_same_history(swarm::create_optimizer(Strategy::GpuFused)->run(problem, traced_p), cpu, 1e-9, what);
        swarm::Params p = traced_p;
        p.record_history = false;
        const auto gpu = swarm::create_optimizer(Strategy::GpuFused)->run(problem, p);
        for (int s = 0; s < p.swarms; ++s) {
            EXPECT_NEAR(gpu.swarms[s].best_fitness, cpu.swarms[s].best_fitness,
                        1e-9 * std::max(1.0, std::fabs(cpu.swarms[s].best_fitness)))
                << what << ", swarm " << s;
            for (std::size_t d = 0; d < cpu.swarms[s].best_position.size(); ++d) {
                EXPECT_NEAR(gpu.swarms[s].best_position[d], cpu.swarms[s].best_position[d],
                            1e-7 * std::max(1.0, std::fabs(cpu.swarms[s].best_position[d])))
                    << what << ", swarm " << s << ", dim " << d;
            }
        }
    }
}

// auto: one 1-D swarm of more than 512 particles per SM goes to gpu-queue-lock (optimizer.cpp says why);
// one of fewer, several swarms, or more dimensions stay on gpu-fused.
TEST(GpuAuto, OneBigOneDimensionalSwarmRunsQueueLock) {
    if (!swarm::cuda_device_present()) GTEST_SKIP() << "no CUDA device";
    const int sms = swarm::detail::cuda_sm_count();
    ASSERT_GT(sms, 0);
    const auto cubic = swarm::Problem::benchmark(swarm::Function::Cubic, 1);
    swarm::Params p;
    p.particles = 512 * sms + 1;
    EXPECT_EQ(swarm::resolve_strategy(Strategy::Auto, swarm::Backend::Auto, cubic, p), Strategy::GpuQueueLock);
    p.particles = 512 * sms;
    EXPECT_EQ(swarm::resolve_strategy(Strategy::Auto, swarm::Backend::Auto, cubic, p), Strategy::GpuFused);
    p.particles = 512 * sms + 1;
    p.swarms = 2;
    EXPECT_EQ(swarm::resolve_strategy(Strategy::Auto, swarm::Backend::Auto, cubic, p), Strategy::GpuFused);
    p.swarms = 1;
    EXPECT_EQ(swarm::resolve_strategy(Strategy::Auto, swarm::Backend::Auto,
                                      swarm::Problem::benchmark(swarm::Function::Rastrigin, 2), p),
              Strategy::GpuFused);
    p.topology = swarm::Topology::Ring;
    EXPECT_EQ(swarm::resolve_strategy(Strategy::Auto, swarm::Backend::Auto, cubic, p), Strategy::GpuFused);
}

TEST(GpuBackend, CudaBackendWithoutDeviceIsAnError) {
    if (swarm::cuda_device_present()) GTEST_SKIP() << "a device is present";
    const auto problem = swarm::Problem::benchmark(swarm::Function::Sphere, 2);
    EXPECT_THROW(swarm::resolve_strategy(Strategy::Auto, swarm::Backend::Cuda, problem, swarm::Params{}),
                 swarm::UnavailableError);
    std::string note;
    EXPECT_EQ(swarm::resolve_strategy(Strategy::GpuFused, swarm::Backend::Auto, problem, swarm::Params{}, &note),
              Strategy::CpuSerial);
    EXPECT_NE(note.find("falling back"), std::string::npos);
}

} // namespace
