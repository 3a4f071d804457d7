#pragma once
// The one kernel of gpu-elementwise (FastPSO, 001): one launch per iteration does, for every element
// (particle i, dimension j), Eq. 4's v' = w v + c1 l_ij (pbest_ij - x_ij) + c2 g_ij (gbest_j - x_ij), the
// clamp (Eq. 5) and x' = x + v'; then each particle's fitness, its personal best, and the swarm's best.
//
// Layout and work split: rows (particles) of `pitch` = dims rounded up to 4 values; a group is 4
// consecutive dimensions (one 16-byte load per array, one Philox call per random matrix: L and G, the
// keyed streams R1/R2 of swarm/detail/philox.h, so the numbers equal the CPU reference's draw for draw; FastPSO
// generated its matrices with Thrust). A row is handled by a segment of `width` lanes of a warp; a lane
// takes k_groups_per_lane groups of it at a time (loads first), and the segment reduces the row's fitness
// with shuffles. Blocks loop over rows (FastPSO's "resource-aware thread creation": a grid-stride loop
// sized to the machine). Each block reduces its rows' personal bests with CUB's BlockReduce.
// elementwise_kernel (one launch per iteration): the last block of a swarm to finish (threadfence +
// ticket) reduces the block results and copies the new global best position, so the next launch sees the
// synchronous global best; the iteration number lives in device memory, so the same launch can be
// replayed from a CUDA graph. elementwise_persistent.cuh runs the same row update for a whole run in one
// cooperative launch.
#include <cub/block/block_reduce.cuh>

#include <type_traits>

#include "gpu/elementwise/elementwise_fitness.cuh"
#include "gpu/elementwise/elementwise_staging.cuh"
#include "swarm/cuda/detail/block_reduce.cuh"
#include "swarm/cuda/detail/device_problem.h"

namespace swarm::gpu::ew {

constexpr int k_block = 256;
constexpr int k_warps = k_block / 32;

// Float4 groups (4 dimensions each) that a lane updates per chunk of a row, all loaded before any is used:
// fp32 lanes take two (8 dimensions, two 16-byte loads per array in flight), fp64 lanes one (4 doubles
// are already two 16-byte loads per array).
template <typename Real>
constexpr int k_groups_per_lane = sizeof(Real) == sizeof(float) ? 2 : 1;

// Scalars that change from run to run (read from device memory, so a cached graph stays valid).
template <typename Real>
struct RunScalars {
    pso::Coefficients<Real> k;
    Real sign;
    Real v_fraction;
    std::uint64_t seed;
    pso::BoundaryMode boundary;
    Function function;
    // Cleared on the device by pad_bounds_kernel when a dimension's bounds are not clamps_by_min_max's (a zero
    // bound, mostly): the Clamp rule then keeps pso::move's comparisons.
    bool clamp_by_min_max;
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

// The per-swarm vectors a row update reads (pitch values each): the swarm best position and the bounds, in
// global memory (per-launch kernel) or the block's shared-memory copies (persistent kernel, staged rows).
template <typename Real>
struct SwarmVectors {
    const Real* gb;
    const Real* lo;
    const Real* hi;
    const Real* vmax;
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

template <typename Real>
struct Uniforms4 {
    Vec4<Real> l, g; // the R1 and R2 draws of one group, as uniforms
};

// Group g of row `row` at iteration t >= 1: its R1 and R2 words (keyed Philox, as the CPU reference draws
// them) as uniforms. The resident kernel draws them ahead, while it waits at the grid barrier
// (elementwise_persistent.cuh); every other path draws them in step_group.
template <typename Real>
__device__ __forceinline__ Uniforms4<Real> draw_group(std::uint32_t row, int g, int t, std::uint64_t seed) {
    const rng::Words l = rng::philox4x32_10(rng::counter(rng::Stream::R1, t, row, g), seed);
    const rng::Words gr = rng::philox4x32_10(rng::counter(rng::Stream::R2, t, row, g), seed);
    Uniforms4<Real> u;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        u.l.a[j] = rng::to_uniform<Real>(l.v[j]);
        u.g.a[j] = rng::to_uniform<Real>(gr.v[j]);
    }
    return u;
}

// pso::clamp_velocity for a padded v_max (pad_bounds_kernel: > 0, or +infinity for no clamp). In fp32 two
// NaN-propagating min / max instructions give the same value for every v, NaN and signed zeros included, where the
// comparisons and selects took five per dimension; the row update is bound by its instruction issue
// (docs/benchmarks.md, "Design evidence").
template <typename Real>
__device__ __forceinline__ Real clamp_padded_velocity(Real v, Real v_max) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (std::is_same_v<Real, float>) {
        float d;
        asm("max.NaN.f32 %0, %1, %2;" : "=f"(d) : "f"(v), "f"(-v_max));
        asm("min.NaN.f32 %0, %0, %1;" : "+f"(d) : "f"(v_max));
        return d;
    }
#endif
    return pso::clamp_velocity(v, v_max);
}

// pso::move's Clamp rule (x = x + v already made): x inside [lo, hi] kept, below lo to lo, above hi or NaN to hi.
// In fp32, for bounds that clamps_by_min_max accepts, two instructions give the same value for every x: a
// NaN-propagating max with lo, then a min with hi, which gives hi for a NaN. The comparisons and selects took about
// five per dimension in the issue-bound update. Not for a zero bound (min / max may return the other zero where x
// is a zero of one sign and the bound of the other), a NaN bound or lo > hi: a run with any such dimension keeps
// pso::move (RunScalars::clamp_by_min_max).
template <typename Real>
__host__ __device__ __forceinline__ bool clamps_by_min_max(Real lo, Real hi) {
    return lo <= hi && lo != Real(0) && hi != Real(0);
}
template <typename Real>
__device__ __forceinline__ Real clamp_padded_position(Real x, Real lo, Real hi) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (std::is_same_v<Real, float>) {
        float d;
        asm("max.NaN.f32 %0, %1, %2;" : "=f"(d) : "f"(x), "f"(lo));
        asm("min.f32 %0, %0, %1;" : "+f"(d) : "f"(hi));
        return d;
    }
#endif
    return pso::clamp_position(x, lo, hi);
}

