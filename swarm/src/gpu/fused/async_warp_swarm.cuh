#pragma once
// gpu-fused with the asynchronous update (Params::update = Asynchronous; fp32, global topology, 1-6 or 8
// dimensions, built-in functions, unwatched runs). The synchronous kernels must wait every generation for
// the whole swarm's arg-min, which at 1,024 particles is a barrier per generation across warps (one SM's
// issue, or a cluster barrier: docs/benchmarks.md). Asynchronous PSO (000's Algorithm 1 updates the best
// right after each particle, cpu-serial --update asynchronous) needs no such wait, and here each warp of 32
// particles runs its generations on its own:
//  - within a warp the update is synchronous (one arg-min by redux.sync per generation in which a personal
//    best improved, as in block_swarm_reg.cuh); the same keyed random words as every other strategy;
//  - across warps the swarm's best is one 64-bit word in device memory, (fitness key << 32) | row, lowered
//    with atomicMin by the lane that holds a warp's new best after it has stored its personal best (a
//    fence between), so the word always names a row whose stored personal best is at least that good;
//  - a warp re-reads the word every fourth generation (k_async_read_mask; the load is used a generation or
//    more later, so its latency hides behind the move) and fetches that row's position only when the word
//    changed; it follows the better of the word and its own best.
// Different trajectory from cpu-serial's asynchronous one (which updates particle by particle in order); the
// tests check convergence, odd sizes and per-swarm bounds instead.
#include <cstdint>
#include <stdexcept>

#include "swarm/cuda/detail/block_swarm_reg.cuh"
#include "swarm/cuda/detail/fused_plan.h"
#include "swarm/cuda/detail/gpu_pso.h"
#include "swarm/cuda/detail/particle_ops.cuh"
#include "swarm/cuda/memory.h"

