// The CPU reference strategies: semantics of topologies and updates, determinism, stopping rules,
// fitness sources and convergence.
#include <gtest/gtest.h>


#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "swarm/errors.h"
#include "swarm/optimizer.h"

using swarm::Strategy;

namespace {

swarm::Result run(Strategy s, const swarm::Problem& pb, const swarm::Params& p) {
    return swarm::create_optimizer(s)->run(pb, p);
}

swarm::Params small(int swarms = 2, int particles = 16, long long iters = 50) {
    swarm::Params p;
    p.swarms = swarms;
    p.particles = particles;
    p.iterations = iters;
    p.seed = 7;
    return p;
}

TEST(CpuPso, SameSeedSameResultDifferentSeedDifferentResult) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::Rastrigin, 6);
    auto p = small();
    const auto a = run(Strategy::CpuSerial, pb, p);
    const auto b = run(Strategy::CpuSerial, pb, p);
    EXPECT_EQ(a.best().best_position, b.best().best_position);
    EXPECT_EQ(a.best().best_fitness, b.best().best_fitness);
    p.seed = 8;
    const auto c = run(Strategy::CpuSerial, pb, p);
    EXPECT_NE(a.best().best_position, c.best().best_position);
}

// cpu-parallel runs the same phases on threads: bit-identical to cpu-serial for every topology/update.
TEST(CpuPso, ParallelEqualsSerial) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::Griewank, 8);
    for (const auto topo : {swarm::Topology::Global, swarm::Topology::Ring}) {
        for (const auto upd : {swarm::Update::Synchronous, swarm::Update::Asynchronous}) {
            auto p = small(3, 40, 80);
            p.topology = topo;
            p.update = upd;
            p.record_history = true;
            const auto a = run(Strategy::CpuSerial, pb, p);
            const auto b = run(Strategy::CpuParallel, pb, p);
            for (int s = 0; s < p.swarms; ++s) {
                EXPECT_EQ(a.swarms[s].history, b.swarms[s].history);
                EXPECT_EQ(a.swarms[s].best_position, b.swarms[s].best_position);
            }
        }
    }
}

// The case above is small enough that cpu-parallel runs it on one thread; this one is large enough for
// threads (4 x 1024 particles x 128 dimensions a phase) on an idle machine, so their result is checked too.
TEST(CpuPso, ParallelEqualsSerialOnThreads) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::Rastrigin, 128);
    for (const auto upd : {swarm::Update::Synchronous, swarm::Update::Asynchronous}) {
        auto p = small(4, 1024, 4);
        p.update = upd;
        p.record_history = true;
        const auto a = run(Strategy::CpuSerial, pb, p);
        const auto b = run(Strategy::CpuParallel, pb, p);
        EXPECT_EQ(a.device, "CPU (1 thread)");
        for (int s = 0; s < p.swarms; ++s) {
            EXPECT_EQ(a.swarms[s].history, b.swarms[s].history);
            EXPECT_EQ(a.swarms[s].best_position, b.swarms[s].best_position);
        }
    }
}

// Below the measured size cpu-parallel runs serially: the 1-D cubic of 32 particles never waits at a barrier.
TEST(CpuPso, ParallelRunsSmallProblemsOnOneThread) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::Cubic, 1);
    const auto r = run(Strategy::CpuParallel, pb, small(1, 32, 50));
    EXPECT_EQ(r.device, "CPU (1 thread)");
}

TEST(CpuPso, HistoryIsMonotoneAndSizedByIterations) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::Ackley, 3);
    for (const auto topo : {swarm::Topology::Global, swarm::Topology::Ring}) {
        auto p = small(2, 20, 40);
        p.topology = topo;
        p.record_history = true;
        const auto r = run(Strategy::CpuSerial, pb, p);
        for (const auto& sw : r.swarms) {
            ASSERT_EQ(sw.history.size(), 40u);
            for (std::size_t t = 1; t < sw.history.size(); ++t) {
                EXPECT_LE(sw.history[t], sw.history[t - 1]);
            }
            EXPECT_EQ(sw.history.back(), sw.best_fitness);
        }
        EXPECT_EQ(r.evaluations, 2LL * 20 * 41);
    }
}

