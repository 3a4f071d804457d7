#pragma once
// The per-particle body shared by cuPSO's thread-per-particle kernels (000 Algorithm 1 Steps 2-4 on the
// GPU): initialise (t == 0) or move every dimension, evaluate, update the personal best. Used by
// gpu-reduction, gpu-unrolled, gpu-queue and gpu-queue-lock.
#include <cfloat>
#include <climits>

#include "swarm/cuda/detail/block_reduce.cuh"
#include "swarm/cuda/detail/device_problem.h"

namespace swarm::gpu {

// Threads per block for swarms of n particles: whole warps, at most `max_block`, a power of two where a tree
// reduction needs one. A block no larger than the swarm is how cuPSO's code runs (threads per block is its
// argument, and its lock needs no more threads than particles): a 32-particle swarm in a block of 1,024 threads
// would make every barrier of the step wait for 31 idle warps.
inline int threads_for(int n, int max_block, bool power_of_two) {
    int b = 32;
    if (power_of_two) {
        while (b < n && b < max_block) b *= 2;
    } else {
        b = n >= max_block ? max_block : (n + 31) / 32 * 32;
    }
    return b < 32 ? 32 : b;
}

// Row r at iteration t, moving toward the swarm best position `g` (ignored at t == 0). Returns the
// particle's new fitness (minimise form); st.pf[r] / st.p hold its personal best afterwards.
//
// A small swarm's iteration is one such step per thread, so its time is the step's chain of dependent memory
// round trips: every load is issued before the first store (a load the compiler cannot prove free of aliasing
// with an earlier store waits for it), and in one dimension (cuPSO's 1-D experiments) the particle stays in
// registers, so the fitness reads no stored position back.
template <typename Real>
__device__ __forceinline__ Real particle_step(const DeviceProblem<Real>& pb, const StateView<Real>& st, std::size_t r,
                                              const Real* g, std::uint32_t t) {
    Real* x = st.x + r * pb.dims;
    Real* v = st.v + r * pb.dims;
    Real* p = st.p + r * pb.dims;
    const Real pf = t == 0 ? Real(0) : st.pf[r];
    if (pb.dims == 1) {
        Real xr, vr;
        if (t == 0) {
            initial_state(pb, r, 0, xr, vr);
        } else {
            xr = x[0];
            vr = v[0];
            move_dimension(pb, r, 0, t, xr, vr, p[0], g[0]);
        }
        x[0] = xr;
        v[0] = vr;
        const Real f = pb.sign * fn::evaluate<Real>(pb.function, &xr, 1);
        st.f[r] = f;
        if (t == 0 || f < pf) {
            st.pf[r] = f;
            p[0] = xr;
        }
        return f;
    }
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
    if (t == 0 || f < pf) {
        st.pf[r] = f;
        for (int d = 0; d < pb.dims; ++d) {
            p[d] = x[d];
        }
    }
    return f;
}

} // namespace swarm::gpu
