// Warp-cooperative functors (swarm/cuda/custom.cuh): gpu-fused runs a warp per particle in one cooperative
// launch (swarm/cuda/detail/grid_warp_swarm.cuh). The PSO must stay cpu-serial's, whatever the lanes do; lane 0's value
// counts; the swarm index reaches the functor; FunctorOptimizer reuses its buffers and returns the final
// positions. Every case skips without a device.
#include <gtest/gtest.h>

#include <cmath>

#include "history_check.h"
#include "swarm/cuda/custom.cuh"
#include "swarm/errors.h"
#include "swarm/optimizer.h"

using swarm::Strategy;

namespace {

#define SKIP_WITHOUT_GPU()                                                                                             \
    if (!swarm::cuda_device_present()) GTEST_SKIP() << "no CUDA device"

// 1 + sum (x_i - c - shift * swarm)^2, the terms spread over a team of TW warps and summed with shuffles
// (and shared memory across the team's warps).
template <int TW>
struct TeamSphere {
    static constexpr bool warp_cooperative = true;
    static constexpr int team_warps = TW;
    double c = 0;
    double shift = 0;        // optimum moves with the swarm index
    bool lane0_only = false; // only rank 0 computes; the others return garbage
    template <typename Real>
    __host__ __device__ Real operator()(const Real* x, int dims, int swarm, const swarm::cuda::Team& team) const {
#if defined(__CUDA_ARCH__)
        const Real centre = static_cast<Real>(c + shift * swarm);
        Real s = 0;
        if (lane0_only) {
            if (team.rank != 0) {
                return Real(-12345);
            }
            for (int i = 0; i < dims; ++i) {
                s += (x[i] - centre) * (x[i] - centre);
            }
            return s + 1;
        }
        for (int i = team.rank; i < dims; i += team.size) {
            s += (x[i] - centre) * (x[i] - centre);
        }
        for (int o = 16; o > 0; o >>= 1) {
            s += __shfl_xor_sync(0xffffffffu, s, o);
        }
        if constexpr (TW > 1) {
            __shared__ Real part[16][TW];
            if ((team.rank & 31) == 0) {
                part[team.index][team.rank >> 5] = s;
            }
            team.sync();
            Real total = 0;
            for (int w = 0; w < TW; ++w) {
                total += part[team.index][w];
            }
            team.sync(); // part is free for the team's next call
            s = total;
        }
        return s + 1;
#else
        (void)x, (void)dims, (void)swarm, (void)team;
        return Real(0);
#endif
    }
};
using WarpSphere = TeamSphere<1>;

swarm::Problem box(int dims, double lo, double hi, double c) {
    swarm::Problem p;
    p.dims = dims;
    p.lower = std::vector<double>(static_cast<std::size_t>(dims), lo);
    p.upper = std::vector<double>(static_cast<std::size_t>(dims), hi);
    p.known_optimum = 1.0;
    p.host_function = [c](const double* x, int d) {
        double s = 1;
        for (int i = 0; i < d; ++i) {
            s += (x[i] - c) * (x[i] - c);
        }
        return s;
    };
    return p;
}

// Odd shapes, both topologies, fp64 (the lanes' sum order differs from cpu-serial's by rounding only).
template <typename F>
void check_follows_cpu_serial(const std::string& name) {
    struct Shape { int swarms, particles, dims; };
    for (const auto topo : {swarm::Topology::Global, swarm::Topology::Ring}) {
        for (const auto sh : {Shape{3, 30, 4}, Shape{1, 1, 3}, Shape{2, 33, 1}, Shape{1, 40, 130}, Shape{9, 64, 6},
                              Shape{5, 33, 3}}) { // 5 x 33: blocks of several teams, the last one idle
            const auto problem = box(sh.dims, -10, 10, 2.5);
            const auto p = traced(sh.swarms, sh.particles, 60, topo, 11);
            const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
            const auto gpu = swarm::cuda::optimize(problem, p, F{2.5});
            EXPECT_EQ(gpu.strategy, Strategy::GpuFused);
            expect_same_history(gpu, cpu, 1e-9, name + " S=" + std::to_string(sh.swarms) + " N=" +
                                                    std::to_string(sh.particles) + " D=" + std::to_string(sh.dims));
        }
    }
}

TEST(GpuWarpFunctor, FollowsCpuSerial) {
    SKIP_WITHOUT_GPU();
    check_follows_cpu_serial<TeamSphere<1>>("warp");
    check_follows_cpu_serial<TeamSphere<2>>("team of 2");
    check_follows_cpu_serial<TeamSphere<4>>("team of 4");
}

// The cluster form (each swarm a thread-block cluster meeting on the cluster barrier; compute capability 9.0+)
// and the cooperative grid form run the same PSO: same history, generation by generation. Shapes that fit a
// cluster use it where the device has clusters; the rest fall back to the grid (a swarm over 16 blocks).
TEST(GpuWarpFunctor, ClusterAndGridBarriersAgree) {
    SKIP_WITHOUT_GPU();
    int dev = 0, major = 0;
    ASSERT_EQ(cudaGetDevice(&dev), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), cudaSuccess);
    struct Shape { int swarms, particles, dims; bool fits; };
    for (const auto topo : {swarm::Topology::Global, swarm::Topology::Ring}) {
        for (const auto sh : {Shape{8, 64, 6, true}, Shape{5, 33, 3, true}, Shape{1, 1, 3, true},
                              Shape{3, 128, 4, true}, Shape{2, 200, 2, false}}) {
            const auto problem = box(sh.dims, -10, 10, 2.5);
            const auto p = traced(sh.swarms, sh.particles, 40, topo, 5);
            const std::string name = "S=" + std::to_string(sh.swarms) + " N=" + std::to_string(sh.particles);
            swarm::cuda::FunctorOptimizer<TeamSphere<1>> grid, cluster;
            grid.set_cluster_barrier(false);
            const auto g = grid.run(problem, p, TeamSphere<1>{2.5});
            const auto c = cluster.run(problem, p, TeamSphere<1>{2.5});
            EXPECT_FALSE(grid.used_cluster_barrier()) << name;
            EXPECT_EQ(cluster.used_cluster_barrier(), major >= 9 && sh.fits) << name;
            expect_same_history(c, g, 0.0, name);
            for (std::size_t s = 0; s < g.swarms.size(); ++s) {
                EXPECT_EQ(c.swarms[s].best_position, g.swarms[s].best_position) << name << " swarm " << s;
            }
        }
    }
    { // fp32 in one unwatched launch: the final positions of every particle agree bit for bit
        const auto problem = box(6, -10, 10, 2.5);
        auto p = traced(8, 64, 120, swarm::Topology::Ring, 3);
        p.precision = swarm::Precision::FP32;
        p.record_history = false;
        swarm::cuda::FunctorOptimizer<TeamSphere<1>> grid, cluster;
        grid.set_cluster_barrier(false);
        const auto g = grid.run(problem, p, TeamSphere<1>{2.5});
        const auto c = cluster.run(problem, p, TeamSphere<1>{2.5});
        EXPECT_EQ(cluster.used_cluster_barrier(), major >= 9);
        ASSERT_EQ(grid.positions().size(), 8u * 64u * 6u);
        EXPECT_EQ(cluster.positions(), grid.positions());
        EXPECT_EQ(c.best().best_fitness, g.best().best_fitness);
    }
    // A team of two warps per particle keeps the grid form (measured faster for teams; grid_swarm_run.cuh),
    // with or without the cluster barrier allowed.
    const auto problem = box(5, -10, 10, 2.5);
    const auto p = traced(8, 64, 40, swarm::Topology::Ring, 9);
    swarm::cuda::FunctorOptimizer<TeamSphere<2>> grid, cluster;
    grid.set_cluster_barrier(false);
    const auto g = grid.run(problem, p, TeamSphere<2>{2.5});
    const auto c = cluster.run(problem, p, TeamSphere<2>{2.5});
    EXPECT_FALSE(cluster.used_cluster_barrier());
    expect_same_history(c, g, 0.0, "team of 2");
}

