#pragma once
// gpu-fused for warp-cooperative fitness functors (the tracker's pose fitness): one persistent cooperative
// launch runs every swarm for every generation, a WARP (or a team of warps) per particle. A pose fitness
// projects a few hundred model points and samples the frame at each; one thread per particle would leave
// those dependent texture fetches on one lane, while a warp spreads them over 32 lanes. The PSO itself is grid_swarm.cuh's: the
// same keyed draws and formulas (so the trajectory is cpu-serial's), personal bests double-buffered by
// generation parity, each block publishing the arg-min of its tile of particles, one barrier per generation.
// A team's threads split the move by blocks of 4 dimensions (one Philox call each).
//
// The barrier: only the blocks of one swarm need to meet each generation. With `Cluster` (Hopper and later)
// each swarm's tiles are one thread-block cluster and meet on the cluster barrier, a fraction of the
// cooperative grid barrier's cost (docs/benchmarks.md, "Design evidence"), and a swarm never waits for another; the
// launch is then an ordinary one (clusters start as SMs free up, no residency limit). Otherwise the whole
// grid meets on the cooperative grid barrier. Both read the other blocks' tile results from global memory:
// the cluster barrier orders global memory for the cluster's threads as the grid barrier does for all.
//
// A warp functor declares `static constexpr bool warp_cooperative = true;` and is
// `__device__ Real operator()(const Real* x, int dims, int swarm, const Team& team) const`, called by every
// thread of a team (32 * team_warps threads; `static constexpr int team_warps = N;`, default 1) with the
// same row; the value returned by rank 0 counts. A team of several warps spreads one particle's work
// further when a warp's serial chain of dependent instructions is what sets a generation's time.
#include <cooperative_groups.h>

#include <type_traits>

#include "swarm/cuda/detail/grid_swarm.cuh"
#include "swarm/cuda/team.cuh"

namespace swarm::gpu {

// Warps per team a functor asks for (F::team_warps, default 1).
template <typename F, typename = void>
struct team_warps_of : std::integral_constant<int, 1> {};
template <typename F>
struct team_warps_of<F, std::void_t<decltype(F::team_warps)>> : std::integral_constant<int, F::team_warps> {};

// A user's warp functor in minimise form.
template <typename Real, typename F>
struct SignedWarpFitness {
    static constexpr int team_warps = team_warps_of<F>::value;
    static_assert(team_warps == 1 || team_warps == 2 || team_warps == 4 || team_warps == 8,
                  "team_warps must be 1, 2, 4 or 8");
    F f;
    Real sign;
    __device__ __forceinline__ Real operator()(const Real* x, int dims, int swarm, const Team& team) const {
        return sign * static_cast<Real>(f(x, dims, swarm, team));
    }
};

// The threads of a team copy a row of `dims` values.
template <typename Real>
__device__ __forceinline__ void team_copy_row(Real* dst, const Real* src, int dims, const Team& team) {
    for (int d = team.rank; d < dims; d += team.size) {
        dst[d] = src[d];
    }
}

// Rank 0's value to every thread of the team (`slots`: one per team of the block).
template <typename Real>
__device__ __forceinline__ Real team_broadcast(Real v, const Team& team, Real* slots) {
    if (team.size == 32) {
        return __shfl_sync(0xffffffffu, v, 0);
    }
    if (team.rank == 0) {
        slots[team.index] = v;
    }
    team.sync();
    const Real out = slots[team.index];
    team.sync(); // the slot is free again before the team's next broadcast
    return out;
}

// A team of several warps past the swarm's last particle (the last tile of a swarm whose particle count the
// block's teams do not divide) scores the swarm's lower corner (same barriers as a scoring team) and drops the value, so every team of a
// block passes the same barriers in the same order. Letting it skip ahead to the block barrier while the
// other teams sync on their named barriers is correct on the hardware, but compute-sanitizer's racecheck
// then reports the block barrier's shared-memory hand-offs as hazards. Evaluations
// a functor counts by side effect include these.
template <typename Real, typename Fit>
__device__ __forceinline__ void idle_team_score(const DeviceProblem<Real>& pb, int s, const Fit& fit, const Team& team,
                                                Real* slots) {
    team.sync(); // as after a move
    (void)team_broadcast(fit(pb.lower + static_cast<std::size_t>(s) * pb.dims, pb.dims, s, team), team, slots);
}

// Where the blocks of a swarm meet once a generation (see the top of the file).
template <bool Cluster>
__device__ __forceinline__ void swarm_barrier() {
    namespace cg = cooperative_groups;
    if constexpr (Cluster) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        cg::this_cluster().sync();
#else
        __trap(); // the host launches the cluster form only on devices and builds that have it
#endif
    } else {
        cg::this_grid().sync();
    }
}