// Synchronous and asynchronous updates and the two topologies are different algorithms.
TEST(CpuPso, TopologiesAndUpdatesDiffer) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::Rastrigin, 5);
    auto p = small(1, 24, 30);
    const auto global_sync = run(Strategy::CpuSerial, pb, p);
    p.topology = swarm::Topology::Ring;
    const auto ring_sync = run(Strategy::CpuSerial, pb, p);
    p.topology = swarm::Topology::Global;
    p.update = swarm::Update::Asynchronous;
    const auto global_async = run(Strategy::CpuSerial, pb, p);
    EXPECT_NE(global_sync.best().best_position, ring_sync.best().best_position);
    EXPECT_NE(global_sync.best().best_position, global_async.best().best_position);
}

// A ring with radius (N-1)/2 covers the whole swarm, so it is the global topology.
TEST(CpuPso, FullRingEqualsGlobal) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::Sphere, 4);
    auto p = small(2, 9, 40);
    p.record_history = true;
    const auto g = run(Strategy::CpuSerial, pb, p);
    p.topology = swarm::Topology::Ring;
    p.ring_radius = 4;
    const auto r = run(Strategy::CpuSerial, pb, p);
    for (int s = 0; s < 2; ++s) {
        EXPECT_EQ(g.swarms[s].history, r.swarms[s].history);
    }
}

// Information travels one ring step per iteration: with a radius-1 ring, an excellent particle's
// neighbours at distance > t cannot have moved towards it after t iterations. Checked indirectly: a ring
// converges more slowly than the global topology on a unimodal function.
TEST(CpuPso, RingSpreadsInformationSlowerThanGlobal) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::Sphere, 10);
    auto p = small(1, 64, 60);
    const auto g = run(Strategy::CpuSerial, pb, p);
    p.topology = swarm::Topology::Ring;
    const auto r = run(Strategy::CpuSerial, pb, p);
    EXPECT_LT(g.best().best_fitness, r.best().best_fitness);
}

TEST(CpuPso, PositionsStayInsideBounds) {
    auto pb = swarm::Problem::benchmark(swarm::Function::Sphere, 3);
    pb.lower = {2, 2, 2}; // optimum outside the box: the best sits on its corner
    pb.upper = {5, 5, 5};
    pb.known_optimum.reset();
    for (const auto b : {swarm::Boundary::Clamp, swarm::Boundary::Reflect, swarm::Boundary::Random}) {
        auto p = small(1, 16, 200);
        p.boundary = b;
        const auto r = run(Strategy::CpuSerial, pb, p);
        for (const double x : r.best().best_position) {
            EXPECT_GE(x, 2.0);
            EXPECT_LE(x, 5.0);
        }
        // Clamping lands exactly on the corner; reflecting and re-drawing only approach it.
        EXPECT_NEAR(r.best().best_fitness, 12.0, b == swarm::Boundary::Clamp ? 1e-9 : 1.0) << static_cast<int>(b);
    }
}

TEST(CpuPso, PerSwarmBounds) {
    auto pb = swarm::Problem::benchmark(swarm::Function::Sphere, 2);
    pb.lower = {1, 1, -5, -5};
    pb.upper = {3, 3, -2, -2};
    pb.known_optimum.reset();
    const auto r = run(Strategy::CpuSerial, pb, small(2, 16, 200));
    EXPECT_NEAR(r.swarms[0].best_fitness, 2.0, 1e-6);
    EXPECT_NEAR(r.swarms[1].best_fitness, 8.0, 1e-6);
    EXPECT_EQ(r.best_swarm, 0);
}

TEST(CpuPso, MaximisesCubic) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::Cubic, 1);
    ASSERT_EQ(pb.goal, swarm::Goal::Maximise);
    const auto r = run(Strategy::CpuSerial, pb, small(1, 32, 100));
    EXPECT_NEAR(r.best().best_fitness, 900000.0, 1e-3);
    EXPECT_NEAR(r.best().best_position[0], 100.0, 1e-6);
}

