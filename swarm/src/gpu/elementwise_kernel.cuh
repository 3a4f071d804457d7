#pragma once
// The one kernel of gpu-elementwise (FastPSO, 001): one launch per iteration does, for every element
// (particle i, dimension j), Eq. 4's v' = w v + c1 l_ij (pbest_ij - x_ij) + c2 g_ij (gbest_j - x_ij), the
// clamp (Eq. 5) and x' = x + v'; then each particle's fitness, its personal best, and the swarm's best.
//
// Layout and work split: rows (particles) of `pitch` = dims rounded up to 4 values, so a thread owns 4
// consecutive dimensions of a row: one 16-byte load per array, one Philox call per random matrix (L and
// G, the keyed streams R1/R2 of common/philox.h, so the numbers equal the CPU reference's draw for draw;
// FastPSO generated its matrices with Thrust). A row is handled by a segment of `width` lanes of a warp;
// the segment reduces the row's fitness with shuffles. Blocks loop over rows (FastPSO's "resource-aware
// thread creation": a grid-stride loop sized to the machine). Each block reduces its rows' personal bests
// with CUB's BlockReduce; the last block of a swarm to finish (threadfence + ticket) reduces the block
// results and copies the new global best position, so the next launch sees the synchronous global best.
// The iteration number lives in device memory, so the same launch can be replayed from a CUDA graph.
#include <cub/block/block_reduce.cuh>

#include "gpu/block_reduce.cuh"
#include "gpu/device_problem.h"
#include "gpu/elementwise_fitness.cuh"
#include "gpu/thread_per_particle.cuh"

namespace swarm::gpu::ew {

constexpr int k_block = 256;
constexpr int k_warps = k_block / 32;

// Scalars that change from run to run (read from device memory, so a cached graph stays valid).
template <typename Real>
struct RunScalars {
    pso::Coefficients<Real> k;
    Real sign;
    Real v_fraction;
    std::uint64_t seed;
    pso::BoundaryMode boundary;
    Function function;
};

// Buffers owned by the optimizer (stable between runs) and the shape; passed by value.
template <typename Real>
struct View {
    int swarms, particles, dims, pitch, width; // width: lanes per row, a power of two <= 32
    Real* x;
    Real* v;
    Real* p;
    Real* pf;               // personal best fitness, rows
    const Real* lo;         // swarms x pitch (padding: 0)
    const Real* hi;
    const Real* vmax;
    Real* gx;               // global best position, swarms x pitch
    Real* gf;               // global best fitness, swarms (minimise form)
    ArgMin<Real>* block_best; // swarms x gridDim.x
    unsigned* done;         // per swarm block tickets, then one for the swarms
    int* iteration;         // the iteration this launch runs
    const RunScalars<Real>* run;
};

template <typename Real>
struct Vec4 {
    Real a[4];
};

__device__ __forceinline__ Vec4<float> load4(const float* p) {
    const float4 q = *reinterpret_cast<const float4*>(p);
    return {{q.x, q.y, q.z, q.w}};
}
__device__ __forceinline__ Vec4<double> load4(const double* p) {
    const double2 a = reinterpret_cast<const double2*>(p)[0], b = reinterpret_cast<const double2*>(p)[1];
    return {{a.x, a.y, b.x, b.y}};
}
__device__ __forceinline__ void store4(float* p, const Vec4<float>& v) {
    *reinterpret_cast<float4*>(p) = make_float4(v.a[0], v.a[1], v.a[2], v.a[3]);
}
__device__ __forceinline__ void store4(double* p, const Vec4<double>& v) {
    reinterpret_cast<double2*>(p)[0] = make_double2(v.a[0], v.a[1]);
    reinterpret_cast<double2*>(p)[1] = make_double2(v.a[2], v.a[3]);
}

template <typename Real>
struct BetterOf {
    __device__ __forceinline__ ArgMin<Real> operator()(const ArgMin<Real>& a, const ArgMin<Real>& b) const {
        return better_of(a, b);
    }
};

// Updates the 4 dimensions [4g, 4g + 3] of row r (of swarm s) and adds their fitness terms.
template <Function F, typename Real>
__device__ __forceinline__ void update_group(const View<Real>& w, const RunScalars<Real>& rs, int s, int r, int g, int t,
                                             Terms<Real>& acc) {
    const std::size_t e = static_cast<std::size_t>(r) * w.pitch + 4 * g;
    const std::size_t b = static_cast<std::size_t>(s) * w.pitch + 4 * g;
    const Vec4<Real> lo = load4(w.lo + b), hi = load4(w.hi + b);
    Vec4<Real> x, v;
    const auto row = static_cast<std::uint32_t>(r);
    if (t == 0) {
        const rng::Words ux = rng::philox4x32_10(rng::counter(rng::Stream::InitPosition, 0, row, g), rs.seed);
        const rng::Words uv = rng::philox4x32_10(rng::counter(rng::Stream::InitVelocity, 0, row, g), rs.seed);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            x.a[k] = pso::initial_position(lo.a[k], hi.a[k], rng::to_uniform<Real>(ux.v[k]));
            v.a[k] = pso::initial_velocity(pso::initial_velocity_range(lo.a[k], hi.a[k], rs.v_fraction),
                                           rng::to_uniform<Real>(uv.v[k]));
        }
    } else {
        x = load4(w.x + e);
        v = load4(w.v + e);
        const Vec4<Real> p = load4(w.p + e), gb = load4(w.gx + b), vm = load4(w.vmax + b);
        const rng::Words l = rng::philox4x32_10(rng::counter(rng::Stream::R1, t, row, g), rs.seed);
        const rng::Words gr = rng::philox4x32_10(rng::counter(rng::Stream::R2, t, row, g), rs.seed);
        rng::Words rb{};
        if (rs.boundary == pso::BoundaryMode::Random) {
            rb = rng::philox4x32_10(rng::counter(rng::Stream::Boundary, t, row, g), rs.seed);
        }
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            Real nv = pso::clamp_velocity(pso::velocity(v.a[k], x.a[k], p.a[k], gb.a[k], rs.k, rng::to_uniform<Real>(l.v[k]),
                                                        rng::to_uniform<Real>(gr.v[k])),
                                          vm.a[k]);
            pso::move(x.a[k], nv, lo.a[k], hi.a[k], rs.boundary, rng::to_uniform<Real>(rb.v[k]));
            v.a[k] = nv;
        }
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        if (4 * g + k >= w.dims) { // padding stays 0 and scores nothing
            x.a[k] = Real(0);
            v.a[k] = Real(0);
        } else if constexpr (separable(F)) {
            accumulate<F>(acc, x.a[k], 4 * g + k);
        }
    }
    store4(w.x + e, x);
    store4(w.v + e, v);
}

