#pragma once
// The CUBA kernel (004 Ch. 3): one block holds `per_block` colonies of n bees, one thread per bee, all
// rows in shared memory. A launch runs cycles first+1 .. first+count; the launch with first = 0 also
// does the parallel initialisation and the first sort. State persists in global memory between launches
// and nothing is re-sorted at a launch boundary, so the trajectory does not depend on how cycles are
// split over launches.
#include <cuda_runtime.h>

#include "bees/cuba_block.h"
#include "bees/cuba_record.h"

namespace swarm::bees {

template <typename Real>
struct CubaLaunch {
    CubaShape<Real> k;
    int colonies = 0;
    int per_block = 0;
    const Real* lo = nullptr; // colonies x dims
    const Real* hi = nullptr;
    Real* x = nullptr;        // bees x dims (bee = colony * n + rank), kept between launches
    Real* f = nullptr;        // bees
    Real* ngh = nullptr;      // bees
    // count x k_record_buckets ordered keys, all ones on entry: the overall best after each cycle
    // (null: no stopping rule needs it).
    KeyWord<Real>* best = nullptr;
    Real* history = nullptr;  // count x colonies: each colony's best after each cycle (null: not asked for)
    long long first = 0;
    int count = 0;
};

// Barrier for steps that only touch the rows of the thread's own colony. When n divides 32 a colony
// never straddles a warp, so a warp barrier orders them (no block-wide stall per sort phase); otherwise
// the block barrier. `lanes` are the lanes of this warp that exist (a block of n = 8 may be 8 threads).
SWARM_INLINE __device__ void colony_sync(bool warp_local, unsigned lanes) {
    if (warp_local) {
        __syncwarp(lanes);
    } else {
        __syncthreads();
    }
}

// Launch bounds of the largest block a plan makes (a colony of 1024 bees): they also cap the kernel at 64
// registers a thread. Without them it took more, which lowered occupancy and could not launch a 1024-thread
// block at all.
template <typename Real>
__global__ void __launch_bounds__(1024) cuba_kernel(CubaLaunch<Real> p) {
    extern __shared__ unsigned char smem_raw[];
    __shared__ KeyWord<Real> block_best[2]; // this block's best of cycle i in [i & 1]
    Real* smem = reinterpret_cast<Real*>(smem_raw);
    const CubaShape<Real>& k = p.k;
    const int rows = p.per_block * k.n;
    const BlockRows<Real> b{smem, smem + rows * k.stride, smem + 2 * rows * k.stride, smem + 2 * rows * k.stride + rows};

    const int row = static_cast<int>(threadIdx.x);
    const int first_colony = static_cast<int>(blockIdx.x) * p.per_block;
    const int here = min(p.per_block, p.colonies - first_colony);
    const bool active = row < here * k.n;
    const int rank = row % k.n;
    const int colony_in_block = row / k.n;
    const int colony = first_colony + colony_in_block;
    const auto bee = static_cast<std::uint32_t>(colony * k.n + rank);
    const Real* lo = p.lo + static_cast<std::size_t>(colony) * k.dims;
    const Real* hi = p.hi + static_cast<std::size_t>(colony) * k.dims;
    const std::size_t g = static_cast<std::size_t>(bee) * k.dims;
    const bool warp_local = 32 % k.n == 0;
    const int warp_first = row & ~31;
    const int warp_lanes = min(32, static_cast<int>(blockDim.x) - warp_first);
    const unsigned lanes = warp_lanes == 32 ? 0xffffffffu : (1u << warp_lanes) - 1u;
    constexpr KeyWord<Real> empty = ~KeyWord<Real>(0);

    if (row == 0) {
        block_best[0] = empty;
        block_best[1] = empty;
    }
    if (active) {
        if (p.first == 0) {
            cuba_scout(k, b, row, bee, 0, lo, hi);
        } else {
            for (int d = 0; d < k.dims; ++d) {
                b.x[row * k.stride + d] = p.x[g + d];
            }
            b.f[row] = p.f[bee];
            b.ngh[row] = p.ngh[bee];
        }
    }
    __syncthreads();
    if (p.first == 0) {
        for (int phase = 0; phase < k.n; ++phase) {
            if (active) {
                cuba_sort_step(k, b, row, rank, phase);
            }
            colony_sync(warp_local, lanes);
        }
    }
    for (int i = 0; i < p.count; ++i) {
        const long long cycle = p.first + 1 + i;
        if (active) {
            cuba_forage(k, b, row, rank, bee, static_cast<std::uint32_t>(cycle), lo, hi);
        }
        colony_sync(warp_local, lanes);
        for (int phase = 0; phase < k.n; ++phase) {
            if (active) {
                cuba_sort_step(k, b, row, rank, phase);
            }
            colony_sync(warp_local, lanes);
        }
        __syncthreads(); // the exchange reads other colonies' sorted rows
        if (row == 0 && i > 0 && p.best) {
            // Every colony folded cycle i - 1 into block_best before the barrier above; its buffer is
            // next written in cycle i + 1, after this cycle's exchange barrier.
            const int s = (i - 1) & 1;
            atomicMin(&p.best[static_cast<std::size_t>(i - 1) * k_record_buckets + blockIdx.x % k_record_buckets],
                      block_best[s]);
            block_best[s] = empty;
        }
        if (active) {
            cuba_exchange_stage(k, b, row, rank, colony_in_block, cycle, here);
        }
        __syncthreads();
        if (active) {
            cuba_exchange_commit(k, b, row, rank, colony_in_block, cycle, here);
        }
        colony_sync(warp_local, lanes); // the colony's best reads its own rows only
        if (active && rank == 0 && (p.best || p.history)) {
            const Real v = cuba_colony_best(k, b, row);
            if (p.history) {
                p.history[static_cast<std::size_t>(i) * p.colonies + colony] = v;
            }
            if (p.best) {
                atomicMin(&block_best[i & 1], ordered_key(v));
            }
        }
        colony_sync(warp_local, lanes); // the read above must finish before the next cycle rewrites the rows
    }
    __syncthreads();
    if (row == 0 && p.count > 0 && p.best) {
        const int i = p.count - 1;
        atomicMin(&p.best[static_cast<std::size_t>(i) * k_record_buckets + blockIdx.x % k_record_buckets],
                  block_best[i & 1]);
    }
    if (active) {
        for (int d = 0; d < k.dims; ++d) {
            p.x[g + d] = b.x[row * k.stride + d];
        }
        p.f[bee] = b.f[row];
        p.ngh[bee] = b.ngh[row];
    }
}

// Each colony's best site (lowest value, the first on ties, as the host emulation picks it) from the
// state a launch left in global memory: one thread per colony, so only colonies x (dims + 1) values
// travel to the host instead of every bee.
template <typename Real>
__global__ void cuba_colony_best_kernel(const Real* x, const Real* f, int colonies, int n, int dims, Real* best_f,
                                        Real* best_x) {
    const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (c >= colonies) {
        return;
    }
    const std::size_t first = static_cast<std::size_t>(c) * n;
    std::size_t best = first;
    for (int r = 1; r < n; ++r) {
        best = f[first + r] < f[best] ? first + r : best;
    }
    best_f[c] = f[best];
    for (int d = 0; d < dims; ++d) {
        best_x[static_cast<std::size_t>(c) * dims + d] = x[best * dims + d];
    }
}

} // namespace swarm::bees