TEST(CpuPso, StopsAtTargetError) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::Sphere, 2);
    auto p = small(1, 32, 10000);
    p.target_error = 1e-3;
    const auto r = run(Strategy::CpuSerial, pb, p);
    EXPECT_LT(r.iterations, 10000);
    EXPECT_EQ(r.stop_reason, "target error");
    EXPECT_LE(r.best().best_fitness, 1e-3);
}

TEST(CpuPso, StopsOnStall) {
    const auto pb = swarm::Problem::benchmark(swarm::Function::MartinGaddy, 2);
    auto p = small(1, 32, 100000);
    p.stall_iterations = 25;
    const auto r = run(Strategy::CpuSerial, pb, p);
    EXPECT_LT(r.iterations, 100000);
    EXPECT_EQ(r.stop_reason, "stall");
}

TEST(CpuPso, RunsAllIterationsWithoutEarlyStop) {
    const auto r = run(Strategy::CpuSerial, swarm::Problem::benchmark(swarm::Function::Sphere, 2), small(1, 8, 37));
    EXPECT_EQ(r.iterations, 37);
    EXPECT_EQ(r.stop_reason, "iterations");
}

TEST(CpuPso, HostFunctionSource) {
    swarm::Problem pb;
    pb.dims = 2;
    pb.lower = {-10, -10};
    pb.upper = {10, 10};
    pb.host_function = [](const double* x, int) { return (x[0] - 3) * (x[0] - 3) + (x[1] + 1) * (x[1] + 1); };
    const auto r = run(Strategy::CpuSerial, pb, small(1, 32, 300));
    EXPECT_NEAR(r.best().best_position[0], 3.0, 1e-3);
    EXPECT_NEAR(r.best().best_position[1], -1.0, 1e-3);
}

// A batched evaluator that scores the built-in sphere must give the built-in's exact trajectory.
class SphereBatch final : public swarm::BatchEvaluator {
public:
    bool supports(swarm::MemorySpace where) const override { return where == swarm::MemorySpace::Host; }
    void evaluate(const float* x, float* f, const swarm::BatchShape& shape, swarm::MemorySpace, void*) override {
        calls++;
        for (std::size_t r = 0; r < shape.rows(); ++r) {
            float s = 0;
            for (int d = 0; d < shape.dims; ++d) s += x[r * shape.dims + d] * x[r * shape.dims + d];
            f[r] = s;
        }
    }
    std::atomic<int> calls{0};
};

TEST(CpuPso, BatchEvaluatorMatchesBuiltin) {
    auto builtin = swarm::Problem::benchmark(swarm::Function::Sphere, 3);
    auto batched = builtin;
    auto ev = std::make_shared<SphereBatch>();
    batched.evaluator = ev;
    auto p = small(2, 10, 25);
    p.record_history = true;
    const auto a = run(Strategy::CpuSerial, builtin, p);
    const auto b = run(Strategy::CpuSerial, batched, p);
    for (int s = 0; s < 2; ++s) {
        EXPECT_EQ(a.swarms[s].history, b.swarms[s].history);
    }
    EXPECT_EQ(ev->calls.load(), 26); // one batch for all swarms per iteration, plus initialisation
    p.precision = swarm::Precision::FP64;
    EXPECT_THROW(run(Strategy::CpuSerial, batched, p), swarm::ValidationError);
}

TEST(CpuPso, ConvergesOnEveryFunction) {
    for (const auto& fi : swarm::all_functions()) {
        const int d = fi.fixed_dims ? fi.fixed_dims : std::min(fi.default_dims, 4);
        const auto pb = swarm::Problem::benchmark(fi.id, d);
        auto p = small(6, 32, 1000);
        p.precision = swarm::Precision::FP64;
        const auto r = run(Strategy::CpuParallel, pb, p);
        // Rosenbrock's valley and Griewank's many shallow minima need more than this small budget for 1e-3.
        const bool hard = fi.id == swarm::Function::Rosenbrock || fi.id == swarm::Function::Griewank ||
                          fi.id == swarm::Function::GriewankShifted;
        EXPECT_NEAR(r.best().best_fitness, *pb.known_optimum, hard ? 3e-2 : 1e-3) << fi.name;
    }
}

} // namespace

