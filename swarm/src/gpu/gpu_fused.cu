// gpu-fused: the engine's workhorse. Many swarms, many generations, ring or global topology, picked per
// shape (fused_plan.h says which and why):
//  - block:  one persistent launch, a block per swarm, state on chip (block_swarm.cuh), the whole run
//            in one launch; for swarms that fit a block.
//  - grid:   one persistent cooperative launch for swarms too big for a block: every block works on
//            every generation, one grid barrier per generation (grid_swarm.cuh).
//  - multi:  with a batched evaluator (the tracker's), each generation is one best+move launch, the
//            evaluator's call and (global topology) one best launch, for all swarms at once.
#include "gpu/block_swarm_run.cuh"
#include "gpu/fused_plan.h"
#include "gpu/grid_phases.cuh"
#include "gpu/grid_swarm_run.cuh"
#include "gpu/multi_run.cuh"
#include "gpu/strategies.h"

namespace swarm::gpu {
namespace {

class GpuFused final : public GpuPsoOptimizer {
public:
    GpuFused() : GpuPsoOptimizer(Strategy::GpuFused) {}

protected:
    void solve(RunContext<float>& ctx) override { solve_impl(ctx, m_f32); }
    void solve(RunContext<double>& ctx) override { solve_impl(ctx, m_f64); }

private:
    template <typename Real>
    struct Buffers {
        BlockRunBuffers<Real> block;
        GridRunBuffers<Real> grid;
        MultiBuffers<Real> multi;
    };

    template <typename Real>
    void solve_impl(RunContext<Real>& ctx, Buffers<Real>& buf) {
        if (ctx.params.update != Update::Synchronous) {
            throw ValidationError("update", "gpu-fused runs the synchronous PSO; use cpu-serial for asynchronous updates");
        }
        const BuiltinFitness<Real> fit{ctx.dp.function, ctx.dp.sign};
        const bool watched = ctx.params.record_history || ctx.stop.early_stopping();
        switch (fused_plan(ctx.params, ctx.problem.dims, ctx.has_evaluator(), watched)) {
        case FusedPlan::Multi:
            if constexpr (sizeof(Real) != sizeof(float)) {
                throw ValidationError("precision", "a batched evaluator scores fp32 positions; use --precision fp32");
            } else {
                run_multi(ctx, MultiForm::TwoKernel, buf.multi, [&ctx](const Real* x, Real* f) { ctx.evaluate_batch(x, f); });
            }
            break;
        case FusedPlan::GridPhases: run_grid_phases(ctx, fit, buf.multi); break;
        case FusedPlan::Grid: run_grid_swarms(ctx, fit, buf.grid); break;
        case FusedPlan::Block: run_block_builtin(ctx, buf.block); break;
        }
    }

    Buffers<float> m_f32;
    Buffers<double> m_f64;
};

} // namespace

std::unique_ptr<Optimizer> make_gpu_fused() { return std::make_unique<GpuFused>(); }

} // namespace swarm::gpu
