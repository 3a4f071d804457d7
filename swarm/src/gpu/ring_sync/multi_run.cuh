#pragma once
// Host loop of the multi-kernel generations (multi_kernel.cuh): the 3-kernel and 2-kernel RingPSO forms
// and gpu-fused's batched-evaluator path. One set of launches per generation covers every swarm.
#include <utility>

#include "gpu/ring_sync/multi_kernel.cuh"
#include "swarm/cuda/detail/gpu_pso.h"

namespace swarm::gpu {

enum class MultiForm { ThreeKernel, TwoKernel };

template <typename Real>
struct MultiBuffers {
    GPUMemory<Real> x0, x1, v, p, f, pf0, pf1;
    GPUMemory<int> nbest;
};

inline unsigned blocks_for(std::size_t threads, int block) {
    return static_cast<unsigned>((threads + block - 1) / block);
}

// `evaluate(x, f)` scores every row of x into f (minimise form) on ctx.stream.
template <typename Real, typename Evaluate>
void run_multi(RunContext<Real>& ctx, MultiForm form, MultiBuffers<Real>& b, Evaluate&& evaluate) {
    constexpr int k_block = 256;
    const auto& pb = ctx.dp;
    const std::size_t rows = pb.rows(), n = rows * pb.dims;
    const std::size_t group_threads = rows * static_cast<std::size_t>((pb.dims + 3) / 4);
    for (auto* g : {&b.x0, &b.v, &b.p}) {
        g->resize(n, ctx.stream);
    }
    for (auto* g : {&b.f, &b.pf0, &b.pf1}) {
        g->resize(rows, ctx.stream);
    }
    const bool two = form == MultiForm::TwoKernel;
    if (two) {
        b.x1.resize(n, ctx.stream);
    } else {
        b.nbest.resize(rows, ctx.stream);
    }
    MultiView<Real> m{b.x0.data(), two ? b.x1.data() : b.x0.data(), b.v.data(), b.p.data(), b.f.data(),
                      b.pf0.data(), b.pf1.data(), b.nbest.data()};
    const bool watch = ctx.watched();
    auto swarm_best = [&] {
        multi_swarm_best_kernel<Real><<<pb.swarms, k_block, 0, ctx.stream>>>(pb, m, ctx.best_f.data(), ctx.best_x.data());
        SWARM_CHECK_LAUNCH(multi_swarm_best_kernel, pb.swarms, k_block, 0);
    };
    auto best_update = [&] { // 3-kernel form's kernel 3; leaves pf_in up to date
        multi_best_update_kernel<Real><<<blocks_for(rows, k_block), k_block, 0, ctx.stream>>>(pb, m);
        SWARM_CHECK_LAUNCH(multi_best_update_kernel, blocks_for(rows, k_block), k_block, 0);
        std::swap(m.pf_in, m.pf_out);
    };

    multi_init_kernel<Real><<<blocks_for(rows, k_block), k_block, 0, ctx.stream>>>(pb, m);
    SWARM_CHECK_LAUNCH(multi_init_kernel, blocks_for(rows, k_block), k_block, 0);
    evaluate(static_cast<const Real*>(m.x_in), m.f);
    if (!two) {
        best_update();
    }
    for (long long t = 1;; ++t) {
        const auto gen = static_cast<std::uint32_t>(t);
        const unsigned grid = blocks_for(group_threads, k_block);
        if (two) {
            if (!pb.ring) {
                swarm_best(); // the global best's position, for every particle's move
            }
            multi_best_move_kernel<Real><<<grid, k_block, 0, ctx.stream>>>(pb, m, ctx.best_x.data(), gen);
            SWARM_CHECK_LAUNCH(multi_best_move_kernel, grid, k_block, 0);
            std::swap(m.x_in, m.x_out);
            std::swap(m.pf_in, m.pf_out);
            evaluate(static_cast<const Real*>(m.x_in), m.f);
        } else {
            multi_move_kernel<Real><<<grid, k_block, 0, ctx.stream>>>(pb, m, gen);
            SWARM_CHECK_LAUNCH(multi_move_kernel, grid, k_block, 0);
            evaluate(static_cast<const Real*>(m.x_in), m.f);
            best_update();
        }
        if (watch) {
            swarm_best();
        }
        if (ctx.after_iteration(t, ctx.best_f.data())) {
            break;
        }
    }
    swarm_best();
}

// The built-in fitness as an `evaluate` callable.
template <typename Real, typename Fit>
auto fitness_launcher(const RunContext<Real>& ctx, Fit fit) {
    return [&ctx, fit](const Real* x, Real* f) {
        constexpr int k_block = 256;
        const unsigned grid = blocks_for(ctx.dp.rows(), k_block);
        multi_fitness_kernel<Real, Fit><<<grid, k_block, 0, ctx.stream>>>(ctx.dp, x, f, fit);
        SWARM_CHECK_LAUNCH(multi_fitness_kernel, grid, k_block, 0);
    };
}

} // namespace swarm::gpu
