// The block kernel's register-resident, pipelined form (block_swarm_reg.cuh): fp32, global topology,
// swarms of one warp in 1-6 or 8 dimensions and 1-D swarms of up to 1024 particles. It must follow
// cpu-serial's trajectory (same keyed random numbers) and gpu-reduction's (another GPU layout of the same
// formulas), through the chunked resume of a watched run, with odd sizes. Skips without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "swarm/benchmark_functions.h"
#include "swarm/optimizer.h"

using swarm::Strategy;

namespace {

struct Shape {
    swarm::Function f;
    int dims, swarms, particles;
};

// Shapes that take the register path (one warp: N <= 32; 1-D: up to 1024), odd sizes included.
const Shape k_shapes[] = {
    {swarm::Function::Rastrigin, 5, 3, 32}, {swarm::Function::Rastrigin, 5, 2, 17}, {swarm::Function::Sphere, 1, 2, 1},
    {swarm::Function::Sphere, 2, 1, 31},    {swarm::Function::Ackley, 3, 2, 32},    {swarm::Function::Sphere, 4, 1, 5},
    {swarm::Function::Rastrigin, 6, 2, 29}, {swarm::Function::Rastrigin, 8, 1, 32}, {swarm::Function::Cubic, 1, 1, 32},
    {swarm::Function::Cubic, 1, 2, 33},     {swarm::Function::Cubic, 1, 1, 256},    {swarm::Function::Cubic, 1, 1, 1000},
    {swarm::Function::Cubic, 1, 1, 1024},   {swarm::Function::Sphere, 1, 3, 100},
};

swarm::Params fp32_params(const Shape& sh, long long iterations) {
    swarm::Params p;
    p.swarms = sh.swarms;
    p.particles = sh.particles;
    p.iterations = iterations;
    p.topology = swarm::Topology::Global;
    p.precision = swarm::Precision::FP32;
    p.record_history = true;
    p.seed = 11;
    return p;
}

std::string name(const Shape& sh) {
    return std::string(swarm::info(sh.f).name) + " D=" + std::to_string(sh.dims) + " S=" + std::to_string(sh.swarms) +
           " N=" + std::to_string(sh.particles);
}

class BlockReg : public testing::TestWithParam<Strategy> {
protected:
    void SetUp() override {
        if (!swarm::cuda_device_present()) {
            GTEST_SKIP() << "no CUDA device";
        }
    }
};

// 150 generations: the watched run's chunks (64, then 128) resume the register state from global memory.
// fp32 on both sides; the GPU contracts a*b+c into FMAs and the CPU does not, hence the tolerances.
TEST_P(BlockReg, FollowsCpuSerialAndGpuReduction) {
    for (const auto& sh : k_shapes) {
        const auto problem = swarm::Problem::benchmark(sh.f, sh.dims);
        const auto p = fp32_params(sh, 150);
        const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
        const auto red = swarm::create_optimizer(Strategy::GpuReduction)->run(problem, p);
        const auto got = swarm::create_optimizer(GetParam())->run(problem, p);
        ASSERT_EQ(got.iterations, cpu.iterations) << name(sh);
        for (int s = 0; s < sh.swarms; ++s) {
            const auto& hc = cpu.swarms[s].history;
            const auto& hr = red.swarms[s].history;
            const auto& hg = got.swarms[s].history;
            ASSERT_EQ(hg.size(), hc.size()) << name(sh);
            for (std::size_t t = 0; t < hc.size(); ++t) {
                ASSERT_NEAR(hg[t], hc[t], 1e-4 * std::max(1.0, std::fabs(hc[t])))
                    << name(sh) << " swarm " << s << " iteration " << t + 1;
                ASSERT_NEAR(hg[t], hr[t], 1e-5 * std::max(1.0, std::fabs(hr[t])))
                    << name(sh) << " swarm " << s << " iteration " << t + 1;
            }
            // The reported best position scores the reported best fitness.
            const auto& x = got.swarms[s].best_position;
            ASSERT_EQ(x.size(), static_cast<std::size_t>(sh.dims)) << name(sh);
            const double f = swarm::fn::evaluate<double>(sh.f, x.data(), sh.dims);
            EXPECT_NEAR(f, got.swarms[s].best_fitness, 1e-4 * std::max(1.0, std::fabs(f))) << name(sh);
        }
    }
}

// The unwatched run (one launch, no resume) ends exactly where the watched one does.
TEST_P(BlockReg, OneLaunchEqualsChunkedRun) {
    for (const auto& sh : k_shapes) {
        const auto problem = swarm::Problem::benchmark(sh.f, sh.dims);
        auto p = fp32_params(sh, 300);
        const auto watched = swarm::create_optimizer(GetParam())->run(problem, p);
        p.record_history = false;
        const auto quiet = swarm::create_optimizer(GetParam())->run(problem, p);
        for (int s = 0; s < sh.swarms; ++s) {
            EXPECT_EQ(quiet.swarms[s].best_fitness, watched.swarms[s].best_fitness) << name(sh) << " swarm " << s;
            EXPECT_EQ(quiet.swarms[s].best_position, watched.swarms[s].best_position) << name(sh) << " swarm " << s;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Strategies, BlockReg, testing::Values(Strategy::GpuFused, Strategy::GpuSync),
                         [](const testing::TestParamInfo<Strategy>& info) {
                             std::string n(swarm::to_string(info.param));
                             for (auto& c : n) {
                                 if (c == '-') c = '_';
                             }
                             return n;
                         });

} // namespace
