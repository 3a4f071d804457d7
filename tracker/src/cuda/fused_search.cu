#include "cuda/fused_search.h"

#include <stdexcept>
#include <string>

#include "cuda/device_frame.h"
#include "cuda/warp_fitness.cuh"
#include "sign_evaluator.h"
#include "swarm/cuda/custom.cuh"
#include "swarm/errors.h"

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
    if (problem.dims != ev.layout().dims) {
        throw swarm::ValidationError("dims", "the fused search expects " + std::to_string(ev.layout().dims) +
                                                 " pose dimensions, got " + std::to_string(problem.dims));
    }
    if (static_cast<int>(ev.targets().size()) != params.swarms) {
        throw std::logic_error("fused search: " + std::to_string(ev.targets().size()) + " swarm targets set for " +
                               std::to_string(params.swarms) + " swarms");
    }
    swarm::BatchShape shape;
    shape.swarms = params.swarms;
    shape.particles = params.particles;
    shape.dims = problem.dims;
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