template <typename Real, typename Fit, bool Cluster = false>
__global__ void grid_warp_swarm_kernel(GridRunArgs<Real> a, Fit fit) {
    __shared__ ArgMin<Real> scratch[32];
    __shared__ Real team_slots[32];
    const DeviceProblem<Real>& pb = a.pb;
    const int N = pb.particles, D = pb.dims, tps = a.tiles_per_swarm;
    const int tiles = pb.swarms * tps;
    constexpr int TW = Fit::team_warps;
    const int warp = static_cast<int>(threadIdx.x >> 5), lane = static_cast<int>(threadIdx.x & 31);
    const int teams = static_cast<int>(blockDim.x >> 5) / TW; // particles per block
    const Team team{warp / TW, (warp % TW) * 32 + lane, 32 * TW};
    // The per-swarm writes after a barrier: in the cluster form the first block of each swarm's cluster writes
    // its own swarm (the only one it has met); in the grid form the blocks share all swarms.
    const int own_swarm = Cluster ? (blockIdx.x % tps == 0 ? static_cast<int>(blockIdx.x) / tps : pb.swarms)
                                  : static_cast<int>(blockIdx.x);
    const int swarm_stride = Cluster ? pb.swarms : static_cast<int>(gridDim.x);

    // Lane 0 of each warp holds its particle's (personal best, row): every warp of a team holds the same
    // pair, which the arg-min counts once. The block's arg-min goes to out[tile].
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
            const int s = tile / tps, i = (tile - s * tps) * teams + team.index;
            ArgMin<Real> mine{worst_fitness<Real>(), INT_MAX};
            if (i < N) {
                const std::size_t r = static_cast<std::size_t>(s) * N + i;
                Real* x = a.x + r * D;
                if (team.rank == 0) {
                    init_particle(pb, s, static_cast<std::uint32_t>(r), x, a.v + r * D, D);
                }
                team.sync();
                team_copy_row(a.p[0] + r * D, x, D, team);
                const Real f = team_broadcast(fit(x, D, s, team), team, team_slots);
                if (team.rank == 0) {
                    a.pf[0][r] = f;
                }
                mine = {f, static_cast<int>(r)};
            } else if (TW > 1) {
                idle_team_score(pb, s, fit, team, team_slots);
            }
            publish(tile, mine, a.tile_best[0]);
        }
        swarm_barrier<Cluster>();
    }
    const std::uint32_t begin = a.first == 0 ? 1u : a.first;
    for (std::uint32_t t = begin; t <= a.last; ++t) {
        const int in = (t - 1) & 1, out = t & 1;
        const Real* p_in = a.p[in];
        const Real* pf_in = a.pf[in];
        for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            const int s = tile / tps, i = (tile - s * tps) * teams + team.index;
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
                // Rank k moves dimensions [4k, 4k + 4), then [4k + 4 * size, ...): one Philox call per block of 4.
                for (int d0 = team.rank * 4; d0 < D; d0 += 4 * team.size) {
                    const int d1 = min(d0 + 4, D);
                    move_range(pb, pb.lower + b + d0, pb.upper + b + d0, pb.vmax + b + d0,
                               static_cast<std::uint32_t>(r), t, d0, d1, x + d0, v + d0, p_in + r * D + d0,
                               p_in + nb * D + d0);
                }
                team.sync(); // the moved row is visible to every thread of the team
                const Real f = team_broadcast(fit(x, D, s, team), team, team_slots); // rank 0's value decides
                const bool improved = f < pf_in[r];
                team_copy_row(a.p[out] + r * D, improved ? x : p_in + r * D, D, team);
                const Real pf = improved ? f : pf_in[r];
                if (team.rank == 0) {
                    a.pf[out][r] = pf;
                }
                mine = {pf, static_cast<int>(r)};
            } else if (TW > 1) {
                idle_team_score(pb, s, fit, team, team_slots);
            }
            publish(tile, mine, a.tile_best[out]);
        }
        swarm_barrier<Cluster>();
        if (a.history != nullptr) {
            record_history(a, t - begin, out, scratch, own_swarm, swarm_stride);
        }
    }
    write_swarm_bests(a, a.last & 1, scratch, own_swarm, swarm_stride);
}

} // namespace swarm::gpu
