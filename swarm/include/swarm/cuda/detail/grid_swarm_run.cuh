#pragma once
// Host side of the cooperative grid kernel (grid_swarm.cuh): block size from the swarm's size, grid
// size from the occupancy calculator (a cooperative launch needs every block resident), and the same
// chunked watching as the block kernel when history or early stopping is on.
#include <algorithm>

#include "swarm/cuda/detail/block_swarm_run.cuh"
#include "swarm/cuda/detail/grid_swarm.cuh"
#include "swarm/cuda/detail/grid_warp_swarm.cuh"
#include "swarm/cuda/launch.h"

namespace swarm::gpu {

template <typename Real>
struct GridRunBuffers {
    GPUMemory<Real> x, v, p0, p1, pf0, pf1;
    GPUMemory<ArgMin<Real>> tiles0, tiles1;
    GPUMemory<Real> snap[8];
    GPUMemory<ArgMin<Real>> snap_tiles[2];
    GPUMemory<Real> history;
};

// Threads per block: enough blocks to spread the particles over every SM, whole warps, 32..256. Where a
// particle's generation is short (a few dims), every block's arrival at the grid barrier costs more than its
// particles' work, so blocks keep at least two warps: 1-D cubic fp64 at 4,096 particles on an H200 (132 SMs)
// took 358 ms in 128 one-warp blocks and 313 ms in 64 two-warp blocks, 2-D at 4,096 18.1 / 16.2 ms; at 10
// and 16 dims the fewer blocks were 3-8 % slower.
inline int grid_block_threads(std::size_t rows, int dims) {
    const std::size_t per_sm = (rows + sm_count() - 1) / sm_count();
    const std::size_t least = dims <= 4 ? 64 : 32;
    return static_cast<int>(std::clamp<std::size_t>((per_sm + 31) / 32 * 32, least, 256));
}

// Particles (teams of `team_warps` warps) per block of the team-per-particle kernel: enough blocks to put
// about one particle per SM scheduler (latency-bound fitness), at most 8 warps a block.
inline int grid_team_block_teams(std::size_t rows, int team_warps) {
    const std::size_t per_sm = (rows + sm_count() - 1) / sm_count();
    return static_cast<int>(std::clamp<std::size_t>(per_sm, 1, static_cast<std::size_t>(std::max(1, 8 / team_warps))));
}

// One cooperative launch of `kernel` (grid_swarm_kernel or grid_warp_swarm_kernel) for the whole run, or
// chunks of it when history / early stopping is watched. `per_block` particles make a block's tile. With
// `cluster` > 0 the kernel is the cluster form instead (grid_warp_swarm.cuh): an ordinary launch of one
// block per tile, each swarm's `cluster` tiles one thread-block cluster.
template <typename Real, typename Fit, typename Kernel>
void run_grid_kernel(RunContext<Real>& ctx, const Fit& fit, GridRunBuffers<Real>& b, Kernel kernel,
                     const char* kernel_name, int threads, int per_block, int cluster = 0) {
    const auto& pb = ctx.dp;
    const std::size_t rows = pb.rows(), n = rows * pb.dims;
    const int tps = (pb.particles + per_block - 1) / per_block;
    const int tiles = pb.swarms * tps;
    int blocks = tiles;
    if (cluster == 0) {
        const int per_sm = cached_launch_query(kernel, threads, 0, [&] {
            int v = 0;
            SWARM_CUDA_CHECK_THROW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, kernel, threads, 0));
            return v;
        });
        if (per_sm == 0) {
            throw CudaError("gpu-fused: the grid kernel cannot be resident with " + std::to_string(threads) +
                            " threads");
        }
        blocks = std::min(tiles, per_sm * sm_count());
    }

    for (auto* g : {&b.x, &b.v, &b.p0, &b.p1}) {
        g->resize(n, ctx.stream);
    }
    b.pf0.resize(rows, ctx.stream);
    b.pf1.resize(rows, ctx.stream);
    b.tiles0.resize(static_cast<std::size_t>(tiles), ctx.stream);
    b.tiles1.resize(static_cast<std::size_t>(tiles), ctx.stream);

    GridRunArgs<Real> a{pb, b.x.data(), b.v.data(), {b.p0.data(), b.p1.data()}, {b.pf0.data(), b.pf1.data()},
                        {b.tiles0.data(), b.tiles1.data()}, tps, nullptr, ctx.best_f.data(), ctx.best_x.data(), 0, 0};
    auto launch = [&](std::uint32_t first, std::uint32_t last, Real* history, bool /*keep: state is global*/) {
        a.first = first;
        a.last = last;
        a.history = history;
        if (cluster > 0) {
            cudaLaunchConfig_t cfg{};
            cudaLaunchAttribute attr{};
            cluster_config(cfg, attr, blocks, threads, cluster, ctx.stream);
            SWARM_CUDA_CHECK_THROW(cudaLaunchKernelEx(&cfg, kernel, a, fit));
        } else {
            void* args[] = {&a, const_cast<Fit*>(&fit)};
            SWARM_CUDA_CHECK_THROW(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(blocks),
                                                               dim3(threads), args, 0, ctx.stream));
        }
        check_launch(kernel_name, dim3(blocks), dim3(threads), 0, __FILE__, __LINE__);
    };
    const bool watch = ctx.watched();
    if (!watch) {
        launch(0, static_cast<std::uint32_t>(ctx.params.iterations), nullptr, false);
        ctx.iterations = ctx.params.iterations;
        return;
    }
    GPUMemory<Real>* live[] = {&b.x, &b.v, &b.p0, &b.p1, &b.pf0, &b.pf1};
    GPUMemory<ArgMin<Real>>* live_tiles[] = {&b.tiles0, &b.tiles1};
    auto copy = [&](auto& dst, const auto& src) {
        dst.resize(src.size(), ctx.stream);
        SWARM_CUDA_CHECK_THROW(cudaMemcpyAsync(dst.data(), src.data(), src.bytes(), cudaMemcpyDeviceToDevice, ctx.stream));
    };
    run_watched(
        ctx, b.history, launch,
        [&] {
            for (int k = 0; k < 6; ++k) copy(b.snap[k], *live[k]);
            for (int k = 0; k < 2; ++k) copy(b.snap_tiles[k], *live_tiles[k]);
        },
        [&] {
            for (int k = 0; k < 6; ++k) copy(*live[k], b.snap[k]);
            for (int k = 0; k < 2; ++k) copy(*live_tiles[k], b.snap_tiles[k]);
        });
}