// F: a separable function compiled in, or Function::Rosenbrock standing for "gather via the run's function".
template <Function F, typename Real>
__global__ void __launch_bounds__(k_block) elementwise_kernel(View<Real> w) {
    using Reduce = cub::BlockReduce<ArgMin<Real>, k_block>;
    __shared__ typename Reduce::TempStorage temp;
    __shared__ bool last;
    __shared__ ArgMin<Real> swarm_best;
    const RunScalars<Real> rs = *w.run;
    const int t = *w.iteration;
    const int s = blockIdx.y;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int seg = lane / w.width, in_row = lane % w.width, rows_per_warp = 32 / w.width;
    const int groups = w.pitch / 4;
    const int passes = (groups + w.width - 1) / w.width;

    ArgMin<Real> mine = no_best<Real>();
    const int stride = gridDim.x * k_warps * rows_per_warp;
    for (int base = (blockIdx.x * k_warps + warp) * rows_per_warp; base < w.particles; base += stride) {
        const int i = base + seg;
        const bool active = i < w.particles;
        const int r = s * w.particles + (active ? i : 0);
        Terms<Real> acc;
        for (int pass = 0; pass < passes; ++pass) {
            const int g = in_row + pass * w.width;
            if (active && g < groups) {
                update_group<F>(w, rs, s, r, g, t, acc);
            }
        }
        Real f;
        if constexpr (separable(F)) {
            f = rs.sign * finish<F>(combine<F>(acc, w.width), w.dims);
        } else {
            __syncwarp(); // the row's stores are visible to its leader
            f = (active && in_row == 0) ? rs.sign * fn::evaluate<Real>(rs.function, w.x + static_cast<std::size_t>(r) * w.pitch, w.dims)
                                        : Real(0);
            f = __shfl_sync(0xffffffffu, f, seg * w.width, 32);
        }
        if (active) {
            const bool improved = t == 0 || f < w.pf[r];
            if (improved) {
                const std::size_t e = static_cast<std::size_t>(r) * w.pitch;
                for (int g = in_row; g < groups; g += w.width) {
                    store4(w.p + e + 4 * g, load4(w.x + e + 4 * g)); // this lane's own stores: visible to it
                }
            }
            if (in_row == 0) {
                if (improved) w.pf[r] = f;
                mine = better_of(mine, ArgMin<Real>{improved ? f : w.pf[r], r});
            }
        }
    }

    const ArgMin<Real> block = Reduce(temp).Reduce(mine, BetterOf<Real>());
    if (threadIdx.x == 0) {
        w.block_best[static_cast<std::size_t>(s) * gridDim.x + blockIdx.x] = block;
        __threadfence();
        last = atomicAdd(w.done + s, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;

    // Last block of swarm s: every other block's result and personal bests are final.
    __threadfence();
    ArgMin<Real> m = no_best<Real>();
    for (unsigned j = threadIdx.x; j < gridDim.x; j += k_block) {
        const ArgMin<Real>* q = w.block_best + static_cast<std::size_t>(s) * gridDim.x + j;
        m = better_of(m, ArgMin<Real>{__ldcg(&q->f), __ldcg(&q->row)});
    }
    __syncthreads(); // temp storage is reused
    m = Reduce(temp).Reduce(m, BetterOf<Real>());
    if (threadIdx.x == 0) swarm_best = m;
    __syncthreads();
    const std::size_t src = static_cast<std::size_t>(swarm_best.row) * w.pitch;
    const std::size_t dst = static_cast<std::size_t>(s) * w.pitch;
    for (int d = threadIdx.x; d < w.pitch; d += k_block) {
        w.gx[dst + d] = __ldcg(w.p + src + d);
    }
    if (threadIdx.x == 0) {
        w.gf[s] = swarm_best.f;
        w.done[s] = 0;
        __threadfence();
        if (atomicAdd(w.done + w.swarms, 1u) == static_cast<unsigned>(w.swarms) - 1) {
            w.done[w.swarms] = 0;
            *w.iteration = t + 1;
        }
    }
}

} // namespace swarm::gpu::ew
