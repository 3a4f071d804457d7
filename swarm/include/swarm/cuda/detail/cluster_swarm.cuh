#pragma once
// The block-per-swarm design spread over a thread-block cluster (compute capability 9.0): for one or a few
// synchronous global-topology swarms of a few hundred to 2,048 particles in a few dimensions (cuPSO's 1-D cubic).
// On one SM such a swarm is that SM's issue rate: every generation is a Philox draw, a move and a fitness per
// particle, up to 32 warps on 4 schedulers. A cluster of up to 8 blocks puts the same particles on up to 8 SMs, one or
// two warps per scheduler, and keeps the generation's exchange on chip: each warp writes its best (key, row,
// position) into every block's shared memory (distributed shared memory stores, which need no reply), one cluster
// barrier, then every warp reads the swarm's (at most 64) warp entries from its own block's shared memory and takes
// their arg-min, so the generation's chain holds no remote round trip (reading the
// entries remotely after the barrier, or polling stamped entries without one, was slower: docs/benchmarks-peers.md).
//
// Same algorithm, random numbers and trajectory as block_swarm_kernel: a particle's row keys its draws, and the
// arg-min takes the lowest row among equal personal bests (entries and lanes are in row order). Entries are
// double-buffered by generation parity, so one barrier a generation suffices: a warp writes generation t + 2's
// entries only after the barrier of t + 1, which every block reaches only after it has read generation t's. The
// next generation's words are drawn between the barrier's arrive and its wait, where they overlap the wait.
#include <cooperative_groups.h>

#include <cstdint>

#include "swarm/cuda/detail/block_swarm_reg.cuh"

namespace swarm::gpu {

// Threads per block of the cluster form: 128 for swarms of up to 1,024 particles (one warp per scheduler), 256 up to
// 2,048; a swarm of N particles takes ceil(N / threads) blocks, at most 8 (the portable cluster size).
constexpr int k_cluster_swarm_max_blocks = 8;
constexpr int k_cluster_swarm_max_particles = 8 * 256;

inline int cluster_swarm_threads(int particles) { return particles <= 8 * 128 ? 128 : 256; }

// Order-preserving unsigned keys of fitness values (fitness_key's, in 64 bits for fp64): key(a) < key(b) exactly
// when a < b, -0 and +0 equal, NaN the worst key.
template <typename Real>
struct FitnessKey;

template <>
struct FitnessKey<float> {
    using Type = std::uint32_t;
    static constexpr Type worst = 0xffffffffu;
    __device__ static Type of(float f) { return fitness_key(f); }
};

template <>
struct FitnessKey<double> {
    using Type = unsigned long long;
    static constexpr Type worst = ~0ull;
    __device__ static Type of(double f) {
        if (f != f) {
            return worst;
        }
        const auto u = static_cast<unsigned long long>(__double_as_longlong(f + 0.0));
        return (u & 0x8000000000000000ull) != 0 ? ~u : (u | 0x8000000000000000ull);
    }
};

// The warp's minimum key (every lane receives it) and the lowest lane holding it.
__device__ __forceinline__ int warp_min_key_lane(std::uint32_t key, std::uint32_t& min_key) {
    return warp_argmin_lane(key, &min_key);
}

__device__ __forceinline__ int warp_min_key_lane(unsigned long long key, unsigned long long& min_key) {
    unsigned long long m = key;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        const unsigned long long other = __shfl_xor_sync(0xffffffffu, m, offset);
        m = other < m ? other : m;
    }
    min_key = m;
    return __ffs(static_cast<int>(__ballot_sync(0xffffffffu, key == m))) - 1;
}

// A warp's published best of one generation.
template <typename Real, int kDims>
struct WarpEntry {
    typename FitnessKey<Real>::Type key;
    int row; // within the swarm
    Real position[kDims];
};

template <typename Real, typename Fit, int kDims, int kThreads>
__global__ void __launch_bounds__(kThreads) cluster_swarm_kernel(BlockRunArgs<Real> a, Fit fit) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    using KeyOf = FitnessKey<Real>;
    using Key = typename KeyOf::Type;
    using Entry = WarpEntry<Real, kDims>;
    constexpr int kWarps = kThreads / 32;
    constexpr int kSlots = k_cluster_swarm_max_blocks * kWarps; // 32 or 64 warp entries, in row order
    constexpr int kPerLane = kSlots / 32;
    constexpr int kBlocks = (kDims + 3) / 4;
    __shared__ Entry entries[2][kSlots]; // the swarm's warps, by generation parity

    cg::cluster_group cluster = cg::this_cluster();
    const int C = static_cast<int>(cluster.num_blocks()), c = static_cast<int>(cluster.block_rank());
    const DeviceProblem<Real>& pb = a.pb;
    const int s = static_cast<int>(blockIdx.x) / C, N = pb.particles;
    const int t_in = static_cast<int>(threadIdx.x), lane = t_in & 31, warp = t_in >> 5;
    const int i = c * kThreads + t_in; // particle within the swarm
    const bool active = i < N;
    const int row0 = s * N;
    const auto r = static_cast<std::uint32_t>(row0 + i);
    cluster.sync(); // every block of the cluster runs before any writes into its shared memory

    Real lo[kDims], hi[kDims], vm[kDims], x[kDims], v[kDims], p[kDims], nb[kDims];
    load_swarm_bounds<kDims>(pb, s, lo, hi, vm);
    const std::size_t b0 = static_cast<std::size_t>(s) * kDims;
    Real pf;
    // Threads past the swarm's end start as row0's copy: valid values that never win.
    start_particle<kDims>(a, fit, s, active ? r : static_cast<std::uint32_t>(row0),
                          static_cast<std::size_t>(active ? row0 + i : row0), x, v, p, pf);

    // This warp's best personal best of generation t into every block's entries[t & 1], then the barrier's arrive
    // (release: the stores are visible in the cluster after its wait). A warp's best changes only when one of its
    // personal bests improves; the buffer of parity t & 1 then is stale in this generation and the next, and is
    // written only then. A converging swarm mostly writes nothing, and its lanes arrive without the release. A relaxed
    // arrive still comes after this warp's reads of generation t - 1's entries had returned (their values fed the
    // arg-min and the move before it), so no later write into those entries can reach them.
    bool improved_before = true;
    auto publish = [&](std::uint32_t t, bool improved) {
        const bool changed = __any_sync(0xffffffffu, improved);
        const bool write = changed || improved_before;
        improved_before = changed;
        if (!write) {
            asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory");
            return;
        }
        Key m;
        const int l = warp_min_key_lane(active ? KeyOf::of(pf) : KeyOf::worst, m);
        Entry e;
        e.key = m;
        e.row = c * kThreads + warp * 32 + l;
#pragma unroll
        for (int d = 0; d < kDims; ++d) {
            e.position[d] = __shfl_sync(0xffffffffu, p[d], l);
        }
        if (lane < C) {
            *cluster.map_shared_rank(&entries[t & 1u][c * kWarps + warp], lane) = e;
        }
        asm volatile("barrier.cluster.arrive.release;" ::: "memory");
    };
    // After the barrier's wait: the swarm's best of generation t, its position into nb, its row into g. Each lane
    // watches kPerLane entries (lane, lane + 32). An entry's key changes exactly when its warp's best improved
    // (strictly lower); when no lane sees a key other than the one it read a generation ago (the other parity,
    // which the same best was written into), the best stands and the arg-min is skipped.
    Key seen[kPerLane];
