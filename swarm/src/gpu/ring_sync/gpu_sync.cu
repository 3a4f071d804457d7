// gpu-sync: Mussi, Daolio and Cagnoni's SyncPSO (003 §4.1). One thread block per swarm, one thread per
// particle, the swarm's state in shared memory, the whole run in one launch (block_swarm.cuh). Swarms too
// big for shared memory keep the same kernel with their state in global memory (003's Fig. 1 shows the
// same cliff when registers spill).
#include <string>

#include "gpu/core/gpu_strategy.h"
#include "swarm/cuda/detail/block_swarm_run.cuh"
#include "swarm/cuda/detail/strategies.h"

namespace swarm::gpu {
namespace {

class GpuSync final : public GpuStrategy<GpuSync, BlockRunBuffers> {
public:
    GpuSync() : GpuStrategy(Strategy::GpuSync) {}

private:
    friend GpuStrategy;

    template <typename Real>
    void solve_impl(RunContext<Real>& ctx, BlockRunBuffers<Real>& buf) {
        check_sync_shape(ctx.params, ctx.has_evaluator());
        run_block_builtin(ctx, buf);
    }
};

} // namespace

template <typename Real>
void run_block_builtin(RunContext<Real>& ctx, BlockRunBuffers<Real>& buf) {
    run_block_swarms(ctx, BuiltinFitness<Real>{ctx.dp.function, ctx.dp.sign}, buf);
}
template void run_block_builtin(RunContext<float>&, BlockRunBuffers<float>&);
template void run_block_builtin(RunContext<double>&, BlockRunBuffers<double>&);

void check_sync_shape(const Params& params, bool has_evaluator) {
    if (params.update != Update::Synchronous) {
        throw ValidationError("update", "gpu-sync runs the synchronous PSO; use cpu-serial for asynchronous updates");
    }
    if (params.particles > 1024) {
        throw ValidationError("particles", "gpu-sync runs one thread per particle in one block per swarm, so at most "
                                           "1024 particles (got " + std::to_string(params.particles) +
                                           "); use gpu-fused for bigger swarms");
    }
    if (has_evaluator) {
        throw ValidationError("fitness", "gpu-sync evaluates inside its single launch; use gpu-fused for a batched "
                                         "evaluator");
    }
}

std::unique_ptr<Optimizer> make_gpu_sync() { return std::make_unique<GpuSync>(); }

} // namespace swarm::gpu