// Eq. 4 and the velocity clamp of eq. 5 for a group with its draws `u`: the new velocity of each dimension.
// gv: the group's swarm best, vm: its velocity limits.
template <typename Real>
__device__ __forceinline__ Vec4<Real>
clamped_velocity(const RunScalars<Real>& rs, const Vec4<Real>& gv, const Vec4<Real>& vm, const Uniforms4<Real>& u,
                 const Vec4<Real>& xk, const Vec4<Real>& vk, const Vec4<Real>& pk) {
    Vec4<Real> nv;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        nv.a[j] = clamp_padded_velocity(
            pso::velocity(vk.a[j], xk.a[j], pk.a[j], gv.a[j], rs.k, u.l.a[j], u.g.a[j]), vm.a[j]);
    }
    return nv;
}
// The same for group g, its swarm best and limits loaded from the swarm's vectors.
template <typename Real>
__device__ __forceinline__ Vec4<Real> clamped_velocity(const RunScalars<Real>& rs, const SwarmVectors<Real>& sv, int g,
                                                       const Uniforms4<Real>& u, const Vec4<Real>& xk,
                                                       const Vec4<Real>& vk, const Vec4<Real>& pk) {
    return clamped_velocity(rs, load4(sv.gb + 4 * g), load4(sv.vmax + 4 * g), u, xk, vk, pk);
}

// The Clamp rule where the run's bounds allow min / max (RunScalars::clamp_by_min_max): x + v into [lo, hi].
template <typename Real>
__device__ __forceinline__ void clamp_move(const Vec4<Real>& lo, const Vec4<Real>& hi, const Vec4<Real>& nv,
                                           Vec4<Real>& xk, Vec4<Real>& vk) {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        xk.a[j] = clamp_padded_position(xk.a[j] + nv.a[j], lo.a[j], hi.a[j]);
        vk.a[j] = nv.a[j];
    }
}

