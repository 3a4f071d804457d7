// The Bees Algorithm strategies (004): cpu-bees everywhere, gpu-bees in CUDA builds with a device.
#include <string>

#include "bees/cpu_bees.h"
#include "registry.h"
#include "swarm/errors.h"
#if defined(SWARM_HAVE_CUDA)
#include "bees/gpu_bees.h"
#endif

namespace swarm::detail {
namespace {

class CpuBeesOptimizer final : public Optimizer {
public:
    Strategy strategy() const override { return Strategy::CpuBees; }
    Result run(const Problem& problem, const Params& params) override {
        params.validate();
        m_bees.validate(params);
        problem.validate(params.swarms);
        if (!problem.init_lower.empty()) {
            throw ValidationError("init_lower", "cpu-bees scouts the whole bounds; a start box is for the PSO strategies");
        }
        return run_cpu_bees(problem, params, m_bees);
    }
};

} // namespace

Availability bees_availability(Strategy s) {
    if (s == Strategy::CpuBees) {
        return {true, ""};
    }
    if (!cuda_compiled()) {
        return {false, "this build has no CUDA support (nvcc was not found at configure time)"};
    }
    if (cuda_device_count() == 0) {
        return {false, "no CUDA device is visible"};
    }
    return {true, ""};
}

std::unique_ptr<Optimizer> create_bees_optimizer(Strategy s) {
    if (s == Strategy::CpuBees) {
        return std::make_unique<CpuBeesOptimizer>();
    }
    const Availability a = bees_availability(s);
    if (!a.available) {
        throw UnavailableError(std::string(to_string(s)) + ": " + a.reason + "; use cpu-bees");
    }
#if defined(SWARM_HAVE_CUDA)
    return create_gpu_bees_optimizer();
#else
    throw UnavailableError(std::string(to_string(s)) + ": this build has no CUDA support; use cpu-bees");
#endif
}

} // namespace swarm::detail