#pragma unroll
    for (int j = 0; j < kPerLane; ++j) {
        seen[j] = KeyOf::worst;
    }
    int g = 0;
    auto read_best = [&](std::uint32_t t, bool first) {
        const Entry* slots = entries[t & 1u];
        const int used = C * kWarps;
        if constexpr (kPerLane == 1) {
            Entry e;
            e.key = lane < used ? slots[lane].key : KeyOf::worst;
            if (!__any_sync(0xffffffffu, first || e.key != seen[0])) {
                return;
            }
            seen[0] = e.key;
            if (lane < used) {
                e = slots[lane];
            }
            Key m;
            const int winner = warp_min_key_lane(e.key, m); // the lowest lane, so the lowest row
#pragma unroll
            for (int d = 0; d < kDims; ++d) {
                nb[d] = __shfl_sync(0xffffffffu, e.position[d], winner);
            }
            g = __shfl_sync(0xffffffffu, e.row, winner);
        } else {
            Key k[kPerLane];
            bool changed = first;
#pragma unroll
            for (int j = 0; j < kPerLane; ++j) {
                const int idx = lane + 32 * j;
                k[j] = idx < used ? slots[idx].key : KeyOf::worst;
                changed = changed || k[j] != seen[j];
            }
            if (!__any_sync(0xffffffffu, changed)) {
                return;
            }
            Key lane_min = k[0];
#pragma unroll
            for (int j = 0; j < kPerLane; ++j) {
                seen[j] = k[j];
                lane_min = k[j] < lane_min ? k[j] : lane_min;
            }
            Key m;
            (void)warp_min_key_lane(lane_min, m);
            // The lowest entry index holding the minimum (the lowest row), over all lanes and their entries.
            unsigned lowest = 0xffffffffu;
#pragma unroll
            for (int j = kPerLane - 1; j >= 0; --j) {
                lowest = k[j] == m ? static_cast<unsigned>(lane + 32 * j) : lowest;
            }
            const Entry& e = slots[__reduce_min_sync(0xffffffffu, lowest)]; // one address for every lane: a broadcast
#pragma unroll
            for (int d = 0; d < kDims; ++d) {
                nb[d] = e.position[d];
            }
            g = e.row;
        }
    };

    const std::uint32_t begin = a.first == 0 ? 1u : a.first;
    MoveWords w[kBlocks];
    publish(begin - 1, true); // the first two publications write both parities' entries, a warp past the
                              // swarm's end included
#pragma unroll
    for (int k = 0; k < kBlocks; ++k) {
        w[k] = draw_move_words(pb, r, begin, static_cast<std::uint32_t>(k));
    }
    asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
    read_best(begin - 1, true);
    for (std::uint32_t t = begin; t <= a.last; ++t) {
        const bool improved = reg_move<Fit, kDims, kBlocks>(pb, fit, lo, hi, vm, nb, w, x, v, p, pf);
        publish(t, improved && active);
#pragma unroll
        for (int k = 0; k < kBlocks; ++k) { // generation t + 1's words while the other blocks arrive
            w[k] = draw_move_words(pb, r, t + 1, static_cast<std::uint32_t>(k));
        }
        asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
        read_best(t, false);
        if (a.history != nullptr && active && i == g) { // the best's owner holds its fitness
            a.history[static_cast<std::size_t>(t - begin) * (gridDim.x / C) + s] = pf;
        }
    }

    if (a.keep_state && active) {
        store_particle<kDims>(a.st, static_cast<std::size_t>(row0 + i), x, v, p, pf);
    }
    if (active && i == g) { // the best's owner holds its fitness and position
#pragma unroll
        for (int d = 0; d < kDims; ++d) {
            a.best_x[b0 + d] = p[d];
        }
        a.best_f[s] = pf;
    }
    cluster.sync(); // no block leaves while another may still write into its shared memory
#else
    (void)a;
    (void)fit;
    __trap(); // the host launches the cluster form only on devices and builds that have it
#endif
}

} // namespace swarm::gpu