namespace swarm::gpu {

// A built-in function chosen at compile time (the switch of fn::evaluate folds away).
template <Function F>
struct FixedFitness {
    float sign;
    __device__ __forceinline__ float operator()(const float* x, int dims) const {
        return sign * fn::evaluate<float>(F, x, dims);
    }
};

// Several dimensions: a warp re-reads its swarm's word every fourth generation (one dimension: any period
// costs the same). Reading it every generation was clearly slower, longer periods gained little, and the
// convergence tests pass at each period.
constexpr std::uint32_t k_async_read_mask = 3;

struct AsyncWarpArgs {
    DeviceProblem<float> pb;
    float* p;                 // personal best positions, rows x dims (read by other warps; unused in 1-D)
    float* pf;                // personal best fitness, rows (unused in 1-D)
    unsigned long long* best; // per swarm: (fitness_key << 32) | row (1-D: the position's bits), all ones at first
    std::uint32_t last;       // generations 1..last after the initialisation
};

// Makes the words a move of kDims dimensions uses exist at this point of the program (an empty asm that takes
// them as inputs emits no instruction, but the compiler must compute them before it).
template <int kDims, int kBlocks>
__device__ __forceinline__ void keep_words(const MoveWords (&w)[kBlocks]) {
#pragma unroll
    for (int d = 0; d < kDims; ++d) {
        asm volatile("" ::"r"(rng::pick(w[d / 4].w1, d % 4)), "r"(rng::pick(w[d / 4].w2, d % 4)));
    }
}

__device__ __forceinline__ unsigned long long async_best_word(std::uint32_t key, std::uint32_t row) {
    return (static_cast<unsigned long long>(key) << 32) | row;
}

// kClamp: the run's boundary rule is Clamp (the default, and cuPSO's), compiled without the rule's branches so
// that a generation is one basic block: a lone warp issues in order, and only within a block can the compiler
// interleave the next generation's Philox chains with this one's move and fitness.
template <typename Fit, int kDims, bool kClamp>
__global__ void __launch_bounds__(32) async_warp_swarm_kernel(AsyncWarpArgs a, Fit fit) {
    constexpr int kBlocks = (kDims + 3) / 4;
    constexpr bool kPacked = kDims == 1; // the word's low half is the best's position, not its row
    const DeviceProblem<float>& pb = a.pb;
    const int s = static_cast<int>(blockIdx.y), N = pb.particles;
    const int lane = static_cast<int>(threadIdx.x), i = static_cast<int>(blockIdx.x) * 32 + lane;
    const bool active = i < N;
    // Lanes past the swarm's end run a copy of the warp's first row and never publish or store.
    const auto r = static_cast<std::uint32_t>(s * N + (active ? i : static_cast<int>(blockIdx.x) * 32));
    unsigned long long* const word = a.best + s;

    float lo[kDims], hi[kDims], vm[kDims], x[kDims], v[kDims], p[kDims], nb[kDims];
    load_swarm_bounds<kDims>(pb, s, lo, hi, vm);
    init_particle(pb, s, r, x, v, kDims);
#pragma unroll
    for (int d = 0; d < kDims; ++d) {
        p[d] = x[d];
    }
    float pf = fit(x, kDims);

    // The warp's best after a generation in which some personal best improved. Only when it beats the
    // warp's last published best (`own`) does anything leave the SM: its lane stores that personal best, then
    // (fenced) lowers the swarm's word. Improvements of other lanes stay in registers.
    float nb_own[kDims];
    unsigned long long own = ~0ull;
    auto publish_warp_best = [&] {
        std::uint32_t m = 0;
        const int l = warp_argmin_lane(active ? fitness_key(pf) : 0xffffffffu, &m);
        const auto row = static_cast<std::uint32_t>(__shfl_sync(0xffffffffu, static_cast<int>(r), l));
        // One dimension: the word carries the position itself (its low half), so nothing else is stored.
        const unsigned long long mine =
            kPacked ? async_best_word(m, __float_as_uint(__shfl_sync(0xffffffffu, p[0], l))) : async_best_word(m, row);
        if (mine < own) { // uniform: every lane holds the same words
#pragma unroll
            for (int d = 0; d < kDims; ++d) {
                nb_own[d] = __shfl_sync(0xffffffffu, p[d], l);
            }
            if (lane == l) {
                if constexpr (!kPacked) {
#pragma unroll
                    for (int d = 0; d < kDims; ++d) {
                        a.p[static_cast<std::size_t>(r) * kDims + d] = p[d];
                    }
                    a.pf[r] = pf;
                    __threadfence(); // the stored personal best is visible before the word that names it
                }
                atomicMin(word, mine);
            }
            own = mine;
        }
    };

    publish_warp_best();
    unsigned long long seen = ~0ull; // the word whose row's position nb holds
    unsigned long long next = *reinterpret_cast<volatile unsigned long long*>(word);
    MoveWords w[kBlocks];
#pragma unroll
    for (int k = 0; k < kBlocks; ++k) {
        w[k] = draw_move_words<float, kClamp>(pb, r, 1u, static_cast<std::uint32_t>(k));
    }
    const bool shared_word = gridDim.x > 1; // one warp's swarm: its own best is the swarm's
    for (std::uint32_t t = 1; t <= a.last; ++t) {
        // Follow the better of the swarm's word (as last read) and the warp's own best. The next read is
        // issued here and used a generation or more later, so its L2 latency hides behind the move.
        const unsigned long long cur = next;
        if (shared_word && (t & k_async_read_mask) == 0) {
            next = *reinterpret_cast<volatile unsigned long long*>(word);
        }
        if (own <= cur) {
#pragma unroll
            for (int d = 0; d < kDims; ++d) {
                nb[d] = nb_own[d];
            }
            seen = ~0ull;
        } else if constexpr (kPacked) {
            nb[0] = __uint_as_float(static_cast<std::uint32_t>(cur));
        } else if (cur != seen) { // another warp's best: its row's stored personal best (other SMs: skip L1)
            const std::size_t e = static_cast<std::size_t>(cur & 0xffffffffu) * kDims;
#pragma unroll
            for (int d = 0; d < kDims; ++d) {
                nb[d] = __ldcg(a.p + e + d);
            }
            seen = cur;
        }
        // Generation t+1's words, drawn here and pinned here (keep_words): they depend on nothing but the key, and
        // in the same basic block as the move and fitness below the compiler interleaves their 10-round chains
        // with those instead of leaving them after the vote.
        MoveWords next_words[kBlocks];
#pragma unroll
        for (int k = 0; k < kBlocks; ++k) {
            next_words[k] = draw_move_words<float, kClamp>(pb, r, t + 1, static_cast<std::uint32_t>(k));
        }
        keep_words<kDims>(next_words);
        const bool improved = reg_move<Fit, kDims, kBlocks, kClamp>(pb, fit, lo, hi, vm, nb, w, x, v, p, pf);
#pragma unroll
        for (int k = 0; k < kBlocks; ++k) {
            w[k] = next_words[k];
        }
        if (__any_sync(0xffffffffu, improved && active)) {
            publish_warp_best();
        }
    }
}

// The result: each swarm's word names its best row (one dimension: holds its fitness key and position); that
// row's stored personal best is the answer.
__global__ void async_warp_result_kernel(int dims, const float* p, const float* pf, const unsigned long long* best,
                                         float* best_f, float* best_x) {
    const int s = static_cast<int>(blockIdx.x);
    const unsigned long long word = best[s];
    if (dims == 1) {
        if (threadIdx.x == 0) {
            best_f[s] = fitness_of_key(static_cast<std::uint32_t>(word >> 32));
            best_x[s] = __uint_as_float(static_cast<std::uint32_t>(word));
        }
        return;
    }
    const auto row = static_cast<std::size_t>(word & 0xffffffffu);
    if (threadIdx.x == 0) best_f[s] = pf[row];
    for (int d = static_cast<int>(threadIdx.x); d < dims; d += static_cast<int>(blockDim.x)) {
        best_x[static_cast<std::size_t>(s) * dims + d] = p[row * dims + d];
    }
}

struct AsyncWarpBuffers {
    GPUMemory<float> p, pf;
    GPUMemory<unsigned long long> best;
};

template <typename Fit>
void run_async_warps(RunContext<float>& ctx, const Fit& fit, AsyncWarpBuffers& buf) {
    const auto& pb = ctx.dp;
    const int S = pb.swarms, N = pb.particles, D = pb.dims;
    using Kernel = void (*)(AsyncWarpArgs, Fit);
    Kernel kernel = nullptr;
    const bool clamp = pb.boundary == pso::BoundaryMode::Clamp;
    switch (D) {
    case 1: kernel = clamp ? async_warp_swarm_kernel<Fit, 1, true> : async_warp_swarm_kernel<Fit, 1, false>; break;
    case 2: kernel = clamp ? async_warp_swarm_kernel<Fit, 2, true> : async_warp_swarm_kernel<Fit, 2, false>; break;
    case 3: kernel = clamp ? async_warp_swarm_kernel<Fit, 3, true> : async_warp_swarm_kernel<Fit, 3, false>; break;
    case 4: kernel = clamp ? async_warp_swarm_kernel<Fit, 4, true> : async_warp_swarm_kernel<Fit, 4, false>; break;
    case 5: kernel = clamp ? async_warp_swarm_kernel<Fit, 5, true> : async_warp_swarm_kernel<Fit, 5, false>; break;
    case 6: kernel = clamp ? async_warp_swarm_kernel<Fit, 6, true> : async_warp_swarm_kernel<Fit, 6, false>; break;
    case 8: kernel = clamp ? async_warp_swarm_kernel<Fit, 8, true> : async_warp_swarm_kernel<Fit, 8, false>; break;
    default: throw std::logic_error("run_async_warps: unsupported dims (async_warp_unsupported, fused_plan.h, checks first)");
    }
    if (D > 1) { // one dimension: the word itself holds the best's position and fitness key
        buf.p.resize(pb.rows() * static_cast<std::size_t>(D), ctx.stream);
        buf.pf.resize(pb.rows(), ctx.stream);
    }
    buf.best.resize(static_cast<std::size_t>(S), ctx.stream);
    buf.best.memset(0xff, ctx.stream);
    const AsyncWarpArgs a{pb, buf.p.data(), buf.pf.data(), buf.best.data(),
                          static_cast<std::uint32_t>(ctx.params.iterations)};
    const dim3 grid(static_cast<unsigned>((N + 31) / 32), static_cast<unsigned>(S));
    kernel<<<grid, 32, 0, ctx.stream>>>(a, fit);
    SWARM_CHECK_LAUNCH(async_warp_swarm_kernel, grid, 32, 0);
    async_warp_result_kernel<<<S, 32, 0, ctx.stream>>>(D, buf.p.data(), buf.pf.data(), buf.best.data(),
                                                       ctx.best_f.data(), ctx.best_x.data());
    SWARM_CHECK_LAUNCH(async_warp_result_kernel, S, 32, 0);
    ctx.iterations = ctx.params.iterations;
}

} // namespace swarm::gpu