// A start box (Problem::init_lower): the first round(init_share x N) particles of every swarm start in it,
// the others over the bounds. cpu-serial scores the initial rows in order, so the first N evaluations
// are the starting positions.
TEST(CpuPso, StartBoxHoldsTheFocusedParticles) {
    auto pb = swarm::Problem::benchmark(swarm::Function::Sphere, 2);
    pb.known_optimum.reset();
    pb.lower = {-10, -10, -10, -10, -10, -10};
    pb.upper = {10, 10, 10, 10, 10, 10};
    pb.init_lower = {2, 2, -3, 5, 0, 0};     // per swarm: [2, 2.5] x [2, 2.5], [-3, -2.5] x [5, 5.5], ...
    pb.init_upper = {2.5, 2.5, -2.5, 5.5, 0.5, 0.5};
    pb.init_share = 0.4; // 4 of 10 particles
    auto starts = std::make_shared<std::vector<std::pair<double, double>>>();
    pb.host_function = [starts](const double* x, int) {
        starts->emplace_back(x[0], x[1]);
        return x[0] * x[0] + x[1] * x[1];
    };
    EXPECT_EQ(pb.init_focus(10), 4);
    const auto p = small(3, 10, 1);
    run(Strategy::CpuSerial, pb, p);
    ASSERT_GE(starts->size(), 30u);
    int outside_box = 0;
    for (int s = 0; s < 3; ++s) {
        for (int i = 0; i < 10; ++i) {
            const auto [x, y] = (*starts)[static_cast<std::size_t>(s * 10 + i)];
            const bool in_box = x >= pb.init_lower[s * 2] && x <= pb.init_upper[s * 2] && y >= pb.init_lower[s * 2 + 1] &&
                                y <= pb.init_upper[s * 2 + 1];
            if (i < 4) {
                EXPECT_TRUE(in_box) << "swarm " << s << " particle " << i << " at " << x << ", " << y;
            } else {
                outside_box += in_box ? 0 : 1;
                EXPECT_TRUE(std::fabs(x) <= 10 && std::fabs(y) <= 10);
            }
        }
    }
    EXPECT_GT(outside_box, 15); // the other 18 spread over the 20 x 20 bounds, not the 0.5 x 0.5 box
}

// Share 0 (or no box) is the plain run; cpu-parallel follows cpu-serial with a box too.
TEST(CpuPso, StartBoxShareZeroIsThePlainRunAndStrategiesAgree) {
    auto pb = swarm::Problem::benchmark(swarm::Function::Rastrigin, 3);
    auto p = small(2, 24, 40);
    p.record_history = true;
    const auto plain = run(Strategy::CpuSerial, pb, p);
    pb.init_lower = {1, 1, 1};
    pb.init_upper = {1.5, 1.5, 1.5};
    pb.init_share = 0.0;
    const auto zero = run(Strategy::CpuSerial, pb, p);
    EXPECT_EQ(zero.swarms[0].history, plain.swarms[0].history);
    EXPECT_EQ(zero.swarms[1].best_position, plain.swarms[1].best_position);
    pb.init_share = 0.5;
    const auto serial = run(Strategy::CpuSerial, pb, p);
    const auto parallel = run(Strategy::CpuParallel, pb, p);
    EXPECT_NE(serial.swarms[0].history, plain.swarms[0].history);
    EXPECT_EQ(serial.swarms[0].history, parallel.swarms[0].history);
    EXPECT_EQ(serial.swarms[1].best_position, parallel.swarms[1].best_position);
}

TEST(CpuPso, BeesRejectAStartBox) {
    auto pb = swarm::Problem::benchmark(swarm::Function::Sphere, 2);
    pb.init_lower = {0, 0};
    pb.init_upper = {1, 1};
    auto opt = swarm::create_optimizer(Strategy::CpuBees);
    try {
        opt->run(pb, small(1, 10, 5));
        FAIL() << "cpu-bees accepted a start box";
    } catch (const swarm::ValidationError& e) {
        EXPECT_NE(std::string(e.what()).find("init_lower"), std::string::npos) << e.what();
    }
}
