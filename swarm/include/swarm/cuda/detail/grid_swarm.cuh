#pragma once
// gpu-fused's design for swarms bigger than a block: one persistent cooperative launch, a thread per
// particle, every block working on every generation, one grid barrier per generation. Personal bests are
// double-buffered by generation parity (p, pf: read the previous generation's, write this one's), so the
// neighbours' bests that a move reads never change under it and one barrier suffices. Each block writes
// the arg-min of its tile of particles; after the barrier every block reduces its swarm's tiles to the
// swarm's global best (ties to the lower row, as cpu-serial).
#include <cooperative_groups.h>

#include "swarm/cuda/detail/particle_ops.cuh"

namespace swarm::gpu {

template <typename Real>
struct GridRunArgs {
    DeviceProblem<Real> pb;
    Real* x;
    Real* v;
    Real* p[2];          // personal-best positions by generation parity
    Real* pf[2];         // personal-best fitness by generation parity
    ArgMin<Real>* tile_best[2]; // per tile (swarm-major), by parity
    int tiles_per_swarm;
    Real* history;       // [t - first_moved][swarm], or null
    Real* best_f;
    Real* best_x;
    std::uint32_t first; // 0: initialise, then generations 1..last
    std::uint32_t last;
};

// Reduce tiles [first, first + count) to one arg-min; every thread of the block receives it.
template <typename Real>
__device__ __forceinline__ ArgMin<Real> reduce_tiles(const ArgMin<Real>* tiles, int count, ArgMin<Real>* scratch) {
    ArgMin<Real> m{worst_fitness<Real>(), INT_MAX};
    for (int k = threadIdx.x; k < count; k += blockDim.x) {
        m = better_of(m, tiles[k]);
    }
    m = warp_argmin_all(m);
    __syncthreads(); // scratch may still be read from the previous call
    if ((threadIdx.x & 31) == 0) {
        scratch[threadIdx.x >> 5] = m;
    }
    __syncthreads();
    return combine_warps(scratch);
}

// After generation `step` (0-based within the launch): every swarm's best into the history row. The
// blocks share the swarms (swarms s0, s0 + stride, ...); each reduces its swarms' tiles of parity `out`.
template <typename Real>
__device__ __forceinline__ void record_history(const GridRunArgs<Real>& a, std::uint32_t step, int out,
                                               ArgMin<Real>* scratch, int s0 = blockIdx.x, int stride = gridDim.x) {
    const int tps = a.tiles_per_swarm;
    for (int s = s0; s < a.pb.swarms; s += stride) {
        const ArgMin<Real> g = reduce_tiles(a.tile_best[out] + static_cast<std::size_t>(s) * tps, tps, scratch);
        if (threadIdx.x == 0) {
            a.history[static_cast<std::size_t>(step) * a.pb.swarms + s] = g.f;
        }
    }
}

// At the end of a launch: every swarm's best fitness and position from the tiles of parity `fin`.
template <typename Real>
__device__ __forceinline__ void write_swarm_bests(const GridRunArgs<Real>& a, int fin, ArgMin<Real>* scratch,
                                                  int s0 = blockIdx.x, int stride = gridDim.x) {
    const int tps = a.tiles_per_swarm, D = a.pb.dims;
    for (int s = s0; s < a.pb.swarms; s += stride) {
        const ArgMin<Real> g = reduce_tiles(a.tile_best[fin] + static_cast<std::size_t>(s) * tps, tps, scratch);
        for (int d = threadIdx.x; d < D; d += blockDim.x) {
            a.best_x[static_cast<std::size_t>(s) * D + d] = a.p[fin][static_cast<std::size_t>(g.row) * D + d];
        }
        if (threadIdx.x == 0) {
            a.best_f[s] = g.f;
        }
    }
}

template <typename Real, typename Fit>
__global__ void grid_swarm_kernel(GridRunArgs<Real> a, Fit fit) {
    namespace cg = cooperative_groups;
    __shared__ ArgMin<Real> scratch[32];
    cg::grid_group grid = cg::this_grid();
    const DeviceProblem<Real>& pb = a.pb;
    const int N = pb.particles, D = pb.dims, tps = a.tiles_per_swarm;
    const int tiles = pb.swarms * tps;

    // The tile's arg-min of personal bests `pf` into tile_best[k].
    auto publish = [&](int tile, ArgMin<Real> mine, ArgMin<Real>* out) {
        mine = warp_argmin_all(mine);
        __syncthreads();
        if ((threadIdx.x & 31) == 0) {
            scratch[threadIdx.x >> 5] = mine;
        }
        __syncthreads();
        const ArgMin<Real> g = combine_warps(scratch);
        if (threadIdx.x == 0) {
            out[tile] = g;
        }
    };

    if (a.first == 0) {
        for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            const int s = tile / tps, i = (tile - s * tps) * blockDim.x + threadIdx.x;
            ArgMin<Real> mine{worst_fitness<Real>(), INT_MAX};
            if (i < N) {
                const std::size_t r = static_cast<std::size_t>(s) * N + i;
                Real* x = a.x + r * D;
                init_particle(pb, s, static_cast<std::uint32_t>(r), x, a.v + r * D, D);
                for (int d = 0; d < D; ++d) {
                    a.p[0][r * D + d] = x[d];
                }
                const Real f = fit(x, D);
                a.pf[0][r] = f;
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
            const int s = tile / tps, i = (tile - s * tps) * blockDim.x + threadIdx.x;
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
                move_particle(pb, pb.lower + b, pb.upper + b, pb.vmax + b, static_cast<std::uint32_t>(r), t, x,
                              a.v + r * D, p_in + r * D, p_in + nb * D, D);
                const Real f = fit(x, D);
                const bool improved = f < pf_in[r];
                const Real* src = improved ? x : p_in + r * D;
                Real* p_out = a.p[out] + r * D;
                for (int d = 0; d < D; ++d) {
                    p_out[d] = src[d];
                }
                const Real pf = improved ? f : pf_in[r];
                a.pf[out][r] = pf;
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
