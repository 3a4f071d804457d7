#pragma once
// The block-per-swarm kernel's fast form for fp32, a compile-time dimension and global topology (the
// seeds' small benchmarks: SyncPSO's 112 x 32 Rastrigin 5-D, cuPSO's 1-D cubic). Same algorithm, same
// random numbers, same trajectory as block_swarm_kernel; what changes is how one generation's dependency
// chain is laid out, since these shapes run one warp (or one block) per SM and are latency-bound:
//  - a thread's particle lives in registers (position, velocity, personal best), not shared memory;
//  - the Philox words of generation t+1 are drawn while generation t's fitness and arg-min run: they
//    depend only on the key, so their 10-round chains overlap the state's chain instead of leading it;
//  - the arg-min is one redux.sync (sm_80+) over an order-preserving integer key plus a ballot for the
//    lowest lane holding it (ties to the lower row), instead of a 5-step shuffle butterfly;
//  - the arg-min is skipped in a generation where no personal best improved (the swarm's best stands): one
//    warp decides it with a vote and needs no barrier at all (the best's position comes by shuffles); several
//    warps decide it with one barrier that ORs the vote (__syncthreads_or), and only when some personal best
//    improved does every thread publish its personal best into a parity-double-buffered shared array for the
//    arg-min (a second barrier). A converging swarm mostly pays the one barrier.
#include <cstdint>

#include "swarm/cuda/detail/block_swarm.cuh"

namespace swarm::gpu {

// Unsigned key with key(a) < key(b) exactly when a < b for non-NaN floats, -0 and +0 equal (so ties go
// by row as pso::better has it); NaN, which pso::better never prefers, is the worst key.
__device__ __forceinline__ std::uint32_t fitness_key(float f) {
    if (f != f) {
        return 0xffffffffu;
    }
    const std::uint32_t u = __float_as_uint(f + 0.0f); // -0 + 0 = +0
    return (u & 0x80000000u) != 0 ? ~u : (u | 0x80000000u);
}

// The fitness a key stands for (fitness_key's inverse; -0 comes back as +0).
__device__ __forceinline__ float fitness_of_key(std::uint32_t key) {
    return __uint_as_float((key & 0x80000000u) != 0 ? (key & 0x7fffffffu) : ~key);
}

// Swarm s's bounds and velocity limits in registers (every particle of a register kernel keeps them).
template <int kDims, typename Real>
__device__ __forceinline__ void load_swarm_bounds(const DeviceProblem<Real>& pb, int s, Real (&lo)[kDims],
                                                  Real (&hi)[kDims], Real (&vm)[kDims]) {
    const std::size_t b0 = static_cast<std::size_t>(s) * kDims;
#pragma unroll
    for (int d = 0; d < kDims; ++d) {
        lo[d] = pb.lower[b0 + d];
        hi[d] = pb.upper[b0 + d];
        vm[d] = pb.vmax[b0 + d];
    }
}

// A register kernel's particle at the start of a launch: initialised from row `init_row`'s draws (a.first == 0;
// its personal best is where it starts) or resumed from row `row` of the global state.
template <int kDims, typename Real, typename Fit>
__device__ __forceinline__ void start_particle(const BlockRunArgs<Real>& a, const Fit& fit, int s,
                                               std::uint32_t init_row, std::size_t row, Real (&x)[kDims],
                                               Real (&v)[kDims], Real (&p)[kDims], Real& pf) {
    if (a.first == 0) {
        init_particle(a.pb, s, init_row, x, v, kDims);
#pragma unroll
        for (int d = 0; d < kDims; ++d) {
            p[d] = x[d];
        }
        pf = fit(x, kDims);
        return;
    }
    const std::size_t e = row * kDims;
#pragma unroll
    for (int d = 0; d < kDims; ++d) {
        x[d] = a.st.x[e + d];
        v[d] = a.st.v[e + d];
        p[d] = a.st.p[e + d];
    }
    pf = a.st.pf[row];
}

// A register kernel's particle into row `row` of the global state (BlockRunArgs::keep_state).
template <int kDims, typename Real>
__device__ __forceinline__ void store_particle(const StateView<Real>& st, std::size_t row, const Real (&x)[kDims],
                                               const Real (&v)[kDims], const Real (&p)[kDims], Real pf) {
    const std::size_t e = row * kDims;
#pragma unroll
    for (int d = 0; d < kDims; ++d) {
        st.x[e + d] = x[d];
        st.v[e + d] = v[d];
        st.p[e + d] = p[d];
    }
    st.pf[row] = pf;
}

// Eq. 1-2 and the boundary rule from this generation's words `w`, the fitness and the personal best of a
// particle held in registers (kDims dimensions, kBlocks = (kDims + 3) / 4 word sets). Returns whether the personal
// best improved. kClamp: the boundary rule is Clamp (move_block).
template <typename Fit, int kDims, int kBlocks, bool kClamp = false, typename Real>
__device__ __forceinline__ bool reg_move(const DeviceProblem<Real>& pb, const Fit& fit, const Real* lo,
                                         const Real* hi, const Real* vm, const Real* nb,
                                         const MoveWords (&w)[kBlocks], Real (&x)[kDims], Real (&v)[kDims],
                                         Real (&p)[kDims], Real& pf) {
#pragma unroll
    for (int k = 0; k < kBlocks; ++k) {
        const int d0 = 4 * k;
        move_block<Real, kClamp>(pb, lo + d0, hi + d0, vm + d0, w[k], kDims - d0, x + d0, v + d0, p + d0, nb + d0);
    }
    const Real f = fit(x, kDims);
    const bool improved = f < pf;
    pf = improved ? f : pf;
#pragma unroll
    for (int d = 0; d < kDims; ++d) {
        p[d] = improved ? x[d] : p[d];
    }
    return improved;
}

// One generation: reg_move, then generation t+1's words into `w` (independent of the state, so their 10-round
// chains overlap whatever the caller does next). Returns whether the personal best improved.
template <typename Fit, int kDims, int kBlocks>
__device__ __forceinline__ bool reg_generation(const DeviceProblem<float>& pb, const Fit& fit, std::uint32_t r,
                                               std::uint32_t t, const float* lo, const float* hi, const float* vm,
                                               const float* nb, MoveWords (&w)[kBlocks], float (&x)[kDims],
                                               float (&v)[kDims], float (&p)[kDims], float& pf) {
    const bool improved = reg_move<Fit, kDims, kBlocks>(pb, fit, lo, hi, vm, nb, w, x, v, p, pf);
#pragma unroll
    for (int k = 0; k < kBlocks; ++k) {
        w[k] = draw_move_words(pb, r, t + 1, static_cast<std::uint32_t>(k));
    }
    return improved;
}

// Lowest lane whose key is the warp's minimum (every lane of the warp receives it).
__device__ __forceinline__ int warp_argmin_lane(std::uint32_t key, std::uint32_t* min_key) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const std::uint32_t m = __reduce_min_sync(0xffffffffu, key); // one redux instruction from sm_80 on
#else
    // Older GPUs have no warp-wide reduce instruction: the same minimum by a butterfly of shuffles.
    std::uint32_t m = key;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        const std::uint32_t other = __shfl_xor_sync(0xffffffffu, m, offset);
        m = other < m ? other : m;
    }