// Lane 0 decides: the other lanes' return values are ignored; fp32 runs the same path.
TEST(GpuWarpFunctor, LaneZeroDecides) {
    SKIP_WITHOUT_GPU();
    const auto problem = box(5, -10, 10, 2.5);
    auto p = traced(4, 48, 50, swarm::Topology::Ring, 11);
    const auto all = swarm::cuda::optimize(problem, p, WarpSphere{2.5, 0, false});
    const auto one = swarm::cuda::optimize(problem, p, WarpSphere{2.5, 0, true});
    expect_same_history(one, all, 1e-9, "lane 0 only");
    expect_same_history(swarm::cuda::optimize(problem, p, TeamSphere<2>{2.5, 0, true}), all, 1e-9, "rank 0 only");
    p.precision = swarm::Precision::FP32;
    p.record_history = false; // unwatched: the whole run in one launch
    p.iterations = 400;
    const auto f32 = swarm::cuda::optimize(problem, p, WarpSphere{2.5});
    EXPECT_NEAR(f32.best().best_fitness, 1.0, 1e-3);
}

// Each swarm gets its own index: swarm s finds its optimum at 1 + 0.5 s in every dimension.
TEST(GpuWarpFunctor, SwarmIndexReachesTheFunctor) {
    SKIP_WITHOUT_GPU();
    const auto problem = box(3, -5, 5, 0);
    swarm::Params p;
    p.swarms = 5;
    p.particles = 64;
    p.iterations = 300;
    const auto r = swarm::cuda::optimize(problem, p, WarpSphere{1.0, 0.5});
    for (int s = 0; s < 5; ++s) {
        for (const double x : r.swarms[static_cast<std::size_t>(s)].best_position) {
            EXPECT_NEAR(x, 1.0 + 0.5 * s, 1e-2) << "swarm " << s;
        }
    }
}

