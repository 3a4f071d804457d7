#pragma once
// Multi-kernel PSO generations (003 §4.2, RingPSO), shared by gpu-ring-3k, gpu-ring-2k and gpu-fused's
// batched-evaluator path. Global memory, particle-major rows (Eq. 3: (swarm*n + particle)*D + dim).
//
//  3 kernels: move (thread per particle x 4 dimensions, reads the stored neighbourhood-best index),
//             fitness (thread per particle), best update (personal bests + ring neighbourhood index).
//  2 kernels: the best update is fused into the move ("best+position"), then fitness.
//
// Where 003's fused kernel lets a neighbour's best be a generation stale, ours stays exactly synchronous
// (and so follows cpu-serial): positions and personal-best fitness are double-buffered, so the thread that
// needs a neighbour's updated personal best recomputes it from the previous buffers (min(pf, f), and
// x instead of p when the neighbour improved) while the owner writes the new ones. No thread reads what
// another writes in the same launch.
#include "swarm/cuda/detail/particle_ops.cuh"

namespace swarm::gpu {

template <typename Real>
struct MultiView {
    Real* x_in;   // positions the fitness f belongs to
    Real* x_out;  // positions after this generation's move (2-kernel form; == x_in for 3 kernels)
    Real* v;
    Real* p;      // personal-best positions (up to date except rows whose f improved them: see above)
    Real* f;      // fitness of x_in
    Real* pf_in;  // personal-best fitness before f is taken into account
    Real* pf_out;
    int* nbest;   // 3-kernel form: neighbourhood-best row of each particle
};

// Updated personal-best fitness of row j, from the previous buffers.
template <typename Real>
__device__ __forceinline__ Real updated_pf(const MultiView<Real>& m, std::size_t j) {
    const Real a = m.pf_in[j], b = m.f[j];
    return b < a ? b : a;
}

// Iteration 0: positions and velocities; personal bests start empty (pf = worst) so the first update
// takes the initial positions, exactly like cpu-serial's p = x, pf = f.
template <typename Real>
__global__ void multi_init_kernel(DeviceProblem<Real> pb, MultiView<Real> m) {
    const std::size_t r = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (r >= pb.rows()) {
        return;
    }
    const int s = static_cast<int>(r / pb.particles);
    init_particle(pb, s, static_cast<std::uint32_t>(r), m.x_in + r * pb.dims, m.v + r * pb.dims, pb.dims);
    m.pf_in[r] = worst_fitness<Real>();
}

// Fitness kernel: thread per particle (003 splits separable sums over dimensions; a thread per particle
// keeps cpu-serial's summation order and so its trajectory).
template <typename Real, typename Fit>
__global__ void multi_fitness_kernel(DeviceProblem<Real> pb, const Real* x, Real* f, Fit fit) {
    const std::size_t r = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (r < pb.rows()) {
        f[r] = fit(x + r * pb.dims, pb.dims);
    }
}

// One block per swarm: the swarm's best personal best (taking f into account) into best_f/best_x, and
// its row into best_row. Used before each move for the global topology, for history and at the end.
template <typename Real>
__global__ void __launch_bounds__(256) multi_swarm_best_kernel(DeviceProblem<Real> pb, MultiView<Real> m,
                                                               Real* best_f, Real* best_x) {
    __shared__ ArgMin<Real> warp_best[8];
    const int s = blockIdx.x, N = pb.particles, D = pb.dims;
    const std::size_t row0 = static_cast<std::size_t>(s) * N;
    ArgMin<Real> mine{worst_fitness<Real>(), INT_MAX};
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        mine = better_of(mine, ArgMin<Real>{updated_pf(m, row0 + i), static_cast<int>(row0 + i)});
    }
    mine = warp_argmin_all(mine);
    if ((threadIdx.x & 31) == 0) {
        warp_best[threadIdx.x >> 5] = mine;
    }
    __syncthreads();
    ArgMin<Real> g = warp_best[0];
    for (int w = 1; w < static_cast<int>(blockDim.x >> 5); ++w) {
        g = better_of(g, warp_best[w]);
    }
    const auto gr = static_cast<std::size_t>(g.row);
    const Real* src = (m.f[gr] < m.pf_in[gr] ? m.x_in : m.p) + gr * D;
    for (int d = threadIdx.x; d < D; d += blockDim.x) {
        best_x[static_cast<std::size_t>(s) * D + d] = src[d];
    }
    if (threadIdx.x == 0) {
        best_f[s] = g.f;
    }
}

// Ring neighbourhood best of particle i (swarm-local index) on updated personal bests.
template <typename Real>
__device__ __forceinline__ int ring_best_updated(const DeviceProblem<Real>& pb, const MultiView<Real>& m,
                                                 std::size_t row0, int i) {
    int best = i;
    Real bf = updated_pf(m, row0 + i);
    for (int k = 1; k <= pb.ring_radius; ++k) {
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            const int j = pso::ring_neighbour(i, sgn * k, pb.particles);
            const Real fj = updated_pf(m, row0 + j);
            if (pso::better(fj, j, bf, best)) {
                best = j;
                bf = fj;
            }
        }
    }
    return best;
}

