#pragma once
// Whole-particle device operations shared by gpu-sync, gpu-ring-* and gpu-fused (and the custom-functor
// kernels of swarm/cuda/custom.cuh). They draw exactly the keyed Philox numbers of cpu-serial, but one
// Philox call serves four consecutive dimensions (the counter's dim_block), a quarter of the calls that
// per-dimension draws cost.
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>

#include "swarm/cuda/detail/block_reduce.cuh"
#include "swarm/cuda/detail/device_problem.h"

namespace swarm::gpu {

// Fitness of a built-in benchmark function in minimise form. Custom functors take its place.
template <typename Real>
struct BuiltinFitness {
    Function function;
    Real sign;
    __device__ __forceinline__ Real operator()(const Real* x, int dims) const {
        return sign * fn::evaluate<Real>(function, x, dims);
    }
};

// A user's functor (plain value, minimise or maximise) turned into minimise form.
template <typename Real, typename F>
struct SignedFitness {
    F f;
    Real sign;
    __device__ __forceinline__ Real operator()(const Real* x, int dims) const {
        return sign * static_cast<Real>(f(x, dims));
    }
};

// Iteration-0 state of particle row `r` (swarm s): positions and velocities from the init streams.
template <typename Real>
__device__ __forceinline__ void init_particle(const DeviceProblem<Real>& pb, int s, std::uint32_t r, Real* x, Real* v,
                                              int D) {
    // The first init_focus particles of a swarm start in the start box (Problem::init_lower).
    const bool focus = static_cast<int>(r - static_cast<std::uint32_t>(s) * static_cast<std::uint32_t>(pb.particles)) <
                       pb.init_focus;
    const Real* lo = (focus ? pb.init_lower : pb.lower) + static_cast<std::size_t>(s) * D;
    const Real* hi = (focus ? pb.init_upper : pb.upper) + static_cast<std::size_t>(s) * D;
    for (int d0 = 0; d0 < D; d0 += 4) {
        const auto blk = static_cast<std::uint32_t>(d0 >> 2);
        const rng::Words wx = rng::philox4x32_10(rng::counter(rng::Stream::InitPosition, 0, r, blk), pb.seed);
        const rng::Words wv = rng::philox4x32_10(rng::counter(rng::Stream::InitVelocity, 0, r, blk), pb.seed);
        for (int j = 0; j < 4 && d0 + j < D; ++j) {
            const int d = d0 + j;
            x[d] = pso::initial_position(lo[d], hi[d], rng::to_uniform<Real>(rng::pick(wx, j)));
            v[d] = pso::initial_velocity(pso::initial_velocity_range(lo[d], hi[d], pb.v_fraction),
                                         rng::to_uniform<Real>(rng::pick(wv, j)));
        }
    }
}

// The random words one generation's move of four consecutive dimensions consumes (dim block `blk` of
// row `r` at iteration t). They depend on nothing but the key, so a kernel may draw them ahead of time.
struct MoveWords {
    rng::Words w1, w2, wb; // R1, R2 and (BoundaryMode::Random only) Boundary
};

// kClamp: the run's boundary rule is known to be BoundaryMode::Clamp, which draws no Boundary words.
template <typename Real, bool kClamp = false>
__device__ __forceinline__ MoveWords draw_move_words(const DeviceProblem<Real>& pb, std::uint32_t r, std::uint32_t t,
                                                     std::uint32_t blk) {
    MoveWords w;
    w.w1 = rng::philox4x32_10(rng::counter(rng::Stream::R1, t, r, blk), pb.seed);
    w.w2 = rng::philox4x32_10(rng::counter(rng::Stream::R2, t, r, blk), pb.seed);
    w.wb = rng::Words{{0, 0, 0, 0}};
    if constexpr (!kClamp) {
        if (pb.boundary == pso::BoundaryMode::Random) {
            w.wb = rng::philox4x32_10(rng::counter(rng::Stream::Boundary, t, r, blk), pb.seed);
        }
    }
    return w;
}

// Eq. 1-2 and the boundary rule for the first n (<= 4) dimensions of one dim block, from its words.
// Every array points at the block's first dimension. kClamp: the rule is known to be BoundaryMode::Clamp, so
// the move is selects with no branch on the rule (the same values as pso::move), and a register kernel's
// generation stays one basic block in which the compiler can interleave the next generation's draws with it.
template <typename Real, bool kClamp = false>
__device__ __forceinline__ void move_block(const DeviceProblem<Real>& pb, const Real* lo, const Real* hi,
                                           const Real* vmax, const MoveWords& w, int n, Real* x, Real* v,
                                           const Real* pbest, const Real* nbest) {
    const bool random_bounds = pb.boundary == pso::BoundaryMode::Random;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        if (j < n) {
            const Real r1 = rng::to_uniform<Real>(rng::pick(w.w1, j));
            const Real r2 = rng::to_uniform<Real>(rng::pick(w.w2, j));
            Real xd = x[j];
            Real nv = pso::velocity(v[j], xd, pbest[j], nbest[j], pb.k, r1, r2);
            if constexpr (kClamp) {
                // pso::clamp_velocity with the "no clamp" case as an infinite limit, which a loop hoists: selects
                // on the data only.
                const Real lim = vmax[j] > Real(0) ? vmax[j] : Real(INFINITY);
                nv = nv > lim ? lim : (nv < -lim ? -lim : nv);
                xd = pso::clamp_position(xd + nv, lo[j], hi[j]);
            } else {
                nv = pso::clamp_velocity(nv, vmax[j]);
                const Real rb = random_bounds ? rng::to_uniform<Real>(rng::pick(w.wb, j)) : Real(0);
                pso::move(xd, nv, lo[j], hi[j], pb.boundary, rb);
            }
            x[j] = xd;
            v[j] = nv;
        }
    }
}

