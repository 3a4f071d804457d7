#include "cuda/fused_search.h"

#include "cuda/device_frame.h"
#include "cuda/warp_fitness.cuh"
#include "sign_evaluator.h"
#include "swarm/cuda/custom.cuh"

namespace tracker {
namespace {

// The pose fitness as the engine's warp functor: a warp per particle, the frame's textures, targets and
// masks carried by value in the launch.
struct PoseWarpFitness {
    static constexpr bool warp_cooperative = true;
    cuda::FitnessParams params;
    __device__ float operator()(const float* x, int /*dims*/, int swarm, int lane) const {
        return cuda::warp_score(params, x, swarm, lane);
    }
};

static_assert(swarm::cuda::detail::warp_functor_v<PoseWarpFitness> &&
                  swarm::cuda::detail::accepts_v<PoseWarpFitness, float>,
              "the engine must see the pose fitness as an fp32 warp functor");

} // namespace

struct FusedSearch::Impl {
    swarm::cuda::FunctorOptimizer<PoseWarpFitness> optimizer{swarm::Strategy::GpuFused};
};

FusedSearch::FusedSearch() : m(std::make_unique<Impl>()) {}
FusedSearch::~FusedSearch() = default;

swarm::Result FusedSearch::run(DeviceFrame& frame, const SignEvaluator& ev, const swarm::Problem& problem,
                               const swarm::Params& params, std::vector<float>* positions) {
    swarm::BatchShape shape;
    shape.swarms = params.swarms;
    shape.particles = params.particles;
    shape.dims = problem.dims;
    ev.check_shape(shape);
    PoseWarpFitness fit{};
    frame.fitness_params(ev, shape, nullptr, fit.params);
    swarm::Problem p = problem;
    p.evaluator = nullptr;
    swarm::Result r = m->optimizer.run(p, params, fit);
    if (positions != nullptr) {
        *positions = m->optimizer.positions();
    }
    return r;
}

} // namespace tracker