// 2-kernel "best+position" kernel: thread per (particle, group of 4 dimensions). Takes f into the
// personal best, picks the neighbourhood best (ring: recomputed here; global: best_x from
// multi_swarm_best_kernel) and moves x_in -> x_out.
template <typename Real>
__device__ __forceinline__ void best_move_item(const DeviceProblem<Real>& pb, const MultiView<Real>& m,
                                               const Real* gbest_x, std::uint32_t t, std::size_t tid) {
    const int groups = (pb.dims + 3) >> 2;
    const std::size_t r = tid / groups;
    const int d0 = static_cast<int>(tid - r * groups) * 4;
    const int d1 = min(d0 + 4, pb.dims);
    const int s = static_cast<int>(r / pb.particles);
    const std::size_t row0 = static_cast<std::size_t>(s) * pb.particles;
    const std::size_t e = r * pb.dims + d0;

    const bool improved = m.f[r] < m.pf_in[r];
    if (d0 == 0) {
        m.pf_out[r] = improved ? m.f[r] : m.pf_in[r];
    }
    Real x[4], v[4], pbest[4], nb[4];
    const Real* nsrc;
    if (pb.ring) {
        const std::size_t nr = row0 + ring_best_updated(pb, m, row0, static_cast<int>(r - row0));
        nsrc = (m.f[nr] < m.pf_in[nr] ? m.x_in : m.p) + nr * pb.dims + d0;
    } else {
        nsrc = gbest_x + static_cast<std::size_t>(s) * pb.dims + d0;
    }
    for (int k = 0; k < d1 - d0; ++k) {
        x[k] = m.x_in[e + k];
        v[k] = m.v[e + k];
        pbest[k] = improved ? x[k] : m.p[e + k];
        nb[k] = nsrc[k];
    }
    if (improved) {
        for (int k = 0; k < d1 - d0; ++k) {
            m.p[e + k] = x[k];
        }
    }
    const std::size_t b = static_cast<std::size_t>(s) * pb.dims + d0;
    move_range(pb, pb.lower + b, pb.upper + b, pb.vmax + b, static_cast<std::uint32_t>(r), t, d0, d1, x, v, pbest, nb);
    for (int k = 0; k < d1 - d0; ++k) {
        m.x_out[e + k] = x[k];
        m.v[e + k] = v[k];
    }
}

template <typename Real>
__global__ void multi_best_move_kernel(DeviceProblem<Real> pb, MultiView<Real> m, const Real* gbest_x,
                                       std::uint32_t t) {
    const std::size_t tid = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (tid < pb.rows() * ((pb.dims + 3) >> 2)) {
        best_move_item(pb, m, gbest_x, t, tid);
    }
}

// 3-kernel form, kernel 3: personal bests, then each particle's ring neighbourhood-best row.
template <typename Real>
__global__ void multi_best_update_kernel(DeviceProblem<Real> pb, MultiView<Real> m) {
    const std::size_t r = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (r >= pb.rows()) {
        return;
    }
    const std::size_t row0 = r / pb.particles * pb.particles;
    if (m.f[r] < m.pf_in[r]) {
        m.pf_out[r] = m.f[r];
        for (int d = 0; d < pb.dims; ++d) {
            m.p[r * pb.dims + d] = m.x_in[r * pb.dims + d];
        }
    } else {
        m.pf_out[r] = m.pf_in[r];
    }
    m.nbest[r] = static_cast<int>(row0) + ring_best_updated(pb, m, row0, static_cast<int>(r - row0));
}

// 3-kernel form, kernel 1: thread per (particle, group of 4 dimensions), in place.
template <typename Real>
__global__ void multi_move_kernel(DeviceProblem<Real> pb, MultiView<Real> m, std::uint32_t t) {
    const int groups = (pb.dims + 3) >> 2;
    const std::size_t tid = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (tid >= pb.rows() * groups) {
        return;
    }
    const std::size_t r = tid / groups;
    const int d0 = static_cast<int>(tid - r * groups) * 4;
    const int d1 = min(d0 + 4, pb.dims);
    const int s = static_cast<int>(r / pb.particles);
    const std::size_t e = r * pb.dims + d0;
    const std::size_t b = static_cast<std::size_t>(s) * pb.dims + d0;
    const std::size_t nr = static_cast<std::size_t>(m.nbest[r]);
    move_range(pb, pb.lower + b, pb.upper + b, pb.vmax + b, static_cast<std::uint32_t>(r), t, d0, d1, m.x_in + e,
               m.v + e, m.p + e, m.p + nr * pb.dims + d0);
}

} // namespace swarm::gpu