// Eq. 1-2 and the boundary rule for dimensions [d_begin, d_end) of row `r` at iteration t (d_begin a
// multiple of 4). Every array is indexed relative to d_begin: x[0] is dimension d_begin. `nbest` is the
// neighbourhood best's personal-best position; lo/hi/vmax are the swarm's bounds (any memory).
template <typename Real>
__device__ __forceinline__ void move_range(const DeviceProblem<Real>& pb, const Real* lo, const Real* hi,
                                           const Real* vmax, std::uint32_t r, std::uint32_t t, int d_begin,
                                           int d_end, Real* x, Real* v, const Real* pbest, const Real* nbest) {
    for (int d0 = d_begin; d0 < d_end; d0 += 4) {
        const MoveWords w = draw_move_words(pb, r, t, static_cast<std::uint32_t>(d0 >> 2));
        const int k = d0 - d_begin;
        move_block(pb, lo + k, hi + k, vmax + k, w, d_end - d0, x + k, v + k, pbest + k, nbest + k);
    }
}

template <typename Real>
__device__ __forceinline__ void move_particle(const DeviceProblem<Real>& pb, const Real* lo, const Real* hi,
                                              const Real* vmax, std::uint32_t r, std::uint32_t t, Real* x, Real* v,
                                              const Real* pbest, const Real* nbest, int D) {
    move_range(pb, lo, hi, vmax, r, t, 0, D, x, v, pbest, nbest);
}

// Butterfly arg-min over a full warp: every lane ends with the warp's best (ties to the lower row).
template <typename Real>
__device__ __forceinline__ ArgMin<Real> warp_argmin_all(ArgMin<Real> v) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        ArgMin<Real> o;
        o.f = __shfl_xor_sync(0xffffffffu, v.f, offset);
        o.row = __shfl_xor_sync(0xffffffffu, v.row, offset);
        v = better_of(v, o);
    }
    return v;
}

// After each warp's lane 0 stored its warp's best in warp_best[warp] (and a barrier): the block's best,
// in every thread, by one more butterfly over the warp results.
template <typename Real>
__device__ __forceinline__ ArgMin<Real> combine_warps(const ArgMin<Real>* warp_best) {
    const int warps = static_cast<int>(blockDim.x >> 5);
    if (warps == 1) {
        return warp_best[0];
    }
    const int lane = static_cast<int>(threadIdx.x & 31);
    return warp_argmin_all(lane < warps ? warp_best[lane] : ArgMin<Real>{worst_fitness<Real>(), INT_MAX});
}

// Index (within the swarm) of the best personal best among i-radius .. i+radius on a ring of n.
// Ties go to the lower row, as in cpu-serial's ring_best.
template <typename Real>
__device__ __forceinline__ int ring_best_local(const Real* pf, int i, int n, int radius) {
    int best = i;
    Real bf = pf[i];
    for (int k = 1; k <= radius; ++k) {
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            const int j = pso::ring_neighbour(i, sgn * k, n);
            const Real fj = pf[j];
            if (pso::better(fj, j, bf, best)) {
                best = j;
                bf = fj;
            }
        }
    }
    return best;
}

} // namespace swarm::gpu