template <typename Real, typename Fit>
void run_grid_swarms(RunContext<Real>& ctx, const Fit& fit, GridRunBuffers<Real>& b) {
    const int threads = grid_block_threads(ctx.dp.rows(), ctx.dp.dims);
    run_grid_kernel(ctx, fit, b, grid_swarm_kernel<Real, Fit>, "grid_swarm_kernel", threads, threads);
}

// A team of warps per particle, for warp-cooperative fitness functors (grid_warp_swarm.cuh). Returns whether
// the cluster form ran. One-warp teams take the cluster form (each swarm a thread-block cluster of at most 16
// blocks meeting on its own barrier) where the device and build have clusters and `allow_cluster` is set:
// with many swarms the grid form's residency limit makes blocks take two tiles a generation. Larger teams
// keep the cooperative grid: their clusters of 16 blocks of 8 warps get packed two or three blocks to an SM
// inside a GPC, and one block an SM does not fit 8 such clusters at once. Both choices come from the
// tracker benchmark's barrier rows (docs/benchmarks.md, "Design evidence").
template <typename Real, typename Fit>
bool run_grid_warp_swarms(RunContext<Real>& ctx, const Fit& fit, GridRunBuffers<Real>& b, bool allow_cluster = true) {
    constexpr int TW = Fit::team_warps;
    const int teams = grid_team_block_teams(ctx.dp.rows(), TW);
    if (allow_cluster && TW == 1) {
        // Fuller blocks (still at most 8 warps) where that brings a swarm within 16 blocks.
        const int teams_c = std::max(teams, (ctx.dp.particles + k_max_cluster_blocks - 1) / k_max_cluster_blocks);
        const int tps = (ctx.dp.particles + teams_c - 1) / teams_c;
        const int threads = teams_c * 32;
        const auto kernel = grid_warp_swarm_kernel<Real, Fit, true>;
        if (teams_c <= 8 && cached_launch_query(kernel, threads, tps, [&] {
                return resident_clusters(kernel, threads, tps, ctx.stream);
            }) > 0) {
            run_grid_kernel(ctx, fit, b, kernel, "grid_warp_swarm_kernel<cluster>", threads, teams_c, tps);
            return true;
        }
    }
    run_grid_kernel(ctx, fit, b, grid_warp_swarm_kernel<Real, Fit>, "grid_warp_swarm_kernel", teams * TW * 32, teams);
    return false;
}

} // namespace swarm::gpu