// Group g (4 dimensions) of row `row` at iteration t >= 1, with that group's draws `u`: its current values xk,
// vk, pk (in registers) become its new position and velocity.
template <typename Real>
__device__ __forceinline__ void move_group(const RunScalars<Real>& rs, const SwarmVectors<Real>& sv,
                                           std::uint32_t row, int g, int t, const Uniforms4<Real>& u,
                                           const Vec4<Real>& lo, const Vec4<Real>& hi, Vec4<Real>& xk,
                                           Vec4<Real>& vk, const Vec4<Real>& pk) {
    const Vec4<Real> nv = clamped_velocity(rs, sv, g, u, xk, vk, pk);
    // The Boundary stream is drawn only when a dimension leaves the box and the rule uses it (it
    // reads the word only then): the same numbers, and no third Philox state live in every lane. Only that rule
    // asks here whether one left: pso::move tests each dimension itself, and asked for every rule the test was a
    // second set of comparisons in the issue-bound update.
    rng::Words rb{};
    if (rs.boundary == pso::BoundaryMode::Random) {
        bool out = false;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const Real moved = xk.a[j] + nv.a[j]; // pso::move's own test
            out = out || !(moved >= lo.a[j] && moved <= hi.a[j]);
        }
        if (out) rb = rng::philox4x32_10(rng::counter(rng::Stream::Boundary, t, row, g), rs.seed);
    }
    if (rs.boundary == pso::BoundaryMode::Clamp && rs.clamp_by_min_max) {
        clamp_move(lo, hi, nv, xk, vk);
        return;
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        Real v = nv.a[j];
        pso::move(xk.a[j], v, lo.a[j], hi.a[j], rs.boundary, rng::to_uniform<Real>(rb.v[j]));
        vk.a[j] = v;
    }
}

// Group g (4 dimensions) of row `row` at iteration t: its current values xk, vk, pk (in registers) become its
// new position and velocity (t = 0: the initial ones). The caller zeroes the padding dimensions (update_chunk
// together with the fitness terms: so its kernels compile as before). Shared by update_chunk's row layout and
// the flat tiles (elementwise_flat_tiles.cuh). `drawn`, where given, holds the group's draws for t >= 1.
template <typename Real>
__device__ __forceinline__ void step_group(const View<Real>& w, const RunScalars<Real>& rs,
                                           const SwarmVectors<Real>& sv, std::uint32_t row, int g, int t,
                                           Vec4<Real>& xk, Vec4<Real>& vk, const Vec4<Real>& pk,
                                           const Uniforms4<Real>* drawn = nullptr) {
    // Per-swarm constants: the same for every row (shared memory or L1 hits).
    const Vec4<Real> lo = load4(sv.lo + 4 * g), hi = load4(sv.hi + 4 * g);
    if (t == 0) {
        const rng::Words ux = rng::philox4x32_10(rng::counter(rng::Stream::InitPosition, 0, row, g), rs.seed);
        const rng::Words uv = rng::philox4x32_10(rng::counter(rng::Stream::InitVelocity, 0, row, g), rs.seed);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            xk.a[j] = pso::initial_position(lo.a[j], hi.a[j], rng::to_uniform<Real>(ux.v[j]));
            vk.a[j] = pso::initial_velocity(pso::initial_velocity_range(lo.a[j], hi.a[j], rs.v_fraction),
                                            rng::to_uniform<Real>(uv.v[j]));
        }
    } else if (drawn != nullptr) {
        move_group(rs, sv, row, g, t, *drawn, lo, hi, xk, vk, pk);
    } else {
        move_group(rs, sv, row, g, t, draw_group<Real>(row, g, t, rs.seed), lo, hi, xk, vk, pk);
    }
}

