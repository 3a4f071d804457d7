// gpu-ring-3k and gpu-ring-2k: Mussi, Daolio and Cagnoni's RingPSO (003 §4.2). Ring topology of radius
// Params::ring_radius, many swarms per launch; 3 kernels per generation (position, fitness, best update)
// or 2 (best update fused into the position update). See multi_kernel.cuh for the kernels.
#include "gpu/core/gpu_strategy.h"
#include "gpu/ring_sync/multi_run.cuh"
#include "swarm/cuda/detail/strategies.h"

namespace swarm::gpu {
namespace {

class GpuRing final : public GpuStrategy<GpuRing, MultiBuffers> {
public:
    GpuRing(Strategy s, MultiForm form) : GpuStrategy(s), m_form(form) {}

private:
    friend GpuStrategy;

    template <typename Real>
    void solve_impl(RunContext<Real>& ctx, MultiBuffers<Real>& buf) {
        const std::string name(to_string(strategy()));
        if (ctx.params.topology != Topology::Ring) {
            throw ValidationError("topology", name + " runs RingPSO's ring topology; use --topology ring, or "
                                                     "gpu-fused / gpu-sync for the global best");
        }
        if (ctx.params.update != Update::Synchronous) {
            throw ValidationError("update", name + " runs the synchronous PSO; use cpu-serial for asynchronous updates");
        }
        if (ctx.has_evaluator()) {
            throw ValidationError("fitness", name + " scores built-in functions; use gpu-fused for a batched evaluator");
        }
        run_multi(ctx, m_form, buf, fitness_launcher(ctx, BuiltinFitness<Real>{ctx.dp.function, ctx.dp.sign}));
    }

    MultiForm m_form;
};

} // namespace

std::unique_ptr<Optimizer> make_gpu_ring_3k() { return std::make_unique<GpuRing>(Strategy::GpuRing3k, MultiForm::ThreeKernel); }
std::unique_ptr<Optimizer> make_gpu_ring_2k() { return std::make_unique<GpuRing>(Strategy::GpuRing2k, MultiForm::TwoKernel); }

} // namespace swarm::gpu