#endif
    *min_key = m;
    return __ffs(static_cast<int>(__ballot_sync(0xffffffffu, key == m))) - 1;
}

// Several warps: the swarm's best row (within the swarm) from every warp's best, published in
// key/lane[parity][warp] before the caller's barrier.
__device__ __forceinline__ int block_best_from_warps(const std::uint32_t* key, const int* lane_of, int warps) {
    const int lane = static_cast<int>(threadIdx.x & 31);
    std::uint32_t m = 0;
    const int w = warp_argmin_lane(lane < warps ? key[lane] : 0xffffffffu, &m);
    return w * 32 + lane_of[w];
}

// kOneWarp: the block is exactly one warp (swarms of up to 32). Otherwise up to kMaxThreads threads,
// a particle per thread. Threads beyond the swarm's N run the same code on a harmless copy and never win.
template <typename Fit, int kDims, int kMaxThreads>
__global__ void __launch_bounds__(kMaxThreads) block_swarm_reg_kernel(BlockRunArgs<float> a, Fit fit) {
    constexpr bool kOneWarp = kMaxThreads == 32;
    constexpr int kBlocks = (kDims + 3) / 4;
    constexpr int kBuf = kOneWarp ? 1 : kMaxThreads; // shared arrays unused by one warp
    __shared__ float pbuf[2][kBuf * kDims];          // published personal bests, by generation parity
    __shared__ float pfbuf[2][kBuf];
    __shared__ std::uint32_t wkey[2][32];
    __shared__ int wlane[2][32];

    const DeviceProblem<float>& pb = a.pb;
    const int s = blockIdx.x, N = pb.particles, i = static_cast<int>(threadIdx.x);
    const int lane = i & 31, warp = i >> 5, warps = static_cast<int>((blockDim.x + 31) >> 5);
    const bool active = i < N;
    const int row0 = s * N;
    const auto r = static_cast<std::uint32_t>(row0 + i);
    const std::size_t b0 = static_cast<std::size_t>(s) * kDims;

    float lo[kDims], hi[kDims], vm[kDims], x[kDims], v[kDims], p[kDims], nb[kDims];
    load_swarm_bounds<kDims>(pb, s, lo, hi, vm);
    float pf;
    // Resuming, threads past the swarm's end read row0's row: a valid copy that never wins.
    start_particle<kDims>(a, fit, s, r, static_cast<std::size_t>(active ? row0 + i : row0), x, v, p, pf);

    // The swarm's best of the current personal bests: its lane (one warp) or row within the swarm.
    // Several warps publish into parity q, one barrier, then read.
    auto best_row = [&](int q) -> int {
        std::uint32_t m = 0;
        const int l = warp_argmin_lane(active ? fitness_key(pf) : 0xffffffffu, &m);
        if constexpr (kOneWarp) {
            return l;
        } else {
#pragma unroll
            for (int d = 0; d < kDims; ++d) {
                pbuf[q][i * kDims + d] = p[d];
            }
            pfbuf[q][i] = pf;
            if (lane == 0) {
                wkey[q][warp] = m;
                wlane[q][warp] = l;
            }
            __syncthreads();
            return block_best_from_warps(wkey[q], wlane[q], warps);
        }
    };
    // The best's personal-best position and fitness after best_row(q) returned g.
    auto fetch_best = [&](int g, int q) {
#pragma unroll
        for (int d = 0; d < kDims; ++d) {
            if constexpr (kOneWarp) {
                nb[d] = __shfl_sync(0xffffffffu, p[d], g);
            } else {
                nb[d] = pbuf[q][g * kDims + d];
            }
        }
    };
    auto best_fitness = [&](int g, int q) -> float {
        if constexpr (kOneWarp) {
            return __shfl_sync(0xffffffffu, pf, g);
        } else {
            return pfbuf[q][g];
        }
    };

    const std::uint32_t begin = a.first == 0 ? 1u : a.first;
    int q = static_cast<int>((begin - 1) & 1u);
    int qp = q; // parity of the last publication (several warps), where the best's fitness is read
    int g = best_row(q);
    fetch_best(g, q);
    MoveWords w[kBlocks];
#pragma unroll
    for (int k = 0; k < kBlocks; ++k) {
        w[k] = draw_move_words(pb, r, begin, static_cast<std::uint32_t>(k));
    }
    for (std::uint32_t t = begin; t <= a.last; ++t) {
        // Generation t+1's words (one spare set after the last generation) are drawn at the end of the step,
        // in the same branch-free stretch as the arg-min below, so the scheduler interleaves their 10-round
        // chains with its reduction, ballot and shuffle latencies.
        const bool improved = reg_generation<Fit, kDims, kBlocks>(pb, fit, r, t, lo, hi, vm, nb, w, x, v, p, pf);
        q = static_cast<int>(t & 1u);
        if constexpr (kOneWarp) {
            // No personal best improved: the swarm's best (its lane and position) stands, and the arg-min's
            // chain (reduction, ballot, shuffles) is skipped; a swarm that has converged, like cuPSO's cubic
            // on its bound, mostly takes this branch. One vote, uniform across the warp.
            if (__any_sync(0xffffffffu, improved && active)) {
                g = best_row(q);
                fetch_best(g, q);
            }
        } else if (__syncthreads_or(improved && active) != 0) {
            // Every thread passes this barrier each generation, so the publication below never overwrites
            // entries another thread is still reading from an earlier one.
            qp = q;
            g = best_row(q);
            fetch_best(g, q);
        }
        if (a.history != nullptr) { // uniform branch: every lane takes part in the shuffle
            const float gf = best_fitness(g, kOneWarp ? q : qp);
            if (i == 0) {
                a.history[static_cast<std::size_t>(t - begin) * gridDim.x + s] = gf;
            }
        }
    }

    if (a.keep_state && active) {
        store_particle<kDims>(a.st, static_cast<std::size_t>(row0 + i), x, v, p, pf);
    }
    const float gf = best_fitness(g, kOneWarp ? q : qp); // nb already holds the best's position
    if (i == 0) {
#pragma unroll
        for (int d = 0; d < kDims; ++d) {
            a.best_x[b0 + d] = nb[d];
        }
        a.best_f[s] = gf;
    }
}

} // namespace swarm::gpu
