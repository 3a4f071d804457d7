#pragma once
// SyncPSO's design (003 §4.1, Listing 1): one thread block per swarm runs many generations in one launch.
// Each thread owns particles tid, tid + blockDim, ...; the swarm's positions, velocities, personal bests
// and fitness live in shared memory when they fit (else in global memory, same code); the neighbourhood
// best is the swarm's arg-min (global topology) or each particle's ring arg-min, both recomputed from
// the personal-best fitness vector after every generation, so the run is synchronous and follows
// cpu-serial's trajectory. Two barriers per generation; nothing leaves the chip until the launch ends.
#include "swarm/cuda/detail/particle_ops.cuh"

namespace swarm::gpu {

template <typename Real>
struct BlockRunArgs {
    DeviceProblem<Real> pb;
    StateView<Real> st;    // global state, swarm-major rows (source and destination between launches)
    Real* history;         // [t - first_moved][swarm] best fitness after each generation, or null
    Real* best_f;          // [swarm] out
    Real* best_x;          // [swarm][dim] out
    std::uint32_t first;   // 0: initialise, then run generations 1..last; else run first..last
    std::uint32_t last;
    int stride;            // on-chip row stride (dims padded to odd: no bank conflicts)
    bool on_chip;          // state in shared memory (loaded from / stored to st) or worked on in st
    bool keep_state;       // store the on-chip state back to st at the end
};

// Bytes of dynamic shared memory the on-chip layout needs.
template <typename Real>
inline std::size_t block_swarm_shared_bytes(int particles, int dims, int stride) {
    return (3 * static_cast<std::size_t>(particles) * stride + 2 * static_cast<std::size_t>(particles) +
            3 * static_cast<std::size_t>(dims)) * sizeof(Real);
}

template <typename Real>
__device__ __forceinline__ void copy_row(Real* dst, const Real* src, int dims) {
    for (int d = 0; d < dims; ++d) {
        dst[d] = src[d];
    }
}

// Arg-min of (pf[i], row0 + i) over the whole block; every thread receives it. One barrier.
template <typename Real>
__device__ __forceinline__ ArgMin<Real> block_argmin(const Real* pf, int n, int row0, ArgMin<Real>* warp_best) {
    ArgMin<Real> mine{worst_fitness<Real>(), INT_MAX};
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        mine = better_of(mine, ArgMin<Real>{pf[i], row0 + i});
    }
    mine = warp_argmin_all(mine);
    if (blockDim.x == 32) { // a one-warp swarm: the butterfly already gave every lane the answer
        __syncwarp();
        return mine;
    }
    if ((threadIdx.x & 31) == 0) {
        warp_best[threadIdx.x >> 5] = mine;
    }
    __syncthreads();
    return combine_warps(warp_best);
}

