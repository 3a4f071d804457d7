#pragma once
// Arg-min reductions of (fitness, row) pairs. Ties go to the lower row (pso::better), so every
// reduction order gives the CPU reference's answer.
#include <cuda_runtime.h>

#include <cfloat>
#include <climits>

#include "swarm/detail/pso_math.h"

namespace swarm::gpu {

template <typename Real>
struct ArgMin {
    Real f;
    int row;
};

// The largest finite fitness: worse than any a particle can have (NaN aside, which pso::better never prefers).
template <typename Real>
__host__ __device__ __forceinline__ Real worst_fitness() {
    return sizeof(Real) == sizeof(float) ? Real(FLT_MAX) : Real(DBL_MAX);
}

// No best yet: every (fitness, row) pair beats it.
template <typename Real>
__host__ __device__ __forceinline__ ArgMin<Real> no_best() {
    return {worst_fitness<Real>(), INT_MAX};
}

template <typename Real>
__device__ __forceinline__ ArgMin<Real> better_of(ArgMin<Real> a, ArgMin<Real> b) {
    return pso::better(b.f, b.row, a.f, a.row) ? b : a;
}

// CPSO's (002) tree reduction in shared memory: log2(blockDim) halving steps with a barrier each.
// blockDim.x must be a power of two; `shared` holds blockDim.x entries. Result valid in thread 0.
template <typename Real>
__device__ ArgMin<Real> tree_reduce(ArgMin<Real> mine, ArgMin<Real>* shared) {
    const unsigned tid = threadIdx.x;
    shared[tid] = mine;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            shared[tid] = better_of(shared[tid], shared[tid + stride]);
        }
        __syncthreads();
    }
    return shared[0];
}

// Warp-level arg-min with shuffles: the race-free form of cuPSO's (000) unrolled last-warp reduction on
// Volta and later (no implicit warp-synchronous shared-memory reads).
template <typename Real>
__device__ __forceinline__ ArgMin<Real> warp_reduce(ArgMin<Real> v, unsigned mask = 0xffffffffu) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        ArgMin<Real> o;
        o.f = __shfl_down_sync(mask, v.f, offset);
        o.row = __shfl_down_sync(mask, v.row, offset);
        v = better_of(v, o);
    }
    return v;
}

} // namespace swarm::gpu
