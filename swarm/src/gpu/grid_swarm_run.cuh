#pragma once
// Host side of the cooperative grid kernel (grid_swarm.cuh): block size from the swarm's size, grid
// size from the occupancy calculator (a cooperative launch needs every block resident), and the same
// chunked watching as the block kernel when history or early stopping is on.
#include <algorithm>

#include "gpu/block_swarm_run.cuh"
#include "gpu/grid_swarm.cuh"
#include "gpu/grid_warp_swarm.cuh"

namespace swarm::gpu {

template <typename Real>
struct GridRunBuffers {
    GPUMemory<Real> x, v, p0, p1, pf0, pf1;
    GPUMemory<ArgMin<Real>> tiles0, tiles1;
    GPUMemory<Real> snap[8];
    GPUMemory<ArgMin<Real>> snap_tiles[2];
    GPUMemory<Real> history;
};

inline int sm_count() {
    static const int n = [] {
        int dev = 0, v = 0;
        SWARM_CUDA_CHECK_THROW(cudaGetDevice(&dev));
        SWARM_CUDA_CHECK_THROW(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev));
        return v;
    }();
    return n;
}

// Threads per block: enough blocks to spread the particles over every SM, whole warps, 32..256.
inline int grid_block_threads(std::size_t rows) {
    const std::size_t per_sm = (rows + sm_count() - 1) / sm_count();
    return static_cast<int>(std::clamp<std::size_t>((per_sm + 31) / 32 * 32, 32, 256));
}

// Particles (teams of `team_warps` warps) per block of the team-per-particle kernel: enough blocks to put
// about one particle per SM scheduler (latency-bound fitness), at most 8 warps a block.
inline int grid_team_block_teams(std::size_t rows, int team_warps) {
    const std::size_t per_sm = (rows + sm_count() - 1) / sm_count();
    return static_cast<int>(std::clamp<std::size_t>(per_sm, 1, static_cast<std::size_t>(std::max(1, 8 / team_warps))));
}

// One cooperative launch of `kernel` (grid_swarm_kernel or grid_warp_swarm_kernel) for the whole run, or
// chunks of it when history / early stopping is watched. `per_block` particles make a block's tile.
template <typename Real, typename Fit, typename Kernel>
void run_grid_kernel(RunContext<Real>& ctx, const Fit& fit, GridRunBuffers<Real>& b, Kernel kernel,
                     const char* kernel_name, int threads, int per_block) {
    const auto& pb = ctx.dp;
    const std::size_t rows = pb.rows(), n = rows * pb.dims;
    const int tps = (pb.particles + per_block - 1) / per_block;
    const int tiles = pb.swarms * tps;
    int per_sm = 0;
    SWARM_CUDA_CHECK_THROW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    if (per_sm == 0) {
        throw CudaError("gpu-fused: the grid kernel cannot be resident with " + std::to_string(threads) + " threads");
    }
    const int blocks = std::min(tiles, per_sm * sm_count());

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
        void* args[] = {&a, const_cast<Fit*>(&fit)};
        SWARM_CUDA_CHECK_THROW(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(blocks),
                                                           dim3(threads), args, 0, ctx.stream));
        check_launch(kernel_name, dim3(blocks), dim3(threads), 0, __FILE__, __LINE__);
    };
    const bool watch = ctx.params.record_history || ctx.stop.early_stopping();
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
    const int threads = grid_block_threads(ctx.dp.rows());
    run_grid_kernel(ctx, fit, b, grid_swarm_kernel<Real, Fit>, "grid_swarm_kernel", threads, threads);
}

// A team of warps per particle, for warp-cooperative fitness functors (grid_warp_swarm.cuh).
template <typename Real, typename Fit>
void run_grid_warp_swarms(RunContext<Real>& ctx, const Fit& fit, GridRunBuffers<Real>& b) {
    const int teams = grid_team_block_teams(ctx.dp.rows(), Fit::team_warps);
    run_grid_kernel(ctx, fit, b, grid_warp_swarm_kernel<Real, Fit>, "grid_warp_swarm_kernel",
                    teams * Fit::team_warps * 32, teams);
}

} // namespace swarm::gpu