// kDims > 0 fixes the dimension at compile time: every per-dimension loop unrolls, so one warp's
// independent Philox calls, moves and fitness terms overlap instead of running back to back (a swarm of
// 32 is one warp per SM, latency-bound). kDims == 0 reads it from the problem. kMaxThreads is the launch
// bound: 256 lets the unrolled copies use up to 255 registers (1024 caps them at 64, which serialises).
template <typename Real, typename Fit, int kDims, int kMaxThreads = 1024>
__global__ void __launch_bounds__(kMaxThreads) block_swarm_kernel(BlockRunArgs<Real> a, Fit fit) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    __shared__ ArgMin<Real> warp_best[32];
    const DeviceProblem<Real>& pb = a.pb;
    const int s = blockIdx.x, N = pb.particles, D = kDims > 0 ? kDims : pb.dims;
    const int row0 = s * N;
    const std::size_t e0 = static_cast<std::size_t>(row0) * D;
    const int stride = a.on_chip ? a.stride : D;

    Real *x, *v, *p, *f, *pf;
    const Real *lo, *hi, *vm;
    if (a.on_chip) {
        Real* sm = reinterpret_cast<Real*>(smem_raw);
        x = sm;
        v = x + static_cast<std::size_t>(N) * stride;
        p = v + static_cast<std::size_t>(N) * stride;
        f = p + static_cast<std::size_t>(N) * stride;
        pf = f + N;
        Real* b = pf + N;
        for (int d = threadIdx.x; d < D; d += blockDim.x) {
            b[d] = pb.lower[static_cast<std::size_t>(s) * D + d];
            b[D + d] = pb.upper[static_cast<std::size_t>(s) * D + d];
            b[2 * D + d] = pb.vmax[static_cast<std::size_t>(s) * D + d];
        }
        lo = b;
        hi = b + D;
        vm = b + 2 * D;
        if (a.first != 0) { // resume a run: coalesced loads of the swarm's rows
            for (int e = threadIdx.x; e < N * D; e += blockDim.x) {
                const int i = e / D, d = e - i * D;
                x[i * stride + d] = a.st.x[e0 + e];
                v[i * stride + d] = a.st.v[e0 + e];
                p[i * stride + d] = a.st.p[e0 + e];
            }
            for (int i = threadIdx.x; i < N; i += blockDim.x) {
                pf[i] = a.st.pf[row0 + i];
            }
        }
    } else {
        x = a.st.x + e0;
        v = a.st.v + e0;
        p = a.st.p + e0;
        f = a.st.f + row0;
        pf = a.st.pf + row0;
        lo = pb.lower + static_cast<std::size_t>(s) * D;
        hi = pb.upper + static_cast<std::size_t>(s) * D;
        vm = pb.vmax + static_cast<std::size_t>(s) * D;
    }
    __syncthreads();

    if (a.first == 0) {
        for (int i = threadIdx.x; i < N; i += blockDim.x) {
            Real* xi = x + static_cast<std::size_t>(i) * stride;
            init_particle(pb, s, static_cast<std::uint32_t>(row0 + i), xi, v + static_cast<std::size_t>(i) * stride, D);
            copy_row(p + static_cast<std::size_t>(i) * stride, xi, D);
            pf[i] = fit(xi, D);
        }
    }
    ArgMin<Real> g = block_argmin(pf, N, row0, warp_best);

    const std::uint32_t begin = a.first == 0 ? 1u : a.first;
    for (std::uint32_t t = begin; t <= a.last; ++t) {
        // Move and evaluate: reads the neighbours' personal bests of the previous generation.
        for (int i = threadIdx.x; i < N; i += blockDim.x) {
            const int nb = pb.ring ? ring_best_local(pf, i, N, pb.ring_radius) : g.row - row0;
            Real* xi = x + static_cast<std::size_t>(i) * stride;
            move_particle(pb, lo, hi, vm, static_cast<std::uint32_t>(row0 + i), t, xi,
                          v + static_cast<std::size_t>(i) * stride, p + static_cast<std::size_t>(i) * stride,
                          p + static_cast<std::size_t>(nb) * stride, D);
            f[i] = fit(xi, D);
        }
        __syncthreads();
        // Personal bests, then the swarm's best (which is also what the history records).
        bool improved = false;
        for (int i = threadIdx.x; i < N; i += blockDim.x) {
            if (f[i] < pf[i]) {
                pf[i] = f[i];
                copy_row(p + static_cast<std::size_t>(i) * stride, x + static_cast<std::size_t>(i) * stride, D);
                improved = true;
            }
        }
        // Personal bests only fall, so only an improved particle can displace the swarm's best: when none
        // improved (most generations once a swarm settles; cuPSO's observation, 000 §4.1) the arg-min is
        // skipped. The vote doubles as the barrier that publishes the new personal bests.
        bool any_improved;
        if (blockDim.x == 32) {
            any_improved = __any_sync(0xffffffffu, improved);
            __syncwarp();
        } else {
            any_improved = __syncthreads_or(improved) != 0;
        }
        if (any_improved) {
            g = block_argmin(pf, N, row0, warp_best);
        }
        if (a.history != nullptr && threadIdx.x == 0) {
            a.history[static_cast<std::size_t>(t - begin) * gridDim.x + s] = g.f;
        }
    }

    if (a.on_chip && a.keep_state) {
        for (int e = threadIdx.x; e < N * D; e += blockDim.x) {
            const int i = e / D, d = e - i * D;
            a.st.x[e0 + e] = x[i * stride + d];
            a.st.v[e0 + e] = v[i * stride + d];
            a.st.p[e0 + e] = p[i * stride + d];
        }
        for (int i = threadIdx.x; i < N; i += blockDim.x) {
            a.st.pf[row0 + i] = pf[i];
        }
    }
    const Real* gp = p + static_cast<std::size_t>(g.row - row0) * stride;
    for (int d = threadIdx.x; d < D; d += blockDim.x) {
        a.best_x[static_cast<std::size_t>(s) * D + d] = gp[d];
    }
    if (threadIdx.x == 0) {
        a.best_f[s] = g.f;
    }
}

} // namespace swarm::gpu
