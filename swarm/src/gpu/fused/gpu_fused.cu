// gpu-fused: the engine's workhorse. Many swarms, many generations, ring or global topology, picked per
// shape (fused_plan.h says which and why):
//  - block:  one persistent launch, a block per swarm, state on chip (block_swarm.cuh), the whole run
//            in one launch; for swarms that fit a block. On compute capability 9.0, a few swarms of 256-2,048
//            particles in 1-4 dims spread each over a thread-block cluster instead (cluster_swarm.cuh).
//  - grid:   one persistent cooperative launch for swarms too big for a block: every block works on
//            every generation, one grid barrier per generation (grid_swarm.cuh).
//  - async:  Params::update = Asynchronous: every warp of a swarm runs on its own, the swarm's best one
//            atomically lowered word (async_warp_swarm.cuh).
//  - multi:  with a batched evaluator (the tracker's), each generation is one best+move launch, the
//            evaluator's call and (global topology) one best launch, for all swarms at once.
#include <string>

#include "gpu/core/gpu_strategy.h"
#include "gpu/fused/cluster_swarm_run.h"
#include "gpu/fused/async_warp_swarm.cuh"
#include "gpu/fused/grid_phases.cuh"
#include "gpu/ring_sync/multi_run.cuh"
#include "swarm/cuda/detail/block_swarm_run.cuh"
#include "swarm/cuda/detail/fused_plan.h"
#include "swarm/cuda/detail/grid_swarm_run.cuh"
#include "swarm/cuda/detail/strategies.h"

namespace swarm::gpu {
namespace {

// The asynchronous form with the built-in functions. One dimension (cuPSO's cubic) is a short chain per
// generation, where the function's run-time dispatch is a visible part: the common functions are compiled in.
void run_async_builtin(RunContext<float>& ctx, AsyncWarpBuffers& buf) {
    const float sign = ctx.dp.sign;
    if (ctx.problem.dims == 1) {
        switch (ctx.dp.function) {
        case Function::Sphere: return run_async_warps(ctx, FixedFitness<Function::Sphere>{sign}, buf);
        case Function::Rastrigin: return run_async_warps(ctx, FixedFitness<Function::Rastrigin>{sign}, buf);
        case Function::Griewank: return run_async_warps(ctx, FixedFitness<Function::Griewank>{sign}, buf);
        case Function::Ackley: return run_async_warps(ctx, FixedFitness<Function::Ackley>{sign}, buf);
        case Function::Schwefel: return run_async_warps(ctx, FixedFitness<Function::Schwefel>{sign}, buf);
        case Function::Cubic: return run_async_warps(ctx, FixedFitness<Function::Cubic>{sign}, buf);
        case Function::Euclidean: return run_async_warps(ctx, FixedFitness<Function::Euclidean>{sign}, buf);
        default: break;
        }
    }
    run_async_warps(ctx, BuiltinFitness<float>{ctx.dp.function, sign}, buf);
}

template <typename Real>
struct FusedBuffers {
    BlockRunBuffers<Real> block;
    GridRunBuffers<Real> grid;
    MultiBuffers<Real> multi;
    AsyncWarpBuffers async;
};

class GpuFused final : public GpuStrategy<GpuFused, FusedBuffers> {
public:
    GpuFused() : GpuStrategy(Strategy::GpuFused) {}

private:
    friend GpuStrategy;

    template <typename Real>
    void solve_impl(RunContext<Real>& ctx, FusedBuffers<Real>& buf) {
        const BuiltinFitness<Real> fit{ctx.dp.function, ctx.dp.sign};
        const bool watched = ctx.watched();
        if (ctx.params.update == Update::Asynchronous) {
            if (const char* why = async_warp_unsupported(ctx.params, ctx.problem.dims, ctx.has_evaluator(), watched)) {
                throw ValidationError("update", std::string("gpu-fused with the asynchronous update ") + why);
            }
            if constexpr (sizeof(Real) == sizeof(float)) {
                run_async_builtin(ctx, buf.async);
            }
            return;
        }
        switch (fused_plan(ctx.params, ctx.problem.dims, ctx.has_evaluator(), watched)) {
        case FusedPlan::Multi:
            if constexpr (sizeof(Real) != sizeof(float)) {
                throw ValidationError("precision", "a batched evaluator scores fp32 positions; use --precision fp32");
            } else {
                run_multi(ctx, MultiForm::TwoKernel, buf.multi, [&ctx](const Real* x, Real* f) { ctx.evaluate_batch(x, f); });
            }
            break;
        case FusedPlan::GridPhases: run_grid_phases(ctx, fit, buf.multi); break;
        case FusedPlan::Grid:
            if (!run_cluster_builtin(ctx, buf.block)) { // 1,025-2,048 particles in 1-4 dims, on sm_90
                run_grid_swarms(ctx, fit, buf.grid);
            }
            break;
        case FusedPlan::Block:
            if (!run_cluster_builtin(ctx, buf.block)) {
                run_block_builtin(ctx, buf.block);
            }
            break;
        }
    }
};

} // namespace

std::unique_ptr<Optimizer> make_gpu_fused() { return std::make_unique<GpuFused>(); }

} // namespace swarm::gpu