// Updates the groups g0, g0 + width, ... (NP of them, those that exist) of row r, reading its
// current values from `src`, and adds their fitness terms. Two forms:
//  - LoadsFirst (rows read from global memory): every streaming load of the NP groups is issued before any
//    arithmetic, so a lane has 3 x NP 16-byte loads in flight (one group per lane left the fp32 kernel
//    latency-bound at half the copy bandwidth, docs/benchmarks-gpu-b.md); `x` keeps the new positions for
//    the personal-best copy.
//  - staged (src is this warp's shared-memory slot, elementwise_staging.cuh): one group at a time, loaded
//    just before use (shared-memory latency is short), the new position written back into the slot for the
//    personal-best copy; far fewer values live at once, so more warps fit an SM.
// `sv` holds the swarm best position and the bounds.
template <Function F, typename Real, int NP, bool LoadsFirst>
__device__ __forceinline__ void update_chunk(const View<Real>& w, const RunScalars<Real>& rs, const SwarmVectors<Real>& sv,
                                             int r, const RowSource<Real>& src, int g0, int t, Terms<Real>& acc,
                                             Vec4<Real> (&x)[NP]) {
    const int groups = w.pitch / 4;
    const std::size_t re = static_cast<std::size_t>(r) * w.pitch;
    const auto row = static_cast<std::uint32_t>(r);
    Vec4<Real> v[NP], p[NP];
    if (LoadsFirst && t != 0) {
#pragma unroll
        for (int k = 0; k < NP; ++k) {
            const int g = g0 + k * w.width;
            if (g < groups) {
                x[k] = load4(src.x + 4 * g);
                v[k] = load4(src.v + 4 * g);
                p[k] = load4(src.p + 4 * g);
            }
        }
    }
    // Group g with its current values xk, vk, pk (in registers) becomes its new position and velocity.
    auto group = [&](int g, Vec4<Real>& xk, Vec4<Real>& vk, const Vec4<Real>& pk) {
        step_group(w, rs, sv, row, g, t, xk, vk, pk);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            if (4 * g + j >= w.dims) { // padding stays 0 and scores nothing
                xk.a[j] = Real(0);
                vk.a[j] = Real(0);
            } else if constexpr (separable(F)) {
                accumulate<F>(acc, xk.a[j], 4 * g + j);
            }
        }
    };
    if constexpr (LoadsFirst) {
#pragma unroll
        for (int k = 0; k < NP; ++k) {
            const int g = g0 + k * w.width;
            if (g < groups) group(g, x[k], v[k], p[k]);
        }
#pragma unroll
        for (int k = 0; k < NP; ++k) {
            const int g = g0 + k * w.width;
            if (g < groups) {
                store4(w.x + re + 4 * g, x[k]);
                store4(w.v + re + 4 * g, v[k]);
            }
        }
    } else {
#pragma unroll 1
        for (int g = g0; g < groups && g < g0 + NP * w.width; g += w.width) {
            Vec4<Real> xk{}, vk{}, pk{};
            if (t != 0) {
                xk = load4(src.x + 4 * g);
                vk = load4(src.v + 4 * g);
                pk = load4(src.p + 4 * g);
            }
            group(g, xk, vk, pk);
            store4(w.x + re + 4 * g, xk);
            store4(w.v + re + 4 * g, vk);
            if (t != 0) store4(src.x + 4 * g, xk); // the slot is this warp's: kept for the personal-best copy
        }
    }
}

// The order in which a warp of the one-launch kernel visits its tiles (first row `first`, then first + stride,
// ... below `particles`) when the swarms' x, v and p are larger than L2 (always so when staged): forward in
// even iterations, backward in odd ones. Why: walked the same way every iteration such a state evicts
// each row before the next iteration comes back to it; walked back and forth, the rows an iteration touched
// last, still in L2 (x and v dirty there, so a write-back is saved as well), are the next one's first: less
// DRAM traffic. (L2-resident shapes keep a plain forward loop: compiled with the walk they ran slower.)
// The results do not change: within an iteration each row's update depends only on (t, row) and the
// previous swarm best, and the swarm best is an order-free arg-min (ties to the lower row). The warp keeps
// its own tiles, so the next iteration's first tiles, which StagedRows sends before the grid barrier, are
// rows this warp wrote itself.
struct TileWalk {
    int start, step, count;
    __device__ static TileWalk of(int first, int stride, int particles, bool backward) {
        const int count = first < particles ? (particles - 1 - first) / stride + 1 : 0;
        if (!backward || count == 0) return {first, stride, count};
        return {first + (count - 1) * stride, -stride, count};
    }
};

