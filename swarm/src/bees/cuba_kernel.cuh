#pragma once
// The CUBA kernel (004 Ch. 3): one block holds `per_block` colonies of n bees, one thread per bee, all
// rows in shared memory. A launch runs cycles first+1 .. first+count; the launch with first = 0 also
// does the parallel initialisation and the first sort. State persists in global memory between launches
// and nothing is re-sorted at a launch boundary, so the trajectory does not depend on how cycles are
// split over launches.
#include <cuda_runtime.h>

#include "bees/cuba_block.h"

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
    Real* record = nullptr;   // count x colonies: each colony's best after each cycle (null: not needed)
    long long first = 0;
    int count = 0;
};

template <typename Real>
__global__ void cuba_kernel(CubaLaunch<Real> p) {
    extern __shared__ unsigned char smem_raw[];
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
            __syncthreads();
        }
    }
    for (int i = 0; i < p.count; ++i) {
        const long long cycle = p.first + 1 + i;
        if (active) {
            cuba_forage(k, b, row, rank, bee, static_cast<std::uint32_t>(cycle), lo, hi);
        }
        __syncthreads();
        for (int phase = 0; phase < k.n; ++phase) {
            if (active) {
                cuba_sort_step(k, b, row, rank, phase);
            }
            __syncthreads();
        }
        if (active) {
            cuba_exchange_stage(k, b, row, rank, colony_in_block, cycle, here);
        }
        __syncthreads();
        if (active) {
            cuba_exchange_commit(k, b, row, rank, colony_in_block, cycle, here);
        }
        __syncthreads();
        if (active && rank == 0 && p.record) {
            p.record[static_cast<std::size_t>(i) * p.colonies + colony] = cuba_colony_best(k, b, row);
        }
        __syncthreads(); // the record read above must finish before the next cycle rewrites the rows
    }
    if (active) {
        for (int d = 0; d < k.dims; ++d) {
            p.x[g + d] = b.x[row * k.stride + d];
        }
        p.f[bee] = b.f[row];
        p.ngh[bee] = b.ngh[row];
    }
}

} // namespace swarm::bees
