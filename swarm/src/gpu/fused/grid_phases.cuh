#pragma once
// gpu-fused's design for few, wide ring swarms (e.g. RingPSO's Table 2: 1,024 particles x 100 dims): the
// 2-kernel RingPSO generation (multi_kernel.cuh) inside one persistent cooperative launch. Phase 1 is
// the best+position update with a thread per particle x 4 dimensions, phase 2 the fitness with a
// thread per particle spread over every SM; a grid barrier replaces each kernel boundary, so a
// generation costs two barriers instead of two launches. Exactly synchronous like the kernels it fuses.
// Built-in functions that are sums / products of per-dimension terms are scored a WARP per particle (the
// lanes split the dimensions and combine by butterfly, gpu-elementwise's formulas): one thread's 100
// sequential cosf per Rastrigin row was most of a generation of RingPSO's Table 2 shape.
#include <cooperative_groups.h>

#include <type_traits>

#include "gpu/elementwise/elementwise_fitness.cuh"
#include "gpu/ring_sync/multi_kernel.cuh"
#include "gpu/ring_sync/multi_run.cuh"
#include "swarm/cuda/detail/gpu_pso.h"
#include "swarm/cuda/launch.h"

namespace swarm::gpu {

// Rows r = first, first + stride, ... scored by one warp each (all lanes call it with the same first/stride).
template <Function F, typename Real>
__device__ __forceinline__ void score_rows_by_warp(const DeviceProblem<Real>& pb, const MultiView<Real>& m,
                                                   std::size_t first, std::size_t stride, int lane) {
    const std::size_t rows = pb.rows();
    for (std::size_t r = first; r < rows; r += stride) {
        const Real* x = m.x_in + r * pb.dims;
        ew::Terms<Real> a;
        for (int d = lane; d < pb.dims; d += 32) {
            ew::accumulate<F>(a, x[d], d);
        }
        a = ew::combine<F>(a, 32);
        if (lane == 0) {
            m.f[r] = pb.sign * ew::finish<F>(a, pb.dims);
        }
    }
}

// The warp form for a separable built-in function; false (nothing scored) for any other.
template <typename Real>
__device__ __forceinline__ bool score_by_warp(const DeviceProblem<Real>& pb, const MultiView<Real>& m,
                                              std::size_t first, std::size_t stride, int lane) {
    switch (pb.function) {
    case Function::Sphere: score_rows_by_warp<Function::Sphere>(pb, m, first, stride, lane); return true;
    case Function::Rastrigin: score_rows_by_warp<Function::Rastrigin>(pb, m, first, stride, lane); return true;
    case Function::Griewank: score_rows_by_warp<Function::Griewank>(pb, m, first, stride, lane); return true;
    case Function::GriewankShifted:
        score_rows_by_warp<Function::GriewankShifted>(pb, m, first, stride, lane);
        return true;
    case Function::Ackley: score_rows_by_warp<Function::Ackley>(pb, m, first, stride, lane); return true;
    case Function::Schwefel: score_rows_by_warp<Function::Schwefel>(pb, m, first, stride, lane); return true;
    case Function::EasomND: score_rows_by_warp<Function::EasomND>(pb, m, first, stride, lane); return true;
    default: return false;
    }
}

template <typename Real, typename Fit>
__global__ void grid_phases_kernel(DeviceProblem<Real> pb, MultiView<Real> m, Fit fit, std::uint32_t last) {
    namespace cg = cooperative_groups;
    cg::grid_group grid = cg::this_grid();
    const std::size_t rows = pb.rows();
    const std::size_t items = rows * static_cast<std::size_t>((pb.dims + 3) >> 2);
    const std::size_t tid = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    // Fitness rows are spread `spread` threads apart so that every SM scores some.
    const std::size_t spread = threads >= rows ? threads / rows : 1;
    auto score = [&] {
        if constexpr (std::is_same_v<Fit, BuiltinFitness<Real>>) {
            if (score_by_warp(pb, m, tid >> 5, threads >> 5, static_cast<int>(threadIdx.x & 31))) {
                return;
            }
        }
        for (std::size_t k = tid; k < rows * spread; k += threads) {
            if (k % spread == 0) {
                const std::size_t r = k / spread;
                m.f[r] = fit(m.x_in + r * pb.dims, pb.dims);
            }
        }
    };
    for (std::size_t r = tid; r < rows; r += threads) {
        const int s = static_cast<int>(r / pb.particles);
        init_particle(pb, s, static_cast<std::uint32_t>(r), m.x_in + r * pb.dims, m.v + r * pb.dims, pb.dims);
        m.pf_in[r] = worst_fitness<Real>();
    }
    grid.sync();
    score();
    grid.sync();
    for (std::uint32_t t = 1; t <= last; ++t) {
        for (std::size_t k = tid; k < items; k += threads) {
            best_move_item(pb, m, static_cast<const Real*>(nullptr), t, k);
        }
        grid.sync();
        Real* x = m.x_in;
        m.x_in = m.x_out;
        m.x_out = x;
        Real* pf = m.pf_in;
        m.pf_in = m.pf_out;
        m.pf_out = pf;
        score();
        grid.sync();
    }
}

// Runs the whole ring run in one launch (no history / early stopping: those take run_multi).
template <typename Real, typename Fit>
void run_grid_phases(RunContext<Real>& ctx, const Fit& fit, MultiBuffers<Real>& b) {
    constexpr int k_block = 256;
    const auto& pb = ctx.dp;
    const std::size_t rows = pb.rows(), n = rows * pb.dims;
    for (auto* g : {&b.x0, &b.x1, &b.v, &b.p}) {
        g->resize(n, ctx.stream);
    }
    for (auto* g : {&b.f, &b.pf0, &b.pf1}) {
        g->resize(rows, ctx.stream);
    }
    MultiView<Real> m{b.x0.data(), b.x1.data(), b.v.data(), b.p.data(), b.f.data(), b.pf0.data(), b.pf1.data(), nullptr};
    auto kernel = grid_phases_kernel<Real, Fit>;
    int per_sm = 0;
    SWARM_CUDA_CHECK_THROW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, k_block, 0));
    const int sms = sm_count();
    if (per_sm == 0) {
        throw CudaError("gpu-fused: the grid-phases kernel cannot be resident with 256 threads");
    }
    const std::size_t items = rows * static_cast<std::size_t>((pb.dims + 3) / 4);
    const int blocks = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(per_sm) * sms,
                                                              std::max<std::size_t>(sms, (items + k_block - 1) / k_block)));
    auto last = static_cast<std::uint32_t>(ctx.params.iterations);
    void* args[] = {const_cast<DeviceProblem<Real>*>(&pb), &m, const_cast<Fit*>(&fit), &last};
    SWARM_CUDA_CHECK_THROW(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(blocks),
                                                       dim3(k_block), args, 0, ctx.stream));
    SWARM_CHECK_LAUNCH(grid_phases_kernel, blocks, k_block, 0);
    if (last % 2 == 1) { // the kernel swapped its copy of the buffers `last` times
        std::swap(m.x_in, m.x_out);
        std::swap(m.pf_in, m.pf_out);
    }
    multi_swarm_best_kernel<Real><<<pb.swarms, k_block, 0, ctx.stream>>>(pb, m, ctx.best_f.data(), ctx.best_x.data());
    SWARM_CHECK_LAUNCH(multi_swarm_best_kernel, pb.swarms, k_block, 0);
    ctx.iterations = ctx.params.iterations;
}

} // namespace swarm::gpu
