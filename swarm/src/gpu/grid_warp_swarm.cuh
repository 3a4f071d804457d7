#pragma once
// gpu-fused for warp-cooperative fitness functors (the tracker's pose fitness): one persistent cooperative
// launch runs every swarm for every generation, a WARP per particle. A pose fitness projects a few hundred
// model points and samples the frame at each; one thread per particle would leave those dependent texture
// fetches on one lane, while a warp spreads them over 32 lanes. The PSO itself is grid_swarm.cuh's: the
// same keyed draws and formulas (so the trajectory is cpu-serial's), personal bests double-buffered by
// generation parity, each block publishing the arg-min of its tile of particles, one grid barrier per
// generation. Lanes split the move by blocks of 4 dimensions (one Philox call each).
//
// A warp functor is `__device__ Real operator()(const Real* x, int dims, int swarm, int lane) const`,
// called by all 32 lanes of a warp with the same row, returning the value on every lane (or at least on
// lane 0), with `static constexpr bool warp_cooperative = true;`.
#include <cooperative_groups.h>

#include "gpu/grid_swarm.cuh"

namespace swarm::gpu {

// A user's warp functor in minimise form.
template <typename Real, typename F>
struct SignedWarpFitness {
    F f;
    Real sign;
    __device__ __forceinline__ Real operator()(const Real* x, int dims, int swarm, int lane) const {
        return sign * static_cast<Real>(f(x, dims, swarm, lane));
    }
};

// Lanes of a warp copy a row of `dims` values.
template <typename Real>
__device__ __forceinline__ void warp_copy_row(Real* dst, const Real* src, int dims, int lane) {
    for (int d = lane; d < dims; d += 32) {
        dst[d] = src[d];
    }
}

template <typename Real, typename Fit>
__global__ void grid_warp_swarm_kernel(GridRunArgs<Real> a, Fit fit) {
    namespace cg = cooperative_groups;
    __shared__ ArgMin<Real> scratch[32];
    cg::grid_group grid = cg::this_grid();
    const DeviceProblem<Real>& pb = a.pb;
    const int N = pb.particles, D = pb.dims, tps = a.tiles_per_swarm;
    const int tiles = pb.swarms * tps;
    const int warps = static_cast<int>(blockDim.x >> 5);
    const int warp = static_cast<int>(threadIdx.x >> 5), lane = static_cast<int>(threadIdx.x & 31);

    // Lane 0 of each warp holds its particle's (personal best, row); the block's arg-min goes to out[tile].
    auto publish = [&](int tile, ArgMin<Real> mine, ArgMin<Real>* out) {
        __syncthreads(); // scratch may still be read by reduce_tiles
        if (lane == 0) {
            scratch[warp] = mine;
        }
        __syncthreads();
        const ArgMin<Real> g = combine_warps(scratch);
        if (threadIdx.x == 0) {
            out[tile] = g;
        }
    };

    if (a.first == 0) {
        for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            const int s = tile / tps, i = (tile - s * tps) * warps + warp;
            ArgMin<Real> mine{worst_fitness<Real>(), INT_MAX};
            if (i < N) {
                const std::size_t r = static_cast<std::size_t>(s) * N + i;
                Real* x = a.x + r * D;
                if (lane == 0) {
                    init_particle(pb, s, static_cast<std::uint32_t>(r), x, a.v + r * D, D);
                }
                __syncwarp();
                warp_copy_row(a.p[0] + r * D, x, D, lane);
                const Real f = __shfl_sync(0xffffffffu, fit(x, D, s, lane), 0);
                if (lane == 0) {
                    a.pf[0][r] = f;
                }
                mine = {f, static_cast<int>(r)};
            }
            publish(tile, mine, a.tile_best[0]);
        }
        grid.sync();
    }
    const std::uint32_t begin = a.first == 0 ? 1u : a.first;
    for (std::uint32_t t = begin; t <= a.last; ++t) {
        const int in = (t - 1) & 1, out = t & 1;
        const Real* p_in = a.p[in];
        const Real* pf_in = a.pf[in];
        for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            const int s = tile / tps, i = (tile - s * tps) * warps + warp;
            const std::size_t row0 = static_cast<std::size_t>(s) * N;
            int gbest = 0;
            if (!pb.ring) {
                gbest = reduce_tiles(a.tile_best[in] + static_cast<std::size_t>(s) * tps, tps, scratch).row;
            }
            ArgMin<Real> mine{worst_fitness<Real>(), INT_MAX};
            if (i < N) {
                const std::size_t r = row0 + i;
                const std::size_t nb = pb.ring ? row0 + ring_best_local(pf_in + row0, i, N, pb.ring_radius)
                                               : static_cast<std::size_t>(gbest);
                const std::size_t b = static_cast<std::size_t>(s) * D;
                Real* x = a.x + r * D;
                Real* v = a.v + r * D;
                // Lane k moves dimensions [4k, 4k + 4), then [4k + 128, ...): one Philox call per block of 4.
                for (int d0 = lane * 4; d0 < D; d0 += 128) {
                    const int d1 = min(d0 + 4, D);
                    move_range(pb, pb.lower + b + d0, pb.upper + b + d0, pb.vmax + b + d0,
                               static_cast<std::uint32_t>(r), t, d0, d1, x + d0, v + d0, p_in + r * D + d0,
                               p_in + nb * D + d0);
                }
                __syncwarp(); // the moved row is visible to every lane of the warp
                const Real f = __shfl_sync(0xffffffffu, fit(x, D, s, lane), 0); // lane 0's value decides
                const bool improved = f < pf_in[r];
                warp_copy_row(a.p[out] + r * D, improved ? x : p_in + r * D, D, lane);
                const Real pf = improved ? f : pf_in[r];
                if (lane == 0) {
                    a.pf[out][r] = pf;
                }
                mine = {pf, static_cast<int>(r)};
            }
            publish(tile, mine, a.tile_best[out]);
        }
        grid.sync();
        if (a.history != nullptr) {
            record_history(a, t - begin, out, scratch);
        }
    }
    write_swarm_bests(a, a.last & 1, scratch);
}

} // namespace swarm::gpu
