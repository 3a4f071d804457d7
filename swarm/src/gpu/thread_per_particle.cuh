#pragma once
// The per-particle body shared by cuPSO's thread-per-particle kernels (000 Algorithm 1 Steps 2-4 on the
// GPU): initialise (t == 0) or move every dimension, evaluate, update the personal best. Used by
// gpu-unrolled, gpu-queue and gpu-queue-lock; gpu-reduction keeps its own copy of the same lines.
#include <cfloat>
#include <climits>

#include "swarm/cuda/detail/block_reduce.cuh"
#include "swarm/cuda/detail/device_problem.h"

namespace swarm::gpu {

template <typename Real>
__device__ __forceinline__ Real worst_fitness() {
    return sizeof(Real) == sizeof(float) ? Real(FLT_MAX) : Real(DBL_MAX);
}

template <typename Real>
__device__ __forceinline__ ArgMin<Real> no_best() {
    return {worst_fitness<Real>(), INT_MAX};
}

// Row r at iteration t, moving toward the swarm best position `g` (ignored at t == 0). Returns the
// particle's new fitness (minimise form); st.pf[r] / st.p hold its personal best afterwards.
template <typename Real>
__device__ __forceinline__ Real particle_step(const DeviceProblem<Real>& pb, const StateView<Real>& st, std::size_t r,
                                              const Real* g, std::uint32_t t) {
    Real* x = st.x + r * pb.dims;
    Real* v = st.v + r * pb.dims;
    Real* p = st.p + r * pb.dims;
    if (t == 0) {
        for (int d = 0; d < pb.dims; ++d) {
            initial_state(pb, r, d, x[d], v[d]);
        }
    } else {
        for (int d = 0; d < pb.dims; ++d) {
            move_dimension(pb, r, d, t, x[d], v[d], p[d], g[d]);
        }
    }
    const Real f = builtin_fitness(pb, x);
    st.f[r] = f;
    if (t == 0 || f < st.pf[r]) {
        st.pf[r] = f;
        for (int d = 0; d < pb.dims; ++d) {
            p[d] = x[d];
        }
    }
    return f;
}

} // namespace swarm::gpu
