// gpu-bees (CUBA) on the device: convergence on 004's nine functions, agreement with the host emulation
// of the same kernel, independence from how cycles are split over launches, and its error paths.
// Every case skips without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "bees/cuba_plan.h"
#include "swarm/bees_presets.h"
#include "swarm/errors.h"
#include "swarm/optimizer.h"

namespace {

using swarm::Function;
using swarm::Strategy;

#define SKIP_WITHOUT_DEVICE()                                                                                          \
    if (!swarm::cuda_device_present()) {                                                                               \
        GTEST_SKIP() << "no CUDA device";                                                                              \
    }

TEST(GpuBees, AvailableWithADevice) {
    SKIP_WITHOUT_DEVICE();
    EXPECT_TRUE(swarm::availability(Strategy::GpuBees).available);
    EXPECT_EQ(swarm::create_optimizer(Strategy::GpuBees)->strategy(), Strategy::GpuBees);
}

class GpuBeesThesis : public ::testing::TestWithParam<Function> {};

TEST_P(GpuBeesThesis, Converges) {
    SKIP_WITHOUT_DEVICE();
    swarm::BeesSetup s = swarm::thesis_bees_setup(GetParam(), Strategy::GpuBees);
    s.params.seed = 3;
    auto opt = swarm::create_optimizer(Strategy::GpuBees);
    opt->set_bees_params(s.bees);
    const auto r = opt->run(s.problem, s.params);
    EXPECT_EQ(r.stop_reason, "target error") << swarm::info(GetParam()).name;
    EXPECT_LE(std::fabs(r.best().best_fitness - *s.problem.known_optimum), 1e-3);
    EXPECT_GT(r.device_ms, 0.0);
}

INSTANTIATE_TEST_SUITE_P(Nine, GpuBeesThesis, ::testing::ValuesIn(swarm::thesis_bees_functions()),
                         [](const auto& info) {
                             std::string n(swarm::info(info.param).name);
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

// gpu-bees and its host emulation (swarm::detail::run_cuba_host) with the same settings and layout.
struct GpuAndHost {
    swarm::Result gpu, host;
};
GpuAndHost run_gpu_and_host(const swarm::Problem& problem, const swarm::Params& p, const swarm::BeesParams& b) {
    auto opt = swarm::create_optimizer(Strategy::GpuBees);
    opt->set_bees_params(b);
    return {opt->run(problem, p), swarm::detail::run_cuba_host(problem, p, b, b.colonies_per_block)};
}

// Every colony's best agrees with the emulation's to fp64 rounding.
void expect_colonies_agree(const GpuAndHost& r, const std::string& what) {
    ASSERT_EQ(r.gpu.swarms.size(), r.host.swarms.size()) << what;
    for (std::size_t c = 0; c < r.gpu.swarms.size(); ++c) {
        const double h = r.host.swarms[c].best_fitness;
        EXPECT_NEAR(r.gpu.swarms[c].best_fitness, h, 1e-9 * std::max(1.0, std::fabs(h))) << what << ", colony " << c;
    }
}

// The kernel and its host emulation run the same steps on the same keyed draws. In fp64 on polynomial
// functions the only differences are rounding (FMA contraction), far below any greedy decision, so the
// colonies' bests agree closely after a few cycles; several colonies per block exercise the exchange.
TEST(GpuBees, MatchesTheHostEmulation) {
    SKIP_WITHOUT_DEVICE();
    for (const Function f : {Function::Sphere, Function::MartinGaddy, Function::GoldsteinPrice}) {
        const auto problem = swarm::Problem::benchmark(f, f == Function::Sphere ? 5 : 2);
        swarm::Params p;
        p.swarms = 12; // 8 + 4 colonies: the second block is partial
        p.particles = 8;
        p.iterations = 6;
        p.precision = swarm::Precision::FP64;
        p.seed = 11;
        swarm::BeesParams b;
        b.selected = 5;
        b.elite_recruits = 3;
        b.colonies_per_block = 8;
        const GpuAndHost r = run_gpu_and_host(problem, p, b);
        expect_colonies_agree(r, std::string(swarm::info(f).name));
        EXPECT_EQ(r.gpu.evaluations, r.host.evaluations);
    }
}

// Block layouts the barriers must handle: n = 8 in a block of 24 threads (colonies synchronise per warp,
// and the only warp is partial) and n = 12, which does not divide 32 (colonies straddle warps, so the
// sort falls back to block barriers), 5 colonies per block with a partial last block; and the largest
// colony, one block of 1024 threads.
TEST(GpuBees, MatchesTheHostEmulationOnOddLayouts) {
    SKIP_WITHOUT_DEVICE();
    struct Layout {
        int colonies, bees, per_block;
    };
    for (const Layout l : {Layout{7, 8, 3}, Layout{13, 12, 5}, Layout{3, 1024, 1}}) { // 1024: the largest block
        const auto problem = swarm::Problem::benchmark(Function::Sphere, 5);
        swarm::Params p;
        p.swarms = l.colonies;
        p.particles = l.bees;
        p.iterations = 7;
        p.precision = swarm::Precision::FP64;
        p.seed = 4;
        swarm::BeesParams b;
        b.selected = 4;
        b.elite_recruits = 2;
        b.colonies_per_block = l.per_block;
        expect_colonies_agree(run_gpu_and_host(problem, p, b), std::to_string(l.bees) + " bees");
    }
}

// The stopping rules read the overall best per cycle reduced on the device; with record_history they
// could equally read every colony's. Both must stop at the same cycle with the same result.
TEST(GpuBees, DeviceReducedBestStopsWhereTheHistoryDoes) {
    SKIP_WITHOUT_DEVICE();
    for (const Function f : {Function::Sphere, Function::Easom}) { // Easom: negative values (f* = -1)
        swarm::BeesSetup s = swarm::thesis_bees_setup(f, Strategy::GpuBees);
        s.params.seed = 7;
        auto opt = swarm::create_optimizer(Strategy::GpuBees);
        opt->set_bees_params(s.bees);
        const auto lean = opt->run(s.problem, s.params);
        s.params.record_history = true;
        const auto full = opt->run(s.problem, s.params);
        ASSERT_EQ(lean.stop_reason, "target error") << swarm::info(f).name;
        EXPECT_EQ(lean.iterations, full.iterations) << swarm::info(f).name;
        EXPECT_EQ(lean.best().best_fitness, full.best().best_fitness) << swarm::info(f).name;
        EXPECT_EQ(lean.evaluations, full.evaluations) << swarm::info(f).name;
    }
}

// With an early-stopping rule active the run goes in launches of 4, 8, ... cycles; without, in one. The
// state carries over between launches unchanged, so both give the same result bit for bit.
TEST(GpuBees, LaunchSplittingDoesNotChangeTheRun) {
    SKIP_WITHOUT_DEVICE();
    const auto problem = swarm::Problem::benchmark(Function::Rastrigin, 6);
    swarm::Params p;
    p.swarms = 40;
    p.particles = 16;
    p.iterations = 50;
    p.seed = 5;
    auto opt = swarm::create_optimizer(Strategy::GpuBees);
    const auto one = opt->run(problem, p);
    p.stall_iterations = 1000000; // never fires, but makes the run check every cycle
    p.record_history = true;
    const auto split = opt->run(problem, p);
    ASSERT_EQ(split.iterations, 50);
    for (std::size_t c = 0; c < one.swarms.size(); ++c) {
        EXPECT_EQ(one.swarms[c].best_fitness, split.swarms[c].best_fitness) << "colony " << c;
        EXPECT_EQ(one.swarms[c].best_position, split.swarms[c].best_position);
        ASSERT_EQ(split.swarms[c].history.size(), 50u);
        EXPECT_LE(split.swarms[c].history.back(), split.swarms[c].history.front());
    }
}

TEST(GpuBees, StopsAtTheExactCycle) {
    SKIP_WITHOUT_DEVICE();
    swarm::BeesSetup s = swarm::thesis_bees_setup(Function::Sphere, Strategy::GpuBees);
    s.params.record_history = true;
    auto opt = swarm::create_optimizer(Strategy::GpuBees);
    opt->set_bees_params(s.bees);
    const auto r = opt->run(s.problem, s.params);
    ASSERT_EQ(r.stop_reason, "target error");
    double before = 1e300, at = 1e300;
    for (const auto& c : r.swarms) {
        ASSERT_EQ(static_cast<long long>(c.history.size()), r.iterations);
        at = std::min(at, c.history.back());
        if (c.history.size() > 1) {
            before = std::min(before, c.history[c.history.size() - 2]);
        }
    }
    EXPECT_LE(at, 1e-3);
    EXPECT_GT(before, 1e-3);
}

TEST(GpuBees, RejectsWhatItCannotRun) {
    SKIP_WITHOUT_DEVICE();
    auto opt = swarm::create_optimizer(Strategy::GpuBees);
    auto problem = swarm::Problem::benchmark(Function::Sphere, 4);
    swarm::Params p;
    p.particles = 16;
    swarm::BeesParams b;
    b.colonies_per_block = 100; // 1,600 threads
    opt->set_bees_params(b);
    EXPECT_THROW(opt->run(problem, p), swarm::ValidationError);
    b.colonies_per_block = 64; // 1,024 threads, but 4,000-dim rows cannot fit in shared memory
    opt->set_bees_params(b);
    auto big = swarm::Problem::benchmark(Function::Sphere, 4000);
    try {
        opt->run(big, p);
        ADD_FAILURE() << "expected a ValidationError";
    } catch (const swarm::ValidationError& e) {
        EXPECT_EQ(e.field(), "bees-colonies-per-block");
    }
    problem.host_function = [](const double* x, int) { return x[0]; };
    opt->set_bees_params(swarm::BeesParams{});
    EXPECT_THROW(opt->run(problem, p), swarm::UnavailableError);
}

} // namespace