TEST(GpuWarpFunctor, OptimizerKeepsBuffersAndPositions) {
    SKIP_WITHOUT_GPU();
    swarm::cuda::FunctorOptimizer<WarpSphere> opt;
    EXPECT_TRUE(opt.positions().empty());
    const auto problem = box(2, -4, 4, 0);
    swarm::Params p;
    p.swarms = 3;
    p.particles = 40;
    p.iterations = 200;
    for (const double c : {2.5, -1.0}) {
        const auto r = opt.run(problem, p, WarpSphere{c});
        for (const auto& s : r.swarms) {
            EXPECT_NEAR(s.best_position[0], c, 1e-2);
            EXPECT_NEAR(s.best_position[1], c, 1e-2);
        }
        const auto x = opt.positions();
        ASSERT_EQ(x.size(), 3u * 40u * 2u);
        for (const float v : x) {
            EXPECT_GE(v, -4.0f);
            EXPECT_LE(v, 4.0f);
        }
    }
}

TEST(GpuWarpFunctor, RejectsOtherStrategiesAndAsync) {
    SKIP_WITHOUT_GPU();
    const auto problem = box(2, -4, 4, 0);
    swarm::Params p;
    EXPECT_THROW(swarm::cuda::optimize(problem, p, WarpSphere{}, Strategy::GpuSync), swarm::ValidationError);
    EXPECT_THROW(swarm::cuda::FunctorOptimizer<WarpSphere>(Strategy::GpuRing2k), swarm::ValidationError);
    p.update = swarm::Update::Asynchronous;
    EXPECT_THROW(swarm::cuda::optimize(problem, p, WarpSphere{}), swarm::ValidationError);
}

} // namespace
