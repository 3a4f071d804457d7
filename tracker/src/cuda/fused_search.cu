#include "cuda/fused_search.h"

#include "cuda/device_frame.h"
#include "cuda/warp_fitness.cuh"
#include "sign_evaluator.h"
#include "swarm/cuda/custom.cuh"

namespace tracker {
namespace {

// The pose fitness as the engine's warp functor: a team of TW warps per particle, the frame's textures,
// targets and masks carried by value in the launch; WithBlur false for a fitness without the blur allowance.
template <int TW, bool WithBlur>
struct PoseTeamFitness {
    static constexpr bool warp_cooperative = true;
    static constexpr int team_warps = TW;
    cuda::FitnessParams params;
    __device__ float operator()(const float* x, int /*dims*/, int swarm, const swarm::cuda::Team& team) const {
        return cuda::team_score<TW, WithBlur>(params, x, swarm, team);
    }
};

static_assert(swarm::cuda::detail::warp_functor_v<PoseTeamFitness<2, false>> &&
                  swarm::cuda::detail::accepts_v<PoseTeamFitness<2, false>, float>,
              "the engine must see the pose fitness as an fp32 warp functor");

template <int TW, bool WithBlur>
using Optimizer = std::unique_ptr<swarm::cuda::FunctorOptimizer<PoseTeamFitness<TW, WithBlur>>>;

// Runs one team size's optimizer, made on first use (each keeps its own device buffers).
template <int TW, bool WithBlur>
swarm::Result run_with(Optimizer<TW, WithBlur>& opt, const cuda::FitnessParams& params, const swarm::Problem& p,
                       const swarm::Params& sp, std::vector<float>* positions, bool cluster, void* stream) {
    if (!opt) {
        opt = std::make_unique<swarm::cuda::FunctorOptimizer<PoseTeamFitness<TW, WithBlur>>>(swarm::Strategy::GpuFused);
    }
    opt->set_stream(static_cast<cudaStream_t>(stream));
    opt->set_cluster_barrier(cluster);
    swarm::Result r = opt->run(p, sp, PoseTeamFitness<TW, WithBlur>{params});
    if (positions != nullptr) {
        *positions = opt->positions();
    }
    return r;
}

// One optimizer per team size, each built with and without the blur allowance: the search's kernels run
// measurably slower for carrying the allowance's code even when it is off (docs/benchmarks.md).
template <bool WithBlur>
struct TeamOptimizers {
    Optimizer<1, WithBlur> one;
    Optimizer<2, WithBlur> two;
    Optimizer<4, WithBlur> four;

    swarm::Result run(const cuda::FitnessParams& fp, const swarm::Problem& p, const swarm::Params& params,
                      std::vector<float>* positions, bool cluster, void* stream) {
        switch (fp.team_warps) {
        case 1: return run_with(one, fp, p, params, positions, cluster, stream);
        case 2: return run_with(two, fp, p, params, positions, cluster, stream);
        default: return run_with(four, fp, p, params, positions, cluster, stream); // 1, 2 or 4
        }
    }
};

} // namespace

struct FusedSearch::Impl {
    TeamOptimizers<false> plain;
    TeamOptimizers<true> blur_allowance;
    bool cluster = true;
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
    cuda::FitnessParams fp{};
    // On the frame's stream: the search queues behind the frame's uploads, no host wait in between.
    void* stream = frame.stream();
    frame.fitness_params(ev.setup(), shape, stream, fp);
    swarm::Problem p = problem;
    p.evaluator = nullptr;
    if (fp.weights.paint_blur > 0.f) {
        return m->blur_allowance.run(fp, p, params, positions, m->cluster, stream);
    }
    return m->plain.run(fp, p, params, positions, m->cluster, stream);
}

void FusedSearch::set_cluster_barrier(bool allowed) { m->cluster = allowed; }

} // namespace tracker