// One iteration t over this block's rows of swarm s (the same rows every call: a grid-stride loop over
// blockIdx.x), moving toward `sv.gb`. Updates positions, velocities and personal bests, and returns this
// thread's best (fitness, row) of the rows it leads. `before_pbest_write(r)` runs before row r's personal
// best position is overwritten (the persistent kernel waits there while other blocks may still read it).
// `rows` (GlobalRows or StagedRows, elementwise_staging.cuh) supplies each row's current values.
// `last` says no iteration follows (StagedRows sends the next one's first tiles otherwise).
template <Function F, typename Real, int NP, bool Alternate, typename Rows, typename BeforePbestWrite>
__device__ __forceinline__ ArgMin<Real> update_rows(const View<Real>& w, const RunScalars<Real>& rs,
                                                    const SwarmVectors<Real>& sv, int s, int t, bool last, Rows& rows,
                                                    BeforePbestWrite before_pbest_write) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int seg = lane / w.width, in_row = lane % w.width, rows_per_warp = 32 / w.width;
    const int groups = w.pitch / 4;
    const int span = NP * w.width; // groups per chunk of a row
    const int chunks = (groups + span - 1) / span;

    ArgMin<Real> mine = no_best<Real>();
    const int stride = gridDim.x * k_warps * rows_per_warp;
    const int first = (blockIdx.x * k_warps + warp) * rows_per_warp;
    const bool reads = t != 0; // iteration 0 initialises: nothing to read
    // Alternate (a state larger than L2): odd iterations walk this warp's tiles backward (TileWalk); the loop
    // runs over them forward and mirrors, so that the other kernels compile exactly their forward loop.
    const bool backward = Alternate && (t & 1) != 0;
    const TileWalk walk = TileWalk::of(first, stride, w.particles, backward);
    if (reads) rows.begin_iteration(walk.start, walk.step);
    for (int tile_base = first; tile_base < w.particles; tile_base += stride) {
        const int base = backward ? walk.start + first - tile_base : tile_base;
        const int i = base + seg;
        const bool active = i < w.particles;
        const int r = s * w.particles + (active ? i : 0);
        const std::size_t re = static_cast<std::size_t>(r) * w.pitch;
        Terms<Real> acc;
        Vec4<Real> x[NP] = {};
        // The row's personal best fitness, asked for before the update so that its latency (an L2 access)
        // overlaps the arithmetic instead of stalling the comparison after it.
        const Real old_pf = active && reads ? w.pf[r] : Real(0);
        const RowSource<Real> src = reads ? rows.acquire(r, seg) : RowSource<Real>{};
        for (int c = 0; c < chunks; ++c) {
            if (active) update_chunk<F, Real, NP, !Rows::k_staged>(w, rs, sv, r, src, c * span + in_row, t, acc, x);
        }
        Real f;
        if constexpr (separable(F)) {
            f = rs.sign * finish<F>(combine<F>(acc, w.width), w.dims);
        } else {
            __syncwarp(); // the row's stores are visible to its leader
            f = (active && in_row == 0) ? rs.sign * fn::evaluate<Real>(rs.function, w.x + re, w.dims) : Real(0);
            f = __shfl_sync(0xffffffffu, f, seg * w.width, 32);
        }
        if (active) {
            const bool improved = t == 0 || f < old_pf;
            if (improved) {
                before_pbest_write(r);
                if (chunks == 1 && !Rows::k_staged) { // the new positions are still in registers
#pragma unroll
                    for (int k = 0; k < NP; ++k) {
                        const int g = in_row + k * w.width;
                        if (g < groups) store4(w.p + re + 4 * g, x[k]);
                    }
                } else {
                    // This lane's own stores, visible to it: the slot (staged, t > 0) or the row.
                    const Real* fresh = Rows::k_staged && reads ? src.x : w.x + re;
                    for (int g = in_row; g < groups; g += w.width) {
                        store4(w.p + re + 4 * g, load4(fresh + 4 * g));
                    }
                }
            }
            if (in_row == 0) {
                if (improved) w.pf[r] = f;
                mine = better_of(mine, ArgMin<Real>{improved ? f : old_pf, r});
            }
        }
        if (reads) rows.release();
    }
    if (!last) {
        const TileWalk next = TileWalk::of(first, stride, w.particles, Alternate && (t & 1) == 0);
        rows.issue_next_iteration(next.start, next.step);
    }
    return mine;
}

// F: a separable function compiled in, or Function::Rosenbrock standing for "gather via the run's function".
// One launch per iteration; the last block of each swarm publishes the swarm best for the next launch.
template <Function F, typename Real>
__global__ void __launch_bounds__(k_block) elementwise_kernel(View<Real> w) {
    using Reduce = cub::BlockReduce<ArgMin<Real>, k_block>;
    __shared__ typename Reduce::TempStorage temp;
    __shared__ bool last;
    __shared__ ArgMin<Real> swarm_best;
    const RunScalars<Real> rs = *w.run;
    const int t = *w.iteration;
    const int s = blockIdx.y;
    GlobalRows<Real> rows{w.x, w.v, w.p, w.pitch};
    const std::size_t se = static_cast<std::size_t>(s) * w.pitch;
    const SwarmVectors<Real> sv{w.gx + se, w.lo + se, w.hi + se, w.vmax + se};
    const ArgMin<Real> mine =
        update_rows<F, Real, k_groups_per_lane<Real>, false>(w, rs, sv, s, t, true, rows, [](int) {});

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
